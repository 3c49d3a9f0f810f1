// POST /locations/bulk through HTTP: each action's effect on the rows (and only on the rows
// named or selected), the filter selecting what GET /locations lists, the bad inputs (422) and
// the references out of reach (404), each answered with nothing changed; a failure half-way
// through the action's statement changing nothing; two changes over the same locations at once
// waiting for each other; and the side effects of a single edit (the payload cache told once,
// the audit row, deleted images) for the whole request.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLogsTable } from '../src/modules/audit/audit.table.ts';
import { MAX_BULK_IDS, MAX_BULK_LOCATIONS } from '../src/modules/locations/bulk/locations.bulk.schemas.ts';
import { locationSetsTable, locationTagsTable } from '../src/modules/locations/locations.relations.table.ts';
import type { LocationPayload } from '../src/modules/locations/locations.schemas.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { tagsTable } from '../src/modules/tags/tags.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import type { FinderPayload } from '../src/widget/types.ts';
import { created, setOwnLocations } from './factories/finder-payloads.ts';
import { createWidgetFinder } from './factories/widget-finders.ts';
import { createCast, createWorkspace } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

let ctx: TestContext;
let owner: UserRow;
let ownerToken: string;
let memberToken: string;
let workspaceId: number;
let strangerToken: string;
let strangerWorkspaceId: number;
let adminToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ owner, ownerToken, memberToken, workspaceId, strangerToken, strangerWorkspaceId, adminToken } =
    await createCast(ctx.deps));
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);
const bulk = (body: Record<string, unknown>, token = ownerToken, prefix = '') =>
  call('POST', `${prefix}/locations/bulk`, token, body);

/** A fresh workspace of the owner (or of `token`'s user in `inWorkspace`) with these locations, through the API. */
async function locationsIn(inWorkspace: number, titles: string[], token = ownerToken): Promise<number[]> {
  const ids: number[] = [];
  for (const title of titles) {
    ids.push((await created(call('POST', '/locations', token, { workspace_id: inWorkspace, title }))).id);
  }
  return ids;
}

async function freshWorkspace(titles: string[]) {
  const id = await createWorkspace(ctx.deps, owner, 'Bulk');
  return { workspaceId: id, ids: await locationsIn(id, titles) };
}

const tagIn = async (inWorkspace: number, name: string, token = ownerToken) =>
  (await created(call('POST', '/tags', token, { workspace_id: inWorkspace, name }))).id;
const setIn = async (inWorkspace: number, name: string, token = ownerToken) =>
  (await created(call('POST', '/sets', token, { workspace_id: inWorkspace, name }))).id;

/** Everything a bulk change could have touched, to compare before and after a refused one. */
async function snapshot() {
  const db = ctx.deps.db;
  return {
    locations: await db
      .select({ id: locationsTable.id, updatedAt: locationsTable.updatedAt })
      .from(locationsTable)
      .orderBy(locationsTable.id),
    tags: await db
      .select()
      .from(locationTagsTable)
      .orderBy(locationTagsTable.locationId, locationTagsTable.tagId),
    sets: await db
      .select()
      .from(locationSetsTable)
      .orderBy(locationSetsTable.locationId, locationSetsTable.setId),
  };
}

const tagged = async (tagId: number) =>
  (await ctx.deps.db.select().from(locationTagsTable).where(eq(locationTagsTable.tagId, tagId)))
    .map((row) => row.locationId)
    .sort((a, b) => a - b);
const inSet = async (setId: number) =>
  (await ctx.deps.db.select().from(locationSetsTable).where(eq(locationSetsTable.setId, setId)))
    .map((row) => row.locationId)
    .sort((a, b) => a - b);
const existing = async (ids: number[]) =>
  (
    await ctx.deps.db
      .select({ id: locationsTable.id })
      .from(locationsTable)
      .where(inArray(locationsTable.id, ids))
  )
    .map((row) => row.id)
    .sort((a, b) => a - b);
const updatedAt = async (id: number) =>
  (await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.id, id)))[0]!.updatedAt.getTime();

