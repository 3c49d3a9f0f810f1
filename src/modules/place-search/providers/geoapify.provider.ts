// Geoapify: the Address Autocomplete API for suggestions, Place Details for the chosen one.
//   GET {base}/v1/geocode/autocomplete?text=&apiKey=&format=json&limit=&lang=
//       &bias=proximity:lon,lat&filter=countrycode:de  -> results[].{place_id, formatted}
//   GET {base}/v2/place-details?id=&apiKey=&lang=&features=details
//       -> FeatureCollection; features[0].properties.{lat, lon, formatted, name, city, ...}
// The key is a query parameter (Geoapify offers no header).
import { z } from 'zod';
import { requestJson } from '../../../lib/upstream.ts';
import { parseUpstreamBody, upstreamUrl } from '../../../lib/upstream-helpers.ts';
import { notFoundOn404, PlaceNotFoundError, requireApiKey } from './place-providers.errors.ts';
import {
  biasPoint,
  DEFAULT_SUGGESTION_LIMIT,
  type PlaceProvider,
  type PlaceProviderOptions,
  presentOrUndefined,
  primaryLanguage,
} from './place-providers.types.ts';

const autocompleteSchema = z.object({
  results: z.array(z.object({ place_id: z.string(), formatted: z.string() })),
});

const detailsSchema = z.object({
  features: z.array(
    z.object({
      properties: z.object({
        lat: z.number(),
        lon: z.number(),
        formatted: z.string(),
        name: z.string().optional(),
        city: z.string().optional(),
        state: z.string().optional(),
        postcode: z.string().optional(),
        country: z.string().optional(),
        country_code: z.string().optional(),
      }),
    }),
  ),
});

export function createGeoapifyPlaceProvider({ baseUrl, timeoutMs }: PlaceProviderOptions): PlaceProvider {
  const service = 'geoapify';
  return {
    slug: 'geoapify',

    async autocomplete(input, { apiKey, signal }) {
      const point = biasPoint(input);
      const url = upstreamUrl(baseUrl, '/v1/geocode/autocomplete', {
        text: input.q,
        apiKey: requireApiKey('geoapify', apiKey),
        // Without it the answer is GeoJSON; the flat "results" list is simpler to read.
        format: 'json',
        limit: input.limit ?? DEFAULT_SUGGESTION_LIMIT,
        lang: primaryLanguage(input.language),
        bias: point && `proximity:${point.lng},${point.lat}`,
        filter: input.country && `countrycode:${input.country.toLowerCase()}`,
      });
      const { body } = await requestJson(url, { service, timeoutMs, signal });
      const { results } = parseUpstreamBody(service, autocompleteSchema, body);
      return results.map((result) => ({ place_id: result.place_id, description: result.formatted }));
    },

    async place(input, { apiKey, signal }) {
      const url = upstreamUrl(baseUrl, '/v2/place-details', {
        id: input.placeId,
        apiKey: requireApiKey('geoapify', apiKey),
        lang: primaryLanguage(input.language),
        features: 'details',
      });
      const { body } = await notFoundOn404('geoapify', requestJson(url, { service, timeoutMs, signal }));
      const [feature] = parseUpstreamBody(service, detailsSchema, body).features;
      if (!feature) throw new PlaceNotFoundError('geoapify');
      // The geometry may be a building's outline; the properties always carry the point.
      const p = feature.properties;
      return {
        lat: p.lat,
        lng: p.lon,
        address: p.formatted,
        name: presentOrUndefined(p.name),
        city: presentOrUndefined(p.city),
        state: presentOrUndefined(p.state),
        zip: presentOrUndefined(p.postcode),
        country: presentOrUndefined(p.country),
        country_code: presentOrUndefined(p.country_code?.toUpperCase()),
      };
    },
  };
}
