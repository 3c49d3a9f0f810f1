// ISO 3166-1 country codes. The API and the widget speak alpha-2 (DE, GB, US); some providers
// (HERE) speak alpha-3 (DEU, GBR, USA) both ways. The table comes from i18n-iso-countries, a
// well-kept copy of the standard, rather than one of our own.
import countries from 'i18n-iso-countries';

/** True for an assigned ISO 3166-1 alpha-2 code, either case. */
export const isCountryCode = (alpha2: string) =>
  /^[A-Za-z]{2}$/.test(alpha2) && countries.isValid(alpha2.toUpperCase());

/** `de` -> `DEU`; undefined for a code that is not assigned. */
export const toAlpha3 = (alpha2: string): string | undefined =>
  countries.alpha2ToAlpha3(alpha2.toUpperCase());

/** `DEU` -> `DE`; undefined for a code that is not assigned. */
export const toAlpha2 = (alpha3: string): string | undefined =>
  countries.alpha3ToAlpha2(alpha3.toUpperCase());
