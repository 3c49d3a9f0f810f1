// Widget analytics through HTTP: POST /analytics (JSON and the text/plain of sendBeacon, the
// batch of at most 100 in one insert, every bad input with nothing written, unknown token,
// origin rules as on the payload route, times cleaned, 120 requests a minute per IP) and what
// is stored of it (a view once per session and finder, also in one batch and concurrently;
// views without a session dropped; location ids the finder does not show dropped; at most
// 600 events an hour per IP and finder, in the process and through Redis) and
// GET /finders/{id}/analytics (the report: totals, unique sessions, every UTC day of the window,
// top searches and locations with current titles; access like every finder route; days 1..90;
// docs/api.md, Widget analytics).
import { randomInt, randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVENTS_PER_HOUR } from '../src/modules/analytics/analytics.service.ts';
import {
  type AnalyticsEventType,
  analyticsEventsTable,
  analyticsSessionsTable,
} from '../src/modules/analytics/analytics.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import {
  attachMap,
  createPayloadScene,
  type PayloadScene,
  setOwnLocations,
} from './factories/finder-payloads.ts';
import { createWidgetFinder, type WidgetFinder } from './factories/widget-finders.ts';
import { createCast } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';
import { canRunRedisServer, startThrowawayRedis, type ThrowawayRedis } from './helpers/redis.ts';

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let finder: WidgetFinder;
/** Locations reaching a finder every way (own, its map's, its map's set's) and one reaching it none. */
let scene: PayloadScene;

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx.deps);
  finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
  scene = await createPayloadScene(ctx.deps, call, cast.ownerToken, cast.workspaceId);
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);
const freshIp = () => `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}`;

function post(body: unknown, headers: Record<string, string> = {}, ip = freshIp()) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/analytics',
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    remoteAddress: ip,
  });
}

const session = () => randomUUID().replaceAll('-', '');

/** A new finder showing the scene's locations: its own two, and the scene's map. */
async function sceneFinder(options: { authorizedUrls?: string[] } = {}): Promise<WidgetFinder> {
  const made = await createWidgetFinder(ctx.deps, cast.workspaceId, options);
  await attachMap(ctx.deps, made.id, scene.mapId);
  await setOwnLocations(ctx.deps, made.id, [scene.locations.own, scene.locations.both]);
  return made;
}

const eventsOf = (finderId: number) =>
  ctx.deps.db
    .select()
    .from(analyticsEventsTable)
    .where(eq(analyticsEventsTable.finderId, finderId))
    .orderBy(analyticsEventsTable.id);
const eventCount = async () => (await ctx.deps.db.select({ n: count() }).from(analyticsEventsTable))[0]!.n;

