// HERE Geocoding & Search v7: GET /v1/autocomplete and GET /v1/lookup (two hosts in reality,
// one prefix here), the key in `apiKey`. Gateway errors are {error, error_description}; the
// service's own are {status, title, cause?, correlationId, requestId}. Country codes are
// ISO 3166-1 alpha-3 both ways.
import { fullAddress, GAZETTEER, type GazetteerPlace, searchGazetteer, streetLine } from './gazetteer.ts';
import { answer, type FakeHandler, type FakeRequest, limitParam, pointParam } from './protocol.ts';

export const HERE_KEY = 'fake-here-api-key-0000000000000000000000000';

/** Autocomplete completes addresses and areas; it has no POIs, so a POI is found as its address. */
const asAddress = (place: GazetteerPlace): GazetteerPlace =>
  place.kind === 'poi' ? { ...place, kind: place.houseNumber ? 'house' : 'street', name: undefined } : place;

function hereId(place: GazetteerPlace) {
  const stem = Buffer.from(place.key).toString('base64url');
  if (place.kind === 'city') return `here:cm:namedplace:${stem}`;
  return place.houseNumber ? `here:af:streetsection:${stem}:CgcIBCCK` : `here:af:street:${stem}`;
}

const placeOfId = (id: string) => GAZETTEER.map(asAddress).find((place) => hereId(place) === id);

const problem = (status: number, title: string, cause?: string) =>
  answer(status, {
    status,
    title,
    ...(cause && { cause, action: '' }),
    correlationId: 'fake-correlation-id',
    requestId: 'fake-request-id',
  });

function item(place: GazetteerPlace) {
  const resultType = place.kind === 'city' ? 'locality' : place.houseNumber ? 'houseNumber' : 'street';
  return {
    title: [place.country, place.city, place.kind === 'city' ? undefined : streetLine(place)]
      .filter(Boolean)
      .join(', '),
    id: hereId(place),
    language: 'en',
    resultType,
    ...(resultType === 'houseNumber' && { houseNumberType: 'PA' }),
    ...(resultType === 'locality' && { localityType: 'city' }),
    address: {
      label: fullAddress(place),
      countryCode: place.countryCode3,
      countryName: place.country,
      ...(place.stateCode && { stateCode: place.stateCode }),
      state: place.state,
      city: place.city,
      ...(place.street && { street: place.street }),
      ...(place.postcode && { postalCode: place.postcode }),
      ...(place.houseNumber && { houseNumber: place.houseNumber }),
    },
    highlights: { title: [], address: { label: [] } },
  };
}

function keyError(request: FakeRequest) {
  const key = request.query.get('apiKey');
  if (!key) return answer(401, { error: 'Unauthorized', error_description: 'No credentials found' });
  if (key !== HERE_KEY) {
    return answer(401, { error: 'Unauthorized', error_description: 'apiKey invalid. apiKey not found.' });
  }
  return undefined;
}

export const here: FakeHandler = (request) => {
  const denied = keyError(request);
  if (denied) return denied;
  const { query } = request;
  if (request.path === '/v1/autocomplete') {
    const q = query.get('q');
    if (!q) return problem(400, 'Input parameter validation failed', "Required parameter 'q' is missing");
    const filter = query.get('in');
    let countries: string[] | undefined;
    if (filter) {
      const match = /^countryCode:([A-Z]{3}(,[A-Z]{3})*)$/.exec(filter);
      if (!match) return problem(400, "Illegal input for parameter 'in'", `Invalid value: ${filter}`);
      const wanted = match[1]!.split(',');
      countries = GAZETTEER.filter((p) => wanted.includes(p.countryCode3)).map((p) => p.countryCode);
    }
    const found = searchGazetteer(q, {
      countries,
      near: pointParam(query.get('at'), 'latlng'),
      limit: limitParam(query.get('limit'), 5),
    });
    return answer(200, { items: found.map((place) => item(asAddress(place))) });
  }
  if (request.path === '/v1/lookup') {
    const id = query.get('id');
    if (!id?.startsWith('here:')) {
      return problem(400, "Illegal input for parameter 'id'", `Invalid ID format: ${id ?? ''}`);
    }
    const place = placeOfId(id);
    if (!place) return problem(404, 'The requested ID was not found');
    const { highlights: _highlights, language: _language, ...rest } = item(place);
    return answer(200, {
      ...rest,
      title: rest.address.label,
      position: { lat: place.lat, lng: place.lng },
      access: [{ lat: place.lat, lng: place.lng }],
      mapView: {
        west: place.lng - 0.001,
        south: place.lat - 0.001,
        east: place.lng + 0.001,
        north: place.lat + 0.001,
      },
    });
  }
  return problem(404, 'Not Found');
};
