// A chunked finder's locations (docs/api.md, Publishing: chunked finders) as the view reads
// them (finder-data.ts). The manifest lists the area files; the index holds every location's
// id, position, tags, sets, refinements and schedule. Until the index has loaded, the nearest
// areas to a search position give the first list (prepare); after, the filters run over the
// index's bitsets, each distinct schedule's "open now" is computed once, and the nearest come
// from its spatial index, only as many as the list has shown so far. Details are fetched area
// by area, each area once, when a row, a marker or the details card needs them.
import { around } from 'geokdbush';
import { hasPosition, type LatLng } from '../../lib/geo.ts';
import { openingStatus } from '../../lib/hours/hours.status.ts';
import { type FilterSelection, selectionSize } from '../filter.ts';
import type { FinderData, Results } from '../finder-data.ts';
import type { ChunkedSource, FinderLocation, FinderPayload } from '../types.ts';
import { type ChunkedIndex, hasBit, readIndex } from './index-file.ts';
import { nearestInAreas } from './nearest-areas.ts';

/** The locations the first list shows before the index has loaded. */
const FIRST_LIST = 20;
/** The nearest are ranked this many at least, and twice as many as before when the list needs more. */
const RANK_AT_LEAST = 64;

type Fetch = (url: string) => Promise<unknown>;
type Normalize = (body: unknown) => FinderLocation | undefined;

/** Which locations pass the selection, over the index: null when all of them do. */
function passing(
  index: ChunkedIndex,
  payload: FinderPayload,
  selection: FilterSelection,
  tagMode: 'any' | 'all',
): Uint8Array | null {
  if (selectionSize(selection) === 0) return null;
  const tagBits = [...selection.tags].map((slug) => {
    const k = payload.tags.findIndex((tag) => tag.slug === slug);
    return k < 0 ? undefined : index.tags[k];
  });
  const setBits = payload.sets.flatMap((set, k) => (selection.sets.has(set.id) ? [index.sets[k]!] : []));
  const refinementBits = [...selection.refinements].map((k) => index.refinements[k]);
  const now = Date.now();
  // Each distinct schedule once: a chain's locations share a few.
  const open =
    selection.open.size > 0
      ? index.schedules.map((schedule) => openingStatus(schedule, now).state === 'open')
      : null;
  const pass = new Uint8Array(index.count);
  for (let i = 0; i < index.count; i++) {
    if (tagBits.length > 0) {
      const has = (bits: Uint8Array | undefined) => bits !== undefined && hasBit(bits, i) === 1;
      if (tagMode === 'all' ? !tagBits.every(has) : !tagBits.some(has)) continue;
    }
    if (setBits.length > 0 && !setBits.some((bits) => hasBit(bits, i) === 1)) continue;
    if (!refinementBits.every((bits) => bits !== undefined && hasBit(bits, i) === 1)) continue;
    if (open && !open[index.schedule[i]!]) continue;
    pass[i] = 1;
  }
  return pass;
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
  const rankTo = (wanted: number) => {
    if (complete || wanted <= ranked.length) return;
    const count = Math.max(wanted, ranked.length * 2, RANK_AT_LEAST);
    ranked = around(
      index.spatial,
      origin.lng,
      origin.lat,
      count,
      Number.POSITIVE_INFINITY,
      pass ? (i) => pass[i] === 1 : undefined,
    );
    if (index.placed === 0) ranked = [];
    if (ranked.length < count) {
      for (let i = index.placed; i < index.count; i++) if (!pass || pass[i] === 1) ranked.push(i);
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
      if (pass ? pass[i] !== 1 : i < 0 || i >= index.count) return -1;
      for (;;) {
        const p = ranked.indexOf(i);
        if (p >= 0 || complete) return p;
        rankTo(ranked.length * 2);
      }
    },
    first(count) {
      rankTo(count);
      return ranked.slice(0, count);
    },
    members,
  };
}

/** Results in the index's order (or an early list's), held in an array. */
function orderedResults(order: number[]): Results {
  return {
    length: order.length,
    at: (p) => order[p] as number,
    positionOf: (i) => order.indexOf(i),
    first: (count) => order.slice(0, count),
    members: order,
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
  /** The first list near a position, before the index. */
  let early: { origin: LatLng; order: number[] } | undefined;

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
    async prepare(origin) {
      if (index) return;
      const { nearest } = await nearestInAreas(areas, origin, FIRST_LIST, async (area) => {
        const a = areaNumbers.get(area)!;
        await loadArea(a);
        return Array.from({ length: area.count }, (_, k) => {
          const i = starts[a]! + k;
          const location = locations[i]!;
          return { i, lat: location.lat, lng: location.lng };
        });
      });
      early = { origin, order: nearest.map(({ location }) => location.i) };
    },
    results(selection, origin) {
      if (!index) {
        // Before the index: nothing can be filtered, and only the early list is ranked.
        if (selectionSize(selection) > 0) return orderedResults([]);
        if (!origin) return firstOfAll(count);
        const order =
          early && early.origin.lat === origin.lat && early.origin.lng === origin.lng ? early.order : [];
        return orderedResults(order);
      }
      const pass = passing(index, payload, selection, tagMode);
      let members: number[];
      if (pass) {
        members = [];
        for (let i = 0; i < pass.length; i++) if (pass[i] === 1) members.push(i);
      } else {
        members = naturalOrder();
      }
      return origin ? nearestResults(index, pass, members, origin) : orderedResults(members);
    },
  };
}
