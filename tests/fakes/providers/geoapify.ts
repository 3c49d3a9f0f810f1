// Geoapify: GET /v1/geocode/autocomplete (JSON with format=json, else GeoJSON) and GET
// /v2/place-details?id=, the key in `apiKey`; errors as {statusCode, error, message}. An
// unknown id answers an empty FeatureCollection; a building's details carry its outline.
import {
  fullAddress,
  type GazetteerPlace,
  opaqueId,
  placeByOpaqueId,
  searchGazetteer,
  streetLine,
} from './gazetteer.ts';
import { answer, type FakeHandler, type FakeRequest, limitParam, listParam } from './protocol.ts';

export const GEOAPIFY_KEY = 'fakegeoapifykey00000000000000000';
const ID = '51';

const failure = (statusCode: number, error: string, message: string) =>
  answer(statusCode, { statusCode, error, message });

const RESULT_TYPE = { house: 'building', poi: 'amenity', street: 'street', city: 'city' } as const;

function properties(place: GazetteerPlace) {
  return {
    datasource: {
      sourcename: 'openstreetmap',
      attribution: '© OpenStreetMap contributors',
      license: 'ODbL 1.0',
    },
    ...((place.kind === 'poi' || place.kind === 'city') && { name: place.name }),
    country: place.country,
    country_code: place.countryCode.toLowerCase(),
    state: place.state,
    ...(place.kind !== 'city' && { city: place.city }),
    ...(place.postcode && { postcode: place.postcode }),
    ...(place.street && { street: place.street }),
    ...(place.houseNumber && { housenumber: place.houseNumber }),
    lon: place.lng,
    lat: place.lat,
    formatted: [place.kind === 'poi' ? place.name : undefined, fullAddress(place)].filter(Boolean).join(', '),
    address_line1: (place.kind === 'poi' ? place.name : streetLine(place)) ?? place.city,
    address_line2: fullAddress(place),
    result_type: RESULT_TYPE[place.kind],
    rank: { importance: 0.5, popularity: 8, confidence: 1, match_type: 'full_match' },
    place_id: opaqueId(ID, place),
  };
}

function keyError(request: FakeRequest) {
  const key = request.query.get('apiKey');
  if (!key || key !== GEOAPIFY_KEY) return failure(401, 'Unauthorized', 'Invalid apiKey');
  return undefined;
}

const pointFeature = (place: GazetteerPlace, props: unknown) => ({
  type: 'Feature',
  properties: props,
  geometry: { type: 'Point', coordinates: [place.lng, place.lat] },
});

/** A small square around the point: what a building's details carry instead of a point. */
const outline = (place: GazetteerPlace) => {
  const d = 0.0003;
  const ring = [
    [place.lng - d, place.lat - d],
    [place.lng + d, place.lat - d],
    [place.lng + d, place.lat + d],
    [place.lng - d, place.lat + d],
    [place.lng - d, place.lat - d],
  ];
  return { type: 'Polygon', coordinates: [ring] };
};

export const geoapify: FakeHandler = (request) => {
  const denied = keyError(request);
  if (denied) return denied;
  const { query } = request;
  if (request.path === '/v1/geocode/autocomplete') {
    const text = query.get('text');
    if (!text) return failure(400, 'Bad Request', '"text" is required');
    const countries = listParam(query.get('filter')?.replace(/^countrycode:/, '')).map((c) =>
      c.toUpperCase(),
    );
    const bias = /^proximity:(-?[\d.]+),(-?[\d.]+)$/.exec(query.get('bias') ?? '');
    const found = searchGazetteer(text, {
      countries: query.get('filter')?.startsWith('countrycode:') ? countries : undefined,
      near: bias ? { lat: Number(bias[2]), lng: Number(bias[1]) } : undefined,
      limit: limitParam(query.get('limit'), 5),
    });
    const parsed = { text, parsed: { expected_type: 'unknown' } };
    if (query.get('format') === 'json') return answer(200, { results: found.map(properties), query: parsed });
    return answer(200, {
      type: 'FeatureCollection',
      features: found.map((place) => pointFeature(place, properties(place))),
      query: parsed,
    });
  }
  if (request.path === '/v2/place-details') {
    const id = query.get('id');
    if (!id) return failure(400, 'Bad Request', '"id" or "lat" and "lon" are required');
    const place = placeByOpaqueId(ID, id);
    if (!place) return answer(200, { type: 'FeatureCollection', features: [] });
    const props = { feature_type: 'details', ...properties(place), categories: ['building'] };
    const feature = pointFeature(place, props);
    return answer(200, {
      type: 'FeatureCollection',
      features: [
        place.kind === 'house' || place.kind === 'poi' ? { ...feature, geometry: outline(place) } : feature,
      ],
    });
  }
  return failure(404, 'Not Found', 'Not Found');
};
