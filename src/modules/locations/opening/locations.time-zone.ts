// A location's time zone from its coordinates, offline: geo-tz looks the point up in the
// boundaries of timezone-boundary-builder shipped in the package (its `all` dataset, which
// keeps zones that have agreed since 1970 apart: Haparanda is Europe/Stockholm, not
// Europe/Berlin). The answer is checked against the location's country with the zone table of
// countries-and-timezones, and marked for a person's review where it is not plain
// (docs/api.md, "Opening hours").

import countriesAndTimezones from 'countries-and-timezones';
import { find, setCache } from 'geo-tz/all';
import countries from 'i18n-iso-countries';
import { LRUCache } from 'lru-cache';
import { isCountryCode, toAlpha2 } from '../../../lib/countries.ts';
import { readTimeZone } from '../../../lib/hours/hours.zone-name.ts';

export interface DerivedTimeZone {
  timeZone: string;
  /** Why the zone needs a look; null when it does not. */
  review: string | null;
}

/**
 * A country as a location writes it (DE, de, DEU, Germany, Deutschland) as its alpha-2 code;
 * undefined when not recognised (then the zone is not checked against it).
 */
function countryCode(country: string | null): string | undefined {
  const text = country?.trim();
  if (!text) return undefined;
  if (isCountryCode(text)) return text.toUpperCase();
  if (/^[a-z]{3}$/i.test(text)) {
    const code = toAlpha2(text);
    if (code) return code;
  }
  return countries.getAlpha2Code(text, 'en') ?? countries.getAlpha2Code(text, 'de') ?? undefined;
}

/**
 * Territories with ISO codes of their own that a country's addresses may name by the country
 * (a store in Réunion with country FR, in Puerto Rico with US): a zone of one of them is one of
 * the country's. From ISO 3166-2, which lists them as the country's subdivisions or dependencies.
 */
const TERRITORIES: Record<string, readonly string[]> = {
  AU: ['CX', 'CC', 'NF', 'HM'],
  CN: ['HK', 'MO'],
  DK: ['GL', 'FO'],
  FI: ['AX'],
  FR: ['RE', 'GP', 'MQ', 'GF', 'YT', 'PM', 'BL', 'MF', 'NC', 'PF', 'WF', 'TF'],
  GB: ['GG', 'JE', 'IM', 'GI', 'BM', 'KY', 'VG', 'TC', 'MS', 'AI', 'FK', 'SH', 'PN', 'IO', 'GS'],
  NL: ['AW', 'CW', 'SX', 'BQ'],
  NO: ['SJ', 'BV'],
  NZ: ['CK', 'NU', 'TK'],
  US: ['PR', 'GU', 'VI', 'AS', 'MP', 'UM'],
};

/** The countries whose clocks a zone sets (its links' too: Europe/Kiev is Europe/Kyiv's). */
function countriesOf(timeZone: string): string[] {
  const zone = countriesAndTimezones.getTimezone(timeZone);
  if (!zone) return [];
  const target = zone.aliasOf ? countriesAndTimezones.getTimezone(zone.aliasOf) : undefined;
  return [...zone.countries, ...(target?.countries ?? [])];
}

/**
 * geo-tz keeps each part of its boundary map it has read, decoded: the 21,525 parts of the world
 * take 1.5 GB, in the web process and the worker alike. At most this many stay (lru-cache, the
 * least recently used going first): 20,000 points spread over Europe fall in fewer (about 220
 * MB of heap in all), and a part read again costs a few milliseconds.
 */
export const MAP_PARTS_KEPT = 2000;
/** geo-tz's store of decoded parts (exported for the test that it is this bounded one). */
export const mapParts = new LRUCache<string, object>({ max: MAP_PARTS_KEPT });
setCache({ store: mapParts });

/**
 * The zones geo-tz finds at a point, most likely first: the costly part (about 20 µs a point
 * whose part of the map is kept).
 */
export const zonesAt = (lat: number, lng: number): string[] => find(lat, lng);

/**
 * The zone at a point, and whether a person should look at it: the point lies where several
 * zones meet, at sea (an `Etc/` zone), in a zone the runtime does not know, or in a zone of
 * another country than the location's.
 */
export function deriveTimeZone(
  lat: number,
  lng: number,
  country: string | null,
): DerivedTimeZone | undefined {
  return judgeZones(zonesAt(lat, lng), country);
}

/**
 * deriveTimeZone for the zones found at a point (zonesAt): a bulk writer looks points up once
 * and judges them against the country the write ends with.
 */
export function judgeZones(zones: readonly string[], country: string | null): DerivedTimeZone | undefined {
  const first = zones[0];
  if (!first) return undefined;
  const timeZone = readTimeZone(first) ?? first;
  // Only `Etc/` zones: at sea, or at a pole or on the antimeridian, where geo-tz answers with
  // the sea's zones that meet there (all 25 at the North Pole).
  if (zones.every((zone) => zone.startsWith('Etc/'))) {
    const named = zones.length === 1 ? first : `${first} and ${zones.length - 1} more`;
    return { timeZone, review: `The coordinates lie at sea (${named}); give the location's time zone.` };
  }
  if (zones.length > 1) {
    return {
      timeZone,
      review: `The coordinates lie where time zones meet (${zones.join(', ')}); check that ${timeZone} is right.`,
    };
  }
  if (readTimeZone(first) === undefined) {
    return {
      timeZone,
      review: `${first} is not a time zone this service knows; give the location's time zone.`,
    };
  }
  const code = countryCode(country);
  const zoneCountries = countriesOf(first);
  const ours = [code, ...(code ? (TERRITORIES[code] ?? []) : [])];
  if (code && zoneCountries.length > 0 && !zoneCountries.some((zoneCountry) => ours.includes(zoneCountry))) {
    return {
      timeZone,
      review: `${timeZone}, the time zone at the coordinates, is not one of ${code}; check the coordinates, the country or the zone.`,
    };
  }
  return { timeZone, review: null };
}
