// /holiday-calendars: a workspace's named lists of dated exceptions, assigned to locations and
// sets; bad input with its field, another user's calendar 404, nothing half-written.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finderLocationsTable } from '../src/modules/finders/finders.table.ts';
import { sliceStatement } from '../src/modules/finders/payload/finders.payload.repository.ts';
import { MAX_WORKSPACE_CALENDARS } from '../src/modules/holiday-calendars/holiday-calendars.schemas.ts';
import { holidayCalendarsTable } from '../src/modules/holiday-calendars/holiday-calendars.table.ts';
import { locationSetsTable } from '../src/modules/locations/locations.relations.table.ts';
import { setsTable } from '../src/modules/sets/sets.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createWidgetFinder } from './factories/widget-finders.ts';
import { createWorkspace, firstWorkspaceId } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let owner: UserRow;
let token: string;
let workspaceId: number;
let strangerToken: string;
let strangerWorkspaceId: number;
let locationIds: number[];
let setId: number;
let strangerLocationId: number;

const DAYS = [
  { date: '2027-12-25', end_date: '2027-12-26', hours: [], label: 'Christmas' },
  { date: '2027-12-24', hours: ['09:00-14:00'], label: 'Christmas Eve' },
];

const createLocation = async (as: string, ws: number) =>
  (
    await ctx.app.inject({
      method: 'POST',
      url: '/api/locations',
      headers: bearer(as),
      payload: { workspace_id: ws, title: 'Store', time_zone: 'Europe/Berlin' },
    })
  ).json().id as number;

beforeAll(async () => {
  ctx = await createTestContext({ env: { LOG_LEVEL: 'error' } });
  owner = await createUser(ctx.deps);
  token = await tokenFor(ctx.deps, owner);
  workspaceId = await firstWorkspaceId(ctx.deps, owner);
  const stranger = await createUser(ctx.deps);
  strangerToken = await tokenFor(ctx.deps, stranger);
  strangerWorkspaceId = await firstWorkspaceId(ctx.deps, stranger);
  locationIds = [await createLocation(token, workspaceId), await createLocation(token, workspaceId)];
  strangerLocationId = await createLocation(strangerToken, strangerWorkspaceId);
  const [set] = await ctx.deps.db.insert(setsTable).values({ workspaceId, name: 'Germany' }).returning();
  setId = set!.id;
});
afterAll(async () => {
  await ctx?.close();
});

const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, as = token) =>
  ctx.app.inject({
    method,
    url: `/api/holiday-calendars${url}`,
    headers: bearer(as),
    payload: payload as object,
  });
const calendarCount = async () => (await ctx.deps.db.select().from(holidayCalendarsTable)).length;

