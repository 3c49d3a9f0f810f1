// The contract of a geocoder (GEOCODER): one address in, the best point and how precise it is out.
// Used when AI-drafted locations are imported; the caller keeps only ROOFTOP and RANGE_INTERPOLATED
// results (docs/api.md, "AI import: routes and lifecycle"), so a geocoder reports precision
// honestly and drops nothing itself. Kept apart from the factory so adapters import it without a
// cycle.

/** The values of GEOCODER. */
export const GEOCODER_KINDS = ['none', 'google', 'photon', 'nominatim'] as const;
export type GeocoderKind = (typeof GEOCODER_KINDS)[number];

/** Google's location_type vocabulary, shared by every geocoder. */
export const GEOCODE_PRECISIONS = [
  'ROOFTOP',
  'RANGE_INTERPOLATED',
  'GEOMETRIC_CENTER',
  'APPROXIMATE',
] as const;
export type GeocodePrecision = (typeof GEOCODE_PRECISIONS)[number];

/** The only precisions that set a location's coordinates (docs/api.md, Geocoding). */
export const PRECISE_PRECISIONS: readonly GeocodePrecision[] = ['ROOFTOP', 'RANGE_INTERPOLATED'];

export interface GeocodeResult {
  lat: number;
  lng: number;
  precision: GeocodePrecision;
  formatted_address: string;
}

export interface GeocodeContext {
  /** The request or job was cancelled: stop waiting for the geocoder. */
  signal?: AbortSignal;
  /**
   * The address's street line (a location's `address`), where a geocoder that judges precision
   * by the house number looks for it: not in the zip ("10178") or a city's district ("Dublin 2").
   * Without it, the whole query.
   */
  streetLine?: string;
}

/**
 * Resolves undefined when the geocoder finds nothing (or, for `none`, never looks). Geocoder
 * failures (no connection, timeout, non-2xx, quota or denial reported in the body, a body of
 * another shape) reject with UpstreamError; a cancelled call with UpstreamError `aborted`.
 */
export interface Geocoder {
  readonly kind: GeocoderKind;
  geocode(address: string, context?: GeocodeContext): Promise<GeocodeResult | undefined>;
}

export interface GeocoderOptions {
  baseUrl: string;
  timeoutMs: number;
}
