// A chunked finder's locations (docs/api.md, Publishing: chunked finders) as the view reads
// them (finder-data.ts). The manifest lists the area files; the index holds every location's
// id, position, tags, sets, refinements and schedule. Until the index has loaded, the nearest
// areas to a search position give the first list (prepare); after, the filters run over the
// index's bitsets, each distinct schedule's "open now" is computed once, and the nearest come
// from its spatial index, only as many as the list has shown so far. Details are fetched area
// by area, each area once, when a row, a marker or the details card needs them.
import { around } from 'geokdbush';
import { hasBit } from '../../lib/bits.ts';
import { distanceKm, hasPosition, type LatLng } from '../../lib/geo.ts';
import { type FilterSelection, selectionSize } from '../filter.ts';
import { type FinderData, listedResults, type Results } from '../finder-data.ts';
import { isScheduleOpen } from '../hours.open.ts';
import type { ChunkedSource, FinderLocation, FinderPayload } from '../types.ts';
import { type ChunkedIndex, readIndex } from './index-file.ts';
import { nearestInAreas } from './nearest-areas.ts';

/** The locations the first list shows before the index has loaded. */
const FIRST_LIST = 20;
/** The nearest are ranked this many at least, and twice as many as before when the list needs more. */
const RANK_AT_LEAST = 64;
/** Up to this many passing locations are all measured and sorted at once. */
const RANK_ALL_UP_TO = 2000;

type Fetch = (url: string) => Promise<unknown>;
type Normalize = (body: unknown) => FinderLocation | undefined;

/** Byte by byte, `into` becomes `into & bits` (all) or `into | bits` (any). */
function combine(into: Uint8Array, bits: Uint8Array, all: boolean): void {
  for (let b = 0; b < into.length; b++) into[b] = all ? into[b]! & bits[b]! : into[b]! | bits[b]!;
}

/** Of these bitsets, where all (or any) hold; undefined when no bitset is given. */
function joined(bitsets: Uint8Array[], bytes: number, all: boolean): Uint8Array | undefined {
  if (bitsets.length === 0) return undefined;
  const result = new Uint8Array(bytes).fill(all ? 0xff : 0);
  for (const bits of bitsets) combine(result, bits, all);
  return result;
}

/**
 * Which locations pass the selection, as a bitset over the index (hasBit): null when all of
 * them do. Tags, sets, refinements and "open now" (openLocations) combine byte by byte.
 */
function passing(
  index: ChunkedIndex,
  payload: FinderPayload,
  selection: FilterSelection,
  tagMode: 'any' | 'all',
): Uint8Array | null {
  if (selectionSize(selection) === 0) return null;
  const bytes = Math.ceil(index.count / 8);
  const none = new Uint8Array(bytes);
  const tagBits = [...selection.tags].map((slug) => {
    const k = payload.tags.findIndex((tag) => tag.slug === slug);
    // A tag the finder does not have: no location carries it.
    return (k < 0 ? undefined : index.tags[k]) ?? none;
  });
  const setBits = payload.sets.flatMap((set, k) =>
    selection.sets.has(set.id) ? [index.sets[k] ?? none] : [],
  );
  const refinementBits = [...selection.refinements].map((k) => index.refinements[k] ?? none);
  const pass = new Uint8Array(bytes).fill(0xff);
  for (const chosen of [
    joined(tagBits, bytes, tagMode === 'all'),
    joined(setBits, bytes, false),
    joined(refinementBits, bytes, true),
  ]) {
    if (chosen) combine(pass, chosen, true);
  }
  if (selection.open.size > 0) combine(pass, openLocations(index, Date.now()), true);
  return pass;
}

/**
 * Which locations of the index are open at `now`, as a bitset (hasBit): each distinct schedule's
 * state is computed once, however many locations share it.
 */