describe('holiday calendars', () => {
  it('creates, reads, lists, updates and deletes a calendar with its assignments', async () => {
    const created = await request('POST', '/', {
      workspace_id: workspaceId,
      name: ' Public holidays DE 2027 ',
      days: DAYS,
      location_ids: [locationIds[1], locationIds[0], locationIds[0]],
      set_ids: [setId],
    });
    expect(created.statusCode, created.body).toBe(201);
    const calendar = created.json();
    expect(calendar).toMatchObject({
      workspace_id: workspaceId,
      name: 'Public holidays DE 2027',
      days: [
        { date: '2027-12-24', end_date: null, hours: ['09:00-14:00'], label: 'Christmas Eve' },
        { date: '2027-12-25', end_date: '2027-12-26', hours: [], label: 'Christmas' },
      ],
      location_ids: [...locationIds].sort((a, b) => a - b),
      set_ids: [setId],
    });
    expect((await request('GET', `/${calendar.id}`)).json()).toEqual(calendar);
    const listed = await request('GET', `/?workspace_id=${workspaceId}&limit=10`);
    expect(listed.json()).toEqual([calendar]);
    expect(listed.headers['x-total-count']).toBe('1');

    const updated = (await request('PUT', `/${calendar.id}`, { location_ids: [], name: 'Feiertage' })).json();
    expect(updated).toMatchObject({
      name: 'Feiertage',
      location_ids: [],
      set_ids: [setId],
      days: calendar.days,
    });

    expect((await request('DELETE', `/${calendar.id}`)).statusCode).toBe(204);
    expect((await request('GET', `/${calendar.id}`)).statusCode).toBe(404);
  });

  it('refuses a second calendar of the same name in the workspace', async () => {
    const first = await request('POST', '/', { workspace_id: workspaceId, name: 'Same', days: [] });
    expect(first.statusCode).toBe(201);
    const again = await request('POST', '/', { workspace_id: workspaceId, name: 'Same', days: [] });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.name[0]).toMatch(/already exists/);
  });

  it(`refuses a calendar past the workspace's ${MAX_WORKSPACE_CALENDARS}, also when created at once, and takes one again after a delete`, async () => {
    const full = await createWorkspace(ctx.deps, owner, 'Many calendars');
    await ctx.deps.db.insert(holidayCalendarsTable).values(
      Array.from({ length: MAX_WORKSPACE_CALENDARS - 2 }, (_, i) => ({
        workspaceId: full,
        name: `C${i}`,
        days: [],
      })),
    );
    // Three at once for the two places left: the count is decided under a lock.
    const raced = await Promise.all(
      ['A', 'B', 'C'].map((name) => request('POST', '/', { workspace_id: full, name, days: [] })),
    );
    expect(raced.map((res) => res.statusCode).sort()).toEqual([201, 201, 422]);
    const refused = raced.find((res) => res.statusCode === 422)!;
    expect(refused.json().errors).toEqual({
      workspace_id: [
        `The workspace has ${MAX_WORKSPACE_CALENDARS} holiday calendars, the most it can have. Delete one, or put more dates into one calendar.`,
      ],
    });
    const created = raced.find((res) => res.statusCode === 201)!.json() as { id: number };
    expect((await request('DELETE', `/${created.id}`)).statusCode).toBe(204);
    expect((await request('POST', '/', { workspace_id: full, name: 'Again', days: [] })).statusCode).toBe(
      201,
    );
  });

  it.each([
    [{ workspace_id: undefined, name: 'x', days: [] }, 'workspace_id', /required/],
    [{ workspace_id: 0, name: 'x', days: [] }, 'workspace_id', /positive/],
    [{ name: '', days: [] }, 'name', /required/],
    [{ name: 'x' }, 'days', /list of entries/],
    [{ name: 'x', days: [{ date: '2027-13-01', hours: [] }] }, 'days.0.date', /YYYY-MM-DD/],
    [
      { name: 'x', days: [{ date: '2027-12-24', hours: ['14:00-09:00', '10:00-11:00'] }] },
      'days.0.hours.1',
      /last of its day/,
    ],
    [{ name: 'x', days: [], location_ids: ['a'] }, 'location_ids.0', /integer|required/],
    [{ name: 'x', days: [], location_ids: 'all' }, 'location_ids', /list of ids/],
  ])('refuses %j on %s, writing nothing', async (payload, field, message) => {
    const before = await calendarCount();
    const res = await request('POST', '/', { workspace_id: workspaceId, ...payload });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors[field]?.[0], JSON.stringify(res.json().errors)).toMatch(message);
    expect(await calendarCount()).toBe(before);
  });

  it('refuses locations and sets of another workspace, writing nothing', async () => {
    const before = await calendarCount();
    const res = await request('POST', '/', {
      workspace_id: workspaceId,
      name: 'Foreign',
      days: [],
      location_ids: [locationIds[0], strangerLocationId],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.location_ids[0]).toMatch(/workspace/);
    expect(await calendarCount()).toBe(before);
  });

  it('answers 404 for another user’s calendar and workspace, whatever the method', async () => {
    const mine = (await request('POST', '/', { workspace_id: workspaceId, name: 'Mine', days: [] })).json();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await request(
        method,
        `/${mine.id}`,
        method === 'PUT' ? { name: 'Theirs' } : undefined,
        strangerToken,
      );
      expect(res.statusCode, method).toBe(404);
    }
    expect((await request('GET', `/${mine.id}`)).json().name).toBe('Mine');
    const foreignWorkspace = await request(
      'POST',
      '/',
      { workspace_id: workspaceId, name: 'x', days: [] },
      strangerToken,
    );
    expect(foreignWorkspace.statusCode).toBe(404);
    const listed = await request('GET', `/?workspace_id=${workspaceId}`, undefined, strangerToken);
    expect(listed.statusCode).toBe(404);
  });
});

