// GET /api/ext/finders/details/{key}: the widget payload (src/widget/types.ts;
// docs/api.md, Widget payload) through HTTP: its content (own + backing map + the map's sets'
// locations, each once, with tags, sets and custom values), the origin rules
// (docs/api.md, Finders), CORS, 404/422, a build whose number of queries does not grow with the
// number of locations, and the order of thousands of locations built on two connections.
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFinderPayloadRepository,
  payloadOrder,
} from '../src/modules/finders/payload/finders.payload.repository.ts';
import { locationSetsTable, locationTagsTable } from '../src/modules/locations/locations.relations.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { mapLocationsTable, mapSetsTable, mapsTable } from '../src/modules/maps/maps.table.ts';
import { setsTable } from '../src/modules/sets/sets.table.ts';
import { tagsTable } from '../src/modules/tags/tags.table.ts';
import type { FinderPayload } from '../src/widget/types.ts';
import {
  attachMap,
  createPayloadScene,
  type PayloadScene,
  setOwnLocations,
} from './factories/finder-payloads.ts';
import { createWidgetFinder } from './factories/widget-finders.ts';
import { createCast } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let scene: PayloadScene;

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx.deps);
  scene = await createPayloadScene(ctx.deps, call, cast.ownerToken, cast.workspaceId);
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);
const details = (token: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: `/api/ext/finders/details/${token}`, headers });

