// Great-circle distances (haversine on a spherical Earth: close enough for "nearest first") and
// the areas of a chunked publish as distances see them: the widget ranks locations with these,
// and a publish writes each area's radius with the same formula, so the widget's lower bounds
// hold for the positions the service measured.

export interface LatLng {
  lat: number;
  lng: number;
}

const EARTH_RADIUS_KM = 6371.0088;
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

/** An area's bounds: [south, west, north, east], degrees, never across the antimeridian. */
export type AreaBounds = [number, number, number, number];

/** The point an area's radius is measured from: the middle of its bounds. */
export const areaCenter = ([south, west, north, east]: AreaBounds): LatLng => ({
  lat: (south + north) / 2,
  lng: (west + east) / 2,
});

/**
 * No location of an area with these bounds and radius (the largest distance from its centre to
 * one of them) is closer to `point` than this: the triangle inequality on the sphere.
 */
export const areaDistanceBoundKm = (bounds: AreaBounds, radiusKm: number, point: LatLng): number =>
  Math.max(0, distanceKm(point, areaCenter(bounds)) - radiusKm);
