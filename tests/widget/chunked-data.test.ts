// A chunked finder's locations as the widget's view reads them (src/widget/chunked/chunked-data.ts),
// from files the publish's own code writes (src/modules/finders/payload/chunked/), held against
// the same finder read as a single file (src/widget/finder-data.ts's singleFileData): over random
// filters (tags any and all, sets, refinements, open now at a fixed instant) and positions, the
// same locations pass, and the nearest come in the same distances. Before the index, the early
// list near a prepared position is the brute-force nearest; details are fetched area by area,
// each once, and a failed area is fetched again the next time it is needed. openLocations's bits
// at a count that is no multiple of 8, with locations of no schedule.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hasBit } from '../../src/lib/bits.ts';
import { distanceKm } from '../../src/lib/geo.ts';
import { type OpeningSchedule, WEEKDAYS } from '../../src/lib/hours/hours.model.ts';
import type { Refinement } from '../../src/lib/refinements.ts';
import { splitIntoAreas } from '../../src/modules/finders/payload/chunked/chunked.areas.ts';
import { chunkedFiles, type PayloadFrame } from '../../src/modules/finders/payload/chunked/chunked.files.ts';
import { chunkedData, openLocations } from '../../src/widget/chunked/chunked-data.ts';
import type { ChunkedIndex } from '../../src/widget/chunked/index-file.ts';
import { readManifestAreas } from '../../src/widget/chunked/nearest-areas.ts';
import { asLocation } from '../../src/widget/data.ts';
import { emptySelection, type FilterSelection } from '../../src/widget/filter.ts';
import { type FinderData, singleFileData } from '../../src/widget/finder-data.ts';
import type { ChunkedSource, FinderLocation, FinderPayload } from '../../src/widget/types.ts';

function random(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
}

const next = random(21);
const TAGS = [
  { id: 1, name: 'Wifi', slug: 'wifi' },
  { id: 2, name: 'ATM', slug: 'atm' },
  { id: 3, name: 'Rare', slug: 'rare' },
];
const SETS = [
  { id: 7, name: 'North' },
  { id: 8, name: 'South' },
];
const REFINEMENTS: Refinement[] = [
  { name: 'Big', match: 'all', conditions: [{ field: 'custom_field.size', op: 'eq', value: 'big' }] },
  {
    name: 'Paris or wifi',
    match: 'any',
    conditions: [
      { field: 'city', op: 'eq', value: 'Paris' },
      { field: 'tag', op: 'in', value: ['wifi'] },
    ],
  },
];
const WEEKDAY = ['09:00-18:00'];
const SCHEDULES = [
  null,
  { mon: WEEKDAY, tue: WEEKDAY, wed: WEEKDAY, thu: WEEKDAY, fri: WEEKDAY, sat: ['10:00-14:00'] },
  { fri: ['19:00-02:00'], sat: ['19:00-02:00'] },
  { mon: ['00:00-24:00'], sat: ['00:00-24:00'], sun: ['00:00-24:00'] },
];
const COUNT = 3000;
const docs: FinderLocation[] = Array.from({ length: COUNT }, (_, i) => {
  const placed = i % 97 !== 0;
  const hours = SCHEDULES[i % SCHEDULES.length]!;
  return {
    id: 100 + i * 7,
    title: `Store ${i}`,
    address: `${i} Main Street`,
    city: i % 5 === 0 ? 'Paris' : 'Lyon',
    country: 'FR',
    lat: placed ? 35 + next() * 30 : null,
    lng: placed ? -10 + next() * 40 : null,
    tags: TAGS.filter((_, t) => i % (t * 5 + 2) === 0).map((tag) => tag.slug),
    sets: SETS.filter((_, s) => i % (s + 3) === 0).map((set) => set.id),
    custom_fields: { size: i % 4 === 0 ? 'big' : 'small' },
    time_zone: hours ? (i % 2 ? 'Europe/Paris' : 'America/New_York') : null,
    hours,
    temporarily_closed: i % 301 === 0,
    reopens_on: null,
    special_days: [],
  };
});
const byId = new Map(docs.map((doc) => [doc.id, doc]));

