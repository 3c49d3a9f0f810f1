// Google Places API (New): POST /v1/places:autocomplete and GET /v1/places/{id}, the key in
// X-Goog-Api-Key, errors as google.rpc.Status ({error: {code, message, status, details}}).
// Place Details requires X-Goog-FieldMask and answers only the masked fields, as the real
// API does; an empty autocomplete answer is `{}` (proto3 leaves out empty lists).
import { type GazetteerPlace, opaqueId, placeByOpaqueId, searchGazetteer } from './gazetteer.ts';
import { answer, type FakeHandler, type FakeRequest } from './protocol.ts';

export const GOOGLE_KEY = 'AIzaFakeGooglePlacesKey000000000000000';
const PLACE_ID = 'ChIJ';

const rpcError = (code: number, status: string, message: string, details?: unknown[]) =>
  answer(code, { error: { code, message, status, ...(details && { details }) } });

function keyError(request: FakeRequest) {
  const key = request.headers['x-goog-api-key'];
  if (!key) return rpcError(403, 'PERMISSION_DENIED', 'The request is missing a valid API key.');
  if (key !== GOOGLE_KEY) {
    return rpcError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'places.googleapis.com' },
      },
    ]);
  }
  return undefined;
}

/** A POI's name, else the first part of the formatted address ("10 Downing St"). */
const mainText = (place: GazetteerPlace) =>
  (place.kind === 'poi' ? place.name : undefined) ?? place.googleAddress.split(', ')[0]!;

function prediction(place: GazetteerPlace) {
  const main = mainText(place);
  const text = place.kind === 'poi' ? `${main}, ${place.googleAddress}` : place.googleAddress;
  const id = opaqueId(PLACE_ID, place);
  return {
    placePrediction: {
      place: `places/${id}`,
      placeId: id,
      text: { text, matches: [{ endOffset: main.length }] },
      structuredFormat: {
        mainText: { text: main },
        secondaryText: { text: text.slice(main.length + 2) },
      },
      types: place.kind === 'poi' ? ['establishment', 'point_of_interest'] : ['geocode'],
    },
  };
}

function autocomplete(request: FakeRequest) {
  const body = (request.body ?? {}) as {
    input?: string;
    includedRegionCodes?: string[];
    locationBias?: { circle?: { center?: { latitude: number; longitude: number } } };
  };
  if (!body.input) return rpcError(400, 'INVALID_ARGUMENT', 'Invalid request: `input` is required.');
  const center = body.locationBias?.circle?.center;
  const found = searchGazetteer(body.input, {
    countries: body.includedRegionCodes?.map((code) => code.toUpperCase()),
    near: center && { lat: center.latitude, lng: center.longitude },
    limit: 5,
  });
  return answer(200, found.length > 0 ? { suggestions: found.map(prediction) } : {});
}

function addressComponents(place: GazetteerPlace) {
  const component = (longText: string | undefined, types: string[], shortText = longText) =>
    longText ? [{ longText, shortText, types, languageCode: 'en' }] : [];
  return [
    ...component(place.houseNumber, ['street_number']),
    ...component(place.street, ['route']),
    ...component(place.city, place.countryCode === 'GB' ? ['postal_town'] : ['locality', 'political']),
    ...component(place.state, ['administrative_area_level_1', 'political'], place.stateCode ?? place.state),
    ...component(place.country, ['country', 'political'], place.countryCode),
    ...component(place.postcode, ['postal_code']),
  ];
}

function details(request: FakeRequest, id: string) {
  const mask = request.headers['x-goog-fieldmask'];
  if (typeof mask !== 'string' || mask === '') {
    return rpcError(
      400,
      'INVALID_ARGUMENT',
      "FieldMask is a required parameter. See https://cloud.google.com/apis/docs/system-parameters on how to provide it. As an example, you can set the header 'X-Goog-FieldMask' to value 'displayName' to ask for the display name of a place.",
    );
  }
  const place = placeByOpaqueId(PLACE_ID, id);
  if (!place) return rpcError(404, 'NOT_FOUND', 'Requested entity was not found.');
  const full: Record<string, unknown> = {
    id,
    displayName: { text: mainText(place), languageCode: 'en' },
    formattedAddress: place.googleAddress,
    location: { latitude: place.lat, longitude: place.lng },
    addressComponents: addressComponents(place),
    types: place.kind === 'poi' ? ['point_of_interest', 'establishment'] : ['street_address'],
  };
  const fields = mask.split(',').map((field) => field.trim());
  return answer(200, fields.includes('*') ? full : Object.fromEntries(fields.map((f) => [f, full[f]])));
}

export const googlePlaces: FakeHandler = (request) => {
  const denied = keyError(request);
  if (denied) return denied;
  if (request.method === 'POST' && request.path === '/v1/places:autocomplete') return autocomplete(request);
  const match = /^\/v1\/places\/([^/:]+)$/.exec(request.path);
  if (request.method === 'GET' && match) return details(request, decodeURIComponent(match[1]!));
  return rpcError(404, 'NOT_FOUND', `Method not found: ${request.method} ${request.path}`);
};

/** google.rpc.Status of a server failure. */
export const googleServerError = () => rpcError(500, 'INTERNAL', 'Internal error encountered.');
