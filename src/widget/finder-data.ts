// The locations a view shows, behind one interface whether the finder came as a single file
// (every location's details at hand) or chunked (an index of all of them, their details fetched
// area by area as rows, markers and the details card need them: chunked/chunked-data.ts). The
// view asks for results (the locations passing the visitor's filters, nearest first from a
// search position) and reads a location's details when it draws it.
import { distanceKm, hasPosition, type LatLng } from '../lib/geo.ts';
import { createLocationFilter, type FilterSelection } from './filter.ts';
import { hasHours, isOpenNow } from './hours.open.ts';
import type { FinderLocation, FinderPayload } from './types.ts';

/** The locations passing a selection, in the list's order. */
export interface Results {
  readonly length: number;
  /** The location at list position `p` (0 <= p < length). */
  at(p: number): number;
  /** The list position of location `i`; -1 when it does not pass. */
  positionOf(i: number): number;
  /** The first `count` in the list's order. */
  first(count: number): number[];
  /** Every location passing, in any order: the map's markers. */
  readonly members: readonly number[];
}

export interface FinderData {
  readonly count: number;
  /** Some location has opening hours: the open-now filter and the minute's tick are there for them. */
  readonly withHours: boolean;
  /** Location i's details; undefined while they are not loaded. */
  location(i: number): FinderLocation | undefined;
  /** Location i's position; null when it has none. */
  position(i: number): LatLng | null;
  /** Loads the details of these locations; resolves when they are at hand (or failed to load). */
  load(indexes: Iterable<number>): Promise<void>;
  /** The location of this id, when the finder has it and it is known yet. */
  indexOfId(id: number): number | undefined;
  /**
   * The locations passing `selection`, nearest to `origin` first (without one, the finder's
   * order). Until the data is complete, only what is at hand: the early list near a prepared
   * origin, none when filters are chosen.
   */
  results(selection: FilterSelection, origin: LatLng | null): Results;
  /** False while a chunked finder's index loads. */
  readonly complete: boolean;
  /** Loads what the data lacks to be complete; rejects when it cannot. */
  whenComplete(): Promise<void>;
  /** Makes the results near `origin` available before the data is complete. */
  prepare(origin: LatLng): Promise<void>;
}

/** Results held in an array in the list's order. */
export function listedResults(order: readonly number[]): Results {
  let positions: Map<number, number> | undefined;
  return {
    length: order.length,
    at: (p) => order[p] as number,
    positionOf(i) {
      positions ??= new Map(order.map((location, p) => [location, p]));
      return positions.get(i) ?? -1;
    },
    first: (count) => order.slice(0, count),
    members: order,
  };
}

/** A single file's locations: all at hand, ranked by measuring them all. */
export function singleFileData(payload: FinderPayload, tagMode: 'any' | 'all'): FinderData {
  const { locations } = payload;
  const idToIndex = new Map(locations.map((location, i) => [location.id, i]));
  const filter = createLocationFilter(locations, payload.advanced_refinements, tagMode, isOpenNow);
  const natural = locations.map((_, i) => i);
  // The last search position's order: the filters change far more often than the position.
  let ranked: { origin: LatLng; order: number[] } | null = null;
  const orderFrom = (origin: LatLng) => {
    if (ranked?.origin.lat !== origin.lat || ranked.origin.lng !== origin.lng) {
      const km = new Float64Array(locations.length);
      locations.forEach((location, i) => {
        km[i] = hasPosition(location) ? distanceKm(origin, location) : Number.POSITIVE_INFINITY;
      });
      ranked = { origin, order: natural.slice().sort((a, b) => (km[a] as number) - (km[b] as number)) };
    }
    return ranked.order;
  };
  return {
    count: locations.length,
    withHours: hasHours(locations),
    location: (i) => locations[i],
    position(i) {
      const location = locations[i];
      return location && hasPosition(location) ? location : null;
    },
    load: async () => {},
    complete: true,
    whenComplete: async () => {},
    prepare: async () => {},
    indexOfId: (id) => idToIndex.get(id),
    results: (selection, origin) =>
      listedResults(filter.apply(selection, origin ? orderFrom(origin) : natural)),
  };
}
