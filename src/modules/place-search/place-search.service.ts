// The widget's place search (GET /mapping/autocomplete, GET /mapping/places): which finder a
// public token names, whether the calling site may use it, which provider it searches with,
// and the call itself with the finder's key, decrypted for each request and never kept. Only the
// provider's slug is cached, 60 s per finder (docs/api.md, Autocomplete and places routes), in this
// process: a change of provider reaches every process within a minute, a removed key at once (see
// providerOf).
import type { Logger } from 'pino';
import type { SecretBox } from '../../lib/crypto.ts';
import { createOriginNotAllowedError, finderAllowsOrigin } from '../../lib/origins.ts';
import { UpstreamError } from '../../lib/upstream.ts';
import {
  createFinderKeyNotFoundError,
  createPlaceNotFoundResponseError,
  createPlaceProviderUnavailableError,
  createProviderNotAllowedError,
} from './place-search.errors.ts';
import type { PlaceFinder, PlaceSearchRepository } from './place-search.repository.ts';
import { PlaceNotFoundError } from './providers/place-providers.errors.ts';
import type { PlaceProviders } from './providers/place-providers.ts';
import {
  type AutocompleteInput,
  DEFAULT_PLACE_PROVIDER,
  isPlaceProviderSlug,
  type PlaceDetails,
  type PlaceInput,
  type PlaceProviderSlug,
  type PlaceSuggestion,
} from './providers/place-providers.types.ts';

/** The provider slug of a finder is cached 60 seconds (docs/api.md, Autocomplete and places routes). */
export const PROVIDER_SLUG_TTL_MS = 60_000;
/** A bound on the cache's memory; the oldest entries go first. */
const SLUG_CACHE_MAX_ENTRIES = 10_000;

/**
 * The provider a finder searches with: its settings key `autocomplete_provider` when that names
 * `photon` or a provider the finder has a key for; else the provider of its most recently
 * updated integration; else Photon.
 */
export function chooseProvider(finder: Pick<PlaceFinder, 'preferredProvider' | 'integrations'>) {
  const preferred = finder.preferredProvider?.trim().toLowerCase();
  if (preferred && isPlaceProviderSlug(preferred) && hasProvider(finder, preferred)) return preferred;
  return finder.integrations[0]?.provider ?? DEFAULT_PLACE_PROVIDER;
}

/** Photon needs no key; every other provider is usable only with the finder's key. */
function hasProvider(finder: Pick<PlaceFinder, 'integrations'>, slug: PlaceProviderSlug) {
  return slug === 'photon' || finder.integrations.some((integration) => integration.provider === slug);
}

export interface PublicCaller {
  /** The finder's public token (`finder_key`). */
  finderKey: string;
  /** The calling page's origin (Origin, else Referer), for the finder's authorized_urls. */
  origin: string | undefined;
  /** Aborted when the widget's request closes: the provider call stops too. */
  signal?: AbortSignal;
}

export interface PlaceSearchServiceDeps {
  repository: PlaceSearchRepository;
  providers: PlaceProviders;
  secretBox: SecretBox;
  logger: Logger;
  /** The slug cache's clock, milliseconds since the epoch. */
  now?: () => number;
}

export function createPlaceSearchService({
  repository,
  providers,
  secretBox,
  logger,
  now = () => Date.now(),
}: PlaceSearchServiceDeps) {
  const slugs = new Map<number, { slug: PlaceProviderSlug; expiresAt: number }>();

  /** 404 for an unknown token, 403 for a site the finder does not list. */
  async function resolve(caller: PublicCaller): Promise<PlaceFinder> {
    const finder = await repository.findFinderByToken(caller.finderKey);
    if (!finder) throw createFinderKeyNotFoundError();
    if (!finderAllowsOrigin(finder.authorizedUrls, caller.origin)) throw createOriginNotAllowedError();
    return finder;
  }

  /**
   * The cached choice while it is fresh and still usable; a provider whose key was removed is
   * not kept for the rest of the minute (there is no key left to call it with).
   */
  function providerOf(finder: PlaceFinder): PlaceProviderSlug {
    const cached = slugs.get(finder.id);
    const at = now();
    if (cached && cached.expiresAt > at && hasProvider(finder, cached.slug)) return cached.slug;
    const slug = chooseProvider(finder);
    slugs.delete(finder.id);
    slugs.set(finder.id, { slug, expiresAt: at + PROVIDER_SLUG_TTL_MS });
    if (slugs.size > SLUG_CACHE_MAX_ENTRIES) slugs.delete(slugs.keys().next().value as number);
    return slug;
  }

  /** The finder's key for a keyed provider, decrypted for this call only. */
  function keyFor(finder: PlaceFinder, slug: PlaceProviderSlug): string | undefined {
    if (slug === 'photon') return undefined;
    const integration = finder.integrations.find((candidate) => candidate.provider === slug);
    if (!integration) return undefined;
    try {
      return secretBox.decrypt(integration.apiKeyEncrypted);
    } catch (error) {
      // APP_KEY changed or the row was altered: a server problem, not the visitor's (500).
      logger.error(
        { finderId: finder.id, provider: slug, reason: (error as Error).message },
        'the finder provider key could not be decrypted',
      );
      throw error;
    }
  }

  /** Provider failures as the route's errors; the log names the provider and the failure only. */
  async function call<T>(finder: PlaceFinder, slug: PlaceProviderSlug, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof PlaceNotFoundError) throw createPlaceNotFoundResponseError();
      if (error instanceof UpstreamError) {
        if (error.failure !== 'aborted') {
          logger.warn(
            { finderId: finder.id, provider: slug, failure: error.failure, status: error.status },
            'place provider failed',
          );
        }
        throw createPlaceProviderUnavailableError();
      }
      throw error;
    }
  }

  return {
    async autocomplete(
      caller: PublicCaller,
      input: Omit<AutocompleteInput, 'limit'>,
    ): Promise<{ suggestions: PlaceSuggestion[]; provider: PlaceProviderSlug }> {
      const finder = await resolve(caller);
      const slug = providerOf(finder);
      const apiKey = keyFor(finder, slug);
      const suggestions = await call(finder, slug, () =>
        providers[slug].autocomplete(input, { apiKey, signal: caller.signal }),
      );
      return { suggestions, provider: slug };
    },

    /**
     * `provider` must be the finder's provider (as autocomplete would answer now) or Photon,
     * whose ids carry the place itself: a finder's key is never spent on a provider it does
     * not search with.
     */
    async place(caller: PublicCaller, provider: PlaceProviderSlug, input: PlaceInput): Promise<PlaceDetails> {
      const finder = await resolve(caller);
      const current = providerOf(finder);
      const allowed = [...new Set<PlaceProviderSlug>([current, DEFAULT_PLACE_PROVIDER])];
      if (!allowed.includes(provider)) throw createProviderNotAllowedError(allowed);
      const apiKey = keyFor(finder, provider);
      return call(finder, provider, () =>
        providers[provider].place(input, { apiKey, signal: caller.signal }),
      );
    },
  };
}

export type PlaceSearchService = ReturnType<typeof createPlaceSearchService>;
