import { randomBytes } from 'node:crypto';
import { asc, count, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/postgres-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ignoreChanges } from '../src/lib/payload-changes.ts';
import { findersTable } from '../src/modules/finders/finders.table.ts';
import { locationSetsTable } from '../src/modules/locations/locations.relations.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { createMapsRepository } from '../src/modules/maps/maps.repository.ts';
import { createMapsService } from '../src/modules/maps/maps.service.ts';
import {
  mapLocationsTable,
  mapOwnersTable,
  mapSetsTable,
  mapsTable,
  mapWorkspacesTable,
} from '../src/modules/maps/maps.table.ts';
import { setsTable } from '../src/modules/sets/sets.table.ts';
import { type UserRow, usersTable } from '../src/modules/users/users.table.ts';
import { workspacesTable } from '../src/modules/workspaces/workspaces.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { addMember, createWorkspace, firstWorkspaceId } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const NOT_FOUND = { message: 'Map not found or unauthorized access', code: 'not_found' };
const MISSING_ID = 2_147_483_647;

interface Member {
  user: UserRow;
  id: number;
  headers: Record<string, string>;
  workspaceId: number;
}

/** A user with a token and the workspace createUser made for them. */
async function member(): Promise<Member> {
  const user = await createUser(ctx.deps);
  return {
    user,
    id: user.id,
    headers: bearer(await tokenFor(ctx.deps, user)),
    workspaceId: await firstWorkspaceId(ctx.deps, user),
  };
}

/** A member of their own workspace who also belongs to `other`'s, so `other` may make them an owner. */
async function colleagueOf(other: Member): Promise<Member> {
  const colleague = await member();
  await addMember(ctx.deps, other.workspaceId, colleague.user);
  return colleague;
}

let sequence = 0;

async function createLocation(workspaceId: number): Promise<number> {
  sequence += 1;
  const [row] = await ctx.deps.db
    .insert(locationsTable)
    .values({ workspaceId, title: `Location ${sequence}` })
    .returning({ id: locationsTable.id });
  return row!.id;
}

