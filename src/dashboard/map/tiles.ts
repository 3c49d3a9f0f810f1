// Where the dashboard's maps take their tiles: the template the page names in
// <meta name="lf-tile-url"> (the service writes DASHBOARD_TILE_URL, the one tile origin its page
// policy admits; a build hosted elsewhere writes it at build time), OpenStreetMap's by default.
import { OSM_TILE_URL } from '../../widget/settings.ts';
import type { LatLng } from '../../widget/types.ts';

const named = document.querySelector<HTMLMetaElement>('meta[name="lf-tile-url"]')?.content.trim() ?? '';

/** The service and the build check the template they write; a hand-edited page's is not trusted. */
function isUrl(value: string): boolean {
  try {
    return new URL(value).protocol.startsWith('http');
  } catch {
    return false;
  }
}

export const tileUrl = isUrl(named) ? named : OSM_TILE_URL;

/** OpenStreetMap's tiles need its credit; another provider's is the operator's to configure. */
export const tileAttribution =
  new URL(tileUrl).origin === new URL(OSM_TILE_URL).origin ? '© OpenStreetMap contributors' : '';

export type { LatLng };

/** Six decimals: about 10 cm, more than a pin placed by hand means. */
export const roundDegrees = (value: number) => Math.round(value * 1e6) / 1e6;

/** A position from two typed texts, or null when either is not a number in range. */
export function typedPosition(lat: string, lng: string): LatLng | null {
  if (lat.trim() === '' || lng.trim() === '') return null;
  const latitude = Number(lat);
  const longitude = Number(lng);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { lat: latitude, lng: longitude };
}
