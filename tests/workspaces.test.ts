// Workspaces through HTTP on a real database: membership decides what is listed and shown,
// the plan limit and the tier check on create, owner-only rename and delete, the delete
// cascade (backing maps included), and the admin mount.
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldDefinitionsTable } from '../src/modules/custom-fields/custom-fields.table.ts';
import { findersTable } from '../src/modules/finders/finders.table.ts';
import { locationSetsTable, locationTagsTable } from '../src/modules/locations/locations.relations.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { mapsTable, mapWorkspacesTable } from '../src/modules/maps/maps.table.ts';
import { processEventsTable, processesTable } from '../src/modules/processes/processes.table.ts';
import { setsTable } from '../src/modules/sets/sets.table.ts';
import { tagsTable } from '../src/modules/tags/tags.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { workspaceMembersTable, workspacesTable } from '../src/modules/workspaces/workspaces.table.ts';
import { createUser, tokenFor } from './factories/users.ts';
import { addMember, createCast, createWorkspace, firstWorkspaceId } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';
import { waitForLockWaiters } from './helpers/lock-waiters.ts';

let ctx: TestContext;
let owner: UserRow;
let ownerToken: string;
let workspaceId: number;
let memberToken: string;
let stranger: UserRow;
let strangerToken: string;
let strangerWorkspaceId: number;
let adminToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ owner, ownerToken, workspaceId, memberToken, stranger, strangerToken, strangerWorkspaceId, adminToken } =
    await createCast(ctx.deps));
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);

const workspaceRow = async (id: number) =>
  (await ctx.deps.db.select().from(workspacesTable).where(eq(workspacesTable.id, id)))[0];
const workspaceCount = async () => (await ctx.deps.db.select({ n: count() }).from(workspacesTable))[0]!.n;
const ownedBy = async (user: UserRow) =>
  (
    await ctx.deps.db
      .select({ n: count() })
      .from(workspaceMembersTable)
      .where(eq(workspaceMembersTable.userId, user.id))
  )[0]!.n;

const ids = (body: { id: number }[]) => body.map((workspace) => workspace.id);
const notFound = { message: 'Workspace not found.', code: 'not_found' };

describe('GET /api/workspaces', () => {
  it('lists the workspaces the user is a member of, owned or not, and no others', async () => {
    const res = await call('GET', '/workspaces', memberToken);
    expect(res.statusCode).toBe(200);
    expect(ids(res.json())).toContain(workspaceId);
    expect(ids(res.json())).not.toContain(strangerWorkspaceId);
    expect(res.json()[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const mine = await call('GET', '/workspaces', ownerToken);
    expect(ids(mine.json())).toEqual([workspaceId]);
  });

  it('pages with limit and offset and sends X-Total-Count', async () => {
    const user = await createUser(ctx.deps, { subscriptionTier: 'custom', subscriptionStatus: 'active' });
    const first = await firstWorkspaceId(ctx.deps, user);
    const second = await createWorkspace(ctx.deps, user, 'Two');
    const third = await createWorkspace(ctx.deps, user, 'Three');
    const token = await tokenFor(ctx.deps, user);
    const res = await call('GET', '/workspaces?limit=2&offset=1', token);
    expect(res.headers['x-total-count']).toBe('3');
    expect(ids(res.json())).toEqual([second, third]);
    expect(ids((await call('GET', '/workspaces', token)).json())).toEqual([first, second, third]);
  });

  it('answers 401 without a token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/workspaces' })).statusCode).toBe(401);
  });
});

