// Great-circle distances (haversine on a spherical Earth: close enough for "nearest first")
// and their display in kilometres or miles in the visitor's language.
import type { LatLng } from './types.ts';

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_MILE = 1.609344;
const RADIANS = Math.PI / 180;

export function distanceKm(from: LatLng, to: LatLng): number {
  const dLat = (to.lat - from.lat) * RADIANS;
  const dLng = (to.lng - from.lng) * RADIANS;
  const a =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(from.lat * RADIANS) * Math.cos(to.lat * RADIANS) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

export function hasPosition(point: { lat?: number | null; lng?: number | null }): point is LatLng {
  return (
    typeof point.lat === 'number' &&
    typeof point.lng === 'number' &&
    Number.isFinite(point.lat) &&
    Number.isFinite(point.lng) &&
    Math.abs(point.lat) <= 90 &&
    Math.abs(point.lng) <= 180
  );
}

/** One decimal below 10 units, whole numbers above: "1.4 km", "12 mi", "0,3 km" in German. */
export function createDistanceFormatter(units: 'km' | 'mi', language: string): (km: number) => string {
  const unit = units === 'mi' ? 'mile' : 'kilometer';
  const fine = new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 1 });
  const coarse = new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 0 });
  return (km) => {
    const value = units === 'mi' ? km / KM_PER_MILE : km;
    return (value < 10 ? fine : coarse).format(value);
  };
}
