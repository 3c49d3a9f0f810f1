// Google Geocoding API: GET /maps/api/geocode/json?address=&key=. Always HTTP 200; the outcome
// is `status` (OK, ZERO_RESULTS, REQUEST_DENIED, INVALID_REQUEST, OVER_QUERY_LIMIT, ...) with
// an `error_message` on failures.
import { type GazetteerPlace, opaqueId, searchGazetteer } from './gazetteer.ts';
import { answer, type FakeHandler } from './protocol.ts';

export const GEOCODING_KEY = 'AIzaFakeGeocodingKey000000000000000000';

const denied = (status: string, error_message: string) => answer(200, { error_message, results: [], status });

export const overQueryLimit = () =>
  denied('OVER_QUERY_LIMIT', 'You have exceeded your rate-limit for this API.');

function result(place: GazetteerPlace) {
  const component = (long_name: string | undefined, types: string[], short_name = long_name) =>
    long_name ? [{ long_name, short_name, types }] : [];
  const d = place.googleLocationType === 'ROOFTOP' ? 0.0013 : 0.01;
  return {
    address_components: [
      ...component(place.houseNumber, ['street_number']),
      ...component(place.street, ['route']),
      ...component(place.city, ['locality', 'political']),
      ...component(place.state, ['administrative_area_level_1', 'political'], place.stateCode ?? place.state),
      ...component(place.country, ['country', 'political'], place.countryCode),
      ...component(place.postcode, ['postal_code']),
    ],
    formatted_address: place.googleAddress,
    geometry: {
      location: { lat: place.lat, lng: place.lng },
      location_type: place.googleLocationType,
      viewport: {
        northeast: { lat: place.lat + d, lng: place.lng + d },
        southwest: { lat: place.lat - d, lng: place.lng - d },
      },
    },
    place_id: opaqueId('ChIJ', place),
    types:
      place.kind === 'city'
        ? ['locality', 'political']
        : place.kind === 'street'
          ? ['route']
          : ['street_address'],
  };
}

export const googleGeocoding: FakeHandler = (request) => {
  if (request.path !== '/maps/api/geocode/json') return answer(404, 'Not Found');
  const { query } = request;
  const key = query.get('key');
  if (!key) {
    return denied(
      'REQUEST_DENIED',
      'You must use an API key to authenticate each request to Google Maps Platform APIs. For additional information, please refer to http://g.co/dev/maps-no-account',
    );
  }
  if (key !== GEOCODING_KEY) return denied('REQUEST_DENIED', 'The provided API key is invalid. ');
  const address = query.get('address');
  if (!address) {
    return denied(
      'INVALID_REQUEST',
      "Invalid request. Missing the 'address', 'components', 'latlng' or 'place_id' parameter.",
    );
  }
  const found = searchGazetteer(address);
  if (found.length === 0) return answer(200, { results: [], status: 'ZERO_RESULTS' });
  return answer(200, { results: found.map(result), status: 'OK' });
};
