// Finders through HTTP on a real database: create with its paired map, list, show, lookup by
// token, update (settings, refinements, authorized_urls, locations replaced wholesale), delete
// with its map; every bad input refused with the field named and nothing written; workspace
// access (404 outside); GET /locations?finder_id= over a finder made here; the change listener.
import { asc, count, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinderChangeListener } from '../src/lib/payload-changes.ts';
import { createFinderIntegrationsService } from '../src/modules/finders/finders.integrations.service.ts';
import { createFindersRepository } from '../src/modules/finders/finders.repository.ts';
import { createFindersService } from '../src/modules/finders/finders.service.ts';
import {
  finderIntegrationsTable,
  finderLocationsTable,
  findersTable,
} from '../src/modules/finders/finders.table.ts';
import { locationSetsTable } from '../src/modules/locations/locations.relations.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { createMapsRepository } from '../src/modules/maps/maps.repository.ts';
import { mapOwnersTable, mapsTable, mapWorkspacesTable } from '../src/modules/maps/maps.table.ts';
import { setsTable } from '../src/modules/sets/sets.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { setIntegration } from './factories/widget-finders.ts';
import { createCast, createWorkspace } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let owner: UserRow;
let member: UserRow;
let ownerToken: string;
let workspaceId: number;
let memberToken: string;
let strangerToken: string;
let strangerWorkspaceId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ owner, member, ownerToken, workspaceId, memberToken, strangerToken, strangerWorkspaceId } =
    await createCast(ctx.deps));
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);

interface FinderJson {
  id: number;
  workspace_id: number;
  name: string;
  token: string;
  settings: { key: string; value: unknown }[];
  advanced_refinements: unknown[];
  authorized_urls: string[];
  locations: { location_id: number; sort_order: number }[];
  rule: { tag_ids: number[]; set_ids: number[]; countries: string[] } | null;
  maps: number[];
  created_at: string;
  updated_at: string;
}

async function createFinder(token: string, inWorkspace: number, name = 'Store finder'): Promise<FinderJson> {
  const res = await call('POST', '/finders', token, { name, workspace_id: inWorkspace });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function createLocation(inWorkspace: number, title = 'Store') {
  const [row] = await ctx.deps.db
    .insert(locationsTable)
    .values({ workspaceId: inWorkspace, title })
    .returning();
  return row!.id;
}

const db = () => ctx.deps.db;
const counts = async () => ({
  finders: (await db().select({ n: count() }).from(findersTable))[0]!.n,
  maps: (await db().select({ n: count() }).from(mapsTable))[0]!.n,
  finderLocations: (await db().select({ n: count() }).from(finderLocationsTable))[0]!.n,
});
const finderRow = async (id: number) =>
  (await db().select().from(findersTable).where(eq(findersTable.id, id)))[0];
const finderLocationRows = (id: number) =>
  db()
    .select({ locationId: finderLocationsTable.locationId, sortOrder: finderLocationsTable.sortOrder })
    .from(finderLocationsTable)
    .where(eq(finderLocationsTable.finderId, id))
    .orderBy(asc(finderLocationsTable.locationId));

const notFound = { message: 'Finder not found.', code: 'not_found' };
const workspaceNotFound = { message: 'Workspace not found.', code: 'not_found' };
const isoTime = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/);

