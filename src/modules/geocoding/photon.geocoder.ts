// The keyless geocoder: Photon's best match for the address (GET {base}/api?q=&limit=1, see
// src/lib/photon-client.ts). Photon reports no precision, so it is derived from the feature:
//   - it carries a house number that the address asked for   -> ROOFTOP (an OSM object with
//     exactly that address: a building, an entrance, an address point);
//   - it carries another house number                          -> APPROXIMATE (a neighbour
//     found by fuzzy matching: near, but not the address asked for);
//   - a street, or a named building or POI without a number    -> GEOMETRIC_CENTER (the centre
//     of an object, not a checked address);
//   - anything coarser (locality, district, city, county, state, country, other) -> APPROXIMATE.
// RANGE_INTERPOLATED is never reported: Photon does not say which house numbers it interpolated.
// Only ROOFTOP survives the import's filter, so a Photon pin is only set when the number matches
// the one the street line asks for.
import { type PhotonFeature, photonLabel, searchPhoton } from '../../lib/photon-client.ts';
import type { GeocodePrecision, Geocoder, GeocoderOptions } from './geocoding.types.ts';

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a result's `houseNumber` is the number `streetLine` asks for: a whole token there
 * ("12a" in "Hauptstr. 12 a", but "1" not in "Main St 13"), outside the result's street name
 * `street`, so that a neighbour numbered 17 is not taken for "Straße des 17. Juni 200".
 */
export function mentionsHouseNumber(streetLine: string, houseNumber: string, street?: string): boolean {
  const pattern = escapeRegExp(houseNumber.trim().toLowerCase())
    .replace(/\s+/g, '\\s*')
    .replace(/(\d)(\p{L})/gu, '$1\\s*$2');
  if (pattern === '') return false;
  const fold = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
  const name = street ? fold(street) : '';
  const line = name === '' ? fold(streetLine) : fold(streetLine).split(name).join(' ');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${pattern}($|[^\\p{L}\\p{N}])`, 'u').test(line);
}

/** `streetLine`: the address's street line (the house number is looked for there only). */
export function photonPrecision(feature: PhotonFeature, streetLine: string): GeocodePrecision {
  const { type, housenumber, street } = feature.properties;
  if (housenumber) return mentionsHouseNumber(streetLine, housenumber, street) ? 'ROOFTOP' : 'APPROXIMATE';
  if (type === 'street' || type === 'house') return 'GEOMETRIC_CENTER';
  return 'APPROXIMATE';
}

export function createPhotonGeocoder({ baseUrl, timeoutMs }: GeocoderOptions): Geocoder {
  return {
    kind: 'photon',
    async geocode(address, context = {}) {
      if (address.trim() === '') return undefined;
      const [best] = await searchPhoton(
        baseUrl,
        { q: address, limit: 1 },
        { service: 'photon', timeoutMs, signal: context.signal },
      );
      if (!best) return undefined;
      return {
        lat: best.lat,
        lng: best.lng,
        precision: photonPrecision(best, context.streetLine ?? address),
        formatted_address: photonLabel(best.properties),
      };
    },
  };
}