describe('the payload', () => {
  it('lists own, map and set locations once each, with tags, sets and custom values', async () => {
    const res = await details(scene.finder.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const payload = res.json() as FinderPayload;
    const { own, both, viaSet, onMap } = scene.locations;
    // Own locations first in their order, then the others by id.
    expect(payload.locations.map((l) => l.id)).toEqual([own, both, viaSet, onMap]);
    expect(payload).toMatchObject({
      id: scene.finder.id,
      name: 'Store finder',
      token: scene.finder.token,
      settings: [{ key: 'units', value: 'mi' }],
      advanced_refinements: [],
      authorized_urls: [],
      custom_fields: [
        { name: 'seats', label: 'Seats', type: 'number', options: null },
        { name: 'services', label: 'Services', type: 'multiselect', options: ['repair', 'rental'] },
      ],
    });
    // Tags and sets the listed locations carry; the outside location's tag is not offered.
    expect(payload.tags.map((t) => t.slug)).toEqual(['drive-thru', 'free-wi-fi', 'parking']);
    expect(payload.tags[0]).toEqual({ id: expect.any(Number), name: 'Drive-thru', slug: 'drive-thru' });
    expect(payload.sets).toEqual([
      { id: scene.setId, name: 'Flagship' },
      { id: scene.otherSetId, name: 'Outlet' },
    ]);
    const first = payload.locations[0]!;
    expect(first).toEqual({
      id: own,
      title: 'Own',
      description: null,
      address: 'Own street 1',
      city: 'Berlin',
      state: null,
      country: null,
      zip: null,
      lat: 52.5,
      lng: 13.4,
      phone: null,
      email: null,
      website: null,
      image_url: null,
      // Derived from its coordinates.
      time_zone: 'Europe/Berlin',
      hours: null,
      temporarily_closed: false,
      reopens_on: null,
      tags: ['drive-thru', 'free-wi-fi'],
      sets: [scene.otherSetId],
      special_days: [],
      custom_fields: { seats: 12, services: ['repair'] },
    });
    const third = payload.locations[2]!;
    expect(third.sets).toEqual([scene.setId, scene.otherSetId].sort((a, b) => a - b));
    expect(third.tags).toEqual([]);
    expect(third.custom_fields).toEqual({ seats: 4 });
  });

  it('is canonical: keys in a fixed order, the ETag the SHA-1 of the bytes', async () => {
    const res = await details(scene.finder.token);
    const body = res.body;
    const keys = Object.keys(JSON.parse(body) as object);
    expect(keys).toEqual([...keys].sort());
    // A location's keys in the order of the API's lists (docs/api.md), every one of them.
    for (const location of (JSON.parse(body) as FinderPayload).locations) {
      expect(Object.keys(location)).toEqual([
        'id',
        'title',
        'description',
        'address',
        'city',
        'state',
        'country',
        'zip',
        'lat',
        'lng',
        'phone',
        'email',
        'website',
        'image_url',
        'time_zone',
        'hours',
        'temporarily_closed',
        'reopens_on',
        'custom_fields',
        'sets',
        'special_days',
        'tags',
      ]);
    }
    const { createHash } = await import('node:crypto');
    expect(res.headers.etag).toBe(`"${createHash('sha1').update(res.rawPayload).digest('hex')}"`);
  });

  it('writes every value as valid JSON: escapes, tiny and large floats, values no write path accepts', async () => {
    // A location's fields come from the text PostgreSQL keeps for lists, whose marks around
    // floats JavaScript writes differently must not reach the payload.
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const rows = await ctx.deps.db
      .insert(locationsTable)
      .values([
        {
          workspaceId: cast.workspaceId,
          title: 'Quote " back \\ line\n\u0001 ✓',
          lat: 0.00001,
          lng: -0.0000015,
        },
        {
          workspaceId: cast.workspaceId,
          title: 'Plain',
          city: null,
          lat: 0.30000000000000004,
          lng: -179.99999999999997,
        },
        {
          workspaceId: cast.workspaceId,
          title: 'Not a number',
          lat: Number.NaN,
          lng: Number.NEGATIVE_INFINITY,
        },
      ])
      .returning({ id: locationsTable.id });
    await setOwnLocations(
      ctx.deps,
      finder.id,
      rows.map((row) => row.id),
    );
    const res = await details(finder.token);
    expect(res.statusCode).toBe(200);
    const [quoted, plain, notANumber] = (JSON.parse(res.body) as FinderPayload).locations;
    expect(quoted).toMatchObject({ title: 'Quote " back \\ line\n\u0001 ✓', lat: 0.00001, lng: -0.0000015 });
    expect(plain).toMatchObject({
      title: 'Plain',
      city: null,
      lat: 0.30000000000000004,
      lng: -179.99999999999997,
    });
    expect(notANumber).toMatchObject({ lat: null, lng: null });
    expect(res.body.includes('\x01')).toBe(false);
  });

  it('is an empty list of locations for a finder with nothing', async () => {
    const bare = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const res = await details(bare.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ locations: [], tags: [], sets: [], settings: [] });
  });

  it('answers 404 for an unknown token and for one that cannot be a token (a bad path parameter)', async () => {
    const missing = await details('A'.repeat(43));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Finder not found.', code: 'not_found' });
    const bad = await details('not*a*token');
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toEqual({ message: 'Not found.', code: 'not_found' });
  });
});

