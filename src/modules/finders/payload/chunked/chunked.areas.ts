// The areas a chunked publish splits a finder's locations into (docs/api.md, Publishing: chunked
// finders): each a detail file of at most MAX_AREA_LOCATIONS locations that lie close together,
// so a visitor's first list needs one or a few of them. Cells of the geohash grid (ngeohash's
// integer form: each 2 more bits halve a cell both ways), split into their 4 children while they
// hold too many; runs of neighbouring children that fit together share one area, so a sparse
// region is not cut into many tiny files. An edit changes the areas of its own cell only:
// elsewhere the files keep their bytes, and so their names.
import ngeohash from 'ngeohash';
import { type AreaBounds, areaCenter, distanceKm } from '../../../../lib/geo.ts';

/** Locations of one area's file at most, but where more share one point (below). */
export const MAX_AREA_LOCATIONS = 256;
/** Geohash bits: 26 a coordinate, a cell of about 60 by 30 centimetres at the finest. */
const BITS = 52;
/** Bits per split: the 4 quarters of a cell. */
const STEP = 2;

export interface PlacedLocation {
  id: number;
  lat: number;
  lng: number;
}

export interface Area {
  /** By id, ascending. */
  ids: number[];
  /** The smallest box around them, rounded outwards to 0.0001 degrees: [south, west, north, east]. */
  bounds: AreaBounds;
  /**
   * The largest distance from the middle of the bounds to one of them, kilometres, rounded up
   * to the metre: with it the widget knows how close an area's locations can be (areaDistanceBoundKm).
   */
  radiusKm: number;
}

/** Bounds are written in steps of 1 / BOUNDS_STEP degrees (about 11 metres). */
const BOUNDS_STEP = 1e4;
const roundDown = (degrees: number) => Math.floor(degrees * BOUNDS_STEP) / BOUNDS_STEP;
const roundUp = (degrees: number) => Math.ceil(degrees * BOUNDS_STEP) / BOUNDS_STEP;

/** The cell of `depth` bits a hash lies in, as a number. */
const cellOf = (hash: number, depth: number) => Math.floor(hash / 2 ** (BITS - depth));

/** An area of locations without a position: no bounds, no radius. */
export interface UnplacedArea {
  ids: number[];
  bounds: null;
  radiusKm: null;
}

/**
 * A chunked publish's areas, in the order the index lists them: those of the placed locations
 * (splitIntoAreas), then the unplaced ones by id, MAX_AREA_LOCATIONS to an area.
 */
export function publishAreas(
  placed: readonly PlacedLocation[],
  unplaced: readonly number[],
): (Area | UnplacedArea)[] {
  const byId = [...unplaced].sort((a, b) => a - b);
  const rest: UnplacedArea[] = [];
  for (let start = 0; start < byId.length; start += MAX_AREA_LOCATIONS) {
    rest.push({ ids: byId.slice(start, start + MAX_AREA_LOCATIONS), bounds: null, radiusKm: null });
  }
  return [...splitIntoAreas(placed), ...rest];
}

/**
 * The areas of `locations`, in geohash order (neighbouring areas mostly follow each other).
 * Locations sharing one cell of the finest grid (the same point) beyond MAX_AREA_LOCATIONS are
 * cut into files of that many by id.
 */
export function splitIntoAreas(locations: readonly PlacedLocation[], max = MAX_AREA_LOCATIONS): Area[] {
  // Typed arrays and an order of indexes: a sort of 100,000 objects took ten times as long.
  const hashes = new Float64Array(locations.length);
  for (let i = 0; i < locations.length; i++) {
    hashes[i] = ngeohash.encode_int(locations[i]!.lat, locations[i]!.lng, BITS);
  }
  const order = Array.from(locations, (_, i) => i).sort(
    (a, b) => hashes[a]! - hashes[b]! || locations[a]!.id - locations[b]!.id,
  );
  const hashAt = (k: number) => hashes[order[k]!]!;
  const areaOf = (from: number, to: number): Area => {
    const members = order.slice(from, to).map((i) => locations[i]!);
    let south = 90;
    let west = 180;
    let north = -90;
    let east = -180;
    for (const { lat, lng } of members) {
      south = Math.min(south, lat);
      north = Math.max(north, lat);
      west = Math.min(west, lng);
      east = Math.max(east, lng);
    }
    // Rounded outwards, to keep the manifest short (it lists every area, and a visitor's first
    // list waits for it): the box still holds every member, and the radius is measured from
    // the middle of the box as written, which is where the widget measures from.
    const bounds: AreaBounds = [
      Math.max(-90, roundDown(south)),
      Math.max(-180, roundDown(west)),
      Math.min(90, roundUp(north)),
      Math.min(180, roundUp(east)),
    ];
    const center = areaCenter(bounds);
    let radius = 0;
    for (const member of members) radius = Math.max(radius, distanceKm(center, member));
    return {
      ids: members.map((member) => member.id).sort((a, b) => a - b),
      bounds,
      // Rounded up: a bound that rounding made smaller would not hold.
      radiusKm: Math.ceil(radius * 1000) / 1000,
    };
  };
  /** The first position from `from` to `to` whose hash is `hash` or more; `to` when none. */
  const firstFrom = (hash: number, from: number, to: number) => {
    let low = from;
    let high = to;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (hashAt(middle) < hash) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const areas: Area[] = [];

  // The locations from `from` to `to` of the order share their first `depth` geohash bits.
  const split = (from: number, to: number, depth: number): void => {
    if (to - from <= max) {
      areas.push(areaOf(from, to));
      return;
    }
    if (depth === BITS) {
      for (let start = from; start < to; start += max) areas.push(areaOf(start, Math.min(start + max, to)));
      return;
    }
    // The children cells present, as runs of the order, each found by a binary search for where
    // the next child's hashes begin.
    const childSize = 2 ** (BITS - depth - STEP);
    const firstChild = cellOf(hashAt(from), depth) * 2 ** STEP;
    const children: [number, number][] = [];
    for (let child = 0, start = from; child < 2 ** STEP && start < to; child++) {
      const end = firstFrom((firstChild + child + 1) * childSize, start, to);
      if (end > start) children.push([start, end]);
      start = end;
    }
    // Neighbouring children that fit together make one area; a child too large is split further.
    let run: [number, number] | undefined;
    const closeRun = () => {
      if (run) areas.push(areaOf(run[0], run[1]));
      run = undefined;
    };
    for (const [start, end] of children) {
      if (end - start > max) {
        closeRun();
        split(start, end, depth + STEP);
      } else if (run && end - run[0] <= max) {
        run[1] = end;
      } else {
        closeRun();
        run = [start, end];
      }
    }
    closeRun();
  };

  if (locations.length > 0) split(0, locations.length, 0);
  return areas;
}
