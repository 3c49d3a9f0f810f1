// GET /api/admin/audit-logs through HTTP on a real database: rows written by real
// state-changing requests, rows inserted with explicit times for the from/to window, every
// filter, newest-first order, paging with X-Total-Count always sent, and the errors.
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogsTable } from '../src/modules/audit/audit.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let admin: UserRow;
let adminToken: string;
let user: UserRow;
let userToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await createUser(ctx.deps, { role: 'admin' });
  adminToken = await tokenFor(ctx.deps, admin);
  user = await createUser(ctx.deps);
  userToken = await tokenFor(ctx.deps, user);
});
afterAll(async () => {
  await ctx?.close();
});

const logs = (query = '', token: string | null = adminToken) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/admin/audit-logs${query ? `?${query}` : ''}`,
    headers: token ? bearer(token) : {},
  });
const auditCount = async () => (await ctx.deps.db.select({ n: count() }).from(auditLogsTable))[0]!.n;
const ids = (body: { id: number }[]) => body.map((item) => item.id);

interface Seed {
  at: string;
  method?: string;
  status?: number;
}

/** Audit rows of a fresh user at explicit times; returns the user and the row ids in order. */
async function seedRows(seeds: Seed[]) {
  const owner = await createUser(ctx.deps);
  const rows = await ctx.deps.db
    .insert(auditLogsTable)
    .values(
      seeds.map((seed) => ({
        userId: owner.id,
        method: seed.method ?? 'POST',
        route: '/api/seeded',
        path: '/api/seeded',
        status: seed.status ?? 200,
        createdAt: new Date(seed.at),
      })),
    )
    .returning({ id: auditLogsTable.id });
  return { owner, rowIds: rows.map((r) => r.id) };
}

describe('GET /api/admin/audit-logs', () => {
  it('shows the rows real requests wrote, newest first, with every column', async () => {
    const target = await createUser(ctx.deps);
    const refused = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${target.id}`,
      headers: { ...bearer(userToken), 'user-agent': 'audit-test-agent' },
      payload: { name: 'Nope' },
    });
    expect(refused.statusCode).toBe(403);
    const edited = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${target.id}`,
      headers: { ...bearer(adminToken), 'x-request-id': 'audit-req-1' },
      payload: { name: 'Renamed' },
    });
    expect(edited.statusCode).toBe(200);

    const res = await logs();
    expect(res.statusCode).toBe(200);
    const [newest, previous] = res.json();
    expect(newest).toEqual({
      id: expect.any(Number),
      user_id: admin.id,
      method: 'PUT',
      route: '/api/users/:id',
      path: `/api/users/${target.id}`,
      status: 200,
      ip: '127.0.0.1',
      user_agent: 'lightMyRequest',
      request_id: 'audit-req-1',
      created_at: expect.any(String),
    });
    expect(previous).toMatchObject({
      user_id: user.id,
      method: 'PUT',
      status: 403,
      user_agent: 'audit-test-agent',
      request_id: refused.headers['x-request-id'],
    });
    expect(new Date(newest.created_at).getTime()).toBeGreaterThanOrEqual(
      new Date(previous.created_at).getTime(),
    );
    expect(newest.id).toBeGreaterThan(previous.id);
  });

  it('writes no audit row for reading the log', async () => {
    const before = await auditCount();
    expect((await logs()).statusCode).toBe(200);
    expect(await auditCount()).toBe(before);
  });

  it('filters by user_id, also after the user is deleted, and an unknown user matches nothing', async () => {
    const { owner, rowIds } = await seedRows([
      { at: '2002-01-01T00:00:00Z' },
      { at: '2002-01-02T00:00:00Z' },
    ]);
    const res = await logs(`user_id=${owner.id}`);
    expect(ids(res.json())).toEqual([rowIds[1], rowIds[0]]);
    expect(res.json().every((row: { user_id: number }) => row.user_id === owner.id)).toBe(true);
    await ctx.deps.services.users.softDelete(owner.id);
    expect(ids((await logs(`user_id=${owner.id}`)).json())).toEqual([rowIds[1], rowIds[0]]);
    const none = await logs('user_id=2000000000');
    expect(none.json()).toEqual([]);
    expect(none.headers['x-total-count']).toBe('0');
  });

  it('takes from as inclusive and to as exclusive, as date-times with a zone or as dates', async () => {
    const { owner, rowIds } = await seedRows([
      { at: '2001-01-01T00:00:00Z' },
      { at: '2001-01-02T00:00:00Z' },
      { at: '2001-01-02T23:59:59.999Z' },
      { at: '2001-01-03T00:00:00Z' },
    ]);
    const [jan1, jan2, jan2late, jan3] = rowIds;
    const window = (query: string) => logs(`user_id=${owner.id}&${query}`).then((r) => ids(r.json()));
    expect(await window('from=2001-01-02T00:00:00Z&to=2001-01-03T00:00:00Z')).toEqual([jan2late, jan2]);
    expect(await window('from=2001-01-02&to=2001-01-03')).toEqual([jan2late, jan2]);
    expect(await window(`from=${encodeURIComponent('2001-01-02T02:00:00+02:00')}`)).toEqual([
      jan3,
      jan2late,
      jan2,
    ]);
    expect(await window('to=2001-01-02T00:00:00.000Z')).toEqual([jan1]);
    expect(await window('from=2001-01-03T00:00:00Z')).toEqual([jan3]);
    // Without user_id the window still applies to every row.
    const all = await logs('from=2001-01-01&to=2001-01-04');
    expect(ids(all.json())).toEqual([jan3, jan2late, jan2, jan1]);
  });

  it('filters by method (any case) and status', async () => {
    const { owner, rowIds } = await seedRows([
      { at: '2003-01-01T00:00:00Z', method: 'DELETE', status: 200 },
      { at: '2003-01-02T00:00:00Z', method: 'POST', status: 422 },
      { at: '2003-01-03T00:00:00Z', method: 'DELETE', status: 404 },
    ]);
    const scoped = (query: string) => logs(`user_id=${owner.id}&${query}`).then((r) => ids(r.json()));
    expect(await scoped('method=delete')).toEqual([rowIds[2], rowIds[0]]);
    expect(await scoped('status=422')).toEqual([rowIds[1]]);
    expect(await scoped('method=DELETE&status=404')).toEqual([rowIds[2]]);
    expect(await scoped('method=PATCH')).toEqual([]);
  });

  it('breaks ties on created_at by id, newest first', async () => {
    const { owner, rowIds } = await seedRows([
      { at: '2004-01-01T00:00:00Z' },
      { at: '2004-01-01T00:00:00Z' },
      { at: '2004-01-01T00:00:00Z' },
    ]);
    expect(ids((await logs(`user_id=${owner.id}`)).json())).toEqual([...rowIds].reverse());
  });

  it('sends at most 100 rows by default, pages with limit and offset, and always sends X-Total-Count', async () => {
    const { owner, rowIds } = await seedRows(
      Array.from({ length: 120 }, (_, i) => ({ at: new Date(Date.UTC(2005, 0, 1, 0, i)).toISOString() })),
    );
    const newestFirst = [...rowIds].reverse();
    const first = await logs(`user_id=${owner.id}`);
    expect(first.headers['x-total-count']).toBe('120');
    expect(ids(first.json())).toEqual(newestFirst.slice(0, 100));
    const page = await logs(`user_id=${owner.id}&limit=5&offset=110`);
    expect(page.headers['x-total-count']).toBe('120');
    expect(ids(page.json())).toEqual(newestFirst.slice(110, 115));
    const tail = await logs(`user_id=${owner.id}&limit=1000&offset=100`);
    expect(ids(tail.json())).toEqual(newestFirst.slice(100));
    const everything = await logs();
    expect(Number(everything.headers['x-total-count'])).toBe(await auditCount());
  });

  it.each([
    ['user_id=abc', 'user_id'],
    ['user_id=0', 'user_id'],
    ['from=yesterday', 'from'],
    ['from=2024-13-01', 'from'],
    ['from=2023-02-29T00:00:00Z', 'from'],
    ['to=2024-01-01T10:00:00', 'to'],
    ['to=1714560000', 'to'],
    ['from=0000-06-01T00:00:00Z', 'from'],
    ['from=2024-01-02&to=2024-01-01', 'to'],
    ['from=2024-01-01T00:00:00Z&to=2024-01-01T00:00:00Z', 'to'],
    ['method=GET', 'method'],
    ['status=99', 'status'],
    ['status=abc', 'status'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['offset=-1', 'offset'],
  ])('answers 422 for %s, naming the field', async (query, field) => {
    const res = await logs(query);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', message: 'The given data was invalid.' });
    expect(Object.keys(res.json().errors)).toEqual([field]);
  });

  it('answers 403 to a non-admin (before looking at the query) and 401 without a token', async () => {
    const res = await logs('', userToken);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'You do not have permission to access this resource.',
      code: 'forbidden',
    });
    expect((await logs('limit=0', userToken)).statusCode).toBe(403);
    expect((await logs('', null)).statusCode).toBe(401);
  });

  it('is in the OpenAPI document with its query parameters', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const get = doc.paths['/api/admin/audit-logs/'] ?? doc.paths['/api/admin/audit-logs'];
    const names = get.get.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['user_id', 'from', 'to', 'method', 'status', 'limit', 'offset']),
    );
    expect(doc.paths['/api/users/{id}'].put).toBeDefined();
  });
});
