// Mapbox Search Box API: /suggest while the visitor types, /retrieve for the chosen suggestion.
// The access token is a query parameter (Mapbox offers no header); requestJson keeps query
// strings out of its errors.
//   GET {base}/search/searchbox/v1/suggest?q=&access_token=&session_token=&proximity=lng,lat
//       &country=&language=&limit=  -> suggestions[].{mapbox_id, name, full_address, place_formatted}
//   GET {base}/search/searchbox/v1/retrieve/{mapbox_id}?access_token=&session_token=&language=
//       -> FeatureCollection; properties.{coordinates, full_address, name, context}
// session_token is required by both; without one from the widget each call gets its own.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { requestJson } from '../../../lib/upstream.ts';
import { parseUpstreamBody, upstreamUrl, urlPath } from '../../../lib/upstream-helpers.ts';
import { notFoundOn404, PlaceNotFoundError, requireApiKey } from './place-providers.errors.ts';
import {
  biasPoint,
  DEFAULT_SUGGESTION_LIMIT,
  type PlaceProvider,
  type PlaceProviderOptions,
  presentOrUndefined,
  primaryLanguage,
} from './place-providers.types.ts';

const API = '/search/searchbox/v1';

const suggestionSchema = z.object({
  mapbox_id: z.string(),
  name: z.string(),
  feature_type: z.string().optional(),
  full_address: z.string().optional(),
  place_formatted: z.string().optional(),
});

const suggestSchema = z.object({ suggestions: z.array(suggestionSchema) });

const named = z.object({ name: z.string() }).optional();

const retrieveSchema = z.object({
  features: z.array(
    z.object({
      geometry: z.object({ coordinates: z.array(z.number()).min(2) }),
      properties: suggestionSchema.extend({
        coordinates: z.object({ latitude: z.number(), longitude: z.number() }).optional(),
        context: z
          .object({
            place: named,
            region: named,
            postcode: named,
            country: z.object({ name: z.string(), country_code: z.string().optional() }).optional(),
          })
          .default({}),
      }),
    }),
  ),
});

/** A POI's name with its address; an address, a street or a city as Mapbox writes it out. */
const describe = (s: z.output<typeof suggestionSchema>) =>
  s.feature_type === 'poi' && s.full_address
    ? `${s.name}, ${s.full_address}`
    : (s.full_address ?? [s.name, s.place_formatted].filter(Boolean).join(', '));

export function createMapboxPlaceProvider({ baseUrl, timeoutMs }: PlaceProviderOptions): PlaceProvider {
  const service = 'mapbox';
  return {
    slug: 'mapbox',

    async autocomplete(input, { apiKey, signal }) {
      const point = biasPoint(input);
      const url = upstreamUrl(baseUrl, `${API}/suggest`, {
        q: input.q,
        access_token: requireApiKey('mapbox', apiKey),
        session_token: input.sessionToken ?? randomUUID(),
        proximity: point && `${point.lng},${point.lat}`,
        country: input.country?.toLowerCase(),
        language: primaryLanguage(input.language),
        limit: input.limit ?? DEFAULT_SUGGESTION_LIMIT,
      });
      const { body } = await requestJson(url, { service, timeoutMs, signal });
      const { suggestions } = parseUpstreamBody(service, suggestSchema, body);
      return suggestions.map((s) => ({ place_id: s.mapbox_id, description: describe(s) }));
    },

    async place(input, { apiKey, signal }) {
      const url = upstreamUrl(baseUrl, API + urlPath`/retrieve/${input.placeId}`, {
        access_token: requireApiKey('mapbox', apiKey),
        session_token: input.sessionToken ?? randomUUID(),
        language: primaryLanguage(input.language),
      });
      const { body } = await notFoundOn404('mapbox', requestJson(url, { service, timeoutMs, signal }));
      const [feature] = parseUpstreamBody(service, retrieveSchema, body).features;
      if (!feature) throw new PlaceNotFoundError('mapbox');
      const { properties: p, geometry } = feature;
      const { context } = p;
      return {
        lat: p.coordinates?.latitude ?? geometry.coordinates[1]!,
        lng: p.coordinates?.longitude ?? geometry.coordinates[0]!,
        address: describe({ ...p, feature_type: undefined }),
        name: presentOrUndefined(p.name),
        city: presentOrUndefined(context.place?.name),
        state: presentOrUndefined(context.region?.name),
        zip: presentOrUndefined(context.postcode?.name),
        country: presentOrUndefined(context.country?.name),
        country_code: presentOrUndefined(context.country?.country_code?.toUpperCase()),
      };
    },
  };
}