const frame: PayloadFrame = {
  advanced_refinements: REFINEMENTS,
  authorized_urls: [],
  custom_fields: [],
  id: 1,
  name: 'Chain',
  sets: SETS,
  settings: [],
  tags: TAGS,
  token: 't',
};
const placedDocs = docs.filter((doc) => doc.lat !== null) as { id: number; lat: number; lng: number }[];
const areas = splitIntoAreas(placedDocs, 64);
const unplaced = docs.filter((doc) => doc.lat === null).map((doc) => doc.id);
const documentsOf = (ids: number[]) => Buffer.from(ids.map((id) => JSON.stringify(byId.get(id))).join(','));
const published = chunkedFiles(frame, [
  ...areas.map((area) => ({
    documents: documentsOf(area.ids),
    bounds: area.bounds,
    radiusKm: area.radiusKm,
  })),
  { documents: documentsOf(unplaced), bounds: null, radiusKm: null },
]);
const BASE = 'https://cdn.example/finders/t/v/manifest.json';
const manifest = JSON.parse(published.manifest.toString()) as {
  chunked: { areas: unknown; count: number; hours: boolean; index: string };
};
const bodies = new Map(published.files.map((file) => [new URL(file.path, BASE).href, file.body.toString()]));
const source: ChunkedSource = {
  areas: readManifestAreas(manifest.chunked.areas)!,
  count: manifest.chunked.count,
  hours: manifest.chunked.hours,
  index: new URL(manifest.chunked.index, BASE).href,
  base: BASE,
};
const payload: FinderPayload = {
  ...(frame as unknown as FinderPayload),
  locations: [],
};

/** The files as the CDN serves them; records what was asked for, and fails the URLs in `failing` once. */
function cdn() {
  const requested: string[] = [];
  const failing = new Set<string>();
  const fetchJson = async (url: string) => {
    requested.push(url);
    if (failing.delete(url)) throw new Error(`${url} answered 503`);
    const body = bodies.get(url);
    if (body === undefined) throw new Error(`${url} answered 404`);
    return JSON.parse(body) as unknown;
  };
  return { fetchJson, requested, failing };
}

const selection = (chosen: Partial<Record<keyof FilterSelection, unknown[]>>): FilterSelection => {
  const empty = emptySelection();
  return {
    tags: new Set((chosen.tags as string[]) ?? empty.tags),
    sets: new Set((chosen.sets as number[]) ?? empty.sets),
    refinements: new Set((chosen.refinements as number[]) ?? empty.refinements),
    open: new Set((chosen.open as number[]) ?? empty.open),
  };
};

const idsOf = (data: FinderData, indexes: readonly number[]) =>
  indexes.map((i) => data.location(i)?.id ?? -1);

