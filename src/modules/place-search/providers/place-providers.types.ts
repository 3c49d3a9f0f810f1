// The contract of the widget's place search: what an autocomplete provider adapter is given and
// what it answers, whichever provider a finder uses. Adapters live in providers/, one file each;
// place-providers.ts builds them. Kept apart from the factory so adapters can import these
// types without an import cycle.
import { CONTROL_CHARACTER } from '../../../lib/schemas.ts';

/**
 * Every provider a finder can use; `photon` is the keyless default
 * (docs/api.md, Autocomplete providers and geocoders).
 */
export const PLACE_PROVIDER_SLUGS = ['google', 'mapbox', 'here', 'tomtom', 'geoapify', 'photon'] as const;
export type PlaceProviderSlug = (typeof PLACE_PROVIDER_SLUGS)[number];

/** The providers that need the finder's API key. */
export const KEYED_PLACE_PROVIDER_SLUGS = ['google', 'mapbox', 'here', 'tomtom', 'geoapify'] as const;
export type KeyedPlaceProviderSlug = (typeof KEYED_PLACE_PROVIDER_SLUGS)[number];

export const DEFAULT_PLACE_PROVIDER: PlaceProviderSlug = 'photon';

export const isPlaceProviderSlug = (value: string): value is PlaceProviderSlug =>
  (PLACE_PROVIDER_SLUGS as readonly string[]).includes(value);

/**
 * The providers whose place ids may hold "/": TomTom's address and geography ids do
 * (`US/PAD/p0/43076024`), and it takes them as a query value (`entityId=`), where a slash
 * cannot climb. Google's and Mapbox's ids travel as a path segment and are base64url; HERE's
 * (`here:pds:place:...`), Geoapify's (hex) and Photon's (`p1.` + base64url) have no slash either.
 */
const PLACE_IDS_WITH_SLASHES: readonly PlaceProviderSlug[] = ['tomtom'];

/**
 * Why `placeId` cannot be one of `provider`'s place ids, or undefined. No provider's id is "."
 * or "..", or holds a backslash or a control character; only TomTom's hold "/". The value
 * percent-decoded once is judged too (`%2e%2e`, `a%2Fb`): an id has no reason to carry them,
 * and a server that decodes again would see the dots and slashes.
 */
export function placeIdProblem(provider: PlaceProviderSlug, placeId: string): string | undefined {
  let decoded = placeId;
  try {
    decoded = decodeURIComponent(placeId);
  } catch {
    // Not valid percent-encoding ("100%"): judged as it is.
  }
  for (const value of [placeId, decoded]) {
    if (value === '.' || value === '..') return 'The place_id may not be "." or "..".';
    if (value.includes('\\')) return 'The place_id may not contain "\\".';
    if (CONTROL_CHARACTER.test(value)) return 'The place_id may not contain control characters.';
    if (value.includes('/') && !PLACE_IDS_WITH_SLASHES.includes(provider)) {
      return `The place_id may not contain "/" (${provider} place ids have none).`;
    }
  }
  return undefined;
}

export interface AutocompleteInput {
  /** What the visitor typed. */
  q: string;
  /** Bias towards this point; used only when both are given. */
  lat?: number;
  lng?: number;
  /** Restrict to one country: ISO 3166-1 alpha-2, either case (the caller validates it). */
  country?: string;
  /** BCP 47 language of the answer ("en", "de"), passed to the provider as is. */
  language?: string;
  /** Groups the keystrokes and the final lookup of one search for billing (Google, Mapbox). */
  sessionToken?: string;
  /** At most this many suggestions; 5 when absent. */
  limit?: number;
}

export interface PlaceInput {
  /** A `place_id` from this provider's autocomplete. */
  placeId: string;
  language?: string;
  /** The token of the autocomplete calls that led here, to close the billing session. */
  sessionToken?: string;
}

export interface ProviderContext {
  /** The finder's decrypted key; required by every provider but Photon. */
  apiKey?: string;
  /** The widget's request closed: stop waiting for the provider. */
  signal?: AbortSignal;
}

export interface PlaceSuggestion {
  place_id: string;
  description: string;
}

export interface PlaceDetails {
  lat: number;
  lng: number;
  /** The full address on one line, as the provider formats it. */
  address: string;
  /** The provider's display name of the place (for a bare address it may repeat the street). */
  name?: string;
  city?: string;
  state?: string;
  zip?: string;
  /** The country's name, as the provider spells it. */
  country?: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country_code?: string;
}

/**
 * One provider behind the widget's search. Failures of the provider (no connection, timeout,
 * non-2xx, a body of another shape) reject with UpstreamError (a 502 `provider_unavailable`
 * for the route); a cancelled call with UpstreamError `aborted`. A keyed provider called
 * without a key rejects with PlaceProviderKeyMissingError before any request; a place id the
 * provider does not know rejects with PlaceNotFoundError (both in place-providers.errors.ts).
 */
export interface PlaceProvider {
  readonly slug: PlaceProviderSlug;
  autocomplete(input: AutocompleteInput, context: ProviderContext): Promise<PlaceSuggestion[]>;
  place(input: PlaceInput, context: ProviderContext): Promise<PlaceDetails>;
}

export interface PlaceProviderOptions {
  baseUrl: string;
  timeoutMs: number;
}

export const DEFAULT_SUGGESTION_LIMIT = 5;

/** Coordinates for a bias, only when both are numbers. */
export const biasPoint = (input: AutocompleteInput) =>
  Number.isFinite(input.lat) && Number.isFinite(input.lng)
    ? { lat: input.lat as number, lng: input.lng as number }
    : undefined;

/** `de-DE` -> `de`, for providers that take ISO 639-1 codes only (Mapbox, Geoapify). */
export const primaryLanguage = (language: string | undefined) =>
  language?.split(/[-_]/)[0]?.toLowerCase() || undefined;

/** Trims and drops empty strings, so optional fields are absent rather than "". */
export const presentOrUndefined = (value: string | undefined | null) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};
