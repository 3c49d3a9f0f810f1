// /admin/finders: the finder routes mounted for admins, across every workspace, and refused
// (403 before any validation) to everyone else, workspace owners included.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findersTable } from '../src/modules/finders/finders.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { mapOwnersTable, mapsTable } from '../src/modules/maps/maps.table.ts';
import { createCast } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx.deps);
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);

async function createFinder(token: string, workspaceId: number, name = 'Finder') {
  const res = await call('POST', '/finders', token, { name, workspace_id: workspaceId });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; token: string; maps: number[]; workspace_id: number };
}

const finderCount = async () => (await ctx.deps.db.select({ n: count() }).from(findersTable))[0]!.n;
const finderRow = async (id: number) =>
  (await ctx.deps.db.select().from(findersTable).where(eq(findersTable.id, id)))[0];

describe('/api/admin/finders', () => {
  it('refuses users who are not admins, members and owners included, before reading the body', async () => {
    const finder = await createFinder(cast.ownerToken, cast.workspaceId, 'Guarded');
    const before = await finderRow(finder.id);
    const count0 = await finderCount();
    for (const [method, url] of [
      ['GET', '/admin/finders'],
      ['GET', `/admin/finders/${finder.id}`],
      ['GET', `/admin/finders/token/${finder.token}`],
      ['POST', '/admin/finders'],
      ['PUT', `/admin/finders/${finder.id}`],
      ['DELETE', `/admin/finders/${finder.id}`],
      ['GET', `/admin/finders/${finder.id}/integrations`],
      ['PUT', `/admin/finders/${finder.id}/integrations/google`],
      ['DELETE', `/admin/finders/${finder.id}/integrations/google`],
    ] as const) {
      for (const token of [cast.ownerToken, cast.memberToken]) {
        const body =
          method === 'POST'
            ? { name: 'x', workspace_id: cast.workspaceId }
            : method === 'PUT'
              ? { name: 'x', api_key: 'k' }
              : undefined;
        const res = await call(method, url, token, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({
          message: 'You do not have permission to access this resource.',
          code: 'forbidden',
        });
      }
    }
    // A 403 comes before any 422: a non-admin learns nothing from validation.
    expect((await call('POST', '/admin/finders', cast.ownerToken, {})).statusCode).toBe(403);
    expect((await call('PUT', `/admin/finders/${finder.id}`, cast.ownerToken, { name: '' })).statusCode).toBe(
      403,
    );
    expect(await finderRow(finder.id)).toEqual(before);
    expect(await finderCount()).toBe(count0);
    expect((await call('GET', '/admin/finders', undefined)).statusCode).toBe(401);
  });

  it('lets an admin list, read, create, update and delete finders in any workspace', async () => {
    const mine = await createFinder(cast.ownerToken, cast.workspaceId, 'Owner finder');
    const theirs = await createFinder(cast.strangerToken, cast.strangerWorkspaceId, 'Stranger finder');

    const list = await call('GET', '/admin/finders', cast.adminToken);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((finder: { id: number }) => finder.id)).toEqual(
      expect.arrayContaining([mine.id, theirs.id]),
    );
    const filtered = await call(
      'GET',
      `/admin/finders?workspace_id=${cast.strangerWorkspaceId}&limit=10`,
      cast.adminToken,
    );
    expect(filtered.statusCode).toBe(200);
    expect(
      filtered
        .json()
        .every((finder: { workspace_id: number }) => finder.workspace_id === cast.strangerWorkspaceId),
    ).toBe(true);
    expect(filtered.json().map((finder: { id: number }) => finder.id)).toContain(theirs.id);
    expect(filtered.headers['x-total-count']).toBe(String(filtered.json().length));

    const shown = await call('GET', `/admin/finders/${theirs.id}`, cast.adminToken);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ id: theirs.id, name: 'Stranger finder', maps: theirs.maps });
    const byToken = await call('GET', `/admin/finders/token/${theirs.token}`, cast.adminToken);
    expect(byToken.json().id).toBe(theirs.id);

    const created = await call('POST', '/admin/finders', cast.adminToken, {
      name: 'By admin',
      workspace_id: cast.strangerWorkspaceId,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().workspace_id).toBe(cast.strangerWorkspaceId);
    // The paired map belongs to its creator, the admin.
    const owners = await ctx.deps.db
      .select()
      .from(mapOwnersTable)
      .where(eq(mapOwnersTable.mapId, created.json().maps[0]));
    expect(owners).toHaveLength(1);
    expect(owners[0]!.userId).not.toBe(cast.stranger.id);

    const [location] = await ctx.deps.db
      .insert(locationsTable)
      .values({ workspaceId: cast.strangerWorkspaceId, title: 'Stranger store' })
      .returning();
    const updated = await call('PUT', `/admin/finders/${theirs.id}`, cast.adminToken, {
      name: 'Renamed by admin',
      locations: [{ location_id: location!.id }],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Renamed by admin',
      locations: [{ location_id: location!.id, sort_order: 0 }],
    });
    // Still only locations of the finder's own workspace.
    const [ownerLocation] = await ctx.deps.db
      .insert(locationsTable)
      .values({ workspaceId: cast.workspaceId, title: 'Owner store' })
      .returning();
    const crossed = await call('PUT', `/admin/finders/${theirs.id}`, cast.adminToken, {
      locations: [{ location_id: ownerLocation!.id }],
    });
    expect(crossed.statusCode).toBe(422);
    expect(Object.keys(crossed.json().errors)).toEqual(['locations']);

    expect(
      (
        await call('PUT', `/admin/finders/${theirs.id}/integrations/here`, cast.adminToken, {
          api_key: 'admin-key',
        })
      ).statusCode,
    ).toBe(200);
    const integrations = await call('GET', `/admin/finders/${theirs.id}/integrations`, cast.adminToken);
    expect(integrations.json()).toContainEqual({ provider: 'here', has_api_key: true });
    expect(
      (await call('DELETE', `/admin/finders/${theirs.id}/integrations/here`, cast.adminToken)).statusCode,
    ).toBe(204);

    expect((await call('DELETE', `/admin/finders/${theirs.id}`, cast.adminToken)).statusCode).toBe(204);
    expect(await finderRow(theirs.id)).toBeUndefined();
    expect(await ctx.deps.db.select().from(mapsTable).where(eq(mapsTable.id, theirs.maps[0]!))).toEqual([]);
    expect((await call('GET', `/finders/${theirs.id}`, cast.strangerToken)).statusCode).toBe(404);
  });

  it('answers 404 to an admin for a missing finder or workspace, and writes nothing', async () => {
    const before = await finderCount();
    const create = await call('POST', '/admin/finders', cast.adminToken, {
      name: 'Nowhere',
      workspace_id: 2_000_000,
    });
    expect(create.statusCode).toBe(404);
    expect(create.json()).toEqual({ message: 'Workspace not found.', code: 'not_found' });
    expect((await call('GET', '/admin/finders?workspace_id=2000000', cast.adminToken)).statusCode).toBe(404);
    for (const [method, url] of [
      ['GET', '/admin/finders/2000000'],
      ['PUT', '/admin/finders/2000000'],
      ['DELETE', '/admin/finders/2000000'],
      ['GET', '/admin/finders/token/unknown'],
      ['GET', '/admin/finders/2000000/integrations'],
    ] as const) {
      const res = await call(method, url, cast.adminToken, method === 'PUT' ? { name: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ message: 'Finder not found.', code: 'not_found' });
    }
    expect(await finderCount()).toBe(before);
  });

  it('validates admin bodies like member ones', async () => {
    const finder = await createFinder(cast.ownerToken, cast.workspaceId, 'Validated');
    const res = await call('PUT', `/admin/finders/${finder.id}`, cast.adminToken, {
      authorized_urls: ['https://shop.example/path'],
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['authorized_urls.0']);
  });
});