export function openLocations(index: ChunkedIndex, now: number): Uint8Array {
  const open = index.schedules.map((schedule) => isScheduleOpen(schedule, now));
  const bits = new Uint8Array(Math.ceil(index.count / 8));
  for (let i = 0; i < index.count; i++) {
    // -1 (no schedule) is never open.
    if (open[index.schedule[i]!]) bits[i >> 3]! |= 1 << (i & 7);
  }
  return bits;
}

/**
 * The passing locations nearest `origin` first, ranked through the spatial index only as far
 * as the list asks; those without a position follow, in the index's order.
 */
function nearestResults(
  index: ChunkedIndex,
  pass: Uint8Array | null,
  members: number[],
  origin: LatLng,
): Results {
  let ranked: number[] = [];
  let complete = false;
  /** Every passing location measured and sorted: cheaper than the tree's walk for a few, and a bound on it for any. */
  const rankAll = () => {
    const placed = members.filter((i) => i < index.placed);
    const km = Float64Array.from(placed, (i) =>
      distanceKm(origin, { lat: index.lat[i]!, lng: index.lng[i]! }),
    );
    const order = Array.from(placed, (_, k) => k).sort((a, b) => km[a]! - km[b]!);
    ranked = [...order.map((k) => placed[k]!), ...members.filter((i) => i >= index.placed)];
    complete = true;
  };
  if (members.length <= RANK_ALL_UP_TO) rankAll();
  const rankTo = (wanted: number) => {
    if (complete || wanted <= ranked.length) return;
    const count = Math.max(wanted, ranked.length * 2, RANK_AT_LEAST);
    ranked = around(
      index.spatial,
      origin.lng,
      origin.lat,
      count,
      Number.POSITIVE_INFINITY,
      pass ? (i) => hasBit(pass, i) === 1 : undefined,
    );
    if (index.placed === 0) ranked = [];
    if (ranked.length < count) {
      for (let i = index.placed; i < index.count; i++) if (!pass || hasBit(pass, i) === 1) ranked.push(i);
      complete = true;
    }
  };
  return {
    length: members.length,
    at(p) {
      rankTo(p + 1);
      return ranked[p] as number;
    },
    positionOf(i) {
      if (i < 0 || i >= index.count || (pass && hasBit(pass, i) !== 1)) return -1;
      const p = ranked.indexOf(i);
      if (p >= 0 || complete) return p;
      // Far down the list (a marker far away): one sort of all rather than ever longer walks.
      rankAll();
      return ranked.indexOf(i);
    },
    first(count) {
      rankTo(count);
      return ranked.slice(0, count);
    },
    members,
  };
}

/** Every location in the index's order, before the index: the list is read area by area. */
function firstOfAll(count: number): Results {
  return {
    length: count,
    at: (p) => p,
    positionOf: (i) => (i >= 0 && i < count ? i : -1),
    first: (wanted) => Array.from({ length: Math.min(wanted, count) }, (_, i) => i),
    // The map waits for the index: it has every position.
    members: [],
  };
}

