// The widget's place search providers, built once at start from the config: each adapter gets
// its provider's real public host, or the one base URL given for its slug in
// PROVIDER_BASE_URLS (a proxy, a test fake); Photon gets PHOTON_URL. Routes pick one by the
// finder's slug and pass the finder's key per call, so one set serves every finder.
import { ConfigError } from '../../../config/config.ts';
import { createGeoapifyPlaceProvider } from './geoapify.provider.ts';
import { createGooglePlaceProvider } from './google.provider.ts';
import { createHerePlaceProvider } from './here.provider.ts';
import { createMapboxPlaceProvider } from './mapbox.provider.ts';
import { createPhotonPlaceProvider } from './photon.provider.ts';
import {
  KEYED_PLACE_PROVIDER_SLUGS,
  type KeyedPlaceProviderSlug,
  type PlaceProvider,
  type PlaceProviderSlug,
} from './place-providers.types.ts';
import { createTomtomPlaceProvider } from './tomtom.provider.ts';

export { PlaceNotFoundError, PlaceProviderKeyMissingError } from './place-providers.errors.ts';
export type {
  AutocompleteInput,
  PlaceDetails,
  PlaceInput,
  PlaceProvider,
  PlaceProviderSlug,
  PlaceSuggestion,
  ProviderContext,
} from './place-providers.types.ts';
export {
  DEFAULT_PLACE_PROVIDER,
  isPlaceProviderSlug,
  KEYED_PLACE_PROVIDER_SLUGS,
  PLACE_PROVIDER_SLUGS,
} from './place-providers.types.ts';

/** Whole call, connection to last byte; a visitor is typing and waits for every keystroke. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 5_000;

/** The public hosts. HERE splits autocomplete and lookup over two. */
export const PUBLIC_PROVIDER_HOSTS = {
  google: 'https://places.googleapis.com',
  mapbox: 'https://api.mapbox.com',
  here: {
    autocomplete: 'https://autocomplete.search.hereapi.com',
    lookup: 'https://lookup.search.hereapi.com',
  },
  tomtom: 'https://api.tomtom.com',
  geoapify: 'https://api.geoapify.com',
} as const;

export interface PlaceProvidersOptions {
  photonUrl: string;
  /** PROVIDER_BASE_URLS: slug -> base URL, keyed providers only. */
  providerBaseUrls: Record<string, string>;
  timeoutMs?: number;
}

export type PlaceProviders = Record<PlaceProviderSlug, PlaceProvider>;

/** Each keyed provider's base URL: the override when given, else the public host. */
export function resolveProviderBaseUrls(providerBaseUrls: Record<string, string>) {
  // A typo ("gogle") would otherwise send that provider to its public host unnoticed.
  const unknown = Object.keys(providerBaseUrls).filter(
    (slug) => !(KEYED_PLACE_PROVIDER_SLUGS as readonly string[]).includes(slug),
  );
  if (unknown.length > 0) {
    throw new ConfigError([
      `PROVIDER_BASE_URLS: unknown provider ${unknown.map((s) => `"${s}"`).join(', ')} (known: ${KEYED_PLACE_PROVIDER_SLUGS.join(', ')}; Photon's is PHOTON_URL)`,
    ]);
  }
  const override = (slug: KeyedPlaceProviderSlug) => providerBaseUrls[slug]?.replace(/\/+$/, '');
  return {
    google: override('google') ?? PUBLIC_PROVIDER_HOSTS.google,
    mapbox: override('mapbox') ?? PUBLIC_PROVIDER_HOSTS.mapbox,
    here: {
      autocomplete: override('here') ?? PUBLIC_PROVIDER_HOSTS.here.autocomplete,
      lookup: override('here') ?? PUBLIC_PROVIDER_HOSTS.here.lookup,
    },
    tomtom: override('tomtom') ?? PUBLIC_PROVIDER_HOSTS.tomtom,
    geoapify: override('geoapify') ?? PUBLIC_PROVIDER_HOSTS.geoapify,
  };
}

export function createPlaceProviders(options: PlaceProvidersOptions): PlaceProviders {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const bases = resolveProviderBaseUrls(options.providerBaseUrls);
  return {
    google: createGooglePlaceProvider({ baseUrl: bases.google, timeoutMs }),
    mapbox: createMapboxPlaceProvider({ baseUrl: bases.mapbox, timeoutMs }),
    here: createHerePlaceProvider({
      autocompleteBaseUrl: bases.here.autocomplete,
      lookupBaseUrl: bases.here.lookup,
      timeoutMs,
    }),
    tomtom: createTomtomPlaceProvider({ baseUrl: bases.tomtom, timeoutMs }),
    geoapify: createGeoapifyPlaceProvider({ baseUrl: bases.geoapify, timeoutMs }),
    photon: createPhotonPlaceProvider({ baseUrl: options.photonUrl.replace(/\/+$/, ''), timeoutMs }),
  };
}