describe('POST /api/finders', () => {
  it('creates the finder with a token and a paired map of the same name, owned by the creator', async () => {
    const before = await counts();
    const res = await call('POST', '/finders', memberToken, {
      name: '  Main finder ',
      workspace_id: workspaceId,
    });
    expect(res.statusCode).toBe(201);
    const finder = res.json();
    expect(finder).toEqual({
      id: expect.any(Number),
      workspace_id: workspaceId,
      name: 'Main finder',
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      settings: [],
      advanced_refinements: [],
      authorized_urls: [],
      locations: [],
      rule: null,
      maps: [expect.any(Number)],
      created_at: isoTime,
      updated_at: isoTime,
    });
    expect(await counts()).toEqual({ ...before, finders: before.finders + 1, maps: before.maps + 1 });
    const mapId = finder.maps[0];
    expect((await finderRow(finder.id))!.mapId).toBe(mapId);
    const [map] = await db().select().from(mapsTable).where(eq(mapsTable.id, mapId));
    expect(map!.title).toBe('Main finder');
    const owners = await db().select().from(mapOwnersTable).where(eq(mapOwnersTable.mapId, mapId));
    expect(owners.map((row) => row.userId)).toEqual([member.id]);
    const links = await db().select().from(mapWorkspacesTable).where(eq(mapWorkspacesTable.mapId, mapId));
    expect(links.map((row) => row.workspaceId)).toEqual([workspaceId]);
    // The map is the creator's, as POST /maps would have made it.
    const shown = await call('GET', `/maps/${mapId}`, memberToken);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ title: 'Main finder', owners: [member.id] });
  });

  it('gives every finder its own token', async () => {
    const a = await createFinder(ownerToken, workspaceId, 'A');
    const b = await createFinder(ownerToken, workspaceId, 'B');
    expect(a.token).not.toBe(b.token);
  });

  it.each([
    [{}, ['name', 'workspace_id']],
    [{ workspace_id: 1 }, ['name']],
    [{ name: '  ', workspace_id: 1 }, ['name']],
    [{ name: 5, workspace_id: 1 }, ['name']],
    [{ name: 'x'.repeat(256), workspace_id: 1 }, ['name']],
    [{ name: 'F' }, ['workspace_id']],
    [{ name: 'F', workspace_id: '1' }, ['workspace_id']],
    [{ name: 'F', workspace_id: 0 }, ['workspace_id']],
    [{ name: 'F', workspace_id: 2.5 }, ['workspace_id']],
  ])('refuses %j naming %j and writes nothing', async (body, fields) => {
    const before = await counts();
    const res = await call('POST', '/finders', ownerToken, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
    expect(Object.keys(res.json().errors).sort()).toEqual(fields);
    expect(await counts()).toEqual(before);
  });

  it('answers 404 for a workspace the caller is not in, or that does not exist, and writes nothing', async () => {
    const before = await counts();
    for (const id of [strangerWorkspaceId, 2_000_000]) {
      const res = await call('POST', '/finders', ownerToken, { name: 'Sneaky', workspace_id: id });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(workspaceNotFound);
    }
    expect(await counts()).toEqual(before);
  });

  it('answers 401 without a token', async () => {
    const res = await call('POST', '/finders', undefined, { name: 'F', workspace_id: workspaceId });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/finders', () => {
  it("lists the finders of the caller's workspaces only, in id order", async () => {
    const mine = await createFinder(ownerToken, workspaceId, 'Mine');
    const theirs = await createFinder(strangerToken, strangerWorkspaceId, 'Theirs');
    const res = await call('GET', '/finders', memberToken);
    expect(res.statusCode).toBe(200);
    const ids = res.json().map((finder: FinderJson) => finder.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(res.headers['x-total-count']).toBeUndefined();
    expect(res.json().find((finder: FinderJson) => finder.id === mine.id)).toEqual(mine);
  });

  it('filters by workspace_id and pages with X-Total-Count', async () => {
    const other = await createWorkspace(ctx.deps, owner, 'Finders only');
    const made = [];
    for (const name of ['a', 'b', 'c']) made.push(await createFinder(ownerToken, other, name));
    const all = await call('GET', `/finders?workspace_id=${other}`, ownerToken);
    expect(all.json().map((finder: FinderJson) => finder.id)).toEqual(made.map((finder) => finder.id));
    const page = await call('GET', `/finders?workspace_id=${other}&limit=1&offset=1`, ownerToken);
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json().map((finder: FinderJson) => finder.id)).toEqual([made[1]!.id]);
  });

  it('answers 404 for the workspace_id of a workspace the caller is not in', async () => {
    const res = await call('GET', `/finders?workspace_id=${strangerWorkspaceId}`, ownerToken);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(workspaceNotFound);
  });

  it.each(['abc', '0', '-1', '1.5'])('refuses workspace_id=%s with 422', async (value) => {
    const res = await call('GET', `/finders?workspace_id=${value}`, ownerToken);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['workspace_id']);
  });
});

