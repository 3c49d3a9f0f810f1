// The geocoder chosen by GEOCODER, built once at start: `none` never geocodes, `google` calls
// the Geocoding API with GEOCODER_API_KEY (base GEOCODER_BASE_URL or Google's host), `photon`
// calls Photon without a key (base GEOCODER_BASE_URL or PHOTON_URL), `nominatim` calls
// Nominatim without a key (base GEOCODER_BASE_URL or OpenStreetMap's public server).
import { type Config, ConfigError } from '../../config/config.ts';
import type { Geocoder } from './geocoding.types.ts';
import { createGoogleGeocoder } from './google.geocoder.ts';
import { createNominatimGeocoder, NOMINATIM_HOST } from './nominatim.geocoder.ts';
import { createPhotonGeocoder } from './photon.geocoder.ts';

export type {
  GeocodeContext,
  GeocodePrecision,
  GeocodeResult,
  Geocoder,
} from './geocoding.types.ts';
export { GEOCODE_PRECISIONS, GEOCODER_KINDS, PRECISE_PRECISIONS } from './geocoding.types.ts';

export const DEFAULT_GEOCODER_TIMEOUT_MS = 5_000;
export const GOOGLE_GEOCODING_HOST = 'https://maps.googleapis.com';
/** Nominatim's usage policy asks every client to name itself; deps.ts adds the service's URL. */
export const DEFAULT_USER_AGENT = 'location-finder-service';

const noGeocoder: Geocoder = {
  kind: 'none',
  geocode: async () => undefined,
};

export function createGeocoder(
  config: Omit<Config['geocoder'], 'ratePerSecond'>,
  photonUrl: string,
  options: { timeoutMs?: number; userAgent?: string } = {},
): Geocoder {
  const timeoutMs = options.timeoutMs ?? DEFAULT_GEOCODER_TIMEOUT_MS;
  const baseUrl = config.baseUrl?.replace(/\/+$/, '');
  switch (config.kind) {
    case 'none':
      return noGeocoder;
    case 'google':
      // Found at start rather than as REQUEST_DENIED on the first import.
      if (!config.apiKey) throw new ConfigError(['GEOCODER_API_KEY: is required when GEOCODER is google']);
      return createGoogleGeocoder({
        baseUrl: baseUrl ?? GOOGLE_GEOCODING_HOST,
        timeoutMs,
        apiKey: config.apiKey,
      });
    case 'photon':
      return createPhotonGeocoder({ baseUrl: baseUrl ?? photonUrl.replace(/\/+$/, ''), timeoutMs });
    case 'nominatim':
      return createNominatimGeocoder({
        baseUrl: baseUrl ?? NOMINATIM_HOST,
        timeoutMs,
        userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      });
  }
}
