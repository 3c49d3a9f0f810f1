// TomTom Search API v2: GET /search/2/search/{query}.json (typeahead) and GET
// /search/2/place.json?entityId=, the key in `key`; errors as {errorText, detailedError:
// {code, message}, httpStatusCode}. An unknown entityId answers 200 with no results.
import {
  type GazetteerPlace,
  localityLine,
  opaqueId,
  placeByOpaqueId,
  searchGazetteer,
  streetLine,
} from './gazetteer.ts';
import { answer, type FakeHandler, type FakeRequest, limitParam, listParam } from './protocol.ts';

export const TOMTOM_KEY = 'fakeTomTomKey0000000000000000000';
const ID = 'g6JpZK';

const RESULT_TYPE = { house: 'Point Address', poi: 'POI', street: 'Street', city: 'Geography' } as const;

const failure = (status: number, code: string, message: string) =>
  answer(status, { errorText: message, detailedError: { code, message }, httpStatusCode: status });

function result(place: GazetteerPlace, index: number) {
  const freeform =
    place.kind === 'city'
      ? place.city
      : place.countryCode === 'GB'
        ? [streetLine(place), place.city, place.postcode].join(', ')
        : [streetLine(place), localityLine(place)].filter(Boolean).join(', ');
  return {
    type: RESULT_TYPE[place.kind],
    id: opaqueId(ID, place),
    score: 10 - index,
    ...(place.kind === 'city' && { entityType: 'Municipality' }),
    ...(place.kind === 'poi' && {
      poi: { name: place.name, categorySet: [{ id: 7376 }], categories: ['important tourist attraction'] },
    }),
    address: {
      ...(place.houseNumber && { streetNumber: place.houseNumber }),
      ...(place.street && { streetName: place.street }),
      municipality: place.city,
      countrySubdivision: place.stateCode ?? place.state,
      countrySubdivisionName: place.state,
      ...(place.postcode && { postalCode: place.postcode }),
      countryCode: place.countryCode,
      country: place.country,
      countryCodeISO3: place.countryCode3,
      freeformAddress: freeform,
      localName: place.city,
    },
    position: { lat: place.lat, lon: place.lng },
    viewport: {
      topLeftPoint: { lat: place.lat + 0.001, lon: place.lng - 0.001 },
      btmRightPoint: { lat: place.lat - 0.001, lon: place.lng + 0.001 },
    },
  };
}

const summary = (query: string, results: unknown[]) => ({
  query,
  queryType: 'NON_NEAR',
  queryTime: 12,
  numResults: results.length,
  offset: 0,
  totalResults: results.length,
  fuzzyLevel: 1,
});

function keyError(request: FakeRequest) {
  const key = request.query.get('key');
  if (!key || key !== TOMTOM_KEY)
    return failure(403, 'Forbidden', 'You are not allowed to access this endpoint');
  return undefined;
}

export const tomtom: FakeHandler = (request) => {
  const denied = keyError(request);
  if (denied) return denied;
  const { query } = request;
  const search = /^\/search\/2\/search\/(.+)\.json$/.exec(request.path);
  if (search) {
    const q = decodeURIComponent(search[1]!);
    const lat = Number(query.get('lat'));
    const lon = Number(query.get('lon'));
    const near = query.has('lat') && query.has('lon') ? { lat, lng: lon } : undefined;
    // countrySet takes alpha-2 or alpha-3 codes.
    const countries = listParam(query.get('countrySet')).map((code) => code.toUpperCase().slice(0, 2));
    const found = searchGazetteer(q, {
      countries: countries.length > 0 ? countries : undefined,
      near,
      limit: limitParam(query.get('limit'), 10),
    });
    const results = found.map(result);
    return answer(200, {
      summary: { ...summary(q, results), ...(near && { geoBias: { lat, lon } }) },
      results,
    });
  }
  if (request.path === '/search/2/place.json') {
    const entityId = query.get('entityId');
    if (!entityId) return failure(400, 'BadRequest', "Missing required parameter 'entityId'");
    const place = placeByOpaqueId(ID, entityId);
    const results = place ? [result(place, 0)] : [];
    return answer(200, { summary: summary('', results), results });
  }
  return failure(404, 'NotFound', 'Not Found');
};
