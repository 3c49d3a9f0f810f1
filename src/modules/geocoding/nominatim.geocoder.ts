// Nominatim (OpenStreetMap's geocoder): GET {base}/search?q=&format=jsonv2&limit=1&addressdetails=1
// -> [{lat, lon (strings), display_name, category, type, addresstype, address{house_number, ...}}].
// No key; the usage policy of the public server asks for at most one request a second (the
// default rate, geocoding.pacing.ts) and a User-Agent naming the application, which every
// request carries. A refused client (a blocked User-Agent) gets 403, which stops the geocoding
// job like a refused key. Nominatim reports no precision, so it is derived from the result as
// Photon's (photon.geocoder.ts):
//   - it carries a house number that the address asked for    -> ROOFTOP;
//   - it carries another house number                           -> APPROXIMATE;
//   - a road, or a building or POI without a number (addresstype) -> GEOMETRIC_CENTER;
//   - anything coarser (a place, a district, a city, ...)        -> APPROXIMATE.
// RANGE_INTERPOLATED is never reported.
import { z } from 'zod';
import { requestJson } from '../../lib/upstream.ts';
import { parseUpstreamBody, upstreamUrl } from '../../lib/upstream-helpers.ts';
import type { GeocodePrecision, Geocoder, GeocoderOptions } from './geocoding.types.ts';
import { mentionsHouseNumber } from './photon.geocoder.ts';

export const NOMINATIM_HOST = 'https://nominatim.openstreetmap.org';

const coordinate = z.union([z.string(), z.number()]).transform(Number).pipe(z.number().finite());

const responseSchema = z.array(
  z.object({
    lat: coordinate,
    lon: coordinate,
    display_name: z.string().default(''),
    addresstype: z.string().optional(),
    address: z
      .object({ house_number: z.string().optional(), road: z.string().optional().catch(undefined) })
      .passthrough()
      .optional(),
  }),
);
type NominatimResult = z.output<typeof responseSchema>[number];

/** addresstype values of one object (a building, a shop, an office...) rather than an area. */
const OBJECT_TYPES = new Set([
  'road',
  'building',
  'house',
  'amenity',
  'shop',
  'office',
  'tourism',
  'leisure',
  'craft',
  'historic',
  'man_made',
  'healthcare',
  'emergency',
  'club',
]);

/** `streetLine`: the address's street line (the house number is looked for there only). */
export function nominatimPrecision(result: NominatimResult, streetLine: string): GeocodePrecision {
  const houseNumber = result.address?.house_number;
  if (houseNumber) {
    return mentionsHouseNumber(streetLine, houseNumber, result.address?.road) ? 'ROOFTOP' : 'APPROXIMATE';
  }
  return result.addresstype && OBJECT_TYPES.has(result.addresstype) ? 'GEOMETRIC_CENTER' : 'APPROXIMATE';
}

export function createNominatimGeocoder({
  baseUrl,
  timeoutMs,
  userAgent,
}: GeocoderOptions & { userAgent: string }): Geocoder {
  const service = 'nominatim';
  return {
    kind: 'nominatim',
    async geocode(address, context = {}) {
      if (address.trim() === '') return undefined;
      const url = upstreamUrl(baseUrl, '/search', {
        q: address,
        format: 'jsonv2',
        limit: 1,
        addressdetails: 1,
      });
      const { body } = await requestJson(url, {
        service,
        timeoutMs,
        signal: context.signal,
        headers: { 'user-agent': userAgent },
      });
      const [best] = parseUpstreamBody(service, responseSchema, body);
      if (!best) return undefined;
      return {
        lat: best.lat,
        lng: best.lon,
        precision: nominatimPrecision(best, context.streetLine ?? address),
        formatted_address: best.display_name,
      };
    },
  };
}
