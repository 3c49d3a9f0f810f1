// A location's time zone from its coordinates, offline: geo-tz looks the point up in the
// boundaries of timezone-boundary-builder shipped in the package (its `all` dataset, which
// keeps zones that have agreed since 1970 apart: Haparanda is Europe/Stockholm, not
// Europe/Berlin). The answer is checked against the location's country with the zone table of
// countries-and-timezones, and marked for a person's review where it is not plain
// (docs/api.md, "Opening hours").

import countriesAndTimezones from 'countries-and-timezones';
import { find } from 'geo-tz/all';
import countries from 'i18n-iso-countries';
import { isCountryCode } from '../../../lib/countries.ts';
import { readTimeZone } from '../../../lib/hours/hours.zone-name.ts';

export interface DerivedTimeZone {
  timeZone: string;
  /** Why the zone needs a look; null when it does not. */
  review: string | null;
}

/** A country as a location writes it (DE, de, Germany, Deutschland) as its alpha-2 code; undefined when not recognised. */
function countryCode(country: string | null): string | undefined {
  const text = country?.trim();
  if (!text) return undefined;
  if (isCountryCode(text)) return text.toUpperCase();
  return countries.getAlpha2Code(text, 'en') ?? countries.getAlpha2Code(text, 'de') ?? undefined;
}

/** The countries whose clocks a zone sets (its links' too: Europe/Kiev is Europe/Kyiv's). */
function countriesOf(timeZone: string): string[] {
  const zone = countriesAndTimezones.getTimezone(timeZone);
  if (!zone) return [];
  const target = zone.aliasOf ? countriesAndTimezones.getTimezone(zone.aliasOf) : undefined;
  return [...zone.countries, ...(target?.countries ?? [])];
}

/** The zones geo-tz finds at a point, most likely first: the costly part (about 20 µs a point). */
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
  if (zones.length > 1) {
    return {
      timeZone,
      review: `The coordinates lie where time zones meet (${zones.join(', ')}); check that ${timeZone} is right.`,
    };
  }
  if (first.startsWith('Etc/')) {
    return { timeZone, review: `The coordinates lie at sea (${first}); give the location's time zone.` };
  }
  if (readTimeZone(first) === undefined) {
    return {
      timeZone,
      review: `${first} is not a time zone this service knows; give the location's time zone.`,
    };
  }
  const code = countryCode(country);
  const zoneCountries = countriesOf(first);
  if (code && zoneCountries.length > 0 && !zoneCountries.includes(code)) {
    return {
      timeZone,
      review: `${timeZone}, the time zone at the coordinates, is not one of ${code}; check the coordinates, the country or the zone.`,
    };
  }
  return { timeZone, review: null };
}
