// A chunked finder's index (docs/api.md, Publishing: chunked finders) as the widget uses it:
// every location's id, position, tags, sets, refinements and opening schedule in typed arrays,
// and a spatial index over the positions (kdbush), so that the nearest locations passing the
// visitor's filters come from geokdbush's nearest-first walk rather than from measuring and
// sorting all of them.
import { around } from 'geokdbush';
import KDBush from 'kdbush';
import { sums } from '../../lib/deltas.ts';
import type { OpeningSchedule } from '../../lib/hours/hours.model.ts';
import { isIntegerList, isStringList } from '../../lib/json-lists.ts';
import { locationsIn, type ManifestArea } from './nearest-areas.ts';

/** Integers per degree in the index (the publish's INDEX_COORDINATE_SCALE). */
const COORDINATE_SCALE = 1e5;

export interface ChunkedIndex {
  /** Locations in the index's order (area by area, those with a position first). */
  count: number;
  ids: Float64Array;
  /** The area file each location's details are in, as an index into the manifest's areas. */
  areas: Uint32Array;
  /** The first `placed` locations have a position: lat[i], lng[i] in degrees. */
  placed: number;
  lat: Float64Array;
  lng: Float64Array;
  /** Bitsets by the manifest's tags, sets and advanced refinements (src/lib/bits.ts). */
  tags: Uint8Array[];
  sets: Uint8Array[];
  refinements: Uint8Array[];
  /** Each location's schedule in `schedules`, -1 for none. */
  schedule: Int32Array;
  schedules: OpeningSchedule[];
  /** Over the placed locations; an item is its index. */
  spatial: KDBush;
}

function bitsets(encoded: string[], count: number): Uint8Array[] | undefined {
  const sets: Uint8Array[] = [];
  for (const base64 of encoded) {
    let bytes: string;
    try {
      bytes = atob(base64);
    } catch {
      return undefined;
    }
    if (bytes.length !== Math.ceil(count / 8)) return undefined;
    sets.push(Uint8Array.from(bytes, (char) => char.charCodeAt(0)));
  }
  return sets;
}

/**
 * The index file's body read against the manifest's areas (whose counts say which area each
 * location is in), or undefined when it is not of the index's shape or does not match them.
 */
export function readIndex(body: unknown, manifestAreas: readonly ManifestArea[]): ChunkedIndex | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const file = body as Record<string, unknown>;
  const { id, lat, lng, schedule, schedules } = file;
  if (!isIntegerList(id) || !isIntegerList(lat) || !isIntegerList(lng) || !isIntegerList(schedule))
    return undefined;
  // Each schedule is an object (hours.model.ts): "Open now" reads its fields.
  if (!Array.isArray(schedules) || !schedules.every((entry) => typeof entry === 'object' && entry !== null)) {
    return undefined;
  }
  const count = id.length;
  const placed = locationsIn(manifestAreas.filter((area) => area.bounds));
  if (
    locationsIn(manifestAreas) !== count ||
    lat.length !== placed ||
    lng.length !== placed ||
    schedule.length !== count
  ) {
    return undefined;
  }
  const [tags, sets, refinements] = [file.tags, file.sets, file.refinements].map((encoded) =>
    isStringList(encoded) ? bitsets(encoded, count) : undefined,
  );
  if (!tags || !sets || !refinements) return undefined;
  const areas = new Uint32Array(count);
  let at = 0;
  manifestAreas.forEach((area, index) => {
    areas.fill(index, at, at + area.count);
    at += area.count;
  });
  const latitudes = sums(lat, COORDINATE_SCALE);
  const longitudes = sums(lng, COORDINATE_SCALE);
  const spatial = new KDBush(Math.max(placed, 1));
  for (let i = 0; i < placed; i++) spatial.add(longitudes[i]!, latitudes[i]!);
  // An empty kdbush cannot be finished: one item far off stands in, and is never a placed index.
  if (placed === 0) spatial.add(0, 0);
  spatial.finish();
  return {
    count,
    ids: sums(id),
    areas,
    placed,
    lat: latitudes,
    lng: longitudes,
    tags,
    sets,
    refinements,
    schedule: Int32Array.from(schedule),
    schedules: schedules as OpeningSchedule[],
    spatial,
  };
}

/**
 * The indexes of the `count` placed locations nearest to the point that `passes` accepts,
 * nearest first (geokdbush: great-circle distances, ties in no set order).
 */
export function nearestInIndex(
  index: ChunkedIndex,
  point: { lat: number; lng: number },
  count: number,
  passes: (location: number) => boolean = () => true,
): number[] {
  if (index.placed === 0 || count <= 0) return [];
  return around(index.spatial, point.lng, point.lat, count, Number.POSITIVE_INFINITY, passes);
}
