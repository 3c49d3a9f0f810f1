// Errors of the place providers that are not the provider's fault, as classes a route can test
// with instanceof: a keyed provider asked without a key, and a place id the provider does not
// know. Both are raised before or instead of a 502; what they become (404, 503) is the route's
// decision (place-search.errors.ts). Provider failures themselves are UpstreamError (src/lib/upstream.ts).
import { UpstreamError } from '../../../lib/upstream.ts';
import type { PlaceProviderSlug } from './place-providers.types.ts';

export class PlaceProviderKeyMissingError extends Error {
  constructor(readonly provider: PlaceProviderSlug) {
    super(`The ${provider} place provider needs an API key.`);
    this.name = 'PlaceProviderKeyMissingError';
  }
}

export class PlaceNotFoundError extends Error {
  constructor(readonly provider: PlaceProviderSlug) {
    super(`The ${provider} place provider does not know this place.`);
    this.name = 'PlaceNotFoundError';
  }
}

/** The context's key, or PlaceProviderKeyMissingError. */
export function requireApiKey(provider: PlaceProviderSlug, apiKey: string | undefined): string {
  const key = apiKey?.trim();
  if (!key) throw new PlaceProviderKeyMissingError(provider);
  return key;
}

/** Turns a 404 of the provider into PlaceNotFoundError; anything else is rethrown as is. */
export async function notFoundOn404<T>(provider: PlaceProviderSlug, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) {
      throw new PlaceNotFoundError(provider);
    }
    throw error;
  }
}
