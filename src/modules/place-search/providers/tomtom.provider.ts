// TomTom Search API v2: fuzzy search in typeahead mode for suggestions, Place by Id for the
// chosen one (it accepts the id of every result type: POI, address, street, geography).
//   GET {base}/search/2/search/{query}.json?key=&typeahead=true&limit=&lat=&lon=&countrySet=
//       &language=  -> results[].{id, address.freeformAddress, poi.name}
//   GET {base}/search/2/place.json?entityId=&key=&language=  -> results[0].{position, address}
// The key is a query parameter (TomTom offers no header); an unknown id answers no results.
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
} from './place-providers.types.ts';

const resultSchema = z.object({
  id: z.string(),
  position: z.object({ lat: z.number(), lon: z.number() }),
  poi: z.object({ name: z.string() }).optional(),
  address: z.object({
    freeformAddress: z.string(),
    municipality: z.string().optional(),
    countrySubdivision: z.string().optional(),
    postalCode: z.string().optional(),
    country: z.string().optional(),
    countryCode: z.string().optional(),
  }),
});

const responseSchema = z.object({ results: z.array(resultSchema) });

const describe = ({ poi, address }: z.output<typeof resultSchema>) =>
  poi ? `${poi.name}, ${address.freeformAddress}` : address.freeformAddress;

export function createTomtomPlaceProvider({ baseUrl, timeoutMs }: PlaceProviderOptions): PlaceProvider {
  const service = 'tomtom';
  return {
    slug: 'tomtom',

    async autocomplete(input, { apiKey, signal }) {
      const point = biasPoint(input);
      // The query is a path segment: encoded whole, so "/" or "?" typed by a visitor stay text.
      const url = upstreamUrl(baseUrl, urlPath`/search/2/search/${input.q}.json`, {
        key: requireApiKey('tomtom', apiKey),
        typeahead: 'true',
        limit: input.limit ?? DEFAULT_SUGGESTION_LIMIT,
        lat: point?.lat,
        lon: point?.lng,
        countrySet: input.country?.toUpperCase(),
        language: input.language,
      });
      const { body } = await requestJson(url, { service, timeoutMs, signal });
      const { results } = parseUpstreamBody(service, responseSchema, body);
      return results.map((result) => ({ place_id: result.id, description: describe(result) }));
    },

    async place(input, { apiKey, signal }) {
      const url = upstreamUrl(baseUrl, '/search/2/place.json', {
        entityId: input.placeId,
        key: requireApiKey('tomtom', apiKey),
        language: input.language,
      });
      const { body } = await notFoundOn404('tomtom', requestJson(url, { service, timeoutMs, signal }));
      const [result] = parseUpstreamBody(service, responseSchema, body).results;
      if (!result) throw new PlaceNotFoundError('tomtom');
      const { address } = result;
      return {
        lat: result.position.lat,
        lng: result.position.lon,
        address: address.freeformAddress,
        name: presentOrUndefined(result.poi?.name),
        city: presentOrUndefined(address.municipality),
        state: presentOrUndefined(address.countrySubdivision),
        zip: presentOrUndefined(address.postalCode),
        country: presentOrUndefined(address.country),
        country_code: presentOrUndefined(address.countryCode?.toUpperCase()),
      };
    },
  };
}
