// Photon: GET /api?q=&lat=&lon=&limit=&lang=&countrycode= -> a GeoJSON FeatureCollection with
// GeocodeJSON properties. No key. Errors as {message} with status 400, also for a parameter
// or a language the server does not know, as Photon checks both.
import { type GazetteerPlace, searchGazetteer } from './gazetteer.ts';
import { answer, type FakeHandler, limitParam, pointParam } from './protocol.ts';

const PARAMETERS = new Set([
  'q',
  'lat',
  'lon',
  'zoom',
  'location_bias_scale',
  'bbox',
  'countrycode',
  'lang',
  'limit',
  'debug',
  'dedupe',
  'geometry',
  'osm_tag',
  'layer',
  'include',
  'exclude',
]);
const LANGUAGES = ['default', 'en', 'de', 'fr', 'it'];

function feature(place: GazetteerPlace) {
  const type = place.kind === 'poi' ? 'house' : place.kind;
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [place.lng, place.lat] },
    properties: {
      osm_type: place.osm.type,
      osm_id: place.osm.id,
      osm_key: place.osm.key,
      osm_value: place.osm.value,
      type,
      // A street's own name is the street; a house has no name of its own.
      ...(place.kind === 'street' ? { name: place.street } : place.name && { name: place.name }),
      ...(place.kind !== 'street' && place.street && { street: place.street }),
      ...(place.houseNumber && { housenumber: place.houseNumber }),
      ...(place.postcode && { postcode: place.postcode }),
      ...(place.kind !== 'city' && { city: place.city }),
      state: place.state,
      country: place.country,
      countrycode: place.countryCode,
      ...(place.kind === 'city' && { extent: [13.088345, 52.6755087, 13.7611609, 52.3382448] }),
    },
  };
}

export const photon: FakeHandler = (request) => {
  if (request.path !== '/api') return answer(404, { message: 'not found' });
  const { query } = request;
  // Like Photon 1.1: unknown parameters and languages it does not hold are refused.
  const unknown = [...query.keys()].find((name) => !PARAMETERS.has(name));
  if (unknown) {
    return answer(400, {
      message: `Unknown query parameter '${unknown}'.  Allowed parameters are: [${[...PARAMETERS].join(', ')}]`,
    });
  }
  const lang = query.get('lang');
  if (lang !== null && !LANGUAGES.includes(lang)) {
    return answer(400, { message: `Language is not supported. Supported are: ${LANGUAGES.join(', ')}` });
  }
  const q = query.get('q');
  if (!q) return answer(400, { message: "missing search term 'q': /?q=berlin" });
  const countries = query.getAll('countrycode').map((code) => code.toUpperCase());
  const found = searchGazetteer(q, {
    countries: countries.length > 0 ? countries : undefined,
    near: pointParam(query.has('lat') ? `${query.get('lat')},${query.get('lon')}` : undefined, 'latlng'),
    limit: limitParam(query.get('limit'), 15),
  });
  return answer(200, { type: 'FeatureCollection', features: found.map(feature) });
};
