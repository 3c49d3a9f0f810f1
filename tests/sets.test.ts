// Sets through HTTP on a real database: CRUD, bad inputs (clear error, nothing written),
// workspace access (404 outside, members write), the admin mount, and what a delete keeps.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findersTable } from '../src/modules/finders/finders.table.ts';
import { locationSetsTable } from '../src/modules/locations/locations.relations.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { mapSetsTable, mapsTable } from '../src/modules/maps/maps.table.ts';
import { setsTable } from '../src/modules/sets/sets.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { createCast, createWorkspace } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let owner: UserRow;
let ownerToken: string;
let workspaceId: number;
let memberToken: string;
let strangerToken: string;
let strangerWorkspaceId: number;
let adminToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ owner, ownerToken, workspaceId, memberToken, strangerToken, strangerWorkspaceId, adminToken } =
    await createCast(ctx.deps));
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);

async function createSet(token: string, inWorkspace: number, name = 'Stores') {
  const res = await call('POST', '/sets', token, { name, workspace_id: inWorkspace });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; name: string; workspace_id: number };
}

const setCount = async () => (await ctx.deps.db.select({ n: count() }).from(setsTable))[0]!.n;
const setRow = async (id: number) =>
  (await ctx.deps.db.select().from(setsTable).where(eq(setsTable.id, id)))[0];

const notFound = { message: 'Set not found.', code: 'not_found' };
const workspaceNotFound = { message: 'Workspace not found.', code: 'not_found' };