describe('POST /api/analytics', () => {
  let target: WidgetFinder;
  beforeEach(async () => {
    target = await createWidgetFinder(ctx.deps, cast.workspaceId);
  });

  it('stores a batch in one insert and answers how many it received', async () => {
    const target = await sceneFinder();
    const shown = scene.locations.own;
    const occurredAt = new Date(Date.now() - 60_000).toISOString();
    const res = await post({
      finder_token: target.token,
      events: [
        { type: 'view', session_id: ' abc123 ', occurred_at: occurredAt },
        { type: 'search', query: '  Alexanderplatz,\n 10178   Berlin ', session_id: 'abc123' },
        { type: 'location_select', location_id: shown, session_id: 'abc123' },
        { type: 'click', location_id: shown, query: null, ignored_field: 'x' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: 4 });
    const rows = await eventsOf(target.id);
    expect(
      rows.map(({ type, locationId, query, sessionId }) => ({ type, locationId, query, sessionId })),
    ).toEqual([
      { type: 'view', locationId: null, query: null, sessionId: 'abc123' },
      { type: 'search', locationId: null, query: 'Alexanderplatz, 10178 Berlin', sessionId: 'abc123' },
      { type: 'location_select', locationId: shown, query: null, sessionId: 'abc123' },
      // Only a view needs a session.
      { type: 'click', locationId: shown, query: null, sessionId: null },
    ]);
    expect(rows[0]!.occurredAt.toISOString()).toBe(occurredAt);
    // Events without a time are dated at receipt.
    expect(Math.abs(rows[1]!.occurredAt.getTime() - Date.now())).toBeLessThan(10_000);
    // One statement: every row got the same transaction time.
    expect(new Set(rows.map((row) => row.createdAt.getTime())).size).toBe(1);
  });

  it('takes the text/plain body navigator.sendBeacon sends', async () => {
    const res = await post(
      JSON.stringify({
        finder_token: target.token,
        events: [
          { type: 'view', session_id: session() },
          { type: 'view', session_id: session() },
        ],
      }),
      { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://any.example' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: 2 });
    expect(await eventsOf(target.id)).toHaveLength(2);
  });

  it('takes 100 events, answers 422 to 101 and stores none of them', async () => {
    const event = { type: 'search' as const, query: 'Berlin' };
    const hundred = await post({ finder_token: target.token, events: Array(100).fill(event) });
    expect(hundred.json()).toEqual({ received: 100 });
    const tooMany = await post({ finder_token: target.token, events: Array(101).fill(event) });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors).toEqual({ events: ['At most 100 events may be sent at once.'] });
    expect(await eventsOf(target.id)).toHaveLength(100);
  });

  it('answers an empty batch with received 0', async () => {
    const res = await post({ finder_token: target.token, events: [] });
    expect(res.json()).toEqual({ received: 0 });
  });

  it('dates an event at receipt when its time is in the future or more than a day old', async () => {
    const hourAgo = new Date(Date.now() - 3600_000);
    const withOffset = new Date(Date.now() - 7200_000);
    const offsetText = `${new Date(withOffset.getTime() + 2 * 3600_000).toISOString().slice(0, 19)}+02:00`;
    const res = await post({
      finder_token: target.token,
      events: [
        { type: 'search', occurred_at: hourAgo.toISOString() },
        { type: 'search', occurred_at: offsetText },
        { type: 'search', occurred_at: new Date(Date.now() + 3600_000).toISOString() },
        { type: 'search', occurred_at: new Date(Date.now() - 2 * 86_400_000).toISOString() },
      ],
    });
    expect(res.statusCode).toBe(200);
    const [kept, offset, future, old] = await eventsOf(target.id);
    expect(kept!.occurredAt.getTime()).toBe(hourAgo.getTime());
    expect(Math.abs(offset!.occurredAt.getTime() - withOffset.getTime())).toBeLessThan(1000);
    // Both at the one receipt time of the batch.
    expect(future!.occurredAt).toEqual(old!.occurredAt);
    expect(Math.abs(future!.occurredAt.getTime() - Date.now())).toBeLessThan(10_000);
  });

  it.each([
    ['no body at all', undefined, ['finder_token', 'events']],
    ['no finder_token', { events: [] }, ['finder_token']],
    ['a blank finder_token', { finder_token: '  ', events: [] }, ['finder_token']],
    ['events that are not an array', { finder_token: 't', events: { type: 'view' } }, ['events']],
    ['an unknown type', { finder_token: 't', events: [{ type: 'purchase' }] }, ['events.0.type']],
    ['no type', { finder_token: 't', events: [{ query: 'x' }] }, ['events.0.type']],
    [
      'a negative location_id',
      { finder_token: 't', events: [{ type: 'click', location_id: -1 }] },
      ['events.0.location_id'],
    ],
    [
      'a fractional location_id',
      { finder_token: 't', events: [{ type: 'click', location_id: 1.5 }] },
      ['events.0.location_id'],
    ],
    [
      'a location_id as text',
      { finder_token: 't', events: [{ type: 'click', location_id: '7' }] },
      ['events.0.location_id'],
    ],
    [
      'a query over 200 characters',
      { finder_token: 't', events: [{ type: 'search', query: 'q'.repeat(201) }] },
      ['events.0.query'],
    ],
    [
      'a session_id over 64 characters',
      { finder_token: 't', events: [{ type: 'view', session_id: 's'.repeat(65) }] },
      ['events.0.session_id'],
    ],
    [
      'an occurred_at that is no date-time',
      { finder_token: 't', events: [{ type: 'view', occurred_at: 'yesterday' }] },
      ['events.0.occurred_at'],
    ],
    [
      'an occurred_at without a zone',
      { finder_token: 't', events: [{ type: 'view', occurred_at: '2024-05-01T12:00:00' }] },
      ['events.0.occurred_at'],
    ],
    [
      'a bad second event',
      { finder_token: 't', events: [{ type: 'view' }, { type: 'zoom' }] },
      ['events.1.type'],
    ],
  ])('%s: 422 naming the fields, nothing written', async (_name, body, fields) => {
    const before = await eventCount();
    const res =
      body === undefined
        ? await ctx.app.inject({ method: 'POST', url: '/api/analytics', remoteAddress: freshIp() })
        : await post({
            ...body,
            ...((body as { finder_token?: string }).finder_token === 't'
              ? { finder_token: target.token }
              : {}),
          });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
    expect(Object.keys(res.json().errors).sort()).toEqual([...fields].sort());
    expect(await eventCount()).toBe(before);
  });

  it.each([
    ['malformed JSON as application/json', 'application/json', '{"finder_token": ', 400, 'bad_request'],
    ['malformed JSON as text/plain', 'text/plain', '{"finder_token": ', 400, 'bad_request'],
    [
      'a JSON with a __proto__ key',
      'text/plain',
      '{"__proto__": {"x": 1}, "finder_token": "t", "events": []}',
      400,
      'bad_request',
    ],
    ['an empty text/plain body', 'text/plain', '', 422, 'validation_failed'],
    ['a form body', 'application/x-www-form-urlencoded', 'finder_token=t', 415, 'unsupported_media_type'],
  ])('%s: %i, nothing written', async (_name, contentType, payload, status, code) => {
    const before = await eventCount();
    const res = await post(payload, { 'content-type': contentType });
    expect(res.statusCode).toBe(status);
    expect(res.json().code).toBe(code);
    expect(typeof res.json().message).toBe('string');
    expect(await eventCount()).toBe(before);
  });

  it('answers 404 to an unknown token and writes nothing', async () => {
    const before = await eventCount();
    const res = await post({ finder_token: 'no-such-finder', events: [{ type: 'view' }] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Finder not found.', code: 'not_found' });
    expect(await eventCount()).toBe(before);
  });
});

describe('POST /api/analytics: origin rules, as on the payload route', () => {
  let restricted: WidgetFinder;
  beforeAll(async () => {
    restricted = await createWidgetFinder(ctx.deps, cast.workspaceId, {
      authorizedUrls: ['https://shop.example', '*.brand.example'],
    });
  });

  it.each([
    ['a listed origin', { origin: 'https://shop.example' }, 200],
    ['a subdomain of a *. entry', { origin: 'https://eu.brand.example' }, 200],
    ['a listed Referer without Origin', { referer: 'https://www.brand.example/find?store=1' }, 200],
    [
      'Origin "null" (a sandboxed frame) with a listed Referer',
      { origin: 'null', referer: 'https://shop.example/' },
      200,
    ],
    ['the bare domain of a *. entry', { origin: 'https://brand.example' }, 403],
    ['another site', { origin: 'https://evil.example' }, 403],
    ['another scheme of a listed origin', { origin: 'http://shop.example' }, 403],
    ['an unlisted Referer without Origin', { referer: 'https://evil.example/shop.example' }, 403],
    [
      'another site in Origin, a listed one in Referer',
      { origin: 'https://evil.example', referer: 'https://shop.example/' },
      403,
    ],
    ['Origin "null" alone', { origin: 'null' }, 403],
    ['neither header', {}, 403],
  ])('%s -> %i, as the payload route answers', async (_name, headers, status) => {
    const before = (await eventsOf(restricted.id)).length;
    const res = await post(
      { finder_token: restricted.token, events: [{ type: 'view', session_id: session() }] },
      headers,
    );
    expect(res.statusCode).toBe(status);
    if (status === 403) {
      expect(res.json()).toEqual({
        message: 'This website is not allowed to use this finder.',
        code: 'forbidden',
      });
    } else {
      expect(res.json()).toEqual({ received: 1 });
    }
    expect((await eventsOf(restricted.id)).length).toBe(before + (status === 200 ? 1 : 0));
    const payload = await ctx.app.inject({
      method: 'GET',
      url: `/api/ext/finders/details/${restricted.token}`,
      headers,
    });
    expect(payload.statusCode).toBe(status);
    if (status === 403) expect(payload.json()).toEqual(res.json());
  });
});

describe('POST /api/analytics: 120 requests a minute per IP', () => {
  it('answers the 121st request of an IP with 429 and Retry-After; the place search limit is apart', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) {
      statuses.push((await post({ finder_token: 'no-such-finder', events: [] }, {}, ip)).statusCode);
    }
    expect(statuses).toEqual(Array(120).fill(404));
    const limited = await post({ finder_token: finder.token, events: [{ type: 'view' }] }, {}, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: 'Too many requests.', code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const search = await ctx.app.inject({
      method: 'GET',
      url: '/api/mapping/autocomplete?q=x&finder_key=no-such-finder',
      remoteAddress: ip,
    });
    expect(search.statusCode).toBe(404);
    expect((await post({ finder_token: 'no-such-finder', events: [] })).statusCode).toBe(404);
  });
});

describe('POST /api/analytics: a view counts once per session and finder', () => {
  const views = async (finderId: number) =>
    (await eventsOf(finderId)).filter((row) => row.type === 'view').map((row) => row.sessionId);

  it('stores the first view of a session; later ones are acknowledged and not stored', async () => {
    const target = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const visit = session();
    const first = await post({ finder_token: target.token, events: [{ type: 'view', session_id: visit }] });
    expect(first.json()).toEqual({ received: 1 });
    // Again from another address, with other events of the session beside it.
    const again = await post({
      finder_token: target.token,
      events: [
        { type: 'view', session_id: visit },
        { type: 'search', query: 'Berlin', session_id: visit },
      ],
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: 1 });
    // A rebuilt app (another process, in effect) knows it too: the rule lives in PostgreSQL.
    await ctx.rebuild();
    const later = await post({ finder_token: target.token, events: [{ type: 'view', session_id: visit }] });
    expect(later.json()).toEqual({ received: 0 });
    expect(await views(target.id)).toEqual([visit]);
    expect((await eventsOf(target.id)).map((row) => row.type)).toEqual(['view', 'search']);
  });

  it('counts one view of a session repeated in one batch, and each other session', async () => {
    const target = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const [a, b] = [session(), session()];
    const res = await post({
      finder_token: target.token,
      events: [
        { type: 'view', session_id: a },
        { type: 'view', session_id: b },
        { type: 'view', session_id: a },
        { type: 'view', session_id: ` ${a} ` },
      ],
    });
    expect(res.json()).toEqual({ received: 2 });
    expect((await views(target.id)).sort()).toEqual([a, b].sort());
  });

  it('counts the same session once on each finder', async () => {
    const [one, two] = [
      await createWidgetFinder(ctx.deps, cast.workspaceId),
      await createWidgetFinder(ctx.deps, cast.workspaceId),
    ];
    const visit = session();
    for (const target of [one, two]) {
      const res = await post({ finder_token: target.token, events: [{ type: 'view', session_id: visit }] });
      expect(res.json()).toEqual({ received: 1 });
      expect(await views(target.id)).toEqual([visit]);
    }
  });

  it('stores one view of 20 requests sent at once with one session, and no error', async () => {
    const target = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const visit = session();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        post({ finder_token: target.token, events: [{ type: 'view', session_id: visit }] }),
      ),
    );
    expect(responses.map((res) => res.statusCode)).toEqual(Array(20).fill(200));
    expect(responses.reduce((sum, res) => sum + res.json().received, 0)).toBe(1);
    expect(await views(target.id)).toEqual([visit]);
  });

  it('takes batches that name the same sessions in opposite orders at once without a deadlock', async () => {
    const target = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const visits = Array.from({ length: 10 }, session);
    const batch = (ids: string[]) => ({
      finder_token: target.token,
      events: ids.map((id) => ({ type: 'view', session_id: id })),
    });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(batch(i % 2 ? visits : [...visits].reverse()))),
    );
    expect(responses.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
    expect(responses.reduce((sum, res) => sum + res.json().received, 0)).toBe(10);
    expect((await views(target.id)).sort()).toEqual([...visits].sort());
  });

  it.each([
    ['without session_id', {}],
    ['with a null session_id', { session_id: null }],
    ['with a blank session_id', { session_id: '   ' }],
  ])('acknowledges a view %s and stores nothing of it', async (_name, extra) => {
    const target = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const res = await post({
      finder_token: target.token,
      events: [
        { type: 'view', ...extra },
        { type: 'search', query: 'Berlin', ...extra },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: 1 });
    expect((await eventsOf(target.id)).map((row) => row.type)).toEqual(['search']);
  });
});

describe('POST /api/analytics: location ids the finder does not show are dropped', () => {
  it('keeps its own, its map’s and its map’s set’s locations and drops the others of the batch', async () => {
    const target = await sceneFinder();
    const [strangers] = await ctx.deps.db
      .insert(locationsTable)
      .values({ workspaceId: cast.strangerWorkspaceId, title: 'Another user’s store', address: 'X' })
      .returning({ id: locationsTable.id });
    const { own, both, viaSet, onMap, outside } = scene.locations;
    const visit = session();
    const named = [own, outside, both, strangers!.id, viaSet, 2_147_483_647, onMap];
    const res = await post({
      finder_token: target.token,
      events: [
        { type: 'view', session_id: visit },
        ...named.map((id) => ({ type: 'location_select', location_id: id, session_id: visit })),
        ...named.map((id) => ({ type: 'click', location_id: id, session_id: visit })),
        { type: 'search', query: 'Berlin', session_id: visit },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: 1 + 4 + 4 + 1 });
    const kept = [own, both, viaSet, onMap];
    expect((await eventsOf(target.id)).map(({ type, locationId }) => ({ type, locationId }))).toEqual([
      { type: 'view', locationId: null },
      ...kept.map((id) => ({ type: 'location_select', locationId: id })),
      ...kept.map((id) => ({ type: 'click', locationId: id })),
      { type: 'search', locationId: null },
    ]);
    // The same locations as the finder's list shows: one definition of what a finder shows.
    const listed = await call('GET', `/locations?finder_id=${target.id}`, cast.ownerToken);
    expect(
      listed
        .json()
        .map((location: { id: number }) => location.id)
        .sort(),
    ).toEqual([...kept].sort());
  });

  it('drops every event of a batch that names only others, and answers received 0', async () => {
    const target = await sceneFinder();
    const res = await post({
      finder_token: target.token,
      events: [
        { type: 'click', location_id: scene.locations.outside, session_id: session() },
        { type: 'location_select', location_id: 999_999, session_id: session() },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: 0 });
    expect(await eventsOf(target.id)).toEqual([]);
  });

  it('drops a location once the finder stops showing it', async () => {
    const target = await sceneFinder();
    await setOwnLocations(ctx.deps, target.id, [scene.locations.both]);
    const res = await post({
      finder_token: target.token,
      events: [
        { type: 'click', location_id: scene.locations.own },
        { type: 'click', location_id: scene.locations.both },
      ],
    });
    expect(res.json()).toEqual({ received: 1 });
    expect((await eventsOf(target.id)).map((row) => row.locationId)).toEqual([scene.locations.both]);
  });
});

describe(`POST /api/analytics: at most ${EVENTS_PER_HOUR} events an hour per IP and finder`, () => {
  const searches = (from: number, n: number, extra: Record<string, unknown> = {}) =>
    Array.from({ length: n }, (_, i) => ({ type: 'search', query: `q${from + i}`, ...extra }));

  it('stores the events within the bound, then acknowledges the rest with 200 and stores none', async () => {
    const target = await sceneFinder();
    const ip = freshIp();
    // Dropped events count too: the bound is on what a client posts.
    const foreign = await post(
      {
        finder_token: target.token,
        events: Array.from({ length: 100 }, () => ({ type: 'click', location_id: scene.locations.outside })),
      },
      {},
      ip,
    );
    expect(foreign.json()).toEqual({ received: 0 });
    for (let batch = 1; batch < 5; batch++) {
      const res = await post({ finder_token: target.token, events: searches(batch * 100, 100) }, {}, ip);
      expect(res.json()).toEqual({ received: 100 });
    }
    // 500 taken: a batch of 60 fits; of the next 90, the first 40 are stored.
    const partial = await post({ finder_token: target.token, events: searches(500, 60) }, {}, ip);
    expect(partial.json()).toEqual({ received: 60 });
    const overflowing = await post({ finder_token: target.token, events: searches(560, 90) }, {}, ip);
    expect(overflowing.statusCode).toBe(200);
    expect(overflowing.json()).toEqual({ received: 40 });
    const over = await post(
      { finder_token: target.token, events: [{ type: 'view', session_id: session() }] },
      {},
      ip,
    );
    expect(over.statusCode).toBe(200);
    expect(over.json()).toEqual({ received: 0 });

    const rows = await eventsOf(target.id);
    expect(rows).toHaveLength(EVENTS_PER_HOUR - 100);
    expect(rows.at(-1)!.query).toBe('q599');
    expect(rows.some((row) => row.query === 'q600' || row.type === 'view')).toBe(false);

    // Another address, and the same address on another finder, have budgets of their own.
    expect((await post({ finder_token: target.token, events: searches(0, 1) })).json()).toEqual({
      received: 1,
    });
    const other = await createWidgetFinder(ctx.deps, cast.workspaceId);
    expect((await post({ finder_token: other.token, events: searches(0, 1) }, {}, ip)).json()).toEqual({
      received: 1,
    });
  });

  it('counts requests sent at once in one budget', async () => {
    const target = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const ip = freshIp();
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post({ finder_token: target.token, events: searches(i * 100, 100) }, {}, ip),
      ),
    );
    expect(responses.map((res) => res.statusCode)).toEqual(Array(8).fill(200));
    expect(responses.reduce((sum, res) => sum + res.json().received, 0)).toBe(EVENTS_PER_HOUR);
    expect(await eventsOf(target.id)).toHaveLength(EVENTS_PER_HOUR);
  });

  it('spends nothing of the budget on a refused request (422, 404, 403)', async () => {
    const target = await createWidgetFinder(ctx.deps, cast.workspaceId, { authorizedUrls: ['shop.example'] });
    const ip = freshIp();
    const allowed = { origin: 'https://shop.example' };
    expect((await post({ finder_token: target.token, events: searches(0, 100) }, {}, ip)).statusCode).toBe(
      403,
    );
    const invalid = [...searches(0, 99), { type: 'zoom' }];
    expect((await post({ finder_token: target.token, events: invalid }, allowed, ip)).statusCode).toBe(422);
    for (let batch = 0; batch < 6; batch++) {
      const res = await post({ finder_token: target.token, events: searches(batch * 100, 100) }, allowed, ip);
      expect(res.json()).toEqual({ received: 100 });
    }
  });
});

describe.skipIf(!canRunRedisServer)('POST /api/analytics: the hourly bound through Redis', () => {
  let redis: ThrowawayRedis;
  let shared: TestContext;
  beforeAll(async () => {
    redis = await startThrowawayRedis();
    shared = await createTestContext({ env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await shared?.close();
    await redis?.stop();
  });

  it('is shared by every process: a rebuilt app goes on counting where the first stopped', async () => {
    const sharedCast = await createCast(shared.deps);
    const target = await createWidgetFinder(shared.deps, sharedCast.workspaceId);
    const send = (n: number) =>
      shared.app.inject({
        method: 'POST',
        url: '/api/analytics',
        payload: {
          finder_token: target.token,
          events: Array.from({ length: n }, () => ({ type: 'search', query: 'Berlin' })),
        },
        remoteAddress: '10.99.0.1',
      });
    for (let i = 0; i < 5; i++) expect((await send(100)).json()).toEqual({ received: 100 });
    await shared.rebuild();
    expect((await send(100)).json()).toEqual({ received: 100 });
    expect((await send(100)).json()).toEqual({ received: 0 });
    const probe = await redis.client();
    expect(await probe.keys('quota:analytics-events:*')).toEqual([
      `quota:analytics-events:${target.id}:10.99.0.1`,
    ]);
    const [stored] = await shared.deps.db
      .select({ n: count() })
      .from(analyticsEventsTable)
      .where(eq(analyticsEventsTable.finderId, target.id));
    expect(stored!.n).toBe(EVENTS_PER_HOUR);
  });
});

describe('GET /api/finders/{id}/analytics', () => {
  let reported: WidgetFinder;
  let today: number;
  const day = (offset: number, hour = 12) => new Date(today + offset * 86_400_000 + hour * 3_600_000);
  const iso = (offset: number) => day(offset, 0).toISOString().slice(0, 10);
  let kept: number;
  let deleted: number;
  let foreign: number;

  beforeAll(async () => {
    const now = new Date();
    today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    reported = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const other = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const [a, b] = await ctx.deps.db
      .insert(locationsTable)
      .values([
        { workspaceId: cast.workspaceId, title: 'Flagship', address: 'Main St 1' },
        { workspaceId: cast.workspaceId, title: 'Closed store', address: 'Old St 2' },
      ])
      .returning({ id: locationsTable.id });
    const [c] = await ctx.deps.db
      .insert(locationsTable)
      .values({ workspaceId: cast.strangerWorkspaceId, title: 'Secret of another workspace', address: 'X' })
      .returning({ id: locationsTable.id });
    kept = a!.id;
    deleted = b!.id;
    foreign = c!.id;

    const rows: (typeof analyticsEventsTable.$inferInsert)[] = [];
    const add = (
      type: AnalyticsEventType,
      at: Date,
      extra: { locationId?: number; query?: string } = {},
      times = 1,
    ) => {
      for (let i = 0; i < times; i++) rows.push({ finderId: reported.id, type, occurredAt: at, ...extra });
    };
    add('view', day(0), {}, 5);
    add('view', day(-1, 23.99), {}, 3); // 23:59 of yesterday: yesterday
    add('view', day(0, 0), {}, 2); // 00:00 today: today
    add('search', day(0), { query: 'Berlin' }, 3);
    add('search', day(-3), { query: 'Alexanderplatz' }, 3);
    add('search', day(-2), { query: 'Hamburg' }, 1);
    add('search', day(-2)); // a position search, without text
    add('click', day(-1), { locationId: kept }, 2);
    add('location_select', day(-1), { locationId: kept }, 4);
    add('location_select', day(-5), { locationId: deleted }, 3);
    add('location_select', day(-5), { locationId: foreign }, 1);
    add('view', day(-29), {}, 7); // the first day of the default window
    add('view', day(-30), {}, 11); // outside the default window
    add('view', day(-89), {}, 13); // the first day of a 90-day window
    // Another finder's events never count.
    rows.push({ finderId: other.id, type: 'view', occurredAt: day(0) });
    rows.push({ finderId: other.id, type: 'search', occurredAt: day(0), query: 'Berlin' });
    await ctx.deps.db.insert(analyticsEventsTable).values(rows);
    await ctx.deps.db.delete(locationsTable).where(eq(locationsTable.id, deleted));
  });

  it('reports totals, every UTC day of the last 30 (zeros included) and the top lists', async () => {
    const res = await call('GET', `/finders/${reported.id}/analytics`, cast.memberToken);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    // Rows written straight into the table, without sessions.
    expect(report).toMatchObject({
      views: 17,
      clicks: 2,
      searches: 8,
      location_selects: 8,
      sessions: 0,
      days: 30,
    });
    expect(report.daily).toHaveLength(30);
    expect(report.daily[0]).toEqual({ date: iso(-29), views: 7, clicks: 0, searches: 0, sessions: 0 });
    expect(report.daily.at(-1)).toEqual({ date: iso(0), views: 7, clicks: 0, searches: 3, sessions: 0 });
    expect(report.daily.at(-2)).toEqual({ date: iso(-1), views: 3, clicks: 2, searches: 0, sessions: 0 });
    expect(report.daily.at(-3)).toEqual({ date: iso(-2), views: 0, clicks: 0, searches: 2, sessions: 0 });
    expect(report.daily.at(-5)).toEqual({ date: iso(-4), views: 0, clicks: 0, searches: 0, sessions: 0 });
    const dates = report.daily.map((entry: { date: string }) => entry.date);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates).size).toBe(30);
    expect(report.top_searches).toEqual([
      { query: 'Alexanderplatz', count: 3 },
      { query: 'Berlin', count: 3 },
      { query: 'Hamburg', count: 1 },
    ]);
    expect(report.top_locations).toEqual([
      { location_id: kept, title: 'Flagship', count: 6 },
      { location_id: deleted, title: null, count: 3 },
      { location_id: foreign, title: null, count: 1 },
    ]);
  });

  it('takes days from 1 to 90', async () => {
    const one = (await call('GET', `/finders/${reported.id}/analytics?days=1`, cast.ownerToken)).json();
    expect(one).toMatchObject({ days: 1, views: 7, searches: 3, clicks: 0, location_selects: 0 });
    expect(one.daily).toEqual([{ date: iso(0), views: 7, clicks: 0, searches: 3, sessions: 0 }]);
    const ninety = (await call('GET', `/finders/${reported.id}/analytics?days=90`, cast.ownerToken)).json();
    expect(ninety).toMatchObject({ days: 90, views: 41 });
    expect(ninety.daily).toHaveLength(90);
    expect(ninety.daily[0]).toEqual({ date: iso(-89), views: 13, clicks: 0, searches: 0, sessions: 0 });
  });

  it('counts unique sessions beside the raw counts, per UTC day and over the window', async () => {
    const target = await sceneFinder();
    const yesterday = new Date(today - 1000).toISOString(); // 23:59:59 yesterday
    const midnight = new Date(today).toISOString(); // 00:00:00 today
    const [one, two, three, four] = [session(), session(), session(), session()];
    const { own, outside } = scene.locations;
    const res = await post({
      finder_token: target.token,
      events: [
        { type: 'view', session_id: one, occurred_at: yesterday },
        { type: 'search', query: 'Berlin', session_id: one, occurred_at: yesterday },
        { type: 'location_select', location_id: own, session_id: one, occurred_at: midnight },
        { type: 'click', location_id: own, session_id: one, occurred_at: midnight },
        { type: 'view', session_id: two, occurred_at: midnight },
        { type: 'search', session_id: two, occurred_at: midnight },
        { type: 'view', session_id: two, occurred_at: midnight },
        { type: 'view', session_id: three, occurred_at: yesterday },
        { type: 'search', query: 'Hamburg', occurred_at: midnight },
        // Dropped (a location the finder does not show): no session of the report.
        { type: 'click', location_id: outside, session_id: four, occurred_at: midnight },
      ],
    });
    expect(res.json()).toEqual({ received: 8 });
    const sessionDays = await ctx.deps.db
      .select()
      .from(analyticsSessionsTable)
      .where(eq(analyticsSessionsTable.finderId, target.id));
    expect(sessionDays).toHaveLength(4);

    const report = (await call('GET', `/finders/${target.id}/analytics`, cast.memberToken)).json();
    expect(report).toMatchObject({ views: 3, searches: 3, clicks: 1, location_selects: 1, sessions: 3 });
    expect(report.daily.at(-2)).toEqual({ date: iso(-1), views: 2, clicks: 0, searches: 1, sessions: 2 });
    expect(report.daily.at(-1)).toEqual({ date: iso(0), views: 1, clicks: 1, searches: 2, sessions: 2 });
    expect(report.daily.slice(0, -2).every((entry: { sessions: number }) => entry.sessions === 0)).toBe(true);
    const todayOnly = (await call('GET', `/finders/${target.id}/analytics?days=1`, cast.memberToken)).json();
    expect(todayOnly).toMatchObject({ views: 1, sessions: 2 });
  });

  it('lists at most 10 searches and 10 locations', async () => {
    const busy = await createWidgetFinder(ctx.deps, cast.workspaceId);
    await ctx.deps.db.insert(analyticsEventsTable).values(
      Array.from({ length: 12 }, (_, i) => [
        { finderId: busy.id, type: 'search' as const, query: `q${i}`, occurredAt: day(0) },
        { finderId: busy.id, type: 'click' as const, locationId: 1000 + i, occurredAt: day(0) },
      ]).flat(),
    );
    const report = (await call('GET', `/finders/${busy.id}/analytics`, cast.ownerToken)).json();
    expect(report.top_searches).toHaveLength(10);
    expect(report.top_locations).toHaveLength(10);
    expect(report.searches).toBe(12);
  });

  it('answers a finder without events with zeros', async () => {
    const quiet = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const report = (await call('GET', `/finders/${quiet.id}/analytics?days=7`, cast.ownerToken)).json();
    expect(report).toEqual({
      views: 0,
      clicks: 0,
      searches: 0,
      location_selects: 0,
      days: 7,
      sessions: 0,
      daily: Array.from({ length: 7 }, (_, i) => ({
        date: iso(i - 6),
        views: 0,
        clicks: 0,
        searches: 0,
        sessions: 0,
      })),
      top_searches: [],
      top_locations: [],
    });
  });

  it('is served to admins at /admin/finders/{id}/analytics, to nobody else there', async () => {
    const admin = await call('GET', `/admin/finders/${reported.id}/analytics`, cast.adminToken);
    expect(admin.statusCode).toBe(200);
    expect(admin.json().views).toBe(17);
    expect((await call('GET', `/admin/finders/${reported.id}/analytics`, cast.ownerToken)).statusCode).toBe(
      403,
    );
  });

  it('answers 404 for another user’s finder, a missing one and a malformed id; 401 without a token', async () => {
    const notFound = { message: 'Finder not found.', code: 'not_found' };
    const stranger = await call('GET', `/finders/${reported.id}/analytics`, cast.strangerToken);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual(notFound);
    expect((await call('GET', '/finders/999999/analytics', cast.ownerToken)).json()).toEqual(notFound);
    expect((await call('GET', '/finders/abc/analytics', cast.ownerToken)).statusCode).toBe(404);
    expect((await call('GET', `/finders/${reported.id}/analytics`)).statusCode).toBe(401);
  });

  it.each(['0', '91', '-1', '1.5', 'abc', ''])('answers 422 to days=%s', async (days) => {
    const res = await call('GET', `/finders/${reported.id}/analytics?days=${days}`, cast.ownerToken);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: { days: [expect.any(String)] } });
  });
});
