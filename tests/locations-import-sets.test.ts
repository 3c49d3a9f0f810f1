// The CSV import's `sets` column through HTTP (docs/api.md, CSV import): sets named by the rows
// created in the workspace when missing and the rows' memberships made exactly those named; a
// re-import replacing them, an empty cell clearing them, an absent column leaving them; bad
// names as row errors that write nothing; another workspace's sets out of reach; a cached
// widget payload showing the change at once (a finder's own list, and a rule on a set); and a
// file of thousands of rows sharing a few sets.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { locationSetsTable } from '../src/modules/locations/locations.relations.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { setsTable } from '../src/modules/sets/sets.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import type { FinderPayload } from '../src/widget/types.ts';
import { setOwnLocations } from './factories/finder-payloads.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createWidgetFinder } from './factories/widget-finders.ts';
import { createWorkspace } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

let ctx: TestContext;
let owner: UserRow;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await createUser(ctx.deps);
  token = await tokenFor(ctx.deps, owner);
});
afterAll(async () => {
  await ctx?.close();
});

const newWorkspace = () => createWorkspace(ctx.deps, owner, 'Sets import');

const upload = (workspaceId: number, csv: string) => {
  const body = multipart({
    fields: { workspace_id: String(workspaceId) },
    files: [{ field: 'file', filename: 'locations.csv', contentType: 'text/csv', content: Buffer.from(csv) }],
  });
  return ctx.app.inject({
    method: 'POST',
    url: '/api/locations/import',
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
};

const setsOf = (workspaceId: number) =>
  ctx.deps.db
    .select({ id: setsTable.id, name: setsTable.name })
    .from(setsTable)
    .where(eq(setsTable.workspaceId, workspaceId))
    .orderBy(asc(setsTable.id));

/** external_id -> the names of the location's sets, sorted. */
async function membershipsOf(workspaceId: number): Promise<Record<string, string[]>> {
  const locations = await ctx.deps.db
    .select({ id: locationsTable.id, externalId: locationsTable.externalId })
    .from(locationsTable)
    .where(eq(locationsTable.workspaceId, workspaceId));
  const links = await ctx.deps.db
    .select({ locationId: locationSetsTable.locationId, name: setsTable.name })
    .from(locationSetsTable)
    .innerJoin(setsTable, eq(setsTable.id, locationSetsTable.setId))
    .where(
      inArray(
        locationSetsTable.locationId,
        locations.map((location) => location.id),
      ),
    );
  const byId = new Map(locations.map((location) => [location.id, [] as string[]]));
  for (const link of links) byId.get(link.locationId)!.push(link.name);
  return Object.fromEntries(
    locations.map((location) => [location.externalId!, byId.get(location.id)!.sort()]),
  );
}

const updatedAtOf = async (workspaceId: number, externalId: string) => {
  const [row] = await ctx.deps.db
    .select({ updatedAt: locationsTable.updatedAt })
    .from(locationsTable)
    .where(and(eq(locationsTable.workspaceId, workspaceId), eq(locationsTable.externalId, externalId)));
  return row!.updatedAt.getTime();
};

describe('CSV import: the sets column', () => {
  it('creates the missing sets under their first spelling and makes the memberships those named', async () => {
    const ws = await newWorkspace();
    const [existing] = await ctx.deps.db
      .insert(setsTable)
      .values({ workspaceId: ws, name: 'Outlets' })
      .returning();
    const res = await upload(
      ws,
      [
        'external_id,title,address,sets',
        'A,Alpha,1 First St, Flagship | outlets |flagship',
        'B,Beta,2 Second St,OUTLETS|Airport',
        'C,Gamma,3 Third St,',
      ].join('\n'),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 3, updated: 0, skipped: 0, errors: [] });
    // The existing set keeps its name and id; new ones take the file's first spelling, in file order.
    expect(await setsOf(ws)).toEqual([
      { id: existing!.id, name: 'Outlets' },
      { id: expect.any(Number), name: 'Flagship' },
      { id: expect.any(Number), name: 'Airport' },
    ]);
    expect(await membershipsOf(ws)).toEqual({
      A: ['Flagship', 'Outlets'],
      B: ['Airport', 'Outlets'],
      C: [],
    });
  });

  it('replaces memberships on a re-import, clears them on an empty cell and leaves them without the column', async () => {
    const ws = await newWorkspace();
    const first = await upload(
      ws,
      [
        'external_id,title,address,sets',
        'A,Alpha,1 First St,Red|Green',
        'B,Beta,2 Second St,Red',
        'C,Gamma,3 Third St,Blue',
      ].join('\n'),
    );
    expect(first.json()).toMatchObject({ created: 3, errors: [] });
    const greenBefore = await updatedAtOf(ws, 'B');

    const second = await upload(
      ws,
      [
        'external_id,title,address,sets',
        'A,Alpha,1 First St,green|Yellow',
        'B,Beta,2 Second St,Red|Green',
        'C,Gamma,3 Third St,',
      ].join('\n'),
    );
    expect(second.json()).toMatchObject({ created: 0, updated: 3, skipped: 0, errors: [] });
    expect(await membershipsOf(ws)).toEqual({ A: ['Green', 'Yellow'], B: ['Green', 'Red'], C: [] });
    // Only a membership changed: the location takes a new updated_at, as a PUT of its sets gives it.
    expect(await updatedAtOf(ws, 'B')).toBeGreaterThan(greenBefore);
    // Sets left without locations stay.
    expect((await setsOf(ws)).map((set) => set.name)).toEqual(['Red', 'Green', 'Blue', 'Yellow']);

    const third = await upload(
      ws,
      ['external_id,title,address,city', 'A,Alpha,1 First St,Rome', 'C,Gamma,3 Third St,Oslo'].join('\n'),
    );
    expect(third.json()).toMatchObject({ updated: 2, errors: [] });
    expect(await membershipsOf(ws)).toEqual({ A: ['Green', 'Yellow'], B: ['Green', 'Red'], C: [] });

    // The same memberships (other spellings) and values again: nothing is rewritten.
    const before = await updatedAtOf(ws, 'A');
    const fourth = await upload(
      ws,
      ['external_id,title,address,city,sets', 'A,Alpha,1 First St,Rome,Yellow|GREEN'].join('\n'),
    );
    expect(fourth.json()).toMatchObject({ updated: 1, errors: [] });
    expect(await updatedAtOf(ws, 'A')).toBe(before);
    expect(await membershipsOf(ws)).toEqual({ A: ['Green', 'Yellow'], B: ['Green', 'Red'], C: [] });
  });

  it('reports bad names as row errors and writes nothing for those rows', async () => {
    const ws = await newWorkspace();
    const long = 'x'.repeat(256);
    const res = await upload(
      ws,
      [
        'external_id,title,address,sets',
        `A,Alpha,1 First St,Fine|${long}`,
        `B,Beta,2 Second St,${'y'.repeat(255)}|Kept`,
      ].join('\n'),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      created: 1,
      skipped: 1,
      errors: [{ row: 2, field: 'sets', message: 'The name may not be greater than 255 characters.' }],
    });
    // Neither the bad row's location nor its valid set name was written.
    expect((await setsOf(ws)).map((set) => set.name)).toEqual(['y'.repeat(255), 'Kept']);
    expect(Object.keys(await membershipsOf(ws))).toEqual(['B']);
  });

  it('drops blank names between bars: a cell of bars and spaces names no set and clears the row’s', async () => {
    const ws = await newWorkspace();
    const res = await upload(
      ws,
      [
        'external_id,title,address,sets',
        'A,Alpha,1 First St,| Outlets ||  |Malls|',
        'B,Beta,2 Second St,Outlets',
      ].join('\n'),
    );
    expect(res.json()).toMatchObject({ created: 2, errors: [] });
    expect((await setsOf(ws)).map((set) => set.name)).toEqual(['Outlets', 'Malls']);
    expect(await membershipsOf(ws)).toEqual({ A: ['Malls', 'Outlets'], B: ['Outlets'] });
    const again = await upload(
      ws,
      ['external_id,title,address,sets', 'A,Alpha,1 First St,Malls', 'B,Beta,2 Second St, | | '].join('\n'),
    );
    expect(again.json()).toMatchObject({ updated: 2, errors: [] });
    expect(await membershipsOf(ws)).toEqual({ A: ['Malls'], B: [] });
  });

  it('neither reads nor touches a set of the same name in another workspace', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const [theirs] = await ctx.deps.db
      .insert(setsTable)
      .values({ workspaceId: other, name: 'Shared' })
      .returning();
    const res = await upload(ws, ['external_id,title,address,sets', 'A,Alpha,1 First St,shared'].join('\n'));
    expect(res.json()).toMatchObject({ created: 1, errors: [] });
    const ours = await setsOf(ws);
    expect(ours.map((set) => set.name)).toEqual(['shared']);
    expect(ours[0]!.id).not.toBe(theirs!.id);
    expect(await setsOf(other)).toEqual([{ id: theirs!.id, name: 'Shared' }]);
    expect(
      await ctx.deps.db.select().from(locationSetsTable).where(eq(locationSetsTable.setId, theirs!.id)),
    ).toEqual([]);
  });

  it('tells the payload cache, so a cached widget payload shows the new memberships at once', async () => {
    const SITE = 'https://shop.example';
    const ws = await newWorkspace();
    await upload(ws, ['external_id,title,address', 'A,Alpha,1 First St'].join('\n'));
    const [location] = await ctx.deps.db
      .select({ id: locationsTable.id })
      .from(locationsTable)
      .where(eq(locationsTable.workspaceId, ws));
    const finder = await createWidgetFinder(ctx.deps, ws, { authorizedUrls: [SITE] });
    await setOwnLocations(ctx.deps, finder.id, [location!.id]);
    const payloadOf = async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/ext/finders/details/${finder.token}`,
        headers: { origin: SITE },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as FinderPayload;
    };
    expect((await payloadOf()).locations[0]!.sets).toEqual([]);

    const changes = vi.spyOn(ctx.deps.services.finderChanges, 'workspaceChanged');
    try {
      const res = await upload(
        ws,
        ['external_id,title,address,sets', 'A,Alpha,1 First St,Flagship'].join('\n'),
      );
      expect(res.json()).toMatchObject({ updated: 1, errors: [] });
      expect(changes.mock.calls).toEqual([[ws]]);
    } finally {
      changes.mockRestore();
    }
    const payload = await payloadOf();
    const flagship = payload.sets.find((set) => set.name === 'Flagship');
    expect(flagship).toBeDefined();
    expect(payload.locations[0]!.sets).toEqual([flagship!.id]);
  });

  it('tells the payload cache, so a rule finder on a set shows the locations the import moves in and out of it at once', async () => {
    const ws = await newWorkspace();
    // The first import creates the set; the finder is defined by a rule on it, not by a list.
    const first = await upload(
      ws,
      ['external_id,title,address,sets', 'A,Alpha,1 First St,Flagship', 'B,Beta,2 Second St,'].join('\n'),
    );
    expect(first.json()).toMatchObject({ created: 2, errors: [] });
    const [flagship] = await setsOf(ws);
    expect(flagship!.name).toBe('Flagship');
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/finders',
      headers: bearer(token),
      payload: { name: 'Flagships', workspace_id: ws, rule: { set_ids: [flagship!.id] } },
    });
    expect(made.statusCode, made.body).toBe(201);
    const finder = made.json() as { id: number; token: string };

    const idsOf = async () =>
      Object.fromEntries(
        (
          await ctx.deps.db
            .select({ id: locationsTable.id, externalId: locationsTable.externalId })
            .from(locationsTable)
            .where(eq(locationsTable.workspaceId, ws))
        ).map((location) => [location.externalId!, location.id]),
      );
    const listed = async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/locations?finder_id=${finder.id}`,
        headers: bearer(token),
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { id: number }[]).map((location) => location.id).sort((a, b) => a - b);
    };
    const payloadOf = async () => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/ext/finders/details/${finder.token}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as FinderPayload;
    };
    const before = await idsOf();
    expect(await listed()).toEqual([before.A]);
    // Built and cached now: an import that left the cache alone would show A alone again.
    expect((await payloadOf()).locations.map((location) => location.id)).toEqual([before.A]);

    const changes = vi.spyOn(ctx.deps.services.finderChanges, 'workspaceChanged');
    try {
      const res = await upload(
        ws,
        [
          'external_id,title,address,sets',
          'A,Alpha,1 First St,Outlets',
          'B,Beta,2 Second St,flagship',
          'C,Gamma,3 Third St,Flagship|Outlets',
          'D,Delta,4 Fourth St,Outlets',
        ].join('\n'),
      );
      expect(res.json()).toMatchObject({ created: 2, updated: 2, skipped: 0, errors: [] });
      expect(changes.mock.calls).toEqual([[ws]]);
    } finally {
      changes.mockRestore();
    }
    // A left the set, B joined it, C was created in it, D was created outside it.
    const after = await idsOf();
    const shown = [after.B!, after.C!].sort((a, b) => a - b);
    expect(await listed()).toEqual(shown);
    const payload = await payloadOf();
    expect(payload.locations.map((location) => location.id).sort((a, b) => a - b)).toEqual(shown);
    for (const location of payload.locations) expect(location.sets).toContain(flagship!.id);
  });

  it('applies a file of thousands of rows sharing a few sets', async () => {
    const ws = await newWorkspace();
    const names = ['North', 'South', 'East', 'West'];
    const rows = 2_500;
    const lines = ['external_id,title,address,sets'];
    for (let i = 0; i < rows; i++)
      lines.push(`S-${i},Store ${i},${i} Main St,${names[i % 4]}|${names[(i + 1) % 4]}`);
    const first = await upload(ws, lines.join('\n'));
    expect(first.json()).toMatchObject({ created: rows, errors: [] });
    expect((await setsOf(ws)).map((set) => set.name)).toEqual(names);

    // Again, every row moved one set on; the last rows cleared.
    const again = ['external_id,title,address,sets'];
    for (let i = 0; i < rows; i++)
      again.push(
        `S-${i},Store ${i},${i} Main St,${i >= rows - 10 ? '' : `${names[(i + 1) % 4]}|${names[(i + 2) % 4]}`}`,
      );
    const second = await upload(ws, again.join('\n'));
    expect(second.json()).toMatchObject({ updated: rows, errors: [] });
    const memberships = await membershipsOf(ws);
    expect(Object.keys(memberships)).toHaveLength(rows);
    expect(memberships['S-0']).toEqual(['East', 'South']);
    expect(memberships['S-5']).toEqual(['East', 'West']);
    expect(memberships[`S-${rows - 1}`]).toEqual([]);
    const links = await ctx.deps.db
      .select({ setId: locationSetsTable.setId })
      .from(locationSetsTable)
      .innerJoin(setsTable, eq(setsTable.id, locationSetsTable.setId))
      .where(eq(setsTable.workspaceId, ws));
    expect(links).toHaveLength((rows - 10) * 2);
  });
});