async function createSet(workspaceId: number, locationIds: number[] = []): Promise<number> {
  sequence += 1;
  const [row] = await ctx.deps.db
    .insert(setsTable)
    .values({ workspaceId, name: `Set ${sequence}` })
    .returning({ id: setsTable.id });
  if (locationIds.length > 0) {
    await ctx.deps.db
      .insert(locationSetsTable)
      .values(locationIds.map((locationId) => ({ setId: row!.id, locationId })));
  }
  return row!.id;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const api = (method: Method, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function createMap(as: Member, body: Record<string, unknown> = {}) {
  const res = await api('POST', '/maps', as.headers, { title: 'A map', ...body });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function idsOf(table: PgTable, mapColumn: AnyPgColumn, column: AnyPgColumn, mapId: number) {
  const rows = await ctx.deps.db
    .select({ id: column as unknown as SQL<number> })
    .from(table)
    .where(eq(mapColumn, mapId))
    .orderBy(asc(column));
  return rows.map((row) => row.id);
}

/** The links of a map as stored, each list sorted. */
async function storedLinks(mapId: number) {
  return {
    owners: await idsOf(mapOwnersTable, mapOwnersTable.mapId, mapOwnersTable.userId, mapId),
    workspaces: await idsOf(
      mapWorkspacesTable,
      mapWorkspacesTable.mapId,
      mapWorkspacesTable.workspaceId,
      mapId,
    ),
    sets: await idsOf(mapSetsTable, mapSetsTable.mapId, mapSetsTable.setId, mapId),
    locations: await idsOf(mapLocationsTable, mapLocationsTable.mapId, mapLocationsTable.locationId, mapId),
  };
}

async function storedMap(mapId: number) {
  const [row] = await ctx.deps.db.select().from(mapsTable).where(eq(mapsTable.id, mapId));
  return row;
}

/** Rows of every map table, to prove a refused request wrote nothing. */
async function tableCounts() {
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries({
    maps: mapsTable,
    owners: mapOwnersTable,
    workspaces: mapWorkspacesTable,
    sets: mapSetsTable,
    locations: mapLocationsTable,
  })) {
    const [row] = await ctx.deps.db.select({ n: count() }).from(table);
    counts[name] = row!.n;
  }
  return counts;
}

/** A member with two workspaces of their own, locations and sets in them. */
async function world() {
  const alice = await member();
  const otherWorkspaceId = await createWorkspace(ctx.deps, alice.user, 'Second');
  const l1 = await createLocation(alice.workspaceId);
  const l2 = await createLocation(alice.workspaceId);
  const l3 = await createLocation(otherWorkspaceId);
  const s1 = await createSet(alice.workspaceId, [l2, l1]);
  const s2 = await createSet(otherWorkspaceId);
  return { alice, otherWorkspaceId, l1, l2, l3, s1, s2 };
}

describe('authentication', () => {
  it.each([
    ['GET', '/maps'],
    ['GET', '/maps/1'],
    ['POST', '/maps'],
    ['PUT', '/maps/1'],
    ['DELETE', '/maps/1'],
  ] as const)('%s %s answers 401 without a token', async (method, url) => {
    const res = await api(
      method,
      url,
      {},
      method === 'POST' || method === 'PUT' ? { title: 'x' } : undefined,
    );
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Unauthenticated.', code: 'unauthenticated' });
  });
});

describe('POST /api/maps', () => {
  it('creates a map with its links, duplicates collapsed and every list sorted by id', async () => {
    const { alice, otherWorkspaceId, l1, l2, l3, s1, s2 } = await world();
    const bob = await colleagueOf(alice);
    const res = await api('POST', '/maps', alice.headers, {
      title: '  Stores  ',
      description: 'All of them',
      sets: [s2, s1, s2],
      locations: [l3, l1, l3],
      owners: [bob.id, alice.id, bob.id],
      workspaces: [otherWorkspaceId, alice.workspaceId],
    });
    expect(res.statusCode).toBe(201);
    const map = res.json();
    expect(map).toEqual({
      id: expect.any(Number),
      title: 'Stores',
      description: 'All of them',
      sets: [
        { id: s1, title: expect.stringMatching(/^Set /), locations: [l1, l2] },
        { id: s2, title: expect.stringMatching(/^Set /), locations: [] },
      ],
      locations: [l1, l3],
      owners: [alice.id, bob.id].sort((a, b) => a - b),
      workspaces: [alice.workspaceId, otherWorkspaceId],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    const [set] = await ctx.deps.db.select().from(setsTable).where(eq(setsTable.id, s1));
    expect(map.sets[0].title).toBe(set!.name);

    expect(await storedLinks(map.id)).toEqual({
      owners: [alice.id, bob.id].sort((a, b) => a - b),
      workspaces: [alice.workspaceId, otherWorkspaceId],
      sets: [s1, s2],
      locations: [l1, l3],
    });
    expect(await storedMap(map.id)).toMatchObject({ title: 'Stores', description: 'All of them' });

    // The co-owner sees the same map.
    const asBob = await api('GET', `/maps/${map.id}`, bob.headers);
    expect(asBob.statusCode).toBe(200);
    expect(asBob.json()).toEqual(map);
  });

  it('makes the caller the only owner by default and leaves the other lists empty', async () => {
    const alice = await member();
    const res = await api('POST', '/maps', alice.headers, { title: 'Bare' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      title: 'Bare',
      description: null,
      sets: [],
      locations: [],
      owners: [alice.id],
      workspaces: [],
    });
    expect(await storedLinks(res.json().id)).toEqual({
      owners: [alice.id],
      workspaces: [],
      sets: [],
      locations: [],
    });
  });

  it('takes null for description, sets, locations and workspaces', async () => {
    const alice = await member();
    const res = await api('POST', '/maps', alice.headers, {
      title: 'Nulls',
      description: null,
      sets: null,
      locations: null,
      workspaces: null,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      description: null,
      sets: [],
      locations: [],
      workspaces: [],
      owners: [alice.id],
    });
  });

  it('answers 400 with the standard body when the title is missing', async () => {
    const alice = await member();
    const before = await tableCounts();
    const res = await api('POST', '/maps', alice.headers, { description: 'no title' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { title: ['The title field is required.'] },
    });
    expect(await tableCounts()).toEqual(before);
  });

  it('answers 400 naming the title for an empty body', async () => {
    const alice = await member();
    const res = await api('POST', '/maps', alice.headers);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['title']);
  });

  it.each([
    [{ title: '' }, 'title', 'The title field is required.'],
    [{ title: '   ' }, 'title', 'The title field is required.'],
    [{ title: 5 }, 'title', 'The title must be a string.'],
    [{ title: 'x'.repeat(256) }, 'title', 'The title may not be greater than 255 characters.'],
    [{ description: 7 }, 'description', 'The description must be a string or null.'],
    [{ sets: 'all' }, 'sets', 'The sets field must be an array of ids or null.'],
    [{ sets: [1.5] }, 'sets.0', 'Every entry of sets must be a positive integer id.'],
    [{ locations: [1, '2'] }, 'locations.1', 'Every entry of locations must be a positive integer id.'],
    [{ owners: [0] }, 'owners.0', 'Every entry of owners must be a positive integer id.'],
    [{ workspaces: { id: 1 } }, 'workspaces', 'The workspaces field must be an array of ids or null.'],
    [{ sets: [2 ** 31] }, 'sets.0', 'Every entry of sets must be a positive integer id.'],
  ])('refuses %j with 400 on %s and writes nothing', async (overrides, field, message) => {
    const alice = await member();
    const before = await tableCounts();
    const res = await api('POST', '/maps', alice.headers, { title: 'T', ...overrides });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
    expect(res.json().errors[field]).toEqual([message]);
    expect(await tableCounts()).toEqual(before);
  });

  it('refuses sets, locations and workspaces of a workspace the caller is not in, and owners who are unknown or share no workspace', async () => {
    const alice = await member();
    const bob = await member();
    const bobLocation = await createLocation(bob.workspaceId);
    const bobSet = await createSet(bob.workspaceId, [bobLocation]);
    const deleted = await createUser(ctx.deps);
    await ctx.deps.db.update(usersTable).set({ deletedAt: new Date() }).where(eq(usersTable.id, deleted.id));
    const mine = await createLocation(alice.workspaceId);
    const before = await tableCounts();

    const res = await api('POST', '/maps', alice.headers, {
      title: 'Trespass',
      sets: [bobSet],
      locations: [mine, bobLocation],
      workspaces: [alice.workspaceId, bob.workspaceId],
      owners: [alice.id, bob.id, deleted.id, MISSING_ID],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: {
        // Bob exists but shares no workspace with Alice: the same answer as an unknown id.
        owners: [
          `These users do not exist or share no workspace with you: ${bob.id}, ${deleted.id}, ${MISSING_ID}.`,
        ],
        workspaces: [`These workspaces do not exist or you are not a member of them: ${bob.workspaceId}.`],
        sets: [`These sets do not exist or are not in a workspace you are a member of: ${bobSet}.`],
        locations: [
          `These locations do not exist or are not in a workspace you are a member of: ${bobLocation}.`,
        ],
      },
    });
    expect(await tableCounts()).toEqual(before);
  });

  it.each(['sets', 'locations', 'workspaces'] as const)(
    'answers an unknown id in %s exactly like one of a foreign workspace',
    async (field) => {
      const alice = await member();
      const bob = await member();
      const foreign = {
        sets: await createSet(bob.workspaceId),
        locations: await createLocation(bob.workspaceId),
        workspaces: bob.workspaceId,
      }[field];
      const refuse = async (id: number) => {
        const res = await api('POST', '/maps', alice.headers, { title: 'T', [field]: [id] });
        expect(res.statusCode).toBe(400);
        return res.json().errors[field][0].replace(String(id), '<id>');
      };
      expect(await refuse(MISSING_ID)).toBe(await refuse(foreign));
    },
  );

  it('accepts a set and a location of a workspace the caller joined as a member', async () => {
    const alice = await member();
    const bob = await member();
    await addMember(ctx.deps, bob.workspaceId, alice.user);
    const location = await createLocation(bob.workspaceId);
    const set = await createSet(bob.workspaceId);
    const map = await createMap(alice, { sets: [set], locations: [location], workspaces: [bob.workspaceId] });
    expect(map).toMatchObject({
      sets: [{ id: set, locations: [] }],
      locations: [location],
      workspaces: [bob.workspaceId],
    });
  });

  it.each([[[]], [null]])('refuses owners %j: a map needs an owner', async (owners) => {
    const alice = await member();
    const before = await tableCounts();
    const res = await api('POST', '/maps', alice.headers, { title: 'Orphan', owners });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ owners: ['The owners field must contain at least one user.'] });
    expect(await tableCounts()).toEqual(before);
  });

  it('lets the caller leave themselves out of owners, after which they cannot see the map', async () => {
    const alice = await member();
    const bob = await colleagueOf(alice);
    const res = await api('POST', '/maps', alice.headers, { title: 'For Bob', owners: [bob.id] });
    expect(res.statusCode).toBe(201);
    const map = res.json();
    expect(map.owners).toEqual([bob.id]);
    expect((await api('GET', `/maps/${map.id}`, alice.headers)).json()).toEqual(NOT_FOUND);
    expect((await api('GET', '/maps', alice.headers)).json()).toEqual([]);
    expect((await api('GET', `/maps/${map.id}`, bob.headers)).statusCode).toBe(200);
  });
});

describe('GET /api/maps', () => {
  it('lists the maps the caller owns (co-owned ones too) with full payloads, sorted by id', async () => {
    const { alice, s1, l1, l2 } = await world();
    const bob = await colleagueOf(alice);
    const a1 = await createMap(alice, { sets: [s1], locations: [l1] });
    const a2 = await createMap(alice);
    await createMap(bob);
    const shared = await createMap(bob, { owners: [bob.id, alice.id] });

    const res = await api('GET', '/maps', alice.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBeUndefined();
    const list = res.json();
    expect(list.map((map: { id: number }) => map.id)).toEqual([a1.id, a2.id, shared.id]);
    expect(list[0]).toEqual(a1);
    expect(list[0].sets).toEqual([{ id: s1, title: expect.any(String), locations: [l1, l2] }]);
    expect(list[2]).toEqual((await api('GET', `/maps/${shared.id}`, alice.headers)).json());
  });

  it('filters by workspace_id among the maps the caller owns', async () => {
    const alice = await member();
    const second = await createWorkspace(ctx.deps, alice.user, 'Second');
    const bob = await member();
    await addMember(ctx.deps, alice.workspaceId, bob.user);
    const inFirst = await createMap(alice, { workspaces: [alice.workspaceId] });
    const inBoth = await createMap(alice, { workspaces: [alice.workspaceId, second] });
    const inSecond = await createMap(alice, { workspaces: [second] });
    await createMap(alice);
    // Bob's map in Alice's workspace is not Alice's map.
    await createMap(bob, { workspaces: [alice.workspaceId] });

    const ids = async (query: string) =>
      (await api('GET', `/maps${query}`, alice.headers)).json().map((map: { id: number }) => map.id);
    expect(await ids(`?workspace_id=${alice.workspaceId}`)).toEqual([inFirst.id, inBoth.id]);
    expect(await ids(`?workspace_id=${second}`)).toEqual([inBoth.id, inSecond.id]);
    expect(await ids(`?workspace_id=${bob.workspaceId}`)).toEqual([]);
  });

  it('pages with limit and offset and sends X-Total-Count', async () => {
    const alice = await member();
    const second = await createWorkspace(ctx.deps, alice.user, 'Second');
    const maps = [];
    for (let i = 0; i < 5; i++) maps.push(await createMap(alice, { workspaces: i < 3 ? [second] : [] }));
    const ids = maps.map((map) => map.id);

    const first = await api('GET', '/maps?limit=2', alice.headers);
    expect(first.headers['x-total-count']).toBe('5');
    expect(first.json().map((map: { id: number }) => map.id)).toEqual(ids.slice(0, 2));

    const last = await api('GET', '/maps?limit=2&offset=4', alice.headers);
    expect(last.headers['x-total-count']).toBe('5');
    expect(last.json().map((map: { id: number }) => map.id)).toEqual(ids.slice(4));

    const filtered = await api('GET', `/maps?workspace_id=${second}&offset=1`, alice.headers);
    expect(filtered.headers['x-total-count']).toBe('3');
    expect(filtered.json().map((map: { id: number }) => map.id)).toEqual(ids.slice(1, 3));
  });

  it.each(['workspace_id=abc', 'limit=0', 'offset=-1'])('answers 422 for the query %s', async (query) => {
    const alice = await member();
    const res = await api('GET', `/maps?${query}`, alice.headers);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('validation_failed');
    expect(Object.keys(res.json().errors)).toEqual([query.split('=')[0]]);
  });

  it('loads any number of maps with the same number of queries', async () => {
    const alice = await member();
    const set = await createSet(alice.workspaceId, [await createLocation(alice.workspaceId)]);
    let queries = 0;
    const db = drizzle(ctx.deps.database.sql, {
      casing: 'snake_case',
      logger: {
        logQuery: () => {
          queries += 1;
        },
      },
    });
    const service = createMapsService({ db, maps: createMapsRepository(db), changes: ignoreChanges });
    const actor = { userId: alice.id, allWorkspaces: false };
    const page = { limit: undefined, offset: 0, paged: false };
    const body = {
      sets: [set],
      locations: [await createLocation(alice.workspaceId)],
      workspaces: [alice.workspaceId],
    };

    await createMap(alice, body);
    await createMap(alice, body);
    queries = 0;
    expect((await service.list(actor, {}, page)).items).toHaveLength(2);
    const forTwo = queries;

    for (let i = 0; i < 10; i++) await createMap(alice, body);
    queries = 0;
    const listed = await service.list(actor, {}, page);
    expect(listed.items).toHaveLength(12);
    expect(listed.items.every((map) => map.sets[0]?.locations.length === 1)).toBe(true);
    expect(queries).toBe(forTwo);
  });
});

describe('GET /api/maps/:id', () => {
  it('answers the map to an owner', async () => {
    const { alice, s1, l3, otherWorkspaceId } = await world();
    const map = await createMap(alice, { sets: [s1], locations: [l3], workspaces: [otherWorkspaceId] });
    const res = await api('GET', `/maps/${map.id}`, alice.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(map);
  });

  it('answers the same 404 for a missing map and for a map of another user', async () => {
    const alice = await member();
    const bob = await member();
    const bobs = await createMap(bob);
    for (const id of [MISSING_ID, bobs.id]) {
      const res = await api('GET', `/maps/${id}`, alice.headers);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });

  it('answers 404 for a malformed id', async () => {
    const alice = await member();
    expect((await api('GET', '/maps/abc', alice.headers)).statusCode).toBe(404);
  });

  it('leaves soft-deleted users out of owners', async () => {
    const alice = await member();
    const carol = await colleagueOf(alice);
    const map = await createMap(alice, { owners: [alice.id, carol.id] });
    await ctx.deps.db.update(usersTable).set({ deletedAt: new Date() }).where(eq(usersTable.id, carol.id));
    expect((await api('GET', `/maps/${map.id}`, alice.headers)).json().owners).toEqual([alice.id]);
  });
});

describe('PUT /api/maps/:id', () => {
  async function fullMap() {
    const w = await world();
    // Bob shares Alice's second workspace only, so Alice may make him an owner but he cannot
    // reach what is in her first workspace.
    const bob = await member();
    await addMember(ctx.deps, w.otherWorkspaceId, bob.user);
    const map = await createMap(w.alice, {
      description: 'Before',
      sets: [w.s1, w.s2],
      locations: [w.l1, w.l3],
      workspaces: [w.alice.workspaceId, w.otherWorkspaceId],
    });
    return { ...w, bob, map };
  }

  it('changes only the fields present; absent link lists stay as they are', async () => {
    const { alice, map } = await fullMap();
    const linksBefore = await storedLinks(map.id);
    const res = await api('PUT', `/maps/${map.id}`, alice.headers, { title: 'After' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...map, title: 'After', updated_at: expect.any(String) });
    expect(await storedMap(map.id)).toMatchObject({ title: 'After', description: 'Before' });
    expect(await storedLinks(map.id)).toEqual(linksBefore);
  });

  it('clears sets with [] and locations with null, leaving the other lists alone', async () => {
    const { alice, map, l1, l3, otherWorkspaceId } = await fullMap();
    const cleared = await api('PUT', `/maps/${map.id}`, alice.headers, { sets: [] });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ sets: [], locations: [l1, l3] });
    expect(await storedLinks(map.id)).toMatchObject({ sets: [], locations: [l1, l3] });

    const nulled = await api('PUT', `/maps/${map.id}`, alice.headers, { locations: null });
    expect(nulled.statusCode).toBe(200);
    expect(await storedLinks(map.id)).toEqual({
      owners: [alice.id],
      workspaces: [alice.workspaceId, otherWorkspaceId],
      sets: [],
      locations: [],
    });
  });

  it('replaces sets, locations and workspaces with the lists given', async () => {
    const { alice, map, s1, l2, l3, otherWorkspaceId } = await fullMap();
    const res = await api('PUT', `/maps/${map.id}`, alice.headers, {
      sets: [s1, s1],
      locations: [l3, l2, l3],
      workspaces: [otherWorkspaceId],
    });
    expect(res.statusCode).toBe(200);
    expect(await storedLinks(map.id)).toEqual({
      owners: [alice.id],
      workspaces: [otherWorkspaceId],
      sets: [s1],
      locations: [l2, l3],
    });
    expect(res.json()).toMatchObject({
      sets: [{ id: s1 }],
      locations: [l2, l3],
      workspaces: [otherWorkspaceId],
    });

    expect((await api('PUT', `/maps/${map.id}`, alice.headers, { workspaces: null })).statusCode).toBe(200);
    expect((await storedLinks(map.id)).workspaces).toEqual([]);
  });

  it('sets and clears the description', async () => {
    const { alice, map } = await fullMap();
    await api('PUT', `/maps/${map.id}`, alice.headers, { description: 'New' });
    expect((await storedMap(map.id))!.description).toBe('New');
    await api('PUT', `/maps/${map.id}`, alice.headers, { description: null });
    expect((await storedMap(map.id))!.description).toBeNull();
  });

  it('syncs owners, and an owner who leaves loses access', async () => {
    const { alice, bob, map } = await fullMap();
    const shared = await api('PUT', `/maps/${map.id}`, alice.headers, { owners: [bob.id, alice.id] });
    expect(shared.statusCode).toBe(200);
    expect((await storedLinks(map.id)).owners).toEqual([alice.id, bob.id].sort((a, b) => a - b));

    const handedOver = await api('PUT', `/maps/${map.id}`, alice.headers, { owners: [bob.id] });
    expect(handedOver.statusCode).toBe(200);
    expect(handedOver.json().owners).toEqual([bob.id]);
    expect((await api('GET', `/maps/${map.id}`, alice.headers)).json()).toEqual(NOT_FOUND);
    expect((await api('GET', `/maps/${map.id}`, bob.headers)).statusCode).toBe(200);
  });

  it.each([
    [{ title: 'Changed', owners: [] }, 'owners'],
    [{ title: 'Changed', owners: null }, 'owners'],
    [{ title: 'Changed', sets: [] as number[], locations: ['x'] }, 'locations.0'],
    [{ title: '' }, 'title'],
    [{ title: null }, 'title'],
  ])('refuses %j with 400 on %s and changes nothing', async (body, field) => {
    const { alice, map } = await fullMap();
    const before = { row: await storedMap(map.id), links: await storedLinks(map.id) };
    const res = await api('PUT', `/maps/${map.id}`, alice.headers, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
    expect(Object.keys(res.json().errors)).toEqual([field]);
    expect({ row: await storedMap(map.id), links: await storedLinks(map.id) }).toEqual(before);
  });

  it('refuses links the caller may not make and writes nothing, not even the valid fields', async () => {
    const { alice, bob, map, s1 } = await fullMap();
    const bobSet = await createSet(bob.workspaceId);
    const before = { row: await storedMap(map.id), links: await storedLinks(map.id) };
    const res = await api('PUT', `/maps/${map.id}`, alice.headers, {
      title: 'Changed',
      sets: [s1, bobSet],
      locations: [],
      workspaces: [bob.workspaceId],
      owners: [alice.id, MISSING_ID],
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual(['owners', 'sets', 'workspaces']);
    expect(res.json().errors.sets).toEqual([
      `These sets do not exist or are not in a workspace you are a member of: ${bobSet}.`,
    ]);
    expect({ row: await storedMap(map.id), links: await storedLinks(map.id) }).toEqual(before);
  });

  it('lets a co-owner keep links into a workspace they are not in, but not add new ones', async () => {
    const { alice, bob, map, s1, s2, l1, l3 } = await fullMap();
    await api('PUT', `/maps/${map.id}`, alice.headers, { owners: [alice.id, bob.id] });
    const aliceSet = await createSet(alice.workspaceId);

    const sentBack = await api('PUT', `/maps/${map.id}`, bob.headers, {
      title: 'Bob was here',
      sets: [s2, s1],
      locations: [l1, l3],
      workspaces: map.workspaces,
    });
    expect(sentBack.statusCode).toBe(200);
    expect(await storedLinks(map.id)).toMatchObject({
      sets: [s1, s2],
      locations: [l1, l3],
      workspaces: map.workspaces,
    });

    const added = await api('PUT', `/maps/${map.id}`, bob.headers, { sets: [s1, aliceSet] });
    expect(added.statusCode).toBe(400);
    expect(added.json().errors).toEqual({
      sets: [`These sets do not exist or are not in a workspace you are a member of: ${aliceSet}.`],
    });
  });

  it('answers the same 404 for a missing map and for a map of another user, changing nothing', async () => {
    const alice = await member();
    const bob = await member();
    const bobs = await createMap(bob, { title: 'Bob only' });
    for (const id of [MISSING_ID, bobs.id]) {
      const res = await api('PUT', `/maps/${id}`, alice.headers, { title: 'Mine now', owners: [alice.id] });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    expect((await storedMap(bobs.id))!.title).toBe('Bob only');
    expect((await storedLinks(bobs.id)).owners).toEqual([bob.id]);
  });

  it('serializes concurrent updates of one map', async () => {
    const { alice, map, s1, s2, l1, l2, l3 } = await fullMap();
    const bodies = [
      { sets: [s1], locations: [l1, l2] },
      { sets: [s1, s2], locations: [l2, l3] },
      { sets: [s2], locations: [l1, l2, l3] },
      { sets: [s1, s2], locations: [l1] },
    ];
    const results = await Promise.all(
      bodies.map((body) => api('PUT', `/maps/${map.id}`, alice.headers, body)),
    );
    expect(results.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    const { sets, locations } = await storedLinks(map.id);
    expect(bodies).toContainEqual({ sets, locations });
  });
});

describe('DELETE /api/maps/:id', () => {
  it('deletes the map and its links, and nothing it linked to', async () => {
    const { alice, s1, l1, otherWorkspaceId } = await world();
    const bob = await colleagueOf(alice);
    const map = await createMap(alice, {
      sets: [s1],
      locations: [l1],
      workspaces: [otherWorkspaceId],
      owners: [alice.id, bob.id],
    });
    const res = await api('DELETE', `/maps/${map.id}`, alice.headers);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await storedMap(map.id)).toBeUndefined();
    expect(await storedLinks(map.id)).toEqual({ owners: [], workspaces: [], sets: [], locations: [] });
    expect(await ctx.deps.db.select().from(setsTable).where(eq(setsTable.id, s1))).toHaveLength(1);
    expect(await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.id, l1))).toHaveLength(1);
    expect(
      await ctx.deps.db.select().from(workspacesTable).where(eq(workspacesTable.id, otherWorkspaceId)),
    ).toHaveLength(1);
    expect((await api('GET', `/maps/${map.id}`, bob.headers)).json()).toEqual(NOT_FOUND);
    expect((await api('DELETE', `/maps/${map.id}`, alice.headers)).json()).toEqual(NOT_FOUND);
  });

  it('leaves a finder whose backing map it was alive, with map_id null', async () => {
    const alice = await member();
    const map = await createMap(alice, { title: 'Finder map' });
    const [finder] = await ctx.deps.db
      .insert(findersTable)
      .values({
        workspaceId: alice.workspaceId,
        name: 'Finder map',
        token: randomBytes(32).toString('base64url'),
        mapId: map.id,
      })
      .returning();
    expect((await api('DELETE', `/maps/${map.id}`, alice.headers)).statusCode).toBe(204);
    const [after] = await ctx.deps.db.select().from(findersTable).where(eq(findersTable.id, finder!.id));
    expect(after).toMatchObject({ id: finder!.id, name: 'Finder map', mapId: null });
  });

  it('answers the same 404 for a missing map and for a map of another user, deleting nothing', async () => {
    const alice = await member();
    const bob = await member();
    const bobs = await createMap(bob);
    for (const id of [MISSING_ID, bobs.id]) {
      const res = await api('DELETE', `/maps/${id}`, alice.headers);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    expect(await storedMap(bobs.id)).toBeDefined();
    expect((await storedLinks(bobs.id)).owners).toEqual([bob.id]);
  });
});