describe('POST /api/sets', () => {
  it('creates a set in the workspace and answers its payload', async () => {
    const res = await call('POST', '/sets', ownerToken, {
      name: '  Flagship stores ',
      workspace_id: workspaceId,
    });
    expect(res.statusCode).toBe(201);
    const json = res.json();
    expect(json).toEqual({
      id: expect.any(Number),
      name: 'Flagship stores',
      workspace_id: workspaceId,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
    });
    expect(await setRow(json.id)).toMatchObject({ name: 'Flagship stores', workspaceId });
  });

  it('lets a member who is not an owner create', async () => {
    const set = await createSet(memberToken, workspaceId, 'By a member');
    expect(set.workspace_id).toBe(workspaceId);
  });

  it.each([
    [{}, ['name', 'workspace_id']],
    [{ workspace_id: 1 }, ['name']],
    [{ name: '   ', workspace_id: 1 }, ['name']],
    [{ name: 42, workspace_id: 1 }, ['name']],
    [{ name: 'x'.repeat(256), workspace_id: 1 }, ['name']],
    [{ name: 'Stores' }, ['workspace_id']],
    [{ name: 'Stores', workspace_id: 'one' }, ['workspace_id']],
    [{ name: 'Stores', workspace_id: 1.5 }, ['workspace_id']],
    [{ name: 'Stores', workspace_id: -3 }, ['workspace_id']],
  ])('refuses %j naming %j and writes nothing', async (body, fields) => {
    const before = await setCount();
    const res = await call('POST', '/sets', ownerToken, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
    expect(Object.keys(res.json().errors).sort()).toEqual(fields);
    expect(await setCount()).toBe(before);
  });

  it('answers 404 for a workspace the caller is not a member of, or that does not exist', async () => {
    const before = await setCount();
    for (const id of [strangerWorkspaceId, 2_000_000]) {
      const res = await call('POST', '/sets', ownerToken, { name: 'Sneaky', workspace_id: id });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(workspaceNotFound);
    }
    expect(await setCount()).toBe(before);
  });

  it('answers 401 without a token', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/sets',
      payload: { name: 'x', workspace_id: 1 },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/sets', () => {
  it('lists the sets of the workspaces the caller is a member of, and only those', async () => {
    const mine = await createSet(ownerToken, workspaceId, 'Mine');
    const theirs = await createSet(strangerToken, strangerWorkspaceId, 'Theirs');
    const res = await call('GET', '/sets', ownerToken);
    expect(res.statusCode).toBe(200);
    const ids = res.json().map((set: { id: number }) => set.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(res.json().every((set: { workspace_id: number }) => set.workspace_id === workspaceId)).toBe(true);
    expect(res.headers['x-total-count']).toBeUndefined();
  });

  it('filters by workspace_id', async () => {
    const other = await createWorkspace(ctx.deps, owner, 'Second');
    const inOther = await createSet(ownerToken, other, 'Elsewhere');
    const res = await call('GET', `/sets?workspace_id=${other}`, ownerToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([expect.objectContaining({ id: inOther.id, workspace_id: other })]);
    const all = await call('GET', '/sets', ownerToken);
    expect(all.json().map((set: { id: number }) => set.id)).toContain(inOther.id);
  });

  it('pages with limit and offset and sends X-Total-Count', async () => {
    const own = await createWorkspace(ctx.deps, owner, 'Paged');
    const created = [];
    for (const name of ['a', 'b', 'c']) created.push(await createSet(ownerToken, own, name));
    const res = await call('GET', `/sets?workspace_id=${own}&limit=2&offset=1`, ownerToken);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.json().map((set: { id: number }) => set.id)).toEqual([created[1]!.id, created[2]!.id]);
  });

  it('answers 404 for the workspace_id of a workspace the caller is not in', async () => {
    const res = await call('GET', `/sets?workspace_id=${strangerWorkspaceId}`, ownerToken);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(workspaceNotFound);
  });

  it.each(['abc', '0', '1.5'])('refuses workspace_id=%s with 422', async (value) => {
    const res = await call('GET', `/sets?workspace_id=${value}`, ownerToken);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['workspace_id']);
  });
});

describe('GET /api/sets/:id', () => {
  it('answers the set to a member', async () => {
    const set = await createSet(ownerToken, workspaceId, 'Shown');
    const res = await call('GET', `/sets/${set.id}`, memberToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: set.id, name: 'Shown', workspace_id: workspaceId });
  });

  it("answers 404 for another workspace's set, a missing id and a malformed id alike", async () => {
    const theirs = await createSet(strangerToken, strangerWorkspaceId);
    for (const id of [theirs.id, 2_000_000]) {
      const res = await call('GET', `/sets/${id}`, ownerToken);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect((await call('GET', '/sets/abc', ownerToken)).statusCode).toBe(404);
  });
});

describe('PUT /api/sets/:id', () => {
  it('renames the set (a member may)', async () => {
    const set = await createSet(ownerToken, workspaceId, 'Old');
    const res = await call('PUT', `/sets/${set.id}`, memberToken, { name: ' New ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: set.id, name: 'New', workspace_id: workspaceId });
    expect((await setRow(set.id))!.name).toBe('New');
  });

  it.each([[{}], [{ name: '' }], [{ name: 7 }]])(
    'refuses %j with errors.name and keeps the name',
    async (body) => {
      const set = await createSet(ownerToken, workspaceId, 'Kept');
      const res = await call('PUT', `/sets/${set.id}`, ownerToken, body);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['name']);
      expect((await setRow(set.id))!.name).toBe('Kept');
    },
  );

  it("answers 404 for another workspace's set and leaves it alone", async () => {
    const theirs = await createSet(strangerToken, strangerWorkspaceId, 'Theirs');
    const res = await call('PUT', `/sets/${theirs.id}`, ownerToken, { name: 'Hijacked' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(notFound);
    expect((await setRow(theirs.id))!.name).toBe('Theirs');
  });
});

describe('DELETE /api/sets/:id', () => {
  it('removes the set and its associations; locations, maps and finders remain', async () => {
    const set = await createSet(memberToken, workspaceId, 'Doomed');
    const db = ctx.deps.db;
    const [location] = await db
      .insert(locationsTable)
      .values({ workspaceId, title: 'Kept store' })
      .returning();
    await db.insert(locationSetsTable).values({ setId: set.id, locationId: location!.id });
    const [map] = await db.insert(mapsTable).values({ title: 'Kept map' }).returning();
    await db.insert(mapSetsTable).values({ mapId: map!.id, setId: set.id });
    const [finder] = await db
      .insert(findersTable)
      .values({ workspaceId, name: 'Kept finder', token: `t-${set.id}`, mapId: map!.id })
      .returning();

    const res = await call('DELETE', `/sets/${set.id}`, memberToken);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await setRow(set.id)).toBeUndefined();
    expect(await db.select().from(locationSetsTable).where(eq(locationSetsTable.setId, set.id))).toEqual([]);
    expect(await db.select().from(mapSetsTable).where(eq(mapSetsTable.setId, set.id))).toEqual([]);
    expect(await db.select().from(locationsTable).where(eq(locationsTable.id, location!.id))).toHaveLength(1);
    expect(await db.select().from(mapsTable).where(eq(mapsTable.id, map!.id))).toHaveLength(1);
    expect(await db.select().from(findersTable).where(eq(findersTable.id, finder!.id))).toHaveLength(1);
    expect((await call('GET', `/sets/${set.id}`, ownerToken)).statusCode).toBe(404);
  });

  it("answers 404 for another workspace's set and keeps it", async () => {
    const theirs = await createSet(strangerToken, strangerWorkspaceId);
    const res = await call('DELETE', `/sets/${theirs.id}`, ownerToken);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(notFound);
    expect(await setRow(theirs.id)).toBeDefined();
  });
});

describe('/api/admin/sets', () => {
  it('refuses users who are not admins, members included', async () => {
    const set = await createSet(ownerToken, workspaceId);
    for (const [method, url] of [
      ['GET', '/admin/sets'],
      ['GET', `/admin/sets/${set.id}`],
      ['PUT', `/admin/sets/${set.id}`],
      ['DELETE', `/admin/sets/${set.id}`],
      ['POST', '/admin/sets'],
    ] as const) {
      const res = await call(
        method,
        url,
        ownerToken,
        method === 'PUT' || method === 'POST' ? { name: 'x', workspace_id: workspaceId } : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    expect((await setRow(set.id))!.name).toBe('Stores');
    // Checked before the body: a non-admin learns nothing from validation.
    const invalid = await call('POST', '/admin/sets', ownerToken, {});
    expect(invalid.statusCode).toBe(403);
  });

  it('lets an admin list, read, create, rename and delete in any workspace', async () => {
    const mine = await createSet(ownerToken, workspaceId, 'Owner set');
    const theirs = await createSet(strangerToken, strangerWorkspaceId, 'Stranger set');

    const list = await call('GET', '/admin/sets', adminToken);
    expect(list.statusCode).toBe(200);
    const ids = list.json().map((set: { id: number }) => set.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    const filtered = await call('GET', `/admin/sets?workspace_id=${strangerWorkspaceId}`, adminToken);
    expect(
      filtered.json().every((set: { workspace_id: number }) => set.workspace_id === strangerWorkspaceId),
    ).toBe(true);
    expect(filtered.json().map((set: { id: number }) => set.id)).toContain(theirs.id);

    expect((await call('GET', `/admin/sets/${theirs.id}`, adminToken)).json().name).toBe('Stranger set');
    const created = await call('POST', '/admin/sets', adminToken, {
      name: 'By admin',
      workspace_id: strangerWorkspaceId,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().workspace_id).toBe(strangerWorkspaceId);
    const renamed = await call('PUT', `/admin/sets/${theirs.id}`, adminToken, { name: 'Renamed by admin' });
    expect(renamed.statusCode).toBe(200);
    expect((await setRow(theirs.id))!.name).toBe('Renamed by admin');
    expect((await call('DELETE', `/admin/sets/${theirs.id}`, adminToken)).statusCode).toBe(204);
    expect(await setRow(theirs.id)).toBeUndefined();
  });

  it('answers 404 to an admin for a workspace that does not exist', async () => {
    const before = await setCount();
    const res = await call('POST', '/admin/sets', adminToken, { name: 'Nowhere', workspace_id: 2_000_000 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(workspaceNotFound);
    expect((await call('GET', '/admin/sets?workspace_id=2000000', adminToken)).statusCode).toBe(404);
    expect(await setCount()).toBe(before);
  });
});