describe('POST /api/locations/bulk: the actions', () => {
  it('deletes the named locations and only them, their links with them', async () => {
    const { workspaceId: ws, ids } = await freshWorkspace(['a', 'b', 'c', 'd']);
    const tag = await tagIn(ws, 'Kept tag');
    await bulk({ workspace_id: ws, action: 'add_tag', tag_id: tag, ids });
    const res = await bulk({ workspace_id: ws, action: 'delete', ids: [ids[0], ids[2], ids[0]] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ action: 'delete', affected: 2 });
    expect(await existing(ids)).toEqual([ids[1], ids[3]]);
    expect(await tagged(tag)).toEqual([ids[1], ids[3]]);
    const tags = await ctx.deps.db.select().from(tagsTable).where(eq(tagsTable.id, tag));
    expect(tags).toHaveLength(1);
  });

  it('adds a tag: affected counts the locations that did not have it, and only they get a new updated_at', async () => {
    const { workspaceId: ws, ids } = await freshWorkspace(['a', 'b', 'c']);
    const tag = await tagIn(ws, 'Open late');
    await call('PUT', `/locations/${ids[0]}`, ownerToken, { tags: ['Open late'] });
    const before = await Promise.all(ids.map(updatedAt));
    const res = await bulk({ workspace_id: ws, action: 'add_tag', tag_id: tag, ids });
    expect(res.json()).toEqual({ action: 'add_tag', affected: 2 });
    expect(await tagged(tag)).toEqual([...ids].sort((a, b) => a - b));
    const after = await Promise.all(ids.map(updatedAt));
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBeGreaterThan(before[1]!);
    expect(after[2]).toBeGreaterThan(before[2]!);
    // The list shows it: the stored JSON of the changed rows is current.
    const listed = (
      await call('GET', `/locations?workspace_id=${ws}`, ownerToken)
    ).json() as LocationPayload[];
    expect(listed.map((location) => location.tags.map((t) => t.name))).toEqual([
      ['Open late'],
      ['Open late'],
      ['Open late'],
    ]);
    expect(listed[1]!.updated_at).toBe(new Date(after[1]!).toISOString());
  });

  it('removes a tag from those that have it', async () => {
    const { workspaceId: ws, ids } = await freshWorkspace(['a', 'b', 'c']);
    const tag = await tagIn(ws, 'Seasonal');
    await bulk({ workspace_id: ws, action: 'add_tag', tag_id: tag, ids: [ids[0], ids[1]] });
    const res = await bulk({ workspace_id: ws, action: 'remove_tag', tag_id: tag, ids });
    expect(res.json()).toEqual({ action: 'remove_tag', affected: 2 });
    expect(await tagged(tag)).toEqual([]);
  });

  it('adds to a set and takes out of it', async () => {
    const { workspaceId: ws, ids } = await freshWorkspace(['a', 'b', 'c']);
    const set = await setIn(ws, 'Flagships');
    const other = await setIn(ws, 'Others');
    await bulk({ workspace_id: ws, action: 'add_set', set_id: other, ids });
    const added = await bulk({ workspace_id: ws, action: 'add_set', set_id: set, ids: [ids[1], ids[2]] });
    expect(added.json()).toEqual({ action: 'add_set', affected: 2 });
    expect(await inSet(set)).toEqual([ids[1], ids[2]]);
    const again = await bulk({ workspace_id: ws, action: 'add_set', set_id: set, ids: [ids[1], ids[2]] });
    expect(again.json()).toEqual({ action: 'add_set', affected: 0 });
    const removed = await bulk({ workspace_id: ws, action: 'remove_set', set_id: set, ids });
    expect(removed.json()).toEqual({ action: 'remove_set', affected: 2 });
    expect(await inSet(set)).toEqual([]);
    expect(await inSet(other)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('selects by filter exactly what GET /locations?workspace_id&q&finder_id lists', async () => {
    const { workspaceId: ws, ids } = await freshWorkspace([
      'Harbour one',
      'Inland one',
      'harbour two',
      'Harbour three',
      'Inland two',
    ]);
    const finder = await createWidgetFinder(ctx.deps, ws);
    await setOwnLocations(ctx.deps, finder.id, [ids[0]!, ids[1]!, ids[2]!]);
    const listed = (
      (
        await call('GET', `/locations?workspace_id=${ws}&q=HARBOUR&finder_id=${finder.id}`, ownerToken)
      ).json() as LocationPayload[]
    ).map((location) => location.id);
    expect(listed).toEqual([ids[0], ids[2]]);
    const tag = await tagIn(ws, 'Coast');
    const res = await bulk({
      workspace_id: ws,
      action: 'add_tag',
      tag_id: tag,
      filter: { q: ' HARBOUR ', finder_id: finder.id },
    });
    expect(res.json()).toEqual({ action: 'add_tag', affected: 2 });
    expect(await tagged(tag)).toEqual(listed);

    const all = await bulk({ workspace_id: ws, action: 'remove_tag', tag_id: tag, filter: {} });
    expect(all.json()).toEqual({ action: 'remove_tag', affected: 2 });
    const wholeWorkspace = await bulk({ workspace_id: ws, action: 'delete', filter: { q: '' } });
    expect(wholeWorkspace.json()).toEqual({ action: 'delete', affected: 5 });
    expect(await existing(ids)).toEqual([]);
  });

  it('lets a member of the workspace change it, and an admin any workspace through /admin', async () => {
    const ids = await locationsIn(workspaceId, ['Member 1', 'Member 2']);
    const tag = await tagIn(workspaceId, 'By member');
    const byMember = await bulk(
      { workspace_id: workspaceId, action: 'add_tag', tag_id: tag, ids },
      memberToken,
    );
    expect(byMember.json()).toEqual({ action: 'add_tag', affected: 2 });
    const strangerIds = await locationsIn(strangerWorkspaceId, ['Theirs'], strangerToken);
    const byAdmin = await bulk(
      { workspace_id: strangerWorkspaceId, action: 'delete', ids: strangerIds },
      adminToken,
      '/admin',
    );
    expect(byAdmin.json()).toEqual({ action: 'delete', affected: 1 });
    // The member route is the member's: an admin acting there is a member like any other.
    const notMember = await bulk({ workspace_id: strangerWorkspaceId, action: 'delete', ids }, adminToken);
    expect(notMember.statusCode).toBe(404);
  });
});

describe('POST /api/locations/bulk: refused requests change nothing', () => {
  let ids: number[];
  let tag: number;
  beforeAll(async () => {
    ids = await locationsIn(workspaceId, ['Refused 1', 'Refused 2']);
    tag = await tagIn(workspaceId, 'Refused tag');
  });

  it.each([
    ['no action', { ids: [1] }, { action: ['The action field is required.'] }],
    [
      'an unknown action',
      { action: 'archive', ids: [1] },
      { action: ['The action must be one of: delete, add_tag, remove_tag, add_set, remove_set.'] },
    ],
    [
      'neither ids nor filter',
      { action: 'delete' },
      { ids: ['The ids field is required when filter is not present.'] },
    ],
    [
      'both ids and filter',
      { action: 'delete', ids: [1], filter: {} },
      { filter: ['The filter may not be given with ids.'] },
    ],
    ['empty ids', { action: 'delete', ids: [] }, { ids: ['The ids may not be empty.'] }],
    [
      'ids that are not a list',
      { action: 'delete', ids: '1,2' },
      { ids: ['The ids must be an array of ids.'] },
    ],
    [
      'an id that is not one',
      { action: 'delete', ids: [1, 'x'] },
      { 'ids.1': ['The id field is required.'] },
    ],
    [
      `more than ${MAX_BULK_IDS} ids`,
      { action: 'delete', ids: Array.from({ length: MAX_BULK_IDS + 1 }, (_, i) => i + 1) },
      { ids: [`The ids may not have more than ${MAX_BULK_IDS} items.`] },
    ],
    [
      'add_tag without tag_id',
      { action: 'add_tag', ids: [1] },
      { tag_id: ['The tag id field is required for add_tag.'] },
    ],
    [
      'remove_set without set_id',
      { action: 'remove_set', ids: [1] },
      { set_id: ['The set id field is required for remove_set.'] },
    ],
    [
      'a tag_id given to delete',
      { action: 'delete', ids: [1], tag_id: 1 },
      { tag_id: ['The tag id is only taken by add_tag and remove_tag.'] },
    ],
    [
      'a set_id given to add_tag',
      { action: 'add_tag', ids: [1], tag_id: 1, set_id: 1 },
      { set_id: ['The set id is only taken by add_set and remove_set.'] },
    ],
    [
      'a filter that is not an object',
      { action: 'delete', filter: 'all' },
      { filter: ['The filter must be an object.'] },
    ],
    [
      'a filter.q over 200 characters',
      { action: 'delete', filter: { q: 'x'.repeat(201) } },
      { 'filter.q': ['The q may not be greater than 200 characters.'] },
    ],
    [
      'a control character in filter.q',
      { action: 'delete', filter: { q: 'a\u001fb' } },
      { 'filter.q': ['The q may not contain control characters.'] },
    ],
    [
      'no workspace_id',
      { workspace_id: undefined, action: 'delete', ids: [1] },
      { workspace_id: ['The workspace id field is required.'] },
    ],
  ])('refuses %s with 422, naming the field', async (_case, body, errors) => {
    const before = await snapshot();
    // A real id of the workspace where the case names `[1]`, and no workspace_id where it leaves it out.
    const named = JSON.parse(JSON.stringify(body).replaceAll('[1]', JSON.stringify([ids[0]])));
    const payload: Record<string, unknown> = { workspace_id: workspaceId, ...named };
    for (const [key, value] of Object.entries(body)) if (value === undefined) delete payload[key];
    const res = await bulk(payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ message: 'The given data was invalid.', code: 'validation_failed', errors });
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for a tag or set out of the workspace, and for any id not of the workspace', async () => {
    const otherOwnWorkspace = await createWorkspace(ctx.deps, owner, 'Own other');
    const [ownElsewhere] = await locationsIn(otherOwnWorkspace, ['Own, elsewhere']);
    const [theirs] = await locationsIn(strangerWorkspaceId, ['Theirs'], strangerToken);
    const theirTag = await tagIn(strangerWorkspaceId, 'Their tag', strangerToken);
    const ownOtherTag = await tagIn(otherOwnWorkspace, 'Other workspace tag');
    const theirSet = await setIn(strangerWorkspaceId, 'Their set', strangerToken);
    const [gone] = await locationsIn(workspaceId, ['Deleted before']);
    await call('DELETE', `/locations/${gone}`, ownerToken);
    const strangerFinder = await createWidgetFinder(ctx.deps, strangerWorkspaceId);
    const cases: [Record<string, unknown>, string][] = [
      [{ action: 'add_tag', tag_id: theirTag, ids }, 'Tag not found.'],
      [{ action: 'add_tag', tag_id: ownOtherTag, ids }, 'Tag not found.'],
      [{ action: 'remove_tag', tag_id: 2_147_483_647, ids }, 'Tag not found.'],
      [{ action: 'add_set', set_id: theirSet, ids }, 'Set not found.'],
      [{ action: 'delete', ids: [...ids, theirs] }, 'Location not found.'],
      [{ action: 'add_tag', tag_id: tag, ids: [theirs, ...ids] }, 'Location not found.'],
      [{ action: 'delete', ids: [...ids, ownElsewhere] }, 'Location not found.'],
      [{ action: 'delete', ids: [...ids, gone] }, 'Location not found.'],
      [{ action: 'delete', filter: { finder_id: strangerFinder.id } }, 'Finder not found.'],
      [{ action: 'delete', workspace_id: strangerWorkspaceId, ids: [theirs] }, 'Workspace not found.'],
      [{ action: 'delete', workspace_id: strangerWorkspaceId, filter: {} }, 'Workspace not found.'],
    ];
    for (const [body, message] of cases) {
      const before = await snapshot();
      const res = await bulk({ workspace_id: workspaceId, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(404);
      expect(res.json()).toEqual({ message, code: 'not_found' });
      expect(await snapshot(), JSON.stringify(body)).toEqual(before);
    }
    expect(await existing([...ids, theirs!, ownElsewhere!])).toEqual(
      [...ids, theirs!, ownElsewhere!].sort((a, b) => a - b),
    );
  });

  it('answers 401 without a token', async () => {
    const res = await bulk({ workspace_id: workspaceId, action: 'delete', ids }, '');
    expect(res.statusCode).toBe(401);
    expect(await existing(ids)).toEqual(ids);
  });

  // Seeding and locking 100,001 locations takes seconds, more on a loaded machine.
  it(`refuses a filter selecting more than ${MAX_BULK_LOCATIONS} locations, changing none`, {
    timeout: 120_000,
  }, async () => {
    const ws = await createWorkspace(ctx.deps, owner, 'Too many');
    await ctx.deps.db.execute(sql`insert into locations (workspace_id, title)
      select ${ws}, 'Many ' || g from generate_series(1, ${MAX_BULK_LOCATIONS + 1}) g`);
    const res = await bulk({ workspace_id: ws, action: 'delete', filter: { q: 'many' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: {
        filter: [
          `The filter selects more than ${MAX_BULK_LOCATIONS} locations; at most ${MAX_BULK_LOCATIONS} may be changed at once.`,
        ],
      },
    });
    const [row] = await ctx.deps.db.execute<{ n: number }>(
      sql`select count(*)::int as n from locations where workspace_id = ${ws}`,
    );
    expect(row!.n).toBe(MAX_BULK_LOCATIONS + 1);
    // A narrower filter is within the bound: Many 10000, Many 100000 and Many 100001.
    const narrower = await bulk({ workspace_id: ws, action: 'delete', filter: { q: 'many 10000' } });
    expect(narrower.json()).toEqual({ action: 'delete', affected: 3 });
  });
});

describe('POST /api/locations/bulk: one transaction', () => {
  it('leaves everything as it was when its statement fails half-way', async () => {
    const { workspaceId: ws, ids } = await freshWorkspace(['a', 'b', 'c', 'd']);
    const tag = await tagIn(ws, 'Never');
    // The last location refuses to be updated: the links are inserted, then the update of
    // updated_at fails on the last row, so the statement fails after writing most of it.
    const refused = ids.at(-1)!;
    await ctx.deps.db.execute(
      sql.raw(`
      create function refuse_bulk() returns trigger language plpgsql as $$
        begin raise exception 'refused for the test'; end $$;
      create trigger refuse_bulk before update or delete on locations
        for each row when (old.id = ${refused}) execute function refuse_bulk();`),
    );
    const changes = vi.spyOn(ctx.deps.services.finderChanges, 'workspaceChanged');
    try {
      const before = await snapshot();
      for (const body of [
        { action: 'add_tag', tag_id: tag, ids },
        { action: 'delete', filter: {} },
      ]) {
        const res = await bulk({ workspace_id: ws, ...body });
        expect(res.statusCode).toBe(500);
        expect(await snapshot()).toEqual(before);
      }
      expect(await tagged(tag)).toEqual([]);
      expect(changes).not.toHaveBeenCalled();
    } finally {
      changes.mockRestore();
      await ctx.deps.db.execute(
        sql.raw('drop trigger refuse_bulk on locations; drop function refuse_bulk();'),
      );
    }
    const res = await bulk({ workspace_id: ws, action: 'add_tag', tag_id: tag, ids });
    expect(res.json()).toEqual({ action: 'add_tag', affected: 4 });
  });
});

describe('POST /api/locations/bulk: two at once', () => {
  it('a second change over the same locations waits for the first instead of colliding with it', async () => {
    const { workspaceId: ws, ids } = await freshWorkspace(Array.from({ length: 40 }, (_, i) => `Race ${i}`));
    const tag = await tagIn(ws, 'Raced');
    for (let round = 0; round < 3; round++) {
      const [first, second] = await Promise.all([
        bulk({ workspace_id: ws, action: round % 2 ? 'remove_tag' : 'add_tag', tag_id: tag, ids }),
        bulk({ workspace_id: ws, action: round % 2 ? 'remove_tag' : 'add_tag', tag_id: tag, filter: {} }),
      ]);
      expect([first.statusCode, second.statusCode], `${first.body} ${second.body}`).toEqual([200, 200]);
      // Each location changed once, by whichever came first.
      expect(first.json().affected + second.json().affected).toBe(ids.length);
    }
    const [deleting, deletingToo] = await Promise.all([
      bulk({ workspace_id: ws, action: 'delete', ids }),
      bulk({ workspace_id: ws, action: 'delete', ids: ids.slice(10) }),
    ]);
    // The one that waited finds its locations gone: 404, as for any id not of the workspace.
    expect([deleting.statusCode, deletingToo.statusCode].sort()).toEqual([200, 404]);
    expect(await existing(ids)).toEqual(deleting.statusCode === 200 ? [] : ids.slice(0, 10));
  });
});

describe('POST /api/locations/bulk: side effects, once per request', () => {
  const SITE = 'https://shop.example';

  async function payloadOf(token: string): Promise<FinderPayload> {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/ext/finders/details/${token}`,
      headers: { origin: SITE },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as FinderPayload;
  }

  it('tells the payload cache once, so a cached widget payload shows the change at once', async () => {
    const { workspaceId: ws, ids } = await freshWorkspace(Array.from({ length: 12 }, (_, i) => `Shop ${i}`));
    const finder = await createWidgetFinder(ctx.deps, ws, { authorizedUrls: [SITE] });
    await setOwnLocations(ctx.deps, finder.id, ids);
    const tag = await tagIn(ws, 'Sale');
    expect((await payloadOf(finder.token)).locations.some((l) => l.tags.includes('sale'))).toBe(false);

    const changes = vi.spyOn(ctx.deps.services.finderChanges, 'workspaceChanged');
    try {
      const res = await bulk({ workspace_id: ws, action: 'add_tag', tag_id: tag, ids });
      expect(res.json()).toEqual({ action: 'add_tag', affected: 12 });
      expect(changes.mock.calls).toEqual([[ws]]);
      expect((await payloadOf(finder.token)).locations.every((l) => l.tags.includes('sale'))).toBe(true);

      changes.mockClear();
      const deleted = await bulk({ workspace_id: ws, action: 'delete', ids: ids.slice(0, 5) });
      expect(deleted.json()).toEqual({ action: 'delete', affected: 5 });
      expect(changes.mock.calls).toEqual([[ws]]);
      expect((await payloadOf(finder.token)).locations.map((l) => l.id)).toEqual(ids.slice(5));

      // Nothing changed, nothing told.
      const empty = await setIn(ws, 'Empty');
      changes.mockClear();
      const none = await bulk({
        workspace_id: ws,
        action: 'remove_set',
        set_id: empty,
        filter: {},
      });
      expect(none.json()).toEqual({ action: 'remove_set', affected: 0 });
      expect(changes).not.toHaveBeenCalled();
    } finally {
      changes.mockRestore();
    }
  });

  it('leaves one audit row for the request, with its answer', async () => {
    const { workspaceId: ws, ids } = await freshWorkspace(['a', 'b', 'c']);
    const audited = () =>
      ctx.deps.db
        .select()
        .from(auditLogsTable)
        .where(and(eq(auditLogsTable.userId, owner.id), eq(auditLogsTable.path, '/api/locations/bulk')))
        .orderBy(auditLogsTable.id);
    const before = (await audited()).length;
    await bulk({ workspace_id: ws, action: 'delete', ids });
    await bulk({ workspace_id: ws, action: 'delete', ids });
    const rows = await audited();
    expect(rows).toHaveLength(before + 2);
    expect(rows.slice(-2).map((row) => [row.method, row.route, row.status])).toEqual([
      ['POST', '/api/locations/bulk', 200],
      ['POST', '/api/locations/bulk', 404],
    ]);
  });

  it('deletes the stored images of the locations it deletes', async () => {
    const { workspaceId: ws, ids } = await freshWorkspace(['With image', 'Also with image', 'Kept']);
    const storedFiles = (id: number) => {
      const dir = path.join(ctx.config.storage.dir, 'workspaces', String(ws), 'locations', String(id));
      return existsSync(dir) ? readdirSync(dir).filter((name) => !name.startsWith('.')) : [];
    };
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
      Buffer.alloc(52, 9),
    ]);
    for (const id of ids) {
      const form = multipart({
        files: [{ field: 'image', filename: 'p.png', contentType: 'image/png', content: png }],
      });
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/locations/${id}/image`,
        headers: { authorization: `Bearer ${ownerToken}`, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(storedFiles(id)).toHaveLength(1);
    }
    const res = await bulk({ workspace_id: ws, action: 'delete', ids: ids.slice(0, 2) });
    expect(res.json()).toEqual({ action: 'delete', affected: 2 });
    expect(storedFiles(ids[0]!)).toEqual([]);
    expect(storedFiles(ids[1]!)).toEqual([]);
    expect(storedFiles(ids[2]!)).toHaveLength(1);
  });
});