export function chunkedData(
  payload: FinderPayload,
  source: ChunkedSource,
  tagMode: 'any' | 'all',
  fetchJson: Fetch,
  normalize: Normalize,
): FinderData {
  const { areas, count } = source;
  /** The index of each area's first location. */
  const starts: number[] = [];
  areas.reduce((start, area) => starts.push(start) && start + area.count, 0);
  const areaNumbers = new Map(areas.map((area, a) => [area, a]));
  const locations: (FinderLocation | undefined)[] = new Array(count);
  const areaLoads = new Map<number, Promise<void>>();
  let index: ChunkedIndex | undefined;
  let indexLoad: Promise<ChunkedIndex> | undefined;
  let idToIndex: Map<number, number> | undefined;
  let natural: number[] | undefined;
  /** The first list near a position, before the index; the one being read. */
  let early: { origin: LatLng; order: number[] } | undefined;
  let preparing: { origin: LatLng; done: Promise<void> } | undefined;

  /** The area holding location i: the last whose start is at or before it. */
  const areaOf = (i: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= i) low = middle;
      else high = middle - 1;
    }
    return low;
  };

  const loadArea = (a: number): Promise<void> => {
    let pending = areaLoads.get(a);
    if (!pending) {
      const area = areas[a]!;
      pending = fetchJson(new URL(area.path, source.base).href).then((body) => {
        const read = Array.isArray(body) ? body.map(normalize) : [];
        if (read.length !== area.count || read.some((location) => !location))
          throw new Error(`area file ${area.path} does not match the manifest`);
        read.forEach((location, k) => {
          locations[starts[a]! + k] = location;
        });
      });
      // A failed area is fetched again the next time it is needed.
      pending.catch(() => areaLoads.delete(a));
      areaLoads.set(a, pending);
    }
    return pending;
  };

  const loadIndex = (): Promise<ChunkedIndex> => {
    indexLoad ??= fetchJson(source.index).then((body) => {
      const read = readIndex(body, areas);
      if (!read) throw new Error('the index does not match the manifest');
      index = read;
      return read;
    });
    indexLoad.catch(() => {
      indexLoad = undefined;
    });
    return indexLoad;
  };

  const naturalOrder = () => {
    natural ??= Array.from({ length: count }, (_, i) => i);
    return natural;
  };

  const readNearest = async (origin: LatLng) => {
    const { nearest } = await nearestInAreas(areas, origin, FIRST_LIST, async (area) => {
      const a = areaNumbers.get(area)!;
      await loadArea(a);
      return Array.from({ length: area.count }, (_, k) => {
        const i = starts[a]! + k;
        const location = locations[i]!;
        return { i, lat: location.lat, lng: location.lng };
      });
    });
    // A later position's read may have started meanwhile: its list is the one wanted.
    if (preparing?.origin === origin) early = { origin, order: nearest.map(({ location }) => location.i) };
  };

  return {
    count,
    withHours: source.hours,
    location: (i) => locations[i],
    position(i) {
      if (index) return i < index.placed ? { lat: index.lat[i]!, lng: index.lng[i]! } : null;
      const location = locations[i];
      return location && hasPosition(location) ? location : null;
    },
    async load(indexes) {
      const wanted = new Set<number>();
      for (const i of indexes) if (i >= 0 && i < count && !locations[i]) wanted.add(areaOf(i));
      await Promise.allSettled([...wanted].map(loadArea));
    },
    indexOfId(id) {
      if (!index) return undefined;
      if (!idToIndex) {
        const ids = index.ids;
        idToIndex = new Map();
        for (let i = 0; i < ids.length; i++) idToIndex.set(ids[i]!, i);
      }
      return idToIndex.get(id);
    },
    get complete() {
      return index !== undefined;
    },
    async whenComplete() {
      await loadIndex();
    },
    prepare(origin) {
      if (index) return Promise.resolve();
      if (preparing?.origin.lat !== origin.lat || preparing.origin.lng !== origin.lng) {
        const done = readNearest(origin);
        preparing = { origin, done };
        // A failed read is tried again the next time.
        done.catch(() => {
          if (preparing?.done === done) preparing = undefined;
        });
      }
      return preparing.done;
    },
    results(selection, origin) {
      if (!index) {
        // Before the index: nothing can be filtered, and only the early list is ranked.
        if (selectionSize(selection) > 0) return listedResults([]);
        if (!origin) return firstOfAll(count);
        const order =
          early && early.origin.lat === origin.lat && early.origin.lng === origin.lng ? early.order : [];
        return listedResults(order);
      }
      const pass = passing(index, payload, selection, tagMode);
      let members: number[];
      if (pass) {
        members = [];
        for (let b = 0; b < pass.length; b++) {
          // Most bytes of a narrow filter are empty.
          if (pass[b] === 0) continue;
          for (let i = b * 8; i < Math.min(b * 8 + 8, index.count); i++)
            if (hasBit(pass, i) === 1) members.push(i);
        }
      } else {
        members = naturalOrder();
      }
      return origin ? nearestResults(index, pass, members, origin) : listedResults(members);
    },
  };
}