describe('chunkedData', () => {
  // Saturday 28 November 2026, 11:30 in Paris: some open, some not, some all day.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T10:30:00Z'));
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it('passes the locations a single file passes, over random filters, in both tag modes', async () => {
    for (const tagMode of ['any', 'all'] as const) {
      const { fetchJson } = cdn();
      const chunked = chunkedData(payload, source, tagMode, fetchJson, asLocation);
      await chunked.whenComplete();
      // Every area's details, so the ids of the chunked results can be read.
      await chunked.load(Array.from({ length: COUNT }, (_, i) => i));
      const single = singleFileData({ ...payload, locations: docs }, tagMode);
      for (let round = 0; round < 200; round++) {
        const pick = <T>(values: T[]) => values.filter(() => next() < 0.3);
        const chosen = selection({
          tags: [...pick(TAGS.map((tag) => tag.slug)), ...(round % 50 === 0 ? ['unknown'] : [])],
          sets: pick(SETS.map((set) => set.id)),
          refinements: pick([0, 1]),
          open: round % 3 === 0 ? [1] : [],
        });
        const expected = idsOf(single, single.results(chosen, null).members).sort((a, b) => a - b);
        const found = idsOf(chunked, chunked.results(chosen, null).members).sort((a, b) => a - b);
        expect(found).toEqual(expected);
      }
    }
  });

  it('filters open now by each location’s own schedule at the current instant', async () => {
    const { fetchJson } = cdn();
    const chunked = chunkedData(payload, source, 'any', fetchJson, asLocation);
    await chunked.whenComplete();
    await chunked.load(Array.from({ length: COUNT }, (_, i) => i));
    const open = idsOf(chunked, chunked.results(selection({ open: [1] }), null).members);
    // At 11:30 in Paris (05:30 in New York) on a Saturday: Paris's 10-14 and all-day stores,
    // New York's all-day ones; none of the closed ones.
    expect(open.length).toBeGreaterThan(0);
    for (const id of open) {
      const doc = byId.get(id)!;
      expect(doc.temporarily_closed).toBe(false);
      expect(doc.hours).not.toBeNull();
    }
    const allDayNewYork = docs.filter(
      (doc) => doc.hours === SCHEDULES[3] && doc.time_zone === 'America/New_York' && !doc.temporarily_closed,
    );
    expect(allDayNewYork.every((doc) => open.includes(doc.id))).toBe(true);
    const eveningBars = docs.filter((doc) => doc.hours === SCHEDULES[2]);
    expect(eveningBars.some((doc) => open.includes(doc.id))).toBe(false);
  });

  it('ranks the nearest passing locations as the single file does, as far as the list reads', async () => {
    const { fetchJson } = cdn();
    const chunked = chunkedData(payload, source, 'any', fetchJson, asLocation);
    await chunked.whenComplete();
    for (let round = 0; round < 300; round++) {
      const origin = { lat: 30 + next() * 40, lng: -20 + next() * 60 };
      const chosen = selection({ tags: round % 2 ? ['wifi'] : [], sets: round % 3 ? [] : [8] });
      const results = chunked.results(chosen, origin);
      const reference = single.results(chosen, origin);
      expect(results.length).toBe(reference.length);
      const wanted = 1 + Math.floor(next() * 150);
      const distance = (data: FinderData, i: number) => {
        const position = data.position(i);
        return position ? distanceKm(origin, position) : Number.POSITIVE_INFINITY;
      };
      // The index's positions are rounded to about a metre: distances agree within that.
      const found = results.first(wanted).map((i) => distance(chunked, i));
      const expected = reference.first(wanted).map((i) => distance(single, i));
      expect(found).toHaveLength(expected.length);
      found.forEach((km, p) => {
        expect(Math.abs(km - expected[p]!)).toBeLessThan(0.005);
      });
      // Reading one position at a time gives the same order as asking for many.
      expect(Array.from({ length: Math.min(wanted, 10) }, (_, p) => results.at(p))).toEqual(
        results.first(10).slice(0, wanted),
      );
    }
  });

  it('lists those without a position after the placed ones, and finds any passing location’s list position', async () => {
    const { fetchJson } = cdn();
    const chunked = chunkedData(payload, source, 'any', fetchJson, asLocation);
    await chunked.whenComplete();
    const results = chunked.results(selection({}), { lat: 50, lng: 5 });
    expect(results.length).toBe(COUNT);
    const last = results.at(COUNT - 1);
    expect(chunked.position(last)).toBeNull();
    expect(results.positionOf(last)).toBe(COUNT - 1);
    const filtered = chunked.results(selection({ tags: ['rare'] }), { lat: 50, lng: 5 });
    const notRare = results.members.find((i) => !filtered.members.includes(i))!;
    expect(filtered.positionOf(notRare)).toBe(-1);
    const someRare = filtered.members[filtered.members.length - 1]!;
    expect(filtered.at(filtered.positionOf(someRare))).toBe(someRare);
  });

  it('lists the brute-force nearest from the areas before the index, and nothing filtered until it', async () => {
    const { fetchJson, requested } = cdn();
    const chunked = chunkedData(payload, source, 'any', fetchJson, asLocation);
    const origin = { lat: 48.85, lng: 2.35 };
    await chunked.prepare(origin);
    expect(chunked.complete).toBe(false);
    expect(requested).not.toContain(source.index);
    const early = chunked.results(selection({}), origin);
    const expected = docs
      .filter((doc) => doc.lat !== null)
      .map((doc) => distanceKm(origin, doc as { lat: number; lng: number }))
      .sort((a, b) => a - b)
      .slice(0, 20);
    expect(early.first(20).map((i) => distanceKm(origin, chunked.position(i)!))).toEqual(expected);
    // Few areas were read: the nearest, not all.
    expect(requested.length).toBeLessThan(source.areas.length / 4);
    expect(chunked.results(selection({ tags: ['wifi'] }), origin).length).toBe(0);
    // Without a position: every location in the index's order.
    const all = chunked.results(selection({}), null);
    expect(all.length).toBe(COUNT);
    expect(all.at(5)).toBe(5);
    expect(chunked.indexOfId(docs[0]!.id)).toBeUndefined();
    await chunked.whenComplete();
    expect(chunked.indexOfId(byId.get(docs[10]!.id)!.id)).toBeDefined();
  });

  it('reads a location’s details from its area only, once, and again after a failure', async () => {
    const { fetchJson, requested, failing } = cdn();
    const chunked = chunkedData(payload, source, 'any', fetchJson, asLocation);
    await chunked.whenComplete();
    const i = chunked.indexOfId(docs[1234]!.id)!;
    expect(chunked.location(i)).toBeUndefined();
    const areaUrl = new URL(source.areas.find((_, a) => a === areaIndexOf(i))!.path, BASE).href;
    failing.add(areaUrl);
    await chunked.load([i]);
    expect(chunked.location(i)).toBeUndefined();
    await chunked.load([i]);
    expect(chunked.location(i)?.title).toBe('Store 1234');
    await chunked.load([i]);
    expect(requested.filter((url) => url === areaUrl)).toHaveLength(2);
    expect(requested.filter((url) => url.includes('/c/'))).toHaveLength(2);
  });

  it('refuses an area file that does not match the manifest, and an index that does not', async () => {
    const { fetchJson } = cdn();
    const broken = async (url: string) => {
      if (url === source.index) return { id: [1] };
      const body = await fetchJson(url);
      return Array.isArray(body) ? body.slice(1) : body;
    };
    const chunked = chunkedData(payload, source, 'any', broken, asLocation);
    await expect(chunked.whenComplete()).rejects.toThrow(/does not match/);
    await chunked.load([0]);
    expect(chunked.location(0)).toBeUndefined();
    await expect(chunked.prepare({ lat: 48, lng: 2 })).rejects.toThrow(/does not match/);
  });
});

