// Google Geocoding API: GET {base}/maps/api/geocode/json?address=&key= -> {status, results[]
// .{formatted_address, geometry.location.{lat, lng}, geometry.location_type}}. Google answers
// 200 and reports failures in `status`: OK and ZERO_RESULTS are answers, every other status
// (OVER_QUERY_LIMIT, OVER_DAILY_LIMIT, REQUEST_DENIED, INVALID_REQUEST, UNKNOWN_ERROR) is a
// failure of the geocoder. The key can only be a query parameter; requestJson keeps query
// strings out of its errors.
import { z } from 'zod';
import { requestJson } from '../../lib/upstream.ts';
import { createBodyStatusError, parseUpstreamBody, upstreamUrl } from '../../lib/upstream-helpers.ts';
import {
  GEOCODE_PRECISIONS,
  type GeocodePrecision,
  type Geocoder,
  type GeocoderOptions,
} from './geocoding.types.ts';

const responseSchema = z.object({
  status: z.string(),
  results: z
    .array(
      z.object({
        formatted_address: z.string(),
        geometry: z.object({
          location: z.object({ lat: z.number(), lng: z.number() }),
          location_type: z.string(),
        }),
      }),
    )
    .default([]),
});

/** A location_type Google may add later counts as the least precise, which the caller drops. */
const precisionOf = (locationType: string): GeocodePrecision =>
  (GEOCODE_PRECISIONS as readonly string[]).includes(locationType)
    ? (locationType as GeocodePrecision)
    : 'APPROXIMATE';

export function createGoogleGeocoder(options: GeocoderOptions & { apiKey: string }): Geocoder {
  const { baseUrl, timeoutMs, apiKey } = options;
  const service = 'google-geocoding';
  return {
    kind: 'google',
    async geocode(address, context = {}) {
      // Google answers INVALID_REQUEST to an empty address; there is nothing to look up.
      if (address.trim() === '') return undefined;
      const url = upstreamUrl(baseUrl, '/maps/api/geocode/json', { address, key: apiKey });
      const { body } = await requestJson(url, { service, timeoutMs, signal: context.signal });
      const parsed = parseUpstreamBody(service, responseSchema, body);
      if (parsed.status === 'ZERO_RESULTS') return undefined;
      if (parsed.status !== 'OK') throw createBodyStatusError(service, parsed.status, body);
      const [best] = parsed.results;
      if (!best) return undefined;
      return {
        lat: best.geometry.location.lat,
        lng: best.geometry.location.lng,
        precision: precisionOf(best.geometry.location_type),
        formatted_address: best.formatted_address,
      };
    },
  };
}