describe('GET /api/finders/:id and /api/finders/token/:token', () => {
  it('answers the finder to a member, by id and by token', async () => {
    const finder = await createFinder(ownerToken, workspaceId, 'Shown');
    const byId = await call('GET', `/finders/${finder.id}`, memberToken);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual(finder);
    const byToken = await call('GET', `/finders/token/${finder.token}`, memberToken);
    expect(byToken.statusCode).toBe(200);
    expect(byToken.json()).toEqual(finder);
  });

  it("answers 404 for another workspace's finder, a missing one and a malformed id alike", async () => {
    const theirs = await createFinder(strangerToken, strangerWorkspaceId);
    for (const url of [
      `/finders/${theirs.id}`,
      '/finders/2000000',
      `/finders/token/${theirs.token}`,
      '/finders/token/nope',
    ]) {
      const res = await call('GET', url, ownerToken);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect((await call('GET', '/finders/abc', ownerToken)).statusCode).toBe(404);
  });
});

describe('PUT /api/finders/:id', () => {
  it('stores every field, normalising authorized_urls and defaulting sort_order to the position', async () => {
    const finder = await createFinder(ownerToken, workspaceId, 'Before');
    const [l1, l2, l3] = [
      await createLocation(workspaceId),
      await createLocation(workspaceId),
      await createLocation(workspaceId),
    ];
    const refinements = [
      {
        name: 'Open late',
        match: 'all',
        conditions: [
          { field: 'tag', op: 'eq', value: ' open-late ' },
          { field: 'set', op: 'in', value: [3, 4] },
          { field: 'custom_field.parking', op: 'eq', value: true },
          { field: 'custom_field.Floor count', op: 'neq', value: 2 },
          { field: 'city', op: 'contains', value: 'berl' },
          { field: 'country', op: 'exists' },
          { field: 'state', op: 'exists', value: null },
        ],
      },
      { name: 'Anywhere', match: 'any', conditions: [] },
    ];
    const res = await call('PUT', `/finders/${finder.id}`, memberToken, {
      name: ' After ',
      settings: [
        { key: 'primary_color', value: '#ff0000' },
        { key: 'default_center', value: { lat: 52.5, lng: 13.4 } },
        { key: 'show_map', value: false },
        { key: 'height', value: null },
      ],
      advanced_refinements: refinements,
      authorized_urls: [
        'HTTPS://Shop.Example/',
        'shop.example',
        '*.Brand.example',
        'https://shop.example',
        'localhost:8080',
      ],
      locations: [{ location_id: l2 }, { location_id: l1, sort_order: 7 }, { location_id: l3 }],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: finder.id,
      name: 'After',
      token: finder.token,
      maps: finder.maps,
      settings: [
        { key: 'primary_color', value: '#ff0000' },
        { key: 'default_center', value: { lat: 52.5, lng: 13.4 } },
        { key: 'show_map', value: false },
        { key: 'height', value: null },
      ],
      authorized_urls: ['https://shop.example', 'shop.example', '*.brand.example', 'localhost:8080'],
      locations: [
        { location_id: l2, sort_order: 0 },
        { location_id: l3, sort_order: 2 },
        { location_id: l1, sort_order: 7 },
      ],
    });
    expect(body.advanced_refinements[0].conditions).toEqual([
      { field: 'tag', op: 'eq', value: 'open-late' },
      { field: 'set', op: 'in', value: [3, 4] },
      { field: 'custom_field.parking', op: 'eq', value: true },
      { field: 'custom_field.Floor count', op: 'neq', value: 2 },
      { field: 'city', op: 'contains', value: 'berl' },
      { field: 'country', op: 'exists', value: null },
      { field: 'state', op: 'exists', value: null },
    ]);
    expect(body.advanced_refinements[1]).toEqual({ name: 'Anywhere', match: 'any', conditions: [] });
    expect(new Date(body.updated_at).getTime()).toBeGreaterThan(new Date(finder.updated_at).getTime());
    expect((await call('GET', `/finders/${finder.id}`, ownerToken)).json()).toEqual(body);
    const row = await finderRow(finder.id);
    expect(row!.authorizedUrls).toEqual([
      'https://shop.example',
      'shop.example',
      '*.brand.example',
      'localhost:8080',
    ]);
    expect(await finderLocationRows(finder.id)).toHaveLength(3);
  });

  it('replaces locations wholesale, leaves absent fields alone, and clears lists given as [] or null', async () => {
    const finder = await createFinder(ownerToken, workspaceId, 'Lists');
    const [l1, l2, l3] = [
      await createLocation(workspaceId),
      await createLocation(workspaceId),
      await createLocation(workspaceId),
    ];
    await call('PUT', `/finders/${finder.id}`, ownerToken, {
      settings: [{ key: 'units', value: 'mi' }],
      authorized_urls: ['shop.example'],
      locations: [{ location_id: l1 }, { location_id: l2 }],
    });
    const replaced = await call('PUT', `/finders/${finder.id}`, ownerToken, {
      locations: [
        { location_id: l3, sort_order: 1 },
        { location_id: l1, sort_order: 0 },
      ],
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({
      name: 'Lists',
      settings: [{ key: 'units', value: 'mi' }],
      authorized_urls: ['shop.example'],
      locations: [
        { location_id: l1, sort_order: 0 },
        { location_id: l3, sort_order: 1 },
      ],
    });
    expect(await finderLocationRows(finder.id)).toEqual(
      [
        { locationId: l1, sortOrder: 0 },
        { locationId: l3, sortOrder: 1 },
      ].sort((a, b) => a.locationId - b.locationId),
    );
    const cleared = await call('PUT', `/finders/${finder.id}`, ownerToken, {
      settings: null,
      authorized_urls: [],
      locations: null,
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ settings: [], authorized_urls: [], locations: [] });
    expect(await finderLocationRows(finder.id)).toEqual([]);
    const untouched = await call('PUT', `/finders/${finder.id}`, ownerToken, {});
    expect(untouched.statusCode).toBe(200);
    expect(untouched.json().name).toBe('Lists');
  });

  const refinement = (conditions: unknown[], extra: Record<string, unknown> = {}) => ({
    advanced_refinements: [{ name: 'R', match: 'all', conditions, ...extra }],
  });
  const condition = (field: string, op: string, value?: unknown) => ({
    field,
    op,
    ...(value === undefined ? {} : { value }),
  });
  const cond0 = 'advanced_refinements.0.conditions.0';

  it.each([
    ['a name that is empty', { name: '' }, ['name']],
    ['a name that is not a string', { name: 3 }, ['name']],
    ['settings that are not a list', { settings: { primary_color: 'red' } }, ['settings']],
    ['a setting that is not an object', { settings: ['x'] }, ['settings.0']],
    ['a setting without a key', { settings: [{ value: 1 }] }, ['settings.0.key']],
    ['a setting with an empty key', { settings: [{ key: ' ', value: 1 }] }, ['settings.0.key']],
    ['a setting with a long key', { settings: [{ key: 'k'.repeat(101), value: 1 }] }, ['settings.0.key']],
    ['a setting without a value', { settings: [{ key: 'a' }] }, ['settings.0.value']],
    [
      'a setting with a huge value',
      { settings: [{ key: 'a', value: 'v'.repeat(10_001) }] },
      ['settings.0.value'],
    ],
    [
      'a duplicate setting key',
      {
        settings: [
          { key: 'a', value: 1 },
          { key: 'a', value: 2 },
        ],
      },
      ['settings.1.key'],
    ],
    [
      'too many settings',
      { settings: Array.from({ length: 501 }, (_, n) => ({ key: `k${n}`, value: n })) },
      ['settings'],
    ],
    ['refinements that are not a list', { advanced_refinements: 'all' }, ['advanced_refinements']],
    [
      'a refinement without a name',
      { advanced_refinements: [{ match: 'all', conditions: [] }] },
      ['advanced_refinements.0.name'],
    ],
    ['a refinement with a bad match', refinement([], { match: 'some' }), ['advanced_refinements.0.match']],
    [
      'a refinement without conditions',
      { advanced_refinements: [{ name: 'R', match: 'all' }] },
      ['advanced_refinements.0.conditions'],
    ],
    [
      'two refinements with one name',
      {
        advanced_refinements: [
          { name: 'R', match: 'all', conditions: [] },
          { name: 'r', match: 'any', conditions: [] },
        ],
      },
      ['advanced_refinements.1.name'],
    ],
    ['an unknown condition field', refinement([condition('zip', 'eq', '1')]), [`${cond0}.field`]],
    [
      'a custom field without a name',
      refinement([condition('custom_field.', 'eq', '1')]),
      [`${cond0}.field`],
    ],
    ['an unknown op', refinement([condition('city', 'like', 'x')]), [`${cond0}.op`]],
    ['eq without a value', refinement([condition('city', 'eq')]), [`${cond0}.value`]],
    ['eq with an empty string', refinement([condition('city', 'eq', ' ')]), [`${cond0}.value`]],
    ['eq with a list', refinement([condition('city', 'eq', ['a'])]), [`${cond0}.value`]],
    ['eq with an object', refinement([condition('custom_field.x', 'eq', { a: 1 })]), [`${cond0}.value`]],
    ['a city compared with a number', refinement([condition('city', 'eq', 5)]), [`${cond0}.value`]],
    ['a set compared with a name', refinement([condition('set', 'eq', 'Stores')]), [`${cond0}.value`]],
    ['a set compared with a fraction', refinement([condition('set', 'neq', 1.5)]), [`${cond0}.value`]],
    ['a tag compared with a number', refinement([condition('tag', 'contains', 7)]), [`${cond0}.value`]],
    ['in with one value', refinement([condition('tag', 'in', 'open')]), [`${cond0}.value`]],
    ['in with an empty list', refinement([condition('tag', 'in', [])]), [`${cond0}.value`]],
    ['in with a bad element', refinement([condition('set', 'in', [1, 'two'])]), [`${cond0}.value.1`]],
    [
      'in with too many values',
      refinement([
        condition(
          'city',
          'in',
          Array.from({ length: 101 }, (_, n) => `c${n}`),
        ),
      ]),
      [`${cond0}.value`],
    ],
    ['exists with a value', refinement([condition('city', 'exists', true)]), [`${cond0}.value`]],
    [
      'a text over 255 characters',
      refinement([condition('city', 'eq', 'c'.repeat(256))]),
      [`${cond0}.value`],
    ],
    ['authorized_urls that are not a list', { authorized_urls: 'shop.example' }, ['authorized_urls']],
    [
      'an authorized url with a path',
      { authorized_urls: ['https://shop.example/store'] },
      ['authorized_urls.0'],
    ],
    [
      'an authorized url of another scheme',
      { authorized_urls: ['ftp://shop.example'] },
      ['authorized_urls.0'],
    ],
    [
      'an authorized url with a query',
      { authorized_urls: ['ok.example', 'https://shop.example?x=1'] },
      ['authorized_urls.1'],
    ],
    ['a bare wildcard', { authorized_urls: ['*.example'] }, ['authorized_urls.0']],
    ['a wildcard in the middle', { authorized_urls: ['shop.*.example'] }, ['authorized_urls.0']],
    ['an empty authorized url', { authorized_urls: [''] }, ['authorized_urls.0']],
    ['an authorized url that is not a string', { authorized_urls: [42] }, ['authorized_urls.0']],
    [
      'too many authorized urls',
      { authorized_urls: Array.from({ length: 101 }, (_, n) => `s${n}.example`) },
      ['authorized_urls'],
    ],
    ['locations that are ids', { locations: [1, 2] }, ['locations.0', 'locations.1']],
    ['a location without an id', { locations: [{ sort_order: 1 }] }, ['locations.0.location_id']],
    [
      'a location id that is not an integer',
      { locations: [{ location_id: 'x' }] },
      ['locations.0.location_id'],
    ],
    [
      'a negative sort order',
      { locations: [{ location_id: 1, sort_order: -1 }] },
      ['locations.0.sort_order'],
    ],
    [
      'a fractional sort order',
      { locations: [{ location_id: 1, sort_order: 0.5 }] },
      ['locations.0.sort_order'],
    ],
    [
      'a location listed twice',
      { locations: [{ location_id: 1 }, { location_id: 1, sort_order: 3 }] },
      ['locations.1.location_id'],
    ],
  ])('refuses %s with 422 naming the field and changes nothing', async (_label, body, fields) => {
    const finder = await createFinder(ownerToken, workspaceId, 'Kept');
    const location = await createLocation(workspaceId);
    await call('PUT', `/finders/${finder.id}`, ownerToken, {
      settings: [{ key: 'units', value: 'km' }],
      locations: [{ location_id: location }],
    });
    const before = await finderRow(finder.id);
    const res = await call('PUT', `/finders/${finder.id}`, ownerToken, { ...body });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
    expect(Object.keys(res.json().errors).sort()).toEqual(fields);
    expect(await finderRow(finder.id)).toEqual(before);
    expect(await finderLocationRows(finder.id)).toEqual([{ locationId: location, sortOrder: 0 }]);
  });

  it('refuses locations of another workspace or that do not exist, naming them, and writes nothing', async () => {
    const finder = await createFinder(ownerToken, workspaceId, 'Strict');
    const own = await createLocation(workspaceId);
    await call('PUT', `/finders/${finder.id}`, ownerToken, { locations: [{ location_id: own }] });
    const before = await finderRow(finder.id);
    const foreign = await createLocation(strangerWorkspaceId, 'Not yours');
    // Another workspace of the same owner is still another workspace.
    const sibling = await createLocation(await createWorkspace(ctx.deps, owner, 'Sibling'), 'Sibling store');
    const res = await call('PUT', `/finders/${finder.id}`, ownerToken, {
      name: 'Renamed',
      locations: [
        { location_id: own },
        { location_id: sibling },
        { location_id: 2_000_000 },
        { location_id: foreign },
      ],
    });
    expect(res.statusCode).toBe(422);
    const ids = [sibling, foreign, 2_000_000].sort((a, b) => a - b).join(', ');
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { locations: [`These locations do not exist or are not in the finder's workspace: ${ids}.`] },
    });
    expect(await finderRow(finder.id)).toEqual(before);
    expect(await finderLocationRows(finder.id)).toEqual([{ locationId: own, sortOrder: 0 }]);
  });

  it("answers 404 for another workspace's finder and leaves it alone", async () => {
    const theirs = await createFinder(strangerToken, strangerWorkspaceId, 'Theirs');
    const before = await finderRow(theirs.id);
    for (const id of [theirs.id, 2_000_000]) {
      const res = await call('PUT', `/finders/${id}`, ownerToken, { name: 'Hijacked', settings: [] });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect(await finderRow(theirs.id)).toEqual(before);
  });
});

describe('DELETE /api/finders/:id', () => {
  it('removes the finder, its paired map, its locations and its keys; the locations themselves remain', async () => {
    const finder = await createFinder(memberToken, workspaceId, 'Doomed');
    const location = await createLocation(workspaceId);
    await call('PUT', `/finders/${finder.id}`, memberToken, { locations: [{ location_id: location }] });
    await setIntegration(ctx.deps, finder.id, 'google', 'key-of-doomed');
    const res = await call('DELETE', `/finders/${finder.id}`, memberToken);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await finderRow(finder.id)).toBeUndefined();
    expect(await db().select().from(mapsTable).where(eq(mapsTable.id, finder.maps[0]!))).toEqual([]);
    expect(await finderLocationRows(finder.id)).toEqual([]);
    expect(
      await db()
        .select()
        .from(finderIntegrationsTable)
        .where(eq(finderIntegrationsTable.finderId, finder.id)),
    ).toEqual([]);
    expect(await db().select().from(locationsTable).where(eq(locationsTable.id, location))).toHaveLength(1);
    expect((await call('GET', `/finders/${finder.id}`, memberToken)).statusCode).toBe(404);
    expect((await call('GET', `/maps/${finder.maps[0]}`, memberToken)).statusCode).toBe(404);
  });

  it('deletes a finder whose map was already deleted', async () => {
    const finder = await createFinder(ownerToken, workspaceId, 'Mapless');
    expect((await call('DELETE', `/maps/${finder.maps[0]}`, ownerToken)).statusCode).toBe(204);
    expect((await call('GET', `/finders/${finder.id}`, ownerToken)).json().maps).toEqual([]);
    expect((await call('DELETE', `/finders/${finder.id}`, ownerToken)).statusCode).toBe(204);
  });

  it("answers 404 for another workspace's finder and keeps it and its map", async () => {
    const theirs = await createFinder(strangerToken, strangerWorkspaceId);
    const res = await call('DELETE', `/finders/${theirs.id}`, ownerToken);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(notFound);
    expect(await finderRow(theirs.id)).toBeDefined();
    expect(await db().select().from(mapsTable).where(eq(mapsTable.id, theirs.maps[0]!))).toHaveLength(1);
  });
});

describe('GET /api/locations?finder_id= over a finder made through these routes', () => {
  it("lists the finder's own locations, its map's and its map's sets', each once", async () => {
    const finder = await createFinder(ownerToken, workspaceId, 'Union');
    const own = await createLocation(workspaceId, 'Own');
    const onMap = await createLocation(workspaceId, 'On the map');
    const inSet = await createLocation(workspaceId, 'In a set');
    const everywhere = await createLocation(workspaceId, 'Everywhere');
    const elsewhere = await createLocation(workspaceId, 'Not in the finder');
    const [set] = await db().insert(setsTable).values({ workspaceId, name: 'Finder set' }).returning();
    await db()
      .insert(locationSetsTable)
      .values([
        { setId: set!.id, locationId: inSet },
        { setId: set!.id, locationId: everywhere },
      ]);
    const put = await call('PUT', `/finders/${finder.id}`, ownerToken, {
      locations: [{ location_id: own }, { location_id: everywhere }],
    });
    expect(put.statusCode).toBe(200);
    const map = await call('PUT', `/maps/${finder.maps[0]}`, ownerToken, {
      locations: [onMap, everywhere],
      sets: [set!.id],
    });
    expect(map.statusCode).toBe(200);
    const res = await call('GET', `/locations?finder_id=${finder.id}`, memberToken);
    expect(res.statusCode).toBe(200);
    const ids = res.json().map((location: { id: number }) => location.id);
    expect(ids).toEqual([own, onMap, inSet, everywhere].sort((a, b) => a - b));
    expect(ids).not.toContain(elsewhere);
    expect((await call('GET', `/locations?finder_id=${finder.id}`, strangerToken)).statusCode).toBe(404);
  });
});

describe('the change listener', () => {
  it('is told after each committed update, key change and delete (not after refused ones), and a failing listener does not fail the write', async () => {
    const calls: string[] = [];
    const listener: FinderChangeListener = {
      finderChanged: async (id) => {
        calls.push(`changed ${id}`);
        throw new Error('cache down');
      },
      finderDeleted: async (id, token) => {
        calls.push(`deleted ${id} ${token}`);
      },
    };
    const service = createFindersService({
      db: db(),
      finders: createFindersRepository(db()),
      maps: createMapsRepository(db()),
      events: listener,
      removePublishedFiles: async () => {},
      logger: pino({ level: 'silent' }),
    });
    const actor = { userId: owner.id, allWorkspaces: false };
    const finder = await service.create(actor, { name: 'Heard', workspace_id: workspaceId });
    expect(calls).toEqual([]);
    const updated = await service.update(actor, finder.id, { name: 'Heard twice' });
    expect(updated.name).toBe('Heard twice');
    expect((await finderRow(finder.id))!.name).toBe('Heard twice');
    await expect(
      service.update(actor, finder.id, { locations: [{ locationId: 2_000_000, sortOrder: 0 }] }),
    ).rejects.toThrow();
    const integrations = createFinderIntegrationsService({
      db: db(),
      finders: createFindersRepository(db()),
      secretBox: ctx.deps.secretBox,
      events: listener,
      logger: pino({ level: 'silent' }),
    });
    await integrations.put(actor, finder.id, 'here', 'a-key');
    await integrations.delete(actor, finder.id, 'here');
    await expect(integrations.delete(actor, finder.id, 'here')).rejects.toThrow();
    await service.delete(actor, finder.id);
    expect(calls).toEqual([
      `changed ${finder.id}`,
      `changed ${finder.id}`,
      `changed ${finder.id}`,
      `deleted ${finder.id} ${finder.token}`,
    ]);
  });
});
