// A chunked publish (PUBLISH_CHUNKED_FROM; docs/api.md, Publishing: chunked finders), read back
// through /cdn: the version file is a manifest naming the index and the area files; the areas
// hold every location document of the single payload once, those without a position apart;
// the index decodes to every location's id, position, tags, sets, refinements and opening
// schedule; a republish without changes uploads nothing but the pointer's target, one after
// edits uploads only the areas that changed (the rest keep their names) and the index only when
// an indexed field changed; the cluster summaries count every placed location at each level
// and are uploaded again only when a position changed; a finder under the threshold keeps the
// single file.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { matchesRefinement, type Refinement } from '../src/lib/refinements.ts';
import { MAX_AREA_LOCATIONS } from '../src/modules/finders/payload/chunked/chunked.areas.ts';
import type { ClusterSummaries } from '../src/modules/finders/payload/chunked/chunked.clusters.ts';
import {
  type ChunkedManifest,
  INDEX_COORDINATE_SCALE,
} from '../src/modules/finders/payload/chunked/chunked.files.ts';
import { setOwnLocations } from './factories/finder-payloads.ts';
import { createWidgetFinder, type WidgetFinder } from './factories/widget-finders.ts';
import { createCast } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

const sha1 = (bytes: Buffer | string) => createHash('sha1').update(bytes).digest('hex');
const CHUNKED_FROM = 100;
const REFINEMENTS: Refinement[] = [
  {
    name: 'Repair',
    match: 'all',
    conditions: [{ field: 'custom_field.services', op: 'contains', value: 'repair' }],
  },
  { name: 'In Paris', match: 'any', conditions: [{ field: 'city', op: 'eq', value: 'paris' }] },
];

interface Doc {
  id: number;
  lat: number | null;
  lng: number | null;
  title: string;
  tags: string[];
  sets: number[];
  city: string | null;
  custom_fields: Record<string, unknown>;
  time_zone: string | null;
  hours: unknown;
  special_days?: unknown[];
  temporarily_closed: boolean;
  reopens_on: string | null;
}

interface Index {
  id: number[];
  lat: number[];
  lng: number[];
  tags: string[];
  sets: string[];
  refinements: string[];
  schedule: number[];
  schedules: Record<string, unknown>[];
}

const undelta = (values: number[]) => {
  let sum = 0;
  return values.map((value) => (sum += value));
};
const bit = (base64: string, i: number) => (Buffer.from(base64, 'base64')[i >> 3]! >> (i & 7)) & 1;

