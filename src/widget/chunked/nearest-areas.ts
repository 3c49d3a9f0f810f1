// The nearest locations to a position in a chunked finder (docs/api.md, Publishing: chunked
// finders) before its index is at hand: the manifest lists each area file with its bounds and
// radius, which say how close its locations can be to the position. Areas are read nearest
// bound first, a few at once, and the search widens until no area left unread can hold a
// location closer than the `count`-th found: a rural search reads further until it has its
// results, never answering "none" while locations exist.
import { type AreaBounds, areaDistanceBoundKm, distanceKm, hasPosition, type LatLng } from '../../lib/geo.ts';

/** An area file as the manifest lists it. */
export interface ManifestArea {
  /** Relative to the manifest. */
  path: string;
  count: number;
  /** Null for the locations without a position. */
  bounds: AreaBounds | null;
  radiusKm: number | null;
}

/** Area files read at once: the nearest few usually hold the first list. */
const AREAS_AT_ONCE = 3;

/** The manifest's `chunked.areas` entries, or undefined when one is not of their shape. */
/** How many locations the areas hold together. */
export const locationsIn = (areas: readonly ManifestArea[]) =>
  areas.reduce((sum, area) => sum + area.count, 0);

export function readManifestAreas(entries: unknown): ManifestArea[] | undefined {
  if (!Array.isArray(entries)) return undefined;
  const areas: ManifestArea[] = [];
  for (const entry of entries) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Number.isInteger(entry[1]) || entry[1] < 0)
      return undefined;
    const numbers = entry.slice(2);
    if (numbers.length === 0) {
      areas.push({ path: entry[0], count: entry[1], bounds: null, radiusKm: null });
      continue;
    }
    // The areas with a position come first: the index's positions are those of their locations.
    if (areas.at(-1)?.bounds === null) return undefined;
    if (numbers.length !== 5 || !numbers.every((n) => typeof n === 'number' && Number.isFinite(n)))
      return undefined;
    const [south, west, north, east, radiusKm] = numbers as number[];
    areas.push({
      path: entry[0],
      count: entry[1],
      bounds: [south!, west!, north!, east!],
      radiusKm: radiusKm!,
    });
  }
  return areas;
}

export interface Ranked<T> {
  location: T;
  km: number;
}

/**
 * The `count` located locations nearest to `point` (nearest first; fewer when the finder has
 * fewer), reading areas through `load` only as far as needed; and the areas read.
 */
export async function nearestInAreas<T extends { lat?: number | null; lng?: number | null }>(
  areas: readonly ManifestArea[],
  point: LatLng,
  count: number,
  load: (area: ManifestArea) => Promise<T[]>,
): Promise<{ nearest: Ranked<T>[]; read: ManifestArea[] }> {
  const byBound = areas
    .filter((area) => area.bounds && area.radiusKm !== null)
    .map((area) => ({ area, bound: areaDistanceBoundKm(area.bounds!, area.radiusKm!, point) }))
    .sort((a, b) => a.bound - b.bound);
  const found: Ranked<T>[] = [];
  const read: ManifestArea[] = [];
  if (count <= 0) return { nearest: found, read };
  /** The distance of the count-th nearest found so far. */
  const reach = () => (found.length >= count ? found[count - 1]!.km : Number.POSITIVE_INFINITY);
  let next = 0;
  while (next < byBound.length && byBound[next]!.bound < reach()) {
    const batch: ManifestArea[] = [];
    while (batch.length < AREAS_AT_ONCE && next < byBound.length && byBound[next]!.bound < reach()) {
      batch.push(byBound[next++]!.area);
    }
    const loaded = await Promise.all(batch.map(load));
    read.push(...batch);
    for (const location of loaded.flat()) {
      if (hasPosition(location)) found.push({ location, km: distanceKm(point, location) });
    }
    found.sort((a, b) => a.km - b.km);
  }
  return { nearest: found.slice(0, count), read };
}
