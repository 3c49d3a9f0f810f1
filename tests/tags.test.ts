// Tags through HTTP on a real database: CRUD, slugs (generated, regenerated, unique per
// workspace), bad inputs, workspace access, the admin mount, detaching on delete; and
// findOrCreateTagsByName, the set-based lookup the locations module uses.
import { and, count, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locationTagsTable } from '../src/modules/locations/locations.relations.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { findOrCreateTagsByName } from '../src/modules/tags/tags.repository.ts';
import { tagsTable } from '../src/modules/tags/tags.table.ts';
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

interface TagJson {
  id: number;
  name: string;
  slug: string;
  workspace_id: number;
}

async function createTag(token: string, inWorkspace: number, name: string): Promise<TagJson> {
  const res = await call('POST', '/tags', token, { name, workspace_id: inWorkspace });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const tagCount = async () => (await ctx.deps.db.select({ n: count() }).from(tagsTable))[0]!.n;
const tagRow = async (id: number) =>
  (await ctx.deps.db.select().from(tagsTable).where(eq(tagsTable.id, id)))[0];

const notFound = { message: 'Tag not found.', code: 'not_found' };
const workspaceNotFound = { message: 'Workspace not found.', code: 'not_found' };
const nameTaken = {
  message: 'The given data was invalid.',
  code: 'validation_failed',
  errors: { name: ['A tag with this name already exists.'] },
};

describe('POST /api/tags', () => {
  it('creates a tag with a slug generated from the name', async () => {
    const res = await call('POST', '/tags', ownerToken, {
      name: ' Drive-Thru & Café ',
      workspace_id: workspaceId,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      name: 'Drive-Thru & Café',
      slug: 'drive-thru-cafe',
      workspace_id: workspaceId,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await tagRow(res.json().id)).toMatchObject({ slug: 'drive-thru-cafe', workspaceId });
  });

  it('refuses a name whose slug is taken in the workspace, and allows it in another', async () => {
    await createTag(ownerToken, workspaceId, 'Open Late');
    const before = await tagCount();
    const res = await call('POST', '/tags', memberToken, { name: 'open  late!', workspace_id: workspaceId });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(nameTaken);
    expect(await tagCount()).toBe(before);
    const elsewhere = await createTag(strangerToken, strangerWorkspaceId, 'Open Late');
    expect(elsewhere.slug).toBe('open-late');
  });

  it('lets a member who is not an owner create', async () => {
    expect((await createTag(memberToken, workspaceId, 'Member made')).workspace_id).toBe(workspaceId);
  });

  it.each([
    [{}, ['name', 'workspace_id']],
    [{ name: '', workspace_id: 1 }, ['name']],
    [{ name: ['a'], workspace_id: 1 }, ['name']],
    [{ name: 'x'.repeat(256), workspace_id: 1 }, ['name']],
    [{ name: 'Coffee' }, ['workspace_id']],
    [{ name: 'Coffee', workspace_id: '1' }, ['workspace_id']],
  ])('refuses %j naming %j and writes nothing', async (body, fields) => {
    const before = await tagCount();
    const res = await call('POST', '/tags', ownerToken, body);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(fields);
    expect(await tagCount()).toBe(before);
  });

  it('answers 404 for a workspace the caller is not a member of', async () => {
    const before = await tagCount();
    const res = await call('POST', '/tags', ownerToken, {
      name: 'Sneaky',
      workspace_id: strangerWorkspaceId,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(workspaceNotFound);
    expect(await tagCount()).toBe(before);
  });
});

describe('GET /api/tags', () => {
  it("lists the caller's workspaces' tags only, filtered by workspace_id, paged on request", async () => {
    const second = await createWorkspace(ctx.deps, owner, 'Tags two');
    const a = await createTag(ownerToken, second, 'Alpha');
    const b = await createTag(ownerToken, second, 'Beta');
    const theirs = await createTag(strangerToken, strangerWorkspaceId, 'Theirs');

    const all = await call('GET', '/tags', ownerToken);
    expect(all.statusCode).toBe(200);
    const ids = all.json().map((tag: TagJson) => tag.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(ids).not.toContain(theirs.id);

    const filtered = await call('GET', `/tags?workspace_id=${second}`, ownerToken);
    expect(filtered.json().map((tag: TagJson) => tag.slug)).toEqual(['alpha', 'beta']);

    const paged = await call('GET', `/tags?workspace_id=${second}&limit=1`, ownerToken);
    expect(paged.headers['x-total-count']).toBe('2');
    expect(paged.json().map((tag: TagJson) => tag.id)).toEqual([a.id]);
  });

  it('answers 404 for a foreign workspace_id and 422 for a malformed one', async () => {
    const foreign = await call('GET', `/tags?workspace_id=${strangerWorkspaceId}`, ownerToken);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(workspaceNotFound);
    const bad = await call('GET', '/tags?workspace_id=x', ownerToken);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['workspace_id']);
    const badLimit = await call('GET', '/tags?limit=0', ownerToken);
    expect(badLimit.statusCode).toBe(422);
    expect(Object.keys(badLimit.json().errors)).toEqual(['limit']);
  });
});

describe('GET /api/tags/:id', () => {
  it('answers the tag to a member, and 404 for a foreign or missing one', async () => {
    const tag = await createTag(ownerToken, workspaceId, 'Visible');
    const res = await call('GET', `/tags/${tag.id}`, memberToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: tag.id, slug: 'visible' });
    const theirs = await createTag(strangerToken, strangerWorkspaceId, 'Hidden');
    for (const id of [theirs.id, 2_000_000]) {
      const miss = await call('GET', `/tags/${id}`, ownerToken);
      expect(miss.statusCode).toBe(404);
      expect(miss.json()).toEqual(notFound);
    }
  });
});

describe('PUT /api/tags/:id', () => {
  it('renames and regenerates the slug (a member may)', async () => {
    const tag = await createTag(ownerToken, workspaceId, 'Wifi');
    const res = await call('PUT', `/tags/${tag.id}`, memberToken, { name: 'Free Wi-Fi' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: tag.id, name: 'Free Wi-Fi', slug: 'free-wi-fi' });
    expect(await tagRow(tag.id)).toMatchObject({ name: 'Free Wi-Fi', slug: 'free-wi-fi' });
  });

  it('accepts a new spelling of the same slug for the same tag', async () => {
    const tag = await createTag(ownerToken, workspaceId, 'parking');
    const res = await call('PUT', `/tags/${tag.id}`, ownerToken, { name: 'Parking' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Parking', slug: 'parking' });
  });

  it('refuses a name whose slug another tag of the workspace has, and changes nothing', async () => {
    await createTag(ownerToken, workspaceId, 'Vegan');
    const tag = await createTag(ownerToken, workspaceId, 'Vegetarian');
    const res = await call('PUT', `/tags/${tag.id}`, ownerToken, { name: 'VEGAN' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(nameTaken);
    expect(await tagRow(tag.id)).toMatchObject({ name: 'Vegetarian', slug: 'vegetarian' });
  });

  it.each([[{}], [{ name: '  ' }], [{ name: null }]])('refuses %j with errors.name', async (body) => {
    const tag = await createTag(ownerToken, workspaceId, `Stable ${Math.random()}`);
    const res = await call('PUT', `/tags/${tag.id}`, ownerToken, body);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['name']);
    expect((await tagRow(tag.id))!.name).toBe(tag.name);
  });

  it("answers 404 for another workspace's tag and leaves it alone", async () => {
    const theirs = await createTag(strangerToken, strangerWorkspaceId, 'Untouchable');
    const res = await call('PUT', `/tags/${theirs.id}`, ownerToken, { name: 'Mine now' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(notFound);
    expect(await tagRow(theirs.id)).toMatchObject({ name: 'Untouchable', slug: 'untouchable' });
  });
});

describe('DELETE /api/tags/:id', () => {
  it('deletes the tag and detaches it from every location; the locations stay', async () => {
    const tag = await createTag(memberToken, workspaceId, 'Seasonal');
    const keep = await createTag(ownerToken, workspaceId, 'Permanent');
    const db = ctx.deps.db;
    const locations = await db
      .insert(locationsTable)
      .values([
        { workspaceId, title: 'One' },
        { workspaceId, title: 'Two' },
      ])
      .returning();
    await db
      .insert(locationTagsTable)
      .values([
        ...locations.map((location) => ({ locationId: location.id, tagId: tag.id })),
        { locationId: locations[0]!.id, tagId: keep.id },
      ]);

    const res = await call('DELETE', `/tags/${tag.id}`, memberToken);
    expect(res.statusCode).toBe(204);
    expect(await tagRow(tag.id)).toBeUndefined();
    expect(await db.select().from(locationTagsTable).where(eq(locationTagsTable.tagId, tag.id))).toEqual([]);
    expect(
      await db.select().from(locationTagsTable).where(eq(locationTagsTable.tagId, keep.id)),
    ).toHaveLength(1);
    const left = await db.select().from(locationsTable).where(eq(locationsTable.workspaceId, workspaceId));
    expect(left.map((location) => location.id)).toEqual(expect.arrayContaining(locations.map((l) => l.id)));
  });

  it("answers 404 for another workspace's tag and keeps it", async () => {
    const theirs = await createTag(strangerToken, strangerWorkspaceId, 'Survivor');
    const res = await call('DELETE', `/tags/${theirs.id}`, ownerToken);
    expect(res.statusCode).toBe(404);
    expect(await tagRow(theirs.id)).toBeDefined();
  });
});

describe('/api/admin/tags', () => {
  it('answers 403 to non-admins', async () => {
    for (const token of [ownerToken, memberToken]) {
      const res = await call('GET', '/admin/tags', token);
      expect(res.statusCode).toBe(403);
    }
    const before = await tagCount();
    const res = await call('POST', '/admin/tags', ownerToken, { name: 'Nope', workspace_id: workspaceId });
    expect(res.statusCode).toBe(403);
    expect(await tagCount()).toBe(before);
    expect((await call('PUT', '/admin/tags/1', ownerToken, { name: '' })).statusCode).toBe(403);
  });

  it('lets an admin work across workspaces, with the same slug rule', async () => {
    const theirs = await createTag(strangerToken, strangerWorkspaceId, 'Admin target');
    const list = await call('GET', '/admin/tags', adminToken);
    expect(list.json().map((tag: TagJson) => tag.id)).toContain(theirs.id);
    expect((await call('GET', `/admin/tags/${theirs.id}`, adminToken)).statusCode).toBe(200);
    const clash = await call('POST', '/admin/tags', adminToken, {
      name: 'admin-target',
      workspace_id: strangerWorkspaceId,
    });
    expect(clash.statusCode).toBe(422);
    expect(clash.json()).toEqual(nameTaken);
    const renamed = await call('PUT', `/admin/tags/${theirs.id}`, adminToken, { name: 'Renamed' });
    expect(renamed.json()).toMatchObject({ slug: 'renamed', workspace_id: strangerWorkspaceId });
    expect((await call('DELETE', `/admin/tags/${theirs.id}`, adminToken)).statusCode).toBe(204);
    expect(await tagRow(theirs.id)).toBeUndefined();
  });
});

describe('findOrCreateTagsByName', () => {
  /** A Drizzle client on the test database that counts the statements it sends. */
  function countingDb() {
    const counter = { queries: 0 };
    const db = drizzle(ctx.deps.database.sql, {
      casing: 'snake_case',
      logger: { logQuery: () => void counter.queries++ },
    });
    return { db, counter };
  }

  it('returns existing tags and creates the missing ones, keyed by slug, in two statements', async () => {
    const workspace = await createWorkspace(ctx.deps, owner, 'Bulk tags');
    const existing = await createTag(ownerToken, workspace, 'Coffee');
    const foreign = await createTag(strangerToken, strangerWorkspaceId, 'Tea');
    const many = Array.from({ length: 40 }, (_, i) => `Bulk ${i}`);
    const { db, counter } = countingDb();

    const tags = await findOrCreateTagsByName(db, workspace, ['coffee', ' Tea ', 'TEA', '', '   ', ...many]);

    expect(counter.queries).toBe(2);
    expect(tags.size).toBe(2 + many.length);
    expect(tags.get('coffee')).toMatchObject({ id: existing.id, name: 'Coffee', workspaceId: workspace });
    expect(tags.get('tea')).toMatchObject({ name: 'Tea', slug: 'tea', workspaceId: workspace });
    expect(tags.get('tea')!.id).not.toBe(foreign.id);
    expect(tags.get('bulk-39')).toMatchObject({ name: 'Bulk 39', workspaceId: workspace });
    const rows = await ctx.deps.db.select().from(tagsTable).where(eq(tagsTable.workspaceId, workspace));
    expect(rows).toHaveLength(2 + many.length);

    // A second call finds everything and creates nothing.
    const again = await findOrCreateTagsByName(db, workspace, ['Tea', 'Bulk 0']);
    expect(again.get('tea')!.id).toBe(tags.get('tea')!.id);
    expect(again.get('bulk-0')!.id).toBe(tags.get('bulk-0')!.id);
    const after = await ctx.deps.db
      .select({ n: count() })
      .from(tagsTable)
      .where(eq(tagsTable.workspaceId, workspace));
    expect(after[0]!.n).toBe(2 + many.length);
    // The stranger's tag is untouched.
    expect(
      await ctx.deps.db
        .select()
        .from(tagsTable)
        .where(and(eq(tagsTable.workspaceId, strangerWorkspaceId), eq(tagsTable.slug, 'tea'))),
    ).toEqual([expect.objectContaining({ id: foreign.id, name: 'Tea' })]);
  });

  it('sends nothing for no names', async () => {
    const { db, counter } = countingDb();
    expect((await findOrCreateTagsByName(db, workspaceId, ['', ' '])).size).toBe(0);
    expect(counter.queries).toBe(0);
  });

  it('works inside a caller transaction that is rolled back', async () => {
    const workspace = await createWorkspace(ctx.deps, owner, 'Rolled back');
    await expect(
      ctx.deps.db.transaction(async (tx) => {
        const tags = await findOrCreateTagsByName(tx, workspace, ['Ephemeral']);
        expect(tags.get('ephemeral')).toBeDefined();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await ctx.deps.db.select().from(tagsTable).where(eq(tagsTable.workspaceId, workspace))).toEqual(
      [],
    );
  });
});
