import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldDefinitionsTable } from '../src/modules/custom-fields/custom-fields.table.ts';
import { finderLocationsTable, findersTable } from '../src/modules/finders/finders.table.ts';
import { locationSetsTable, locationTagsTable } from '../src/modules/locations/locations.relations.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { mapLocationsTable, mapSetsTable, mapsTable } from '../src/modules/maps/maps.table.ts';
import { setsTable } from '../src/modules/sets/sets.table.ts';
import { tagsTable } from '../src/modules/tags/tags.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { addMember, createWorkspace, firstWorkspaceId } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let owner: UserRow;
let ownerToken: string;
let workspaceId: number;
let stranger: UserRow;
let strangerToken: string;
let strangerWorkspaceId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await createUser(ctx.deps);
  ownerToken = await tokenFor(ctx.deps, owner);
  workspaceId = await firstWorkspaceId(ctx.deps, owner);
  stranger = await createUser(ctx.deps);
  strangerToken = await tokenFor(ctx.deps, stranger);
  strangerWorkspaceId = await firstWorkspaceId(ctx.deps, stranger);
  await ctx.deps.db.insert(customFieldDefinitionsTable).values([
    { workspaceId, name: 'seats', label: 'Seats', type: 'number' },
    { workspaceId, name: 'parking', label: 'Parking', type: 'boolean' },
    { workspaceId, name: 'kind', label: 'Kind', type: 'select', options: ['shop', 'depot'] },
    { workspaceId, name: 'opened', label: 'Opened', type: 'date' },
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

const post = (token: string, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'POST', url: '/api/locations', headers: bearer(token), payload });

const countLocations = async (ws: number) =>
  (await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.workspaceId, ws))).length;