describe('a chunked publish', () => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let finder: WidgetFinder;
  let small: WidgetFinder;
  const call = createCaller(() => ctx);
  const cdn = (key: string) => ctx.app.inject({ method: 'GET', url: `/cdn/${key}` });
  const publish = async (token: string) => {
    const res = await call('POST', `/ext/finders/details/${token}/sync`, cast.memberToken);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { hash: string }).hash;
  };
  const manifestOf = async (token: string) => {
    const pointer = (await cdn(`finders/${token}/config.json`)).json() as { url: string; hash: string };
    const file = await cdn(`finders/${token}/${pointer.url}`);
    expect(file.statusCode).toBe(200);
    expect(sha1(file.rawPayload)).toBe(pointer.hash);
    return file.json() as Record<string, unknown> & { chunked: ChunkedManifest };
  };
  const fileOf = async (token: string, path: string) => {
    const file = await cdn(`finders/${token}/v/${path}`);
    expect(file.statusCode, path).toBe(200);
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(`${sha1(file.rawPayload)}.json`).toBe(path.slice(2));
    return file.json() as unknown;
  };

  beforeAll(async () => {
    ctx = await createTestContext({ env: { PUBLISH_CHUNKED_FROM: String(CHUNKED_FROM) } });
    cast = await createCast(ctx.deps);
    const ws = cast.workspaceId;
    finder = await createWidgetFinder(ctx.deps, ws);
    await ctx.deps.db.execute(
      sql`update finders set advanced_refinements = ${JSON.stringify(REFINEMENTS)}::jsonb where id = ${finder.id}`,
    );
    // 2,500 locations (enough for the build to read its two halves on two connections, each in
    // more than one chunk): most spread over Europe, 400 at one point (more than an area holds),
    // 20 without a position, a few at the poles and on the antimeridian; tags, sets, hours.
    await ctx.deps.db.execute(sql`
      insert into tags (workspace_id, name, slug) values (${ws}, 'Wifi', 'wifi'), (${ws}, 'ATM', 'atm')`);
    await ctx.deps.db.execute(
      sql`insert into sets (workspace_id, name) values (${ws}, 'North'), (${ws}, 'South')`,
    );
    await ctx.deps.db.execute(sql`
      insert into custom_field_definitions (workspace_id, name, label, type, sort_order)
      values (${ws}, 'services', 'Services', 'text', 0)`);
    await ctx.deps.db.execute(sql`
      insert into locations (workspace_id, title, city, lat, lng, custom_values, time_zone, hours, temporarily_closed)
      select ${ws}, 'Store ' || g,
        case when g % 7 = 0 then 'Paris' else 'Berlin' end,
        case when g <= 400 then 48.8566 when g <= 420 then null when g = 421 then 90 when g = 422 then -90
          else 40 + (g * 7919 % 1500) / 100.0 end,
        case when g <= 400 then 2.3522 when g <= 420 then null when g = 423 then 180 when g = 424 then -180
          else -5 + (g * 104729 % 2500) / 100.0 end,
        case when g % 4 = 0 then '{"services": "repair and rental"}'::jsonb else '{}'::jsonb end,
        case when g % 3 = 0 then null else 'Europe/Berlin' end,
        case when g % 3 = 0 then null when g % 2 = 0 then '{"mon":["09:00-18:00"],"sat":[]}'::json
          else '{"mon":["10:00-20:00"]}'::json end,
        g % 50 = 0
      from generate_series(1, 2500) g`);
    await ctx.deps.db.execute(sql`
      insert into location_tags (location_id, tag_id)
      select l.id, t.id from locations l join tags t on t.workspace_id = l.workspace_id
      where l.workspace_id = ${ws} and ((t.slug = 'wifi' and l.id % 2 = 0) or (t.slug = 'atm' and l.id % 5 = 0))`);
    await ctx.deps.db.execute(sql`
      insert into location_sets (location_id, set_id)
      select l.id, s.id from locations l join sets s on s.workspace_id = l.workspace_id
      where l.workspace_id = ${ws} and ((s.name = 'North' and l.lat > 50) or (s.name = 'South' and l.id % 3 = 0))`);
    const ids = (await ctx.deps.db.execute(
      sql`select id from locations where workspace_id = ${ws} order by id`,
    )) as unknown as {
      id: number;
    }[];
    await setOwnLocations(
      ctx.deps,
      finder.id,
      ids.map((row) => row.id),
    );
    small = await createWidgetFinder(ctx.deps, ws, { name: 'Small' });
    await setOwnLocations(
      ctx.deps,
      small.id,
      ids.slice(0, CHUNKED_FROM - 1).map((row) => row.id),
    );
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("writes a manifest naming the index and areas that hold the single payload's documents once", async () => {
    const hash = await publish(finder.token);
    const manifest = await manifestOf(finder.token);
    expect(manifest).not.toHaveProperty('locations');
    const details = (
      await ctx.app.inject({ method: 'GET', url: `/api/ext/finders/details/${finder.token}` })
    ).json() as {
      locations: Doc[];
    } & Record<string, unknown>;
    // The top-level fields of the single payload, but locations.
    const { locations: all, ...frame } = details;
    expect({ ...manifest, chunked: undefined }).toEqual({ ...frame, chunked: undefined });
    expect(manifest.chunked.count).toBe(2500);
    expect(hash).toMatch(/^[0-9a-f]{40}$/);

    const areaDocs: Doc[][] = [];
    for (const [path, count, ...bounds] of manifest.chunked.areas) {
      const docs = (await fileOf(finder.token, path)) as Doc[];
      expect(docs.length).toBe(count);
      areaDocs.push(docs);
      if (bounds.length === 0) {
        for (const doc of docs) expect(doc.lat === null || doc.lng === null).toBe(true);
        continue;
      }
      const [south, west, north, east] = bounds as number[];
      for (const doc of docs) {
        expect(doc.lat!).toBeGreaterThanOrEqual(south!);
        expect(doc.lat!).toBeLessThanOrEqual(north!);
        expect(doc.lng!).toBeGreaterThanOrEqual(west!);
        expect(doc.lng!).toBeLessThanOrEqual(east!);
      }
      const onePoint = docs.every((doc) => doc.lat === docs[0]!.lat && doc.lng === docs[0]!.lng);
      if (!onePoint) expect(docs.length).toBeLessThanOrEqual(MAX_AREA_LOCATIONS);
    }
    // The areas without a position come last.
    const firstUnplaced = manifest.chunked.areas.findIndex((area) => area.length === 2);
    expect(firstUnplaced).toBe(manifest.chunked.areas.length - 1);
    const docs = areaDocs.flat();
    expect(docs.length).toBe(all.length);
    const byId = new Map(all.map((doc) => [doc.id, doc]));
    expect(new Set(docs.map((doc) => doc.id)).size).toBe(all.length);
    for (const doc of docs) expect(doc).toEqual(byId.get(doc.id));

    const index = (await fileOf(finder.token, manifest.chunked.index)) as Index;
    expect(undelta(index.id)).toEqual(docs.map((doc) => doc.id));
    const placed = docs.filter((doc) => doc.lat !== null);
    expect(placed.length).toBe(2480);
    const lat = undelta(index.lat);
    const lng = undelta(index.lng);
    expect(lat.length).toBe(placed.length);
    placed.forEach((doc, i) => {
      expect(Math.abs(lat[i]! / INDEX_COORDINATE_SCALE - doc.lat!)).toBeLessThanOrEqual(
        0.5 / INDEX_COORDINATE_SCALE,
      );
      expect(Math.abs(lng[i]! / INDEX_COORDINATE_SCALE - doc.lng!)).toBeLessThanOrEqual(
        0.5 / INDEX_COORDINATE_SCALE,
      );
    });
    const tags = manifest.tags as { slug: string }[];
    const sets = manifest.sets as { id: number }[];
    expect(index.tags.length).toBe(tags.length);
    expect(index.sets.length).toBe(2);
    const bits = (bitsets: string[]) => bitsets.map((bitset) => docs.map((_, i) => bit(bitset, i)));
    expect(bits(index.tags)).toEqual(
      tags.map((tag) => docs.map((doc) => (doc.tags.includes(tag.slug) ? 1 : 0))),
    );
    expect(bits(index.sets)).toEqual(
      sets.map((set) => docs.map((doc) => (doc.sets.includes(set.id) ? 1 : 0))),
    );
    expect(bits(index.refinements)).toEqual(
      REFINEMENTS.map((refinement) => docs.map((doc) => (matchesRefinement(doc, refinement) ? 1 : 0))),
    );
    // Some of each, so that the comparison could tell a bitset of zeros from the right one.
    for (const bitset of [...index.tags, ...index.sets, ...index.refinements]) {
      expect(docs.some((_, i) => bit(bitset, i) === 1)).toBe(true);
    }
    docs.forEach((doc, i) => {
      const schedule = index.schedule[i]!;
      if (schedule === -1) {
        expect(doc.hours).toBeNull();
        expect(doc.temporarily_closed).toBe(false);
      } else {
        expect(index.schedules[schedule]).toEqual({
          hours: doc.hours,
          reopens_on: doc.reopens_on,
          special_days: doc.special_days ?? [],
          temporarily_closed: doc.temporarily_closed,
          time_zone: doc.time_zone,
        });
      }
    });
    // Each distinct schedule once: two weeks, each open or temporarily closed, and closed without hours.
    expect(index.schedules.length).toBeLessThanOrEqual(6);

    // The cluster summaries: every placed location once at each level, the poles and the
    // antimeridian's included, each level's pixels inside its world.
    const clusters = manifest.chunked.clusters!;
    expect(clusters.path).toMatch(/^s\/[0-9a-f]{40}\.json$/);
    const summaries = (await fileOf(finder.token, clusters.path)) as ClusterSummaries;
    expect(summaries.count).toHaveLength(clusters.max_zoom + 1);
    expect(clusters.max_zoom).toBeGreaterThanOrEqual(5);
    summaries.count.forEach((counts, zoom) => {
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(placed.length);
      const world = 256 * 2 ** zoom;
      for (const [column, limit] of [
        [summaries.x[zoom]!, world - 1],
        [summaries.y[zoom]!, world],
      ] as const) {
        expect(column).toHaveLength(counts.length);
        for (const value of undelta(column)) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(limit);
        }
      }
    });
    // Zoomed in, the 400 at one point are in one cluster, and the rest in many others.
    const deepest = summaries.count[clusters.max_zoom]!;
    expect(Math.max(...deepest)).toBeGreaterThanOrEqual(400);
    expect(Math.max(...deepest)).toBeLessThan(500);
    expect(deepest.length).toBeGreaterThan(100);
  });

  it('uploads nothing but the manifest again when nothing changed, and only the changed areas after edits', async () => {
    const before = await manifestOf(finder.token);
    const published = ((await cdn(`finders/${finder.token}/config.json`)).json() as { hash: string }).hash;
    const put = vi.spyOn(ctx.deps.storage, 'put');
    try {
      const unchanged = await publish(finder.token);
      expect(unchanged).toBe(published);
      // The manifest and the pointer: not the index, not the summaries.
      expect(put.mock.calls.map(([key]) => key)).toEqual([
        `finders/${finder.token}/v/${unchanged}.json`,
        `finders/${finder.token}/config.json`,
      ]);
      put.mockClear();

      // Ten locations of one area renamed: that area changes, nothing else.
      const [path] = before.chunked.areas.find((area) => area.length === 7 && area[1] >= 10)!;
      const renamed = ((await fileOf(finder.token, path)) as Doc[]).slice(0, 10).map((doc) => doc.id);
      await ctx.deps.db.execute(
        sql`update locations set title = title || ' (renamed)' where id = any(${`{${renamed.join(',')}}`}::int[])`,
      );
      await publish(finder.token);
      const after = await manifestOf(finder.token);
      const keys = put.mock.calls.map(([key]) => String(key));
      const areaKeys = keys.filter((key) => key.includes('/v/c/'));
      expect(areaKeys).toHaveLength(1);
      // Titles are not in the index: it keeps its name.
      expect(keys.filter((key) => key.includes('/v/i/'))).toHaveLength(0);
      expect(after.chunked.index).toBe(before.chunked.index);
      // Nor are they in the summaries.
      expect(keys.filter((key) => key.includes('/v/s/'))).toHaveLength(0);
      expect(after.chunked.clusters).toEqual(before.chunked.clusters);
      const beforePaths = new Set(before.chunked.areas.map((area) => area[0]));
      const kept = after.chunked.areas.filter((area) => beforePaths.has(area[0]));
      expect(kept.length).toBe(after.chunked.areas.length - areaKeys.length);
      for (const key of areaKeys) expect(beforePaths.has(key.split('/v/')[1]!)).toBe(false);
      put.mockClear();

      // A tag given to one location: its area and the index.
      await ctx.deps.db.execute(sql`
        insert into location_tags (location_id, tag_id)
        select ${renamed[1]!}::int, id from tags where workspace_id = ${cast.workspaceId} and slug = 'atm'
        on conflict do nothing`);
      await publish(finder.token);
      const tagged = put.mock.calls.map(([key]) => String(key));
      expect(tagged.filter((key) => key.includes('/v/c/'))).toHaveLength(1);
      expect(tagged.filter((key) => key.includes('/v/i/'))).toHaveLength(1);
      expect(tagged.filter((key) => key.includes('/v/s/'))).toHaveLength(0);
      put.mockClear();

      // A location moved far from the others: its area, the index and the summaries.
      await ctx.deps.db.execute(
        sql`update locations set lat = 64.1466, lng = -21.9426 where id = ${renamed[2]!}`,
      );
      await publish(finder.token);
      const moved = await manifestOf(finder.token);
      const movedKeys = put.mock.calls.map(([key]) => String(key));
      expect(movedKeys.filter((key) => key.includes('/v/i/'))).toHaveLength(1);
      expect(movedKeys.filter((key) => key.includes('/v/s/'))).toEqual([
        `finders/${finder.token}/v/${moved.chunked.clusters!.path}`,
      ]);
      expect(moved.chunked.clusters!.path).not.toBe(after.chunked.clusters!.path);
    } finally {
      put.mockRestore();
    }
  });

  it('writes again the files a tampered manifest does not name, and answers', async () => {
    const pointer = (await cdn(`finders/${finder.token}/config.json`)).json() as { url: string };
    const manifest = await manifestOf(finder.token);
    // A manifest tampered with in the bucket: paths out of the folder, or not of our form.
    for (const [index, clusters] of [
      ['../../../config.json', { max_zoom: 3, path: '../s.json' }],
      ['i/not-a-hash.json', { max_zoom: 3, path: 's/x.json' }],
    ] as const) {
      const tampered = { ...manifest, chunked: { ...manifest.chunked, index, clusters } };
      await ctx.deps.storage.put(
        `finders/${finder.token}/${pointer.url}`,
        Buffer.from(JSON.stringify(tampered)),
        {
          contentType: 'application/json',
          cacheControl: 'public, max-age=31536000, immutable',
        },
      );
      const put = vi.spyOn(ctx.deps.storage, 'put');
      try {
        await publish(finder.token);
        const keys = put.mock.calls.map(([key]) => String(key));
        // The files the tampered manifest does not name are written again: the index, the summaries.
        expect(keys.filter((key) => key.includes('/v/i/'))).toHaveLength(1);
        expect(keys.filter((key) => key.includes('/v/s/'))).toHaveLength(1);
      } finally {
        put.mockRestore();
      }
      const after = await manifestOf(finder.token);
      expect(after.chunked.index).toBe(manifest.chunked.index);
      expect(after.chunked.clusters).toEqual(manifest.chunked.clusters);
    }
  });

  it('keeps the single file for a finder under the threshold', async () => {
    const hash = await publish(small.token);
    const file = (await cdn(`finders/${small.token}/v/${hash}.json`)).json() as { locations: unknown[] };
    expect(file.locations).toHaveLength(CHUNKED_FROM - 1);
    expect(file).not.toHaveProperty('chunked');
  });

  it('publishes chunked once a finder grows past the threshold, without parsing its single file', async () => {
    const grown = await createWidgetFinder(ctx.deps, cast.workspaceId, { name: 'Grown' });
    const ids = (
      (await ctx.deps.db.execute(
        sql`select id from locations where workspace_id = ${cast.workspaceId} order by id limit ${CHUNKED_FROM}`,
      )) as unknown as { id: number }[]
    ).map((row) => row.id);
    await setOwnLocations(ctx.deps, grown.id, ids.slice(0, CHUNKED_FROM - 1));
    const single = await publish(grown.token);
    expect(
      ((await cdn(`finders/${grown.token}/v/${single}.json`)).json() as { locations: unknown[] }).locations,
    ).toHaveLength(CHUNKED_FROM - 1);
    await setOwnLocations(ctx.deps, grown.id, ids);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      await publish(grown.token);
      // The published single file was read (is it a manifest?) but not parsed: its key is not there.
      const parsedSingle = parse.mock.calls.filter(
        ([text]) => typeof text === 'string' && text.includes('"locations":['),
      );
      expect(parsedSingle).toEqual([]);
    } finally {
      parse.mockRestore();
    }
    expect((await manifestOf(grown.token)).chunked.count).toBe(CHUNKED_FROM);
  });
});
