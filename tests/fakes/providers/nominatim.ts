// Nominatim: GET /search?q=&format=jsonv2&limit=&addressdetails=1 -> an array of places with
// `lat`/`lon` as strings, `category`, `type`, `addresstype` and, with addressdetails, an
// `address` object. No key; like the public server it answers 403 to a request without a
// User-Agent naming the application (a library's default one included).
import { type GazetteerPlace, searchGazetteer } from './gazetteer.ts';
import { answer, type FakeHandler, limitParam } from './protocol.ts';

const GENERIC_AGENTS = /^(node|undici|axios|python-requests|curl)\b/i;

function addresstypeOf(place: GazetteerPlace): string {
  switch (place.kind) {
    case 'street':
      return 'road';
    case 'city':
      return 'city';
    case 'house':
      return 'building';
    case 'poi':
      return place.osm.key;
  }
}

function result(place: GazetteerPlace, details: boolean) {
  return {
    place_id: place.osm.id * 10,
    licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
    osm_type: { N: 'node', W: 'way', R: 'relation' }[place.osm.type],
    osm_id: place.osm.id,
    lat: String(place.lat),
    lon: String(place.lng),
    category: place.osm.key,
    type: place.osm.value,
    place_rank: place.kind === 'city' ? 16 : place.kind === 'street' ? 26 : 30,
    importance: 0.5,
    addresstype: addresstypeOf(place),
    name: place.name ?? (place.kind === 'street' ? place.street : ''),
    display_name: [place.name, place.houseNumber, place.street, place.city, place.postcode, place.country]
      .filter(Boolean)
      .join(', '),
    ...(details && {
      address: {
        ...(place.houseNumber && { house_number: place.houseNumber }),
        ...(place.street && { road: place.street }),
        city: place.city,
        state: place.state,
        ...(place.postcode && { postcode: place.postcode }),
        country: place.country,
        country_code: place.countryCode.toLowerCase(),
      },
    }),
    boundingbox: [place.lat - 0.001, place.lat + 0.001, place.lng - 0.001, place.lng + 0.001].map(String),
  };
}

export const nominatim: FakeHandler = (request) => {
  const agent = request.headers['user-agent'];
  if (!agent || GENERIC_AGENTS.test(agent)) {
    return answer(403, '<html><body>Access blocked: see the usage policy.</body></html>');
  }
  if (request.path !== '/search') return answer(404, 'Not Found');
  const { query } = request;
  if (query.get('format') !== 'jsonv2') return answer(400, { error: { code: 400, message: 'format' } });
  const found = searchGazetteer(query.get('q') ?? '', { limit: limitParam(query.get('limit'), 10) });
  return answer(
    200,
    found.map((place) => result(place, query.get('addressdetails') === '1')),
  );
};