describe('special days in the widget payload', () => {
  /** The UTC date `days` from today, YYYY-MM-DD. */
  const fromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

  it('expands own special hours and calendars (direct and through sets) per date for 400 days, own first, then calendar order', async () => {
    const ws = await createWorkspace(ctx.deps, owner, 'Chain');
    const make = async (extra: Record<string, unknown> = {}) =>
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/locations',
          headers: bearer(token),
          payload: { workspace_id: ws, title: 'Store', time_zone: 'Europe/Berlin', ...extra },
        })
      ).json().id as number;
    const withOwn = await make({ special_hours: [{ date: fromToday(12), hours: [], label: 'Own' }] });
    // The same own hours without calendars: expanded apart from withOwn's (a build expands each
    // combination of own hours and calendars once).
    const sameOwn = await make({ special_hours: [{ date: fromToday(12), hours: [], label: 'Own' }] });
    const plain = await make();
    const ownOnly = await make({
      special_hours: [{ date: fromToday(3), end_date: fromToday(4), hours: ['10:00-12:00'] }],
    });
    // In the set only: its calendar comes through the set alone.
    const setOnly = await make();
    const [set] = await ctx.deps.db.insert(setsTable).values({ workspaceId: ws, name: 'DE' }).returning();
    await ctx.deps.db.insert(locationSetsTable).values([
      { setId: set!.id, locationId: withOwn },
      { setId: set!.id, locationId: setOnly },
    ]);
    const first = await request('POST', '/', {
      workspace_id: ws,
      name: 'A',
      days: [
        { date: fromToday(10), hours: [], label: 'Holiday A' },
        { date: fromToday(11), end_date: fromToday(12), hours: ['10:00-14:00'] },
      ],
      set_ids: [set!.id],
    });
    expect(first.statusCode, first.body).toBe(201);
    const second = await request('POST', '/', {
      workspace_id: ws,
      name: 'B',
      days: [
        { date: fromToday(10), hours: ['09:00-12:00'], label: 'B' },
        { date: fromToday(-30), hours: [] },
        { date: fromToday(500), hours: [] },
      ],
      location_ids: [withOwn],
    });
    expect(second.statusCode, second.body).toBe(201);
    const finder = await createWidgetFinder(ctx.deps, ws);
    await ctx.deps.db.insert(finderLocationsTable).values(
      [withOwn, plain, ownOnly, setOnly, sameOwn].map((locationId, sortOrder) => ({
        finderId: finder.id,
        locationId,
        sortOrder,
      })),
    );
    const payload = (await ctx.app.inject({ url: `/api/ext/finders/details/${finder.token}` })).json() as {
      locations: { id: number; special_days: unknown[] }[];
    };
    const daysOf = (id: number) => payload.locations.find((location) => location.id === id)!.special_days;
    expect(daysOf(withOwn)).toEqual([
      [fromToday(10), [], 'Holiday A'],
      [fromToday(11), ['10:00-14:00']],
      [fromToday(12), [], 'Own'],
    ]);
    expect(daysOf(sameOwn)).toEqual([[fromToday(12), [], 'Own']]);
    expect(daysOf(plain)).toEqual([]);
    expect(daysOf(setOnly)).toEqual([
      [fromToday(10), [], 'Holiday A'],
      [fromToday(11), ['10:00-14:00']],
      [fromToday(12), ['10:00-14:00']],
    ]);
    expect(daysOf(ownOnly)).toEqual([
      [fromToday(3), ['10:00-12:00']],
      [fromToday(4), ['10:00-12:00']],
    ]);

    // A calendar's change reaches the payload (the cache follows the workspace).
    await request('PUT', `/${first.json().id}`, { set_ids: [] });
    const after = (
      await ctx.app.inject({ url: `/api/ext/finders/details/${finder.token}` })
    ).json() as typeof payload;
    expect(after.locations.find((location) => location.id === withOwn)!.special_days).toEqual([
      [fromToday(10), ['09:00-12:00'], 'B'],
      [fromToday(12), [], 'Own'],
    ]);
    expect(after.locations.find((location) => location.id === sameOwn)!.special_days).toEqual([
      [fromToday(12), [], 'Own'],
    ]);
  });
});

describe("other workspaces' calendars in the payload build", () => {
  it('are not read: the build looks up the calendars of its own locations and sets through the indexes', async () => {
    // Another tenant with 20,000 locations, each named by a calendar and in a set that brings one.
    const other = await createUser(ctx.deps);
    const otherWorkspace = await firstWorkspaceId(ctx.deps, other);
    await ctx.deps.db.execute(sql`
      with calendar as (
        insert into holiday_calendars (workspace_id, name, days) values (${otherWorkspace}, 'Theirs', '[]') returning id),
      made as (
        insert into locations (workspace_id, title) select ${otherWorkspace}, 'Theirs ' || g from generate_series(1, 20000) g
        returning id),
      named as (insert into holiday_calendar_locations (calendar_id, location_id) select c.id, m.id from calendar c, made m),
      set_rows as (
        insert into sets (workspace_id, name) select ${otherWorkspace}, 'Set ' || g from generate_series(1, 2000) g returning id)
      insert into holiday_calendar_sets (calendar_id, set_id) select c.id, s.id from calendar c, set_rows s`);
    await ctx.deps.db.execute(sql`analyze holiday_calendar_locations`);
    await ctx.deps.db.execute(sql`analyze holiday_calendar_sets`);
    const plan = (
      (await ctx.deps.db.execute(
        sql`explain (costs off) ${sliceStatement(locationIds.join(','), workspaceId)}`,
      )) as unknown as { 'QUERY PLAN': string }[]
    )
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    expect(plan).not.toMatch(/Seq Scan on holiday_calendar_(locations|sets)/);
    expect(plan).toMatch(/Index (Only )?Scan using holiday_calendar_locations_location_id_idx/);
    expect(plan).toMatch(/Index (Only )?Scan using holiday_calendar_sets_set_id_idx/);
  });
});