describe('POST /api/locations', () => {
  it('creates a location with tags by name, sets and typed custom fields', async () => {
    const [set] = await ctx.deps.db.insert(setsTable).values({ workspaceId, name: 'North' }).returning();
    const res = await post(ownerToken, {
      workspace_id: workspaceId,
      title: '  Main Street Store ',
      address: '1 Main St',
      city: 'Springfield',
      zip: '12345',
      lat: 40.5,
      lng: -73.25,
      email: 'shop@example.test',
      website: 'shop.example.test/main',
      tags: ['Drive Thru', 'Open Late', 'drive thru'],
      set_ids: [set!.id],
      custom_fields: { seats: 40, parking: true, kind: 'shop', opened: '2020-02-29' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      workspace_id: workspaceId,
      title: 'Main Street Store',
      address: '1 Main St',
      lat: 40.5,
      lng: -73.25,
      website: 'https://shop.example.test/main',
      image_url: null,
      external_id: null,
      sets: [{ id: set!.id, name: 'North' }],
      custom_fields: { seats: 40, parking: true, kind: 'shop', opened: '2020-02-29' },
    });
    expect(body.tags.map((tag: { slug: string }) => tag.slug)).toEqual(['drive-thru', 'open-late']);
    const tags = await ctx.deps.db.select().from(tagsTable).where(eq(tagsTable.workspaceId, workspaceId));
    expect(tags.map((tag) => tag.slug).sort()).toEqual(['drive-thru', 'open-late']);
  });

  it('reuses existing tags by slug instead of creating duplicates', async () => {
    const res = await post(ownerToken, { workspace_id: workspaceId, title: 'Second', tags: ['DRIVE-THRU'] });
    expect(res.statusCode).toBe(201);
    const tags = await ctx.deps.db.select().from(tagsTable).where(eq(tagsTable.workspaceId, workspaceId));
    expect(tags.filter((tag) => tag.slug === 'drive-thru')).toHaveLength(1);
    expect(res.json().tags).toEqual([expect.objectContaining({ slug: 'drive-thru' })]);
  });

  it.each([
    [{}, ['title']],
    [{ title: '' }, ['title']],
    [{ title: 'x', workspace_id: undefined }, ['workspace_id']],
    [{ title: 'x', workspace_id: 'abc' }, ['workspace_id']],
    [{ title: 'x', lat: 91, lng: -181 }, ['lat', 'lng']],
    [{ title: 'x', lat: 'north' }, ['lat']],
    [{ title: 'x', email: 'not-an-email' }, ['email']],
    [{ title: 'x', tags: 'a,b' }, ['tags']],
    [{ title: 'x', set_ids: ['a'] }, ['set_ids.0']],
    [{ title: 'x'.repeat(256) }, ['title']],
  ])('refuses %j naming %j and writes nothing', async (payload, fields) => {
    const before = await countLocations(workspaceId);
    const res = await post(ownerToken, { workspace_id: workspaceId, ...payload });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', message: 'The given data was invalid.' });
    expect(Object.keys(res.json().errors).sort()).toEqual([...fields].sort());
    expect(await countLocations(workspaceId)).toBe(before);
  });

  it.each([
    [{ website: 'ftp://files.example' }, 'website'],
    [{ custom_fields: { seats: 'many' } }, 'custom_fields.seats'],
    [{ custom_fields: { parking: 'yes' } }, 'custom_fields.parking'],
    [{ custom_fields: { kind: 'castle' } }, 'custom_fields.kind'],
    [{ custom_fields: { opened: '2021-02-30' } }, 'custom_fields.opened'],
    [{ custom_fields: { nonsense: 1 } }, 'custom_fields.nonsense'],
  ])('refuses bad field values %j and writes nothing', async (payload, field) => {
    const before = await countLocations(workspaceId);
    const res = await post(ownerToken, {
      workspace_id: workspaceId,
      title: 'Bad',
      tags: ['never-created'],
      ...payload,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
    expect(await countLocations(workspaceId)).toBe(before);
    const tags = await ctx.deps.db.select().from(tagsTable).where(eq(tagsTable.slug, 'never-created'));
    expect(tags).toHaveLength(0);
  });

  it('refuses a set of another workspace', async () => {
    const [foreignSet] = await ctx.deps.db
      .insert(setsTable)
      .values({ workspaceId: strangerWorkspaceId, name: 'Theirs' })
      .returning();
    const before = await countLocations(workspaceId);
    const res = await post(ownerToken, { workspace_id: workspaceId, title: 'x', set_ids: [foreignSet!.id] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ set_ids: ['The selected set ids are invalid.'] });
    expect(await countLocations(workspaceId)).toBe(before);
  });

  it('enforces required custom fields on create', async () => {
    const other = await createWorkspace(ctx.deps, owner, 'Required fields');
    await ctx.deps.db
      .insert(customFieldDefinitionsTable)
      .values({ workspaceId: other, name: 'manager', label: 'Manager', type: 'text', required: true });
    const res = await post(ownerToken, { workspace_id: other, title: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ 'custom_fields.manager': ['The Manager field is required.'] });
    const ok = await post(ownerToken, { workspace_id: other, title: 'x', custom_fields: { manager: 'Ann' } });
    expect(ok.statusCode).toBe(201);
  });

  it('answers 404 for a workspace the caller is not a member of, and writes nothing', async () => {
    const before = await countLocations(strangerWorkspaceId);
    const res = await post(ownerToken, { workspace_id: strangerWorkspaceId, title: 'Intruder' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Workspace not found.', code: 'not_found' });
    expect(await countLocations(strangerWorkspaceId)).toBe(before);
  });

  it('answers 401 without a token', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/locations', payload: { title: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/locations', () => {
  it('lists only locations of the caller’s workspaces, filtered and paged', async () => {
    await post(strangerToken, { workspace_id: strangerWorkspaceId, title: 'Hidden' });
    const all = await ctx.app.inject({ method: 'GET', url: '/api/locations', headers: bearer(ownerToken) });
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-total-count']).toBeUndefined();
    const titles = all.json().map((location: { title: string }) => location.title);
    expect(titles).not.toContain('Hidden');
    expect(
      all.json().every((location: { workspace_id: number }) => location.workspace_id !== strangerWorkspaceId),
    ).toBe(true);

    const scoped = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?workspace_id=${workspaceId}&limit=1&offset=1`,
      headers: bearer(ownerToken),
    });
    expect(scoped.statusCode).toBe(200);
    expect(scoped.json()).toHaveLength(1);
    expect(Number(scoped.headers['x-total-count'])).toBe(await countLocations(workspaceId));
  });

  it('answers 404 for another workspace and 422 for bad paging', async () => {
    const foreign = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?workspace_id=${strangerWorkspaceId}`,
      headers: bearer(ownerToken),
    });
    expect(foreign.statusCode).toBe(404);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/api/locations?limit=0',
      headers: bearer(ownerToken),
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['limit']);
  });

  it('filters by finder: its own locations, its map’s locations and the map’s sets’ locations', async () => {
    const ws = await createWorkspace(ctx.deps, owner, 'Finder filter');
    const make = async (title: string) =>
      (await post(ownerToken, { workspace_id: ws, title })).json().id as number;
    const own = await make('own');
    const direct = await make('direct');
    const viaSet = await make('via set');
    await make('unrelated');
    const [set] = await ctx.deps.db.insert(setsTable).values({ workspaceId: ws, name: 'S' }).returning();
    await ctx.deps.db.insert(locationSetsTable).values({ setId: set!.id, locationId: viaSet });
    const [map] = await ctx.deps.db.insert(mapsTable).values({ title: 'Backing' }).returning();
    await ctx.deps.db.insert(mapLocationsTable).values({ mapId: map!.id, locationId: direct });
    await ctx.deps.db.insert(mapSetsTable).values({ mapId: map!.id, setId: set!.id });
    const [finder] = await ctx.deps.db
      .insert(findersTable)
      .values({ workspaceId: ws, name: 'F', token: `tok-${Date.now()}`, mapId: map!.id })
      .returning();
    await ctx.deps.db.insert(finderLocationsTable).values({ finderId: finder!.id, locationId: own });

    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?finder_id=${finder!.id}`,
      headers: bearer(ownerToken),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((location: { id: number }) => location.id)).toEqual([own, direct, viaSet]);

    const strangers = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?finder_id=${finder!.id}`,
      headers: bearer(strangerToken),
    });
    expect(strangers.statusCode).toBe(404);
    expect(strangers.json()).toEqual({ message: 'Finder not found.', code: 'not_found' });
  });
});

describe('GET, PUT and DELETE /api/locations/:id', () => {
  it('shows, updates partially and deletes a location', async () => {
    const created = (
      await post(ownerToken, {
        workspace_id: workspaceId,
        title: 'Partial',
        city: 'Old Town',
        tags: ['keep-me'],
        custom_fields: { seats: 3, kind: 'depot' },
      })
    ).json();

    const shown = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations/${created.id}`,
      headers: bearer(ownerToken),
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(created);

    const updated = await ctx.app.inject({
      method: 'PUT',
      url: `/api/locations/${created.id}`,
      headers: bearer(ownerToken),
      payload: { city: 'New Town', custom_fields: { seats: null, parking: false } },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      title: 'Partial',
      city: 'New Town',
      tags: [expect.objectContaining({ slug: 'keep-me' })],
      custom_fields: { kind: 'depot', parking: false },
    });
    expect(updated.json().custom_fields).not.toHaveProperty('seats');

    const cleared = await ctx.app.inject({
      method: 'PUT',
      url: `/api/locations/${created.id}`,
      headers: bearer(ownerToken),
      payload: { tags: [], city: null },
    });
    expect(cleared.json()).toMatchObject({ tags: [], city: null });
    const links = await ctx.deps.db
      .select()
      .from(locationTagsTable)
      .where(eq(locationTagsTable.locationId, created.id));
    expect(links).toHaveLength(0);

    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/locations/${created.id}`,
      headers: bearer(ownerToken),
    });
    expect(deleted.statusCode).toBe(204);
    const rows = await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.id, created.id));
    expect(rows).toHaveLength(0);
    const gone = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations/${created.id}`,
      headers: bearer(ownerToken),
    });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses a bad update and leaves the row untouched', async () => {
    const created = (
      await post(ownerToken, { workspace_id: workspaceId, title: 'Stable', city: 'Same' })
    ).json();
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/locations/${created.id}`,
      headers: bearer(ownerToken),
      payload: { city: 'Changed', custom_fields: { seats: 'lots' } },
    });
    expect(res.statusCode).toBe(422);
    const [row] = await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.id, created.id));
    expect(row!.city).toBe('Same');
  });

  it('lets a member of the workspace in, and answers 404 to everyone else', async () => {
    const created = (await post(ownerToken, { workspace_id: workspaceId, title: 'Shared' })).json();
    const member = await createUser(ctx.deps);
    await addMember(ctx.deps, workspaceId, member);
    const memberToken = await tokenFor(ctx.deps, member);
    const asMember = await ctx.app.inject({
      method: 'PUT',
      url: `/api/locations/${created.id}`,
      headers: bearer(memberToken),
      payload: { title: 'Shared and edited' },
    });
    expect(asMember.statusCode).toBe(200);

    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await ctx.app.inject({
        method,
        url: `/api/locations/${created.id}`,
        headers: bearer(strangerToken),
        ...(method === 'PUT' ? { payload: { title: 'hijacked' } } : {}),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Location not found.', code: 'not_found' });
    }
    const [row] = await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.id, created.id));
    expect(row!.title).toBe('Shared and edited');
  });

  it('answers 404 for missing and malformed ids', async () => {
    for (const url of ['/api/locations/999999', '/api/locations/abc']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: bearer(ownerToken) });
      expect(res.statusCode).toBe(404);
    }
  });

  it('hides values of a deleted custom field definition without deleting them', async () => {
    const created = (
      await post(ownerToken, {
        workspace_id: workspaceId,
        title: 'Orphan',
        custom_fields: { opened: '2019-01-01' },
      })
    ).json();
    await ctx.deps.db
      .delete(customFieldDefinitionsTable)
      .where(
        and(
          eq(customFieldDefinitionsTable.workspaceId, workspaceId),
          eq(customFieldDefinitionsTable.name, 'opened'),
        ),
      );
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations/${created.id}`,
      headers: bearer(ownerToken),
    });
    expect(res.json().custom_fields).not.toHaveProperty('opened');
    const [row] = await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.id, created.id));
    expect(row!.customValues).toMatchObject({ opened: '2019-01-01' });
  });
});

describe('/api/admin/locations', () => {
  it('lets an admin read and edit any workspace’s locations, and refuses others', async () => {
    const created = (
      await post(strangerToken, { workspace_id: strangerWorkspaceId, title: 'Theirs' })
    ).json();
    const admin = await createUser(ctx.deps, { role: 'admin' });
    const adminToken = await tokenFor(ctx.deps, admin);
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/admin/locations/${created.id}`,
      headers: bearer(adminToken),
    });
    expect(read.statusCode).toBe(200);
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/admin/locations/${created.id}`,
      headers: bearer(adminToken),
      payload: { title: 'Fixed by admin' },
    });
    expect(edit.json().title).toBe('Fixed by admin');
    const refused = await ctx.app.inject({
      method: 'GET',
      url: `/api/admin/locations/${created.id}`,
      headers: bearer(ownerToken),
    });
    expect(refused.statusCode).toBe(403);
  });
});