const single = singleFileData({ ...payload, locations: docs }, 'any');

/** The area holding index position i, from the manifest's counts. */
function areaIndexOf(i: number): number {
  let start = 0;
  for (const [a, area] of source.areas.entries()) {
    if (i < start + area.count) return a;
    start += area.count;
  }
  return -1;
}

describe('openLocations', () => {
  it('sets the bit of each location whose schedule is open, none for no schedule or past the count', () => {
    const allDay = ['00:00-24:00'];
    const week = (hours: string[]) => Object.fromEntries(WEEKDAYS.map((day) => [day, hours]));
    const closed = week([]);
    const open = week(allDay);
    // Closed first and open last: -1 read from the end (Array.prototype.at) would be open.
    const schedules: OpeningSchedule[] = [closed, open].map((hours) => ({
      time_zone: 'UTC',
      hours,
      special_days: [],
      temporarily_closed: false,
      reopens_on: null,
    }));
    // Eleven locations: a count that leaves five bits of the last byte unused.
    const schedule = [1, 0, -1, 1, 1, 0, -1, 1, 0, 1, 1];
    const index = { count: schedule.length, schedule: Int32Array.from(schedule), schedules } as ChunkedIndex;
    const bits = openLocations(index, Date.UTC(2026, 10, 28, 12));
    expect(bits.length).toBe(2);
    const shown = Array.from({ length: 16 }, (_, i) => i).filter((i) => hasBit(bits, i) === 1);
    expect(shown).toEqual([0, 3, 4, 7, 9, 10]);
  });
});
