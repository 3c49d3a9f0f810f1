// HERE Geocoding & Search v7: /autocomplete for suggestions (addresses and areas; unlike
// /autosuggest it needs no position, which the widget may not have) and /lookup by HERE id.
// The two live on different hosts; an override in PROVIDER_BASE_URLS serves both paths.
//   GET {autocomplete}/v1/autocomplete?q=&apiKey=&at=lat,lng&in=countryCode:DEU&lang=&limit=
//       -> items[].{id, title, address.label}
//   GET {lookup}/v1/lookup?id=&apiKey=&lang=  -> {id, title, position.{lat, lng}, address}
// HERE speaks ISO 3166-1 alpha-3 (DEU) both ways; the rest of the API speaks alpha-2.
import { z } from 'zod';
import { toAlpha2, toAlpha3 } from '../../../lib/countries.ts';
import { requestJson } from '../../../lib/upstream.ts';
import { parseUpstreamBody, upstreamUrl } from '../../../lib/upstream-helpers.ts';
import { notFoundOn404, requireApiKey } from './place-providers.errors.ts';
import {
  biasPoint,
  DEFAULT_SUGGESTION_LIMIT,
  type PlaceProvider,
  presentOrUndefined,
} from './place-providers.types.ts';

export interface HerePlaceProviderOptions {
  autocompleteBaseUrl: string;
  lookupBaseUrl: string;
  timeoutMs: number;
}

const addressSchema = z.object({
  label: z.string().optional(),
  countryCode: z.string().optional(),
  countryName: z.string().optional(),
  state: z.string().optional(),
  city: z.string().optional(),
  postalCode: z.string().optional(),
});

const autocompleteSchema = z.object({
  items: z.array(z.object({ id: z.string(), title: z.string(), address: addressSchema.optional() })),
});

const lookupSchema = z.object({
  title: z.string(),
  position: z.object({ lat: z.number(), lng: z.number() }),
  address: addressSchema.default({}),
});

/** `in=countryCode:DEU`; a code that is not ISO 3166-1 is the caller's bug, not a filter to drop. */
function countryFilter(country: string | undefined) {
  if (!country) return undefined;
  const alpha3 = toAlpha3(country);
  if (!alpha3) throw new TypeError('country must be an ISO 3166-1 alpha-2 code');
  return `countryCode:${alpha3}`;
}

export function createHerePlaceProvider(options: HerePlaceProviderOptions): PlaceProvider {
  const { autocompleteBaseUrl, lookupBaseUrl, timeoutMs } = options;
  const service = 'here';
  return {
    slug: 'here',

    async autocomplete(input, { apiKey, signal }) {
      const point = biasPoint(input);
      const url = upstreamUrl(autocompleteBaseUrl, '/v1/autocomplete', {
        q: input.q,
        apiKey: requireApiKey('here', apiKey),
        at: point && `${point.lat},${point.lng}`,
        in: countryFilter(input.country),
        lang: input.language,
        limit: input.limit ?? DEFAULT_SUGGESTION_LIMIT,
      });
      const { body } = await requestJson(url, { service, timeoutMs, signal });
      const { items } = parseUpstreamBody(service, autocompleteSchema, body);
      return items.map((item) => ({ place_id: item.id, description: item.address?.label ?? item.title }));
    },

    async place(input, { apiKey, signal }) {
      const url = upstreamUrl(lookupBaseUrl, '/v1/lookup', {
        id: input.placeId,
        apiKey: requireApiKey('here', apiKey),
        lang: input.language,
      });
      const { body } = await notFoundOn404('here', requestJson(url, { service, timeoutMs, signal }));
      const { title, position, address } = parseUpstreamBody(service, lookupSchema, body);
      return {
        lat: position.lat,
        lng: position.lng,
        address: address.label ?? title,
        // For an address the title is the label again; only a place's title is a name.
        name: title !== address.label ? presentOrUndefined(title) : undefined,
        city: presentOrUndefined(address.city),
        state: presentOrUndefined(address.state),
        zip: presentOrUndefined(address.postalCode),
        country: presentOrUndefined(address.countryName),
        country_code: address.countryCode ? toAlpha2(address.countryCode) : undefined,
      };
    },
  };
}
