// Field rules shared by the location API and the CSV import, so both accept the same data.
import { isHttpUrl } from '../custom-fields/custom-fields.values.ts';

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A website as stored: "shop.example/path" gets `https://`; anything that is then not an
 * http(s) URL is refused (undefined).
 */
export function normalizeWebsite(value: string): string | undefined {
  const candidate = HAS_SCHEME.test(value) ? value : `https://${value}`;
  return isHttpUrl(candidate) ? candidate : undefined;
}

export const WEBSITE_MESSAGE = 'The website must be a valid URL.';