describe('origin rules', () => {
  const rules = ['https://shop.example', 'partner.example', '*.brand.example', 'localhost:8080'];
  let token: string;
  beforeAll(async () => {
    token = (await createWidgetFinder(ctx.deps, cast.workspaceId, { authorizedUrls: rules })).token;
  });

  it.each([
    ['an exact origin', { origin: 'https://shop.example' }, 200],
    ['the same origin on another scheme', { origin: 'http://shop.example' }, 403],
    ['a bare host on https', { origin: 'https://partner.example' }, 200],
    ['a bare host on http', { origin: 'http://partner.example' }, 200],
    ['a bare host with a port it does not name', { origin: 'https://partner.example:8443' }, 200],
    ['a subdomain', { origin: 'https://eu.brand.example' }, 200],
    ['a subdomain at depth', { origin: 'https://a.b.brand.example' }, 200],
    ['the bare domain of a *. rule', { origin: 'https://brand.example' }, 403],
    ['a look-alike domain', { origin: 'https://evilbrand.example' }, 403],
    ['a host with the port named', { origin: 'http://localhost:8080' }, 200],
    ['a host on another port', { origin: 'http://localhost:3000' }, 403],
    ['Referer when Origin is missing', { referer: 'https://shop.example/stores?x=1' }, 200],
    ['an unlisted Referer', { referer: 'https://other.example/page' }, 403],
    ['Origin before Referer', { origin: 'https://other.example', referer: 'https://shop.example/' }, 403],
    ['neither header', {}, 403],
    ['Origin null', { origin: 'null' }, 403],
  ])('%s', async (_name, headers, status) => {
    const res = await details(token, headers as Record<string, string>);
    expect(res.statusCode).toBe(status);
    if (status === 403) {
      expect(res.json()).toEqual({
        message: 'This website is not allowed to use this finder.',
        code: 'forbidden',
      });
    }
  });

  it('an empty list allows every origin, and no origin at all', async () => {
    expect((await details(scene.finder.token, { origin: 'https://anywhere.example' })).statusCode).toBe(200);
    expect((await details(scene.finder.token)).statusCode).toBe(200);
  });

  it('answers CORS for the calling origin, on the 403 too, and the preflight', async () => {
    const ok = await details(token, { origin: 'https://shop.example' });
    expect(ok.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(ok.headers['access-control-expose-headers']).toContain('ETag');
    const refused = await details(token, { origin: 'https://other.example' });
    expect(refused.headers['access-control-allow-origin']).toBe('https://other.example');
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: `/api/ext/finders/details/${token}`,
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('If-None-Match');
  });
});

describe('authorized_urls in the payload (docs/api.md, Widget payload)', () => {
  // A finder of the stranger's own, empty workspace, edited through PUT /finders/{id}: the
  // whole document is known byte for byte.
  let finder: { id: number; token: string };
  const put = (token: string, body: unknown) => call('PUT', `/finders/${finder.id}`, token, body);
  const document = (urls: string[]) =>
    `{"advanced_refinements":[],"authorized_urls":${JSON.stringify(urls)},"custom_fields":[],` +
    `"id":${finder.id},"locations":[],"name":"Origins","sets":[],"settings":[],"tags":[],` +
    `"token":"${finder.token}"}`;
  const sha1 = async (bytes: Buffer) =>
    (await import('node:crypto')).createHash('sha1').update(bytes).digest('hex');

  beforeAll(async () => {
    const res = await call('POST', '/finders', cast.strangerToken, {
      name: 'Origins',
      workspace_id: cast.strangerWorkspaceId,
    });
    expect(res.statusCode, res.body).toBe(201);
    finder = res.json() as { id: number; token: string };
  });

  it('carries the list as stored, between advanced_refinements and custom_fields; its edit changes bytes and ETag', async () => {
    const before = await details(finder.token);
    expect(before.statusCode).toBe(200);
    expect(before.body).toBe(document([]));

    const edited = await put(cast.strangerToken, {
      authorized_urls: ['HTTPS://Shop.Example/', '*.Brand.example', 'partner.example:8080'],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const urls = ['https://shop.example', '*.brand.example', 'partner.example:8080'];
    expect((edited.json() as { authorized_urls: string[] }).authorized_urls).toEqual(urls);

    const after = await details(finder.token, { origin: 'https://eu.brand.example' });
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(document(urls));
    expect(after.headers.etag).toBe(`"${await sha1(after.rawPayload)}"`);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // And the list applies at once: the cache was not left holding the open finder.
    expect((await details(finder.token, { origin: 'https://brand.example' })).statusCode).toBe(403);
    expect((await details(finder.token)).statusCode).toBe(403);
  });

  it('a refused edit and another user’s edit change nothing: same bytes, same ETag', async () => {
    const origin = { origin: 'https://shop.example' };
    const before = await details(finder.token, origin);
    expect(before.statusCode).toBe(200);

    const refused = await put(cast.strangerToken, {
      authorized_urls: ['https://shop.example', 'https://shop.example/path', '*.example', 'ftp://x.example'],
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys((refused.json() as { errors: object }).errors).sort()).toEqual([
      'authorized_urls.1',
      'authorized_urls.2',
      'authorized_urls.3',
    ]);
    const notTheirs = await put(cast.ownerToken, { authorized_urls: [] });
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json()).toEqual({ message: 'Finder not found.', code: 'not_found' });

    const after = await details(finder.token, origin);
    expect(after.statusCode).toBe(200);
    expect(after.rawPayload.equals(before.rawPayload)).toBe(true);
    expect(after.headers.etag).toBe(before.headers.etag);
    expect((await details(finder.token, { origin: 'https://elsewhere.example' })).statusCode).toBe(403);
  });
});

describe('queries', () => {
  async function seed(count: number) {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const [tag] = await ctx.deps.db
      .insert(tagsTable)
      .values({ workspaceId: cast.workspaceId, name: `Bulk ${count}`, slug: `bulk-${count}` })
      .returning();
    const rows = await ctx.deps.db
      .insert(locationsTable)
      .values(
        Array.from({ length: count }, (_, i) => ({
          workspaceId: cast.workspaceId,
          title: `Bulk ${i}`,
          customValues: { seats: i },
        })),
      )
      .returning({ id: locationsTable.id });
    await ctx.deps.db
      .insert(locationTagsTable)
      .values(rows.map((row) => ({ locationId: row.id, tagId: tag!.id })));
    await ctx.deps.db
      .insert(locationSetsTable)
      .values(rows.map((row) => ({ locationId: row.id, setId: scene.setId })));
    await setOwnLocations(
      ctx.deps,
      finder.id,
      rows.map((row) => row.id),
    );
    return finder;
  }

  it('builds 10 and 500 locations in the same number of statements', async () => {
    const small = await seed(10);
    const large = await seed(500);
    let queries = 0;
    // Counted by postgres.js, under Drizzle's statements and the build's own transactions alike.
    const client = postgres(ctx.database.url, {
      max: 1,
      onnotice: () => {},
      debug: () => {
        queries += 1;
      },
    });
    const db = drizzle(client, { casing: 'snake_case' });
    try {
      const repository = createFinderPayloadRepository(db);
      const counted = async (token: string) => {
        queries = 0;
        await repository.dependencies(token);
        const built = await repository.build(token);
        return {
          queries,
          locations: (JSON.parse(built!.json.toString('utf8')) as FinderPayload).locations.length,
        };
      };
      // The connection's first query also reads PostgreSQL's types (postgres.js): not counted.
      await client`select 1`;
      const a = await counted(small.token);
      const b = await counted(large.token);
      expect(a.locations).toBe(10);
      expect(b.locations).toBe(500);
      expect(b.queries).toBe(a.queries);
      // dependencies; then the build's transaction: begin (its isolation), the settings and the
      // finder, the location ids, the documents, the tags and sets, commit.
      expect(a.queries).toBe(7);
    } finally {
      await client.end();
    }
  });
});

describe('payload order', () => {
  it('puts the own locations first by place, ties and the others by id', () => {
    // As locationIdsStatement lists them: ids in no order, '' for a location not one of the own.
    const ids = ['40', '7', '12', '3', '25', '9', '100', '8'];
    const places = ['', '2', '', '-1', '2', '0', '', '2'];
    expect(payloadOrder(ids, places)).toEqual(['3', '9', '7', '8', '25', '12', '40', '100']);
    expect(payloadOrder([], [])).toEqual([]);
  });
});

describe('thousands of locations', () => {
  it('come in payload order whether built on two connections or one, the same bytes', async () => {
    const count = 2600;
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    // Names that sort against the ids: a location's tags go by name.
    const [zebra, apple] = await ctx.deps.db
      .insert(tagsTable)
      .values([
        { workspaceId: cast.workspaceId, name: 'Zebra crossing', slug: 'zebra-crossing' },
        { workspaceId: cast.workspaceId, name: 'Apple store', slug: 'apple-store' },
      ])
      .returning();
    const ids = (
      await ctx.deps.db
        .insert(locationsTable)
        .values(
          Array.from({ length: count }, (_, i) => ({ workspaceId: cast.workspaceId, title: `Many ${i}` })),
        )
        .returning({ id: locationsTable.id })
    ).map((row) => row.id);
    const tagged = ids.filter((_, i) => i % 7 === 0);
    await ctx.deps.db
      .insert(locationTagsTable)
      .values(tagged.flatMap((locationId) => [zebra!, apple!].map((tag) => ({ locationId, tagId: tag.id }))));

    // Own: every third location, in sort_orders against their ids (the last first).
    const own = ids.filter((_, i) => i % 3 === 0).reverse();
    await setOwnLocations(ctx.deps, finder.id, own);
    // The backing map: some directly (a few of them also own), some through its set; the
    // locations at i % 3 === 2 and i % 4 !== 0 reach the finder no way.
    const [map] = await ctx.deps.db.insert(mapsTable).values({ title: 'Many' }).returning();
    await attachMap(ctx.deps, finder.id, map!.id);
    const direct = ids.filter((_, i) => i % 3 === 1 || i % 5 === 0);
    await ctx.deps.db
      .insert(mapLocationsTable)
      .values(direct.map((locationId) => ({ mapId: map!.id, locationId })));
    const [set, few] = await ctx.deps.db
      .insert(setsTable)
      .values([
        { workspaceId: cast.workspaceId, name: 'Many' },
        { workspaceId: cast.workspaceId, name: 'Few' },
      ])
      .returning();
    // The first locations join the later set first: stored against the order of the set ids.
    await ctx.deps.db
      .insert(locationSetsTable)
      .values(ids.slice(0, 3).map((locationId) => ({ setId: few!.id, locationId })));
    const inSet = ids.filter((_, i) => i % 4 === 0 || i % 3 === 1);
    await ctx.deps.db
      .insert(locationSetsTable)
      .values(inSet.map((locationId) => ({ setId: set!.id, locationId })));
    await ctx.deps.db.insert(mapSetsTable).values({ mapId: map!.id, setId: set!.id });

    const ownSet = new Set(own);
    const others = [...new Set([...direct, ...inSet])].filter((id) => !ownSet.has(id)).sort((a, b) => a - b);
    const expected = [...own, ...others];
    expect(expected.length).toBeGreaterThan(2000);

    const build = async (max: number) => {
      const statements: string[] = [];
      const client = postgres(ctx.database.url, {
        max,
        onnotice: () => {},
        debug: (_connection, query) => statements.push(query),
      });
      const db = drizzle(client, { casing: 'snake_case' });
      try {
        const built = await createFinderPayloadRepository(db).build(finder.token);
        return {
          json: built!.json.toString('utf8'),
          split: statements.some((query) => query.includes('pg_export_snapshot')),
        };
      } finally {
        await client.end();
      }
    };
    const two = await build(3);
    const one = await build(1);
    expect(two.split).toBe(true);
    expect(one.split).toBe(false);
    expect(two.json).toBe(one.json);

    const payload = JSON.parse(two.json) as FinderPayload;
    expect(payload.locations.map((location) => location.id)).toEqual(expected);
    const byId = new Map(payload.locations.map((location) => [location.id, location]));
    expect(byId.get(tagged[0]!)!.tags).toEqual(['apple-store', 'zebra-crossing']);
    expect(byId.get(ids[1]!)!.tags).toEqual([]);
    expect(byId.get(ids[4]!)!.sets).toEqual([set!.id]);
    expect(byId.get(ids[0]!)!.sets).toEqual([set!.id, few!.id]);
    expect(byId.get(ids[2]!)).toBeUndefined();
    expect(payload.tags.map((tag) => tag.slug)).toEqual(['apple-store', 'zebra-crossing']);
    expect(payload.sets).toEqual([
      { id: few!.id, name: 'Few' },
      { id: set!.id, name: 'Many' },
    ]);
  });
});