describe('the tier check (subscription_tier:free)', () => {
  it.each([
    ['canceled', null],
    ['none', null],
    ['trialing', new Date(Date.now() - 1000)],
  ] as const)('refuses a %s user on every workspace route', async (status, trialEndsAt) => {
    const user = await createUser(ctx.deps, { subscriptionStatus: status, trialEndsAt });
    const token = await tokenFor(ctx.deps, user);
    const own = await firstWorkspaceId(ctx.deps, user);
    const before = await workspaceCount();
    for (const [method, url, body] of [
      ['GET', '/workspaces', undefined],
      ['GET', `/workspaces/${own}`, undefined],
      ['POST', '/workspaces', { name: 'More' }],
      ['PUT', `/workspaces/${own}`, { name: 'Renamed' }],
      ['DELETE', `/workspaces/${own}`, undefined],
    ] as const) {
      const res = await call(method, url, token, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({
        message: 'This feature requires a qualifying subscription.',
        code: 'tier_required',
      });
    }
    expect(await workspaceCount()).toBe(before);
    expect((await workspaceRow(own))!.name).toBe(`${user.name}'s workspace`);
  });

  it('answers 403 before looking at the body', async () => {
    const user = await createUser(ctx.deps, { subscriptionStatus: 'canceled' });
    const res = await call('POST', '/workspaces', await tokenFor(ctx.deps, user), {});
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('tier_required');
  });
});

describe('GET /api/workspaces/:id', () => {
  it('shows the workspace with members_count to a member', async () => {
    const res = await call('GET', `/workspaces/${workspaceId}`, memberToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: workspaceId,
      name: `${owner.name}'s workspace`,
      members_count: 2,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('does not count a member whose account was deleted', async () => {
    const gone = await createUser(ctx.deps);
    await addMember(ctx.deps, workspaceId, gone);
    expect((await call('GET', `/workspaces/${workspaceId}`, memberToken)).json().members_count).toBe(3);
    await ctx.deps.services.users.softDelete(gone.id);
    expect((await call('GET', `/workspaces/${workspaceId}`, memberToken)).json().members_count).toBe(2);
  });

  it('answers 404 for a workspace the user is not in, a missing one and a malformed id', async () => {
    for (const id of [strangerWorkspaceId, 2_000_000]) {
      const res = await call('GET', `/workspaces/${id}`, ownerToken);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect((await call('GET', '/workspaces/abc', ownerToken)).statusCode).toBe(404);
  });
});

describe('POST /api/workspaces', () => {
  it('creates a workspace the caller owns, within the plan limit', async () => {
    const user = await createUser(ctx.deps, { subscriptionTier: 'premium', subscriptionStatus: 'active' });
    const res = await call('POST', '/workspaces', await tokenFor(ctx.deps, user), { name: '  Shops  ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Shops' });
    const [membership] = await ctx.deps.db
      .select()
      .from(workspaceMembersTable)
      .where(eq(workspaceMembersTable.workspaceId, res.json().id));
    expect(membership).toMatchObject({ userId: user.id, role: 'owner' });
  });

  it('refuses a free user who already owns a workspace, with the upgrade message', async () => {
    const before = await workspaceCount();
    const res = await call('POST', '/workspaces', ownerToken, { name: 'Second' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'Your plan allows 1 workspace. Upgrade to create more.',
      code: 'tier_required',
    });
    expect(await workspaceCount()).toBe(before);
  });

  it('counts owned workspaces only: membership elsewhere does not use up the plan', async () => {
    // The member owns their own first workspace and is a member of the owner's; free allows 1.
    const res = await call('POST', '/workspaces', memberToken, { name: 'Another' });
    expect(res.statusCode).toBe(403);
    const user = await createUser(ctx.deps, { subscriptionTier: 'bronze', subscriptionStatus: 'active' });
    await addMember(ctx.deps, strangerWorkspaceId, user);
    await addMember(ctx.deps, workspaceId, user);
    const token = await tokenFor(ctx.deps, user);
    expect((await call('POST', '/workspaces', token, { name: 'Two' })).statusCode).toBe(201);
    expect((await call('POST', '/workspaces', token, { name: 'Three' })).statusCode).toBe(201);
  });

  it('allows a bronze user 3 workspaces', async () => {
    const user = await createUser(ctx.deps, { subscriptionTier: 'bronze', subscriptionStatus: 'active' });
    const token = await tokenFor(ctx.deps, user);
    expect((await call('POST', '/workspaces', token, { name: 'Two' })).statusCode).toBe(201);
    expect((await call('POST', '/workspaces', token, { name: 'Three' })).statusCode).toBe(201);
    const res = await call('POST', '/workspaces', token, { name: 'Four' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'Your plan allows 3 workspaces. Upgrade to create more.',
      code: 'tier_required',
    });
    expect(await ownedBy(user)).toBe(3);
  });

  it('lets only one of several concurrent creates take the last place', async () => {
    const user = await createUser(ctx.deps, { subscriptionTier: 'bronze', subscriptionStatus: 'active' });
    await createWorkspace(ctx.deps, user, 'Two');
    const token = await tokenFor(ctx.deps, user);
    // Open the pool's connections first, so the requests are not staggered by connecting.
    await Promise.all(Array.from({ length: 8 }, () => ctx.deps.db.execute(sql`select pg_sleep(0.05)`)));
    const results = await Promise.all(
      ['A', 'B', 'C', 'D', 'E', 'F'].map((name) => call('POST', '/workspaces', token, { name })),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([201, 403, 403, 403, 403, 403]);
    expect(await ownedBy(user)).toBe(3);
  });

  it('sets no limit for admins', async () => {
    const admin = await createUser(ctx.deps, { role: 'admin', subscriptionTier: 'free' });
    for (let i = 0; i < 10; i++) await createWorkspace(ctx.deps, admin, `Admin ${i}`);
    const token = await tokenFor(ctx.deps, admin);
    const res = await call('POST', '/workspaces', token, { name: 'Twelfth' });
    expect(res.statusCode).toBe(201);
    expect(await ownedBy(admin)).toBe(12);
  });

  it.each([[{}], [{ name: '' }], [{ name: 12 }], [{ name: 'x'.repeat(256) }]])(
    'refuses %j with errors.name and writes nothing',
    async (body) => {
      const user = await createUser(ctx.deps, { subscriptionTier: 'premium', subscriptionStatus: 'active' });
      const before = await workspaceCount();
      const res = await call('POST', '/workspaces', await tokenFor(ctx.deps, user), body);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['name']);
      expect(await workspaceCount()).toBe(before);
    },
  );
});

describe('PUT /api/workspaces/:id', () => {
  it('renames for the owner', async () => {
    const id = await createWorkspace(ctx.deps, owner, 'Before');
    const res = await call('PUT', `/workspaces/${id}`, ownerToken, { name: 'After' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, name: 'After' });
    expect((await workspaceRow(id))!.name).toBe('After');
  });

  it('answers 403 to a member who is not an owner and 404 to a stranger; the name stays', async () => {
    const forbidden = await call('PUT', `/workspaces/${workspaceId}`, memberToken, { name: 'Mine' });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({
      message: 'Only an owner of the workspace may do this.',
      code: 'forbidden',
    });
    const hidden = await call('PUT', `/workspaces/${workspaceId}`, strangerToken, { name: 'Mine' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual(notFound);
    expect((await workspaceRow(workspaceId))!.name).toBe(`${owner.name}'s workspace`);
  });

  it('refuses a bad name and keeps the old one', async () => {
    const res = await call('PUT', `/workspaces/${workspaceId}`, ownerToken, { name: ' ' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['name']);
    expect((await workspaceRow(workspaceId))!.name).toBe(`${owner.name}'s workspace`);
  });
});

describe('DELETE /api/workspaces/:id', () => {
  it('answers 403 to a member who is not an owner and 404 to a stranger; the workspace stays', async () => {
    const forbidden = await call('DELETE', `/workspaces/${workspaceId}`, memberToken);
    expect(forbidden.statusCode).toBe(403);
    const hidden = await call('DELETE', `/workspaces/${workspaceId}`, strangerToken);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual(notFound);
    expect(await workspaceRow(workspaceId)).toBeDefined();
  });

  it("removes its finders' files after a publish holding one of them, as a finder's own delete does", async () => {
    const db = ctx.deps.db;
    const id = await createWorkspace(ctx.deps, owner, 'Publishing');
    const [backingMap] = await db.insert(mapsTable).values({ title: 'Finder map' }).returning();
    const [finder] = await db
      .insert(findersTable)
      .values({ workspaceId: id, name: 'Finder', token: `publishing-${id}`, mapId: backingMap!.id })
      .returning();
    // A publish writing its files holds the finder's row (finders.payload.service.ts publish).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The publish's pointer, written while it holds the row (the storage is the test's local one).
    const pointer = `finders/${finder!.token}/config.json`;
    const publishing = db.transaction(async (tx) => {
      await tx.select().from(findersTable).where(eq(findersTable.id, finder!.id)).for('update');
      await held;
      await ctx.deps.storage.put(pointer, Buffer.from('{"hash":"h","url":"v/h.json"}'), {
        contentType: 'application/json',
        cacheControl: 'public, max-age=60',
      });
    });
    let deleted = false;
    const deleting = call('DELETE', `/workspaces/${id}`, ownerToken).then((res) => {
      deleted = true;
      return res;
    });
    await waitForLockWaiters(db, 1);
    expect(deleted).toBe(false);
    release();
    await publishing;
    expect((await deleting).statusCode).toBe(204);
    expect(await db.select().from(findersTable).where(eq(findersTable.id, finder!.id))).toEqual([]);
    // Removed after the publish wrote it: the CDN serves nothing of the deleted workspace.
    expect(await ctx.deps.storage.get(pointer)).toBeUndefined();
  });

  it('deletes the workspace and everything in it, backing maps included; other maps only lose the link', async () => {
    const db = ctx.deps.db;
    const id = await createWorkspace(ctx.deps, owner, 'Doomed');
    const keptId = await createWorkspace(ctx.deps, owner, 'Kept');
    const [location] = await db
      .insert(locationsTable)
      .values({ workspaceId: id, title: 'Store' })
      .returning();
    const [keptLocation] = await db
      .insert(locationsTable)
      .values({ workspaceId: keptId, title: 'Kept' })
      .returning();
    const [tag] = await db
      .insert(tagsTable)
      .values({ workspaceId: id, name: 'Tag', slug: 'tag' })
      .returning();
    await db.insert(locationTagsTable).values({ locationId: location!.id, tagId: tag!.id });
    const [set] = await db.insert(setsTable).values({ workspaceId: id, name: 'Set' }).returning();
    await db.insert(locationSetsTable).values({ locationId: location!.id, setId: set!.id });
    const [definition] = await db
      .insert(customFieldDefinitionsTable)
      .values({ workspaceId: id, name: 'hours', label: 'Hours', type: 'text' })
      .returning();
    const [backingMap] = await db.insert(mapsTable).values({ title: 'Finder map' }).returning();
    const [finder] = await db
      .insert(findersTable)
      .values({ workspaceId: id, name: 'Finder', token: `doomed-${id}`, mapId: backingMap!.id })
      .returning();
    const [sharedMap] = await db.insert(mapsTable).values({ title: 'Shared map' }).returning();
    await db.insert(mapWorkspacesTable).values([
      { mapId: sharedMap!.id, workspaceId: id },
      { mapId: sharedMap!.id, workspaceId: keptId },
    ]);
    const [process] = await db
      .insert(processesTable)
      .values({ workspaceId: id, userId: owner.id, type: 'csv_import', status: 'completed' })
      .returning();
    await db.insert(processEventsTable).values({ processId: process!.id, type: 'step', message: 'done' });

    const res = await call('DELETE', `/workspaces/${id}`, ownerToken);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    expect(await workspaceRow(id)).toBeUndefined();
    expect(
      await db.select().from(workspaceMembersTable).where(eq(workspaceMembersTable.workspaceId, id)),
    ).toEqual([]);
    expect(await db.select().from(locationsTable).where(eq(locationsTable.id, location!.id))).toEqual([]);
    expect(await db.select().from(tagsTable).where(eq(tagsTable.id, tag!.id))).toEqual([]);
    expect(await db.select().from(locationTagsTable).where(eq(locationTagsTable.tagId, tag!.id))).toEqual([]);
    expect(await db.select().from(setsTable).where(eq(setsTable.id, set!.id))).toEqual([]);
    expect(await db.select().from(locationSetsTable).where(eq(locationSetsTable.setId, set!.id))).toEqual([]);
    expect(
      await db
        .select()
        .from(customFieldDefinitionsTable)
        .where(eq(customFieldDefinitionsTable.id, definition!.id)),
    ).toEqual([]);
    expect(await db.select().from(findersTable).where(eq(findersTable.id, finder!.id))).toEqual([]);
    expect(await db.select().from(mapsTable).where(eq(mapsTable.id, backingMap!.id))).toEqual([]);
    expect(await db.select().from(processesTable).where(eq(processesTable.id, process!.id))).toEqual([]);
    expect(
      await db.select().from(processEventsTable).where(eq(processEventsTable.processId, process!.id)),
    ).toEqual([]);
    // A map that merely listed the workspace stays, linked to the other workspace only.
    expect(await db.select().from(mapsTable).where(eq(mapsTable.id, sharedMap!.id))).toHaveLength(1);
    expect(
      await db.select().from(mapWorkspacesTable).where(eq(mapWorkspacesTable.mapId, sharedMap!.id)),
    ).toEqual([{ mapId: sharedMap!.id, workspaceId: keptId }]);
    expect(await workspaceRow(keptId)).toBeDefined();
    expect(
      await db.select().from(locationsTable).where(eq(locationsTable.id, keptLocation!.id)),
    ).toHaveLength(1);
  });
});

describe('/api/admin/workspaces', () => {
  it('answers 403 to users who are not admins, owners included', async () => {
    for (const [method, url] of [
      ['GET', '/admin/workspaces'],
      ['GET', `/admin/workspaces/${workspaceId}`],
      ['DELETE', `/admin/workspaces/${workspaceId}`],
    ] as const) {
      const res = await call(method, url, ownerToken);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({
        message: 'You do not have permission to access this resource.',
        code: 'forbidden',
      });
    }
    expect(await workspaceRow(workspaceId)).toBeDefined();
    // The role is checked before the body: no validation details for non-admins.
    const invalid = await call('POST', '/admin/workspaces', ownerToken, {});
    expect(invalid.statusCode).toBe(403);
    expect(invalid.json().code).toBe('forbidden');
  });

  it('lists every workspace to an admin, paged on request', async () => {
    const res = await call('GET', '/admin/workspaces', adminToken);
    expect(res.statusCode).toBe(200);
    const all = await ctx.deps.db.select({ id: workspacesTable.id }).from(workspacesTable);
    expect(ids(res.json()).sort((a, b) => a - b)).toEqual(ids(all).sort((a, b) => a - b));
    expect(ids(res.json())).toEqual(expect.arrayContaining([workspaceId, strangerWorkspaceId]));
    const paged = await call('GET', '/admin/workspaces?limit=1', adminToken);
    expect(paged.headers['x-total-count']).toBe(String(all.length));
    expect(paged.json()).toHaveLength(1);
  });

  it("lets an admin show, rename and delete anyone's workspace", async () => {
    const id = await createWorkspace(ctx.deps, stranger, 'Stranger two');
    const shown = await call('GET', `/admin/workspaces/${id}`, adminToken);
    expect(shown.json()).toMatchObject({ id, name: 'Stranger two', members_count: 1 });
    const renamed = await call('PUT', `/admin/workspaces/${id}`, adminToken, { name: 'By admin' });
    expect(renamed.statusCode).toBe(200);
    expect((await workspaceRow(id))!.name).toBe('By admin');
    expect((await call('DELETE', `/admin/workspaces/${id}`, adminToken)).statusCode).toBe(204);
    expect(await workspaceRow(id)).toBeUndefined();
    const missing = await call('GET', `/admin/workspaces/${id}`, adminToken);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(notFound);
  });

  it('answers 404 to an admin renaming or deleting a missing workspace', async () => {
    expect((await call('PUT', '/admin/workspaces/2000000', adminToken, { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', '/admin/workspaces/2000000', adminToken)).statusCode).toBe(404);
  });
});
