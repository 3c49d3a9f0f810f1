// Mapbox Search Box API: GET /search/searchbox/v1/suggest and /retrieve/{mapbox_id}, the token
// in `access_token`, `session_token` required by both; errors as {message} with the status.
import {
  fullAddress,
  type GazetteerPlace,
  localityLine,
  opaqueId,
  placeByOpaqueId,
  searchGazetteer,
  streetLine,
} from './gazetteer.ts';
import { answer, type FakeHandler, type FakeRequest, limitParam, listParam, pointParam } from './protocol.ts';

export const MAPBOX_TOKEN = 'pk.eyJ1IjoiZmFrZSIsImEiOiJmYWtlIn0.fake-mapbox-token';
const API = '/search/searchbox/v1';
const ID = 'dXJuOm1ieHBsYzo';
const ATTRIBUTION =
  '© 2024 Mapbox and its suppliers. All rights reserved. Use of this data is subject to the Mapbox Terms of Service. (https://www.mapbox.com/about/maps/)';

const FEATURE_TYPE = { house: 'address', poi: 'poi', street: 'street', city: 'place' } as const;

function suggestion(place: GazetteerPlace) {
  const name = (place.kind === 'poi' || place.kind === 'city' ? place.name : streetLine(place)) ?? place.city;
  const placeFormatted = [place.kind === 'city' ? undefined : localityLine(place), place.country]
    .filter(Boolean)
    .join(', ');
  return {
    name,
    mapbox_id: opaqueId(ID, place),
    feature_type: FEATURE_TYPE[place.kind],
    ...(place.kind !== 'city' && { address: streetLine(place), full_address: fullAddress(place) }),
    place_formatted: placeFormatted,
    context: {
      country: {
        name: place.country,
        country_code: place.countryCode,
        country_code_alpha_3: place.countryCode3,
      },
      region: { name: place.state, ...(place.stateCode && { region_code: place.stateCode }) },
      ...(place.postcode && { postcode: { name: place.postcode } }),
      ...(place.kind !== 'city' && { place: { name: place.city } }),
      ...(place.street && { street: { name: place.street } }),
    },
    language: 'en',
    maki: place.kind === 'poi' ? 'marker' : undefined,
    metadata: {},
  };
}

function tokenError(request: FakeRequest) {
  const token = request.query.get('access_token');
  if (!token) return answer(401, { message: 'Not Authorized - No Token' });
  if (token !== MAPBOX_TOKEN) return answer(401, { message: 'Not Authorized - Invalid Token' });
  if (!request.query.get('session_token')) {
    return answer(400, {
      message: 'Missing required query parameter: session_token',
      error_code: 'BAD_REQUEST',
    });
  }
  return undefined;
}

export const mapbox: FakeHandler = (request) => {
  const denied = tokenError(request);
  if (denied) return denied;
  const { query } = request;
  if (request.path === `${API}/suggest`) {
    const q = query.get('q');
    if (!q) return answer(400, { message: 'Missing required query parameter: q', error_code: 'BAD_REQUEST' });
    const countries = listParam(query.get('country')).map((code) => code.toUpperCase());
    const found = searchGazetteer(q, {
      countries: countries.length > 0 ? countries : undefined,
      near: pointParam(query.get('proximity'), 'lnglat'),
      limit: limitParam(query.get('limit'), 5),
    });
    return answer(200, {
      suggestions: found.map(suggestion),
      attribution: ATTRIBUTION,
      response_id: 'fake-response-id',
    });
  }
  const retrieve = new RegExp(`^${API}/retrieve/([^/]+)$`).exec(request.path);
  if (retrieve) {
    const place = placeByOpaqueId(ID, decodeURIComponent(retrieve[1]!));
    if (!place) return answer(404, { message: 'Not Found' });
    const properties = {
      ...suggestion(place),
      coordinates: {
        latitude: place.lat,
        longitude: place.lng,
        ...(place.kind === 'house' && { accuracy: 'rooftop' }),
        routable_points: [{ name: 'default', latitude: place.lat, longitude: place.lng }],
      },
    };
    return answer(200, {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [place.lng, place.lat] }, properties },
      ],
      attribution: ATTRIBUTION,
    });
  }
  return answer(404, { message: 'Not Found' });
};
