// Finders defined by a rule (docs/api.md, Finders): `rule` on POST/PUT/GET /finders; the rule's
// matches follow location inserts, updates and deletes through GET /locations?finder_id= and the
// widget payload (whose 60 s cache every write through the API invalidates); the union with the
// finder's own list, each location once; refused input named by path with nothing written;
// deleted tags and sets leave no id behind and never widen a rule (one left unmeetable is null); the analytics' probe by id
// agrees with the full list; and 100,000 locations through the payload route, rule finders there
// following an insert, updates and a delete in the list and the cached payload.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownLocations } from '../src/modules/finders/finders.shown-locations.ts';
import { finderRuleTagsTable, findersTable } from '../src/modules/finders/finders.table.ts';
import type { FinderPayload } from '../src/widget/types.ts';
import { created } from './factories/finder-payloads.ts';
import { createCast, createWorkspace } from './factories/workspaces.ts';
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
const db = () => ctx.deps.db;

interface Rule {
  tag_ids: number[];
  set_ids: number[];
  countries: string[];
}
interface FinderJson {
  id: number;
  token: string;
  maps: number[];
  rule: Rule | null;
  locations: { location_id: number; sort_order: number }[];
  updated_at: string;
}

/** A workspace of its own for each test, so that "every location of the workspace" is known. */
async function freshWorkspace(name: string) {
  return createWorkspace(ctx.deps, cast.owner, name);
}

const tag = async (workspaceId: number, name: string, token = cast.ownerToken) =>
  (await created(call('POST', '/tags', token, { workspace_id: workspaceId, name }))).id;
const set = async (workspaceId: number, name: string, token = cast.ownerToken) =>
  (await created(call('POST', '/sets', token, { workspace_id: workspaceId, name }))).id;

async function location(
  workspaceId: number,
  title: string,
  fields: { country?: string | null; tags?: string[]; set_ids?: number[] } = {},
) {
  return (
    await created(
      call('POST', '/locations', cast.ownerToken, { workspace_id: workspaceId, title, ...fields }),
    )
  ).id;
}

async function finder(workspaceId: number, body: Record<string, unknown> = {}): Promise<FinderJson> {
  return created<FinderJson>(
    call('POST', '/finders', cast.ownerToken, { name: 'Rule finder', workspace_id: workspaceId, ...body }),
  );
}

async function put(id: number, body: Record<string, unknown>) {
  return call('PUT', `/finders/${id}`, cast.ownerToken, body);
}

/** The ids GET /locations?finder_id= lists, ascending. */
async function listed(finderId: number): Promise<number[]> {
  const res = await call('GET', `/locations?finder_id=${finderId}`, cast.ownerToken);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: number }[]).map((l) => l.id).sort((a, b) => a - b);
}

/** The ids of the widget payload, in payload order. */
async function payloadIds(token: string): Promise<number[]> {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/ext/finders/details/${token}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as FinderPayload).locations.map((l) => l.id);
}

/** Both readers agree, and show exactly `ids`. */
async function expectShown(f: FinderJson, ids: number[]) {
  const sorted = [...ids].sort((a, b) => a - b);
  expect(await listed(f.id)).toEqual(sorted);
  expect([...(await payloadIds(f.token))].sort((a, b) => a - b)).toEqual(sorted);
}

describe('the rule field', () => {
  it('is null by default, answered with all three lists, deduplicated and sorted, and removed by null', async () => {
    const ws = await freshWorkspace('Rule field');
    const [t1, t2] = [await tag(ws, 'Parking'), await tag(ws, 'Wifi')];
    const s1 = await set(ws, 'Flagships');
    const f = await finder(ws);
    expect(f.rule).toBeNull();

    const res = await put(f.id, { rule: { tag_ids: [t2, t1, t2], countries: ['fr', 'DE', 'de'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rule).toEqual({ tag_ids: [t1, t2], set_ids: [], countries: ['DE', 'FR'] });
    expect((await call('GET', `/finders/${f.id}`, cast.ownerToken)).json().rule).toEqual({
      tag_ids: [t1, t2],
      set_ids: [],
      countries: ['DE', 'FR'],
    });

    // Absent leaves it; {} is a rule matching the whole workspace; null removes it.
    expect((await put(f.id, { name: 'Renamed' })).json().rule.tag_ids).toEqual([t1, t2]);
    expect((await put(f.id, { rule: { set_ids: [s1] } })).json().rule).toEqual({
      tag_ids: [],
      set_ids: [s1],
      countries: [],
    });
    expect((await put(f.id, { rule: {} })).json().rule).toEqual({ tag_ids: [], set_ids: [], countries: [] });
    expect((await put(f.id, { rule: null })).json().rule).toBeNull();

    // POST takes it too, and the list of finders answers it.
    const posted = await finder(ws, { rule: { tag_ids: [t1] } });
    expect(posted.rule).toEqual({ tag_ids: [t1], set_ids: [], countries: [] });
    const all = (await call('GET', `/finders?workspace_id=${ws}`, cast.ownerToken)).json() as FinderJson[];
    expect(all.find((x) => x.id === posted.id)!.rule).toEqual(posted.rule);
    expect(all.find((x) => x.id === f.id)!.rule).toBeNull();
  });

  it('refuses bad input with every element named by its path, and writes nothing', async () => {
    const ws = await freshWorkspace('Bad rules');
    const mine = await tag(ws, 'Mine');
    const theirSet = await set(cast.strangerWorkspaceId, 'Theirs', cast.strangerToken);
    const otherWorkspaceTag = await tag(cast.workspaceId, 'Other workspace of mine');
    const f = await finder(ws, { rule: { tag_ids: [mine] } });
    const before = await db().select().from(findersTable).where(eq(findersTable.id, f.id));

    const cases: [unknown, Record<string, string[]>][] = [
      [
        { tag_ids: [mine, 999_999, otherWorkspaceTag], set_ids: [theirSet] },
        {
          'rule.tag_ids.1': ["The tag 999999 does not exist or is not in the finder's workspace."],
          'rule.tag_ids.2': [
            `The tag ${otherWorkspaceTag} does not exist or is not in the finder's workspace.`,
          ],
          'rule.set_ids.0': [`The set ${theirSet} does not exist or is not in the finder's workspace.`],
        },
      ],
      [
        { countries: ['DE', 'XX', 'Germany', 7] },
        {
          'rule.countries.1': ['Each country must be an ISO 3166-1 alpha-2 code (DE, fr).'],
          'rule.countries.2': ['Each country must be an ISO 3166-1 alpha-2 code (DE, fr).'],
          'rule.countries.3': ['Each country must be an ISO 3166-1 alpha-2 code (DE, fr).'],
        },
      ],
      [
        { tag_ids: ['1'], set_ids: [0] },
        { 'rule.tag_ids.0': expect.any(Array), 'rule.set_ids.0': expect.any(Array) },
      ],
      [{ tag_ids: 5 }, { 'rule.tag_ids': ['The tag_ids field must be an array.'] }],
      [
        { tag_ids: Array.from({ length: 1001 }, (_, i) => i + 1) },
        { 'rule.tag_ids': ['The tag_ids field may not have more than 1000 entries.'] },
      ],
      ['all', { rule: ['The rule must be an object {tag_ids?, set_ids?, countries?} or null.'] }],
      [[], { rule: ['The rule must be an object {tag_ids?, set_ids?, countries?} or null.'] }],
      [{ tags: [mine] }, { rule: expect.any(Array) }],
    ];
    for (const [rule, errors] of cases) {
      const res = await put(f.id, { name: 'Not written', rule });
      expect(res.statusCode, JSON.stringify(rule)).toBe(422);
      expect(res.json().errors, JSON.stringify(rule)).toEqual(errors);
    }
    // A location of another workspace and a tag of another: both named at once.
    const both = await put(f.id, {
      name: 'Not written',
      locations: [{ location_id: 999_999 }],
      rule: { tag_ids: [otherWorkspaceTag] },
    });
    expect(both.statusCode).toBe(422);
    expect(both.json().errors).toEqual({
      locations: ["These locations do not exist or are not in the finder's workspace: 999999."],
      'rule.tag_ids.0': [`The tag ${otherWorkspaceTag} does not exist or is not in the finder's workspace.`],
    });
    // POST refuses the same, and makes no finder.
    const posted = await call('POST', '/finders', cast.ownerToken, {
      name: 'Not made',
      workspace_id: ws,
      rule: { set_ids: [theirSet] },
    });
    expect(posted.statusCode).toBe(422);
    expect(Object.keys(posted.json().errors)).toEqual(['rule.set_ids.0']);
    const names = await db()
      .select({ name: findersTable.name })
      .from(findersTable)
      .where(eq(findersTable.workspaceId, ws));
    expect(names.map((n) => n.name)).toEqual(['Rule finder']);
    expect(await db().select().from(findersTable).where(eq(findersTable.id, f.id))).toEqual(before);
    expect((await call('GET', `/finders/${f.id}`, cast.ownerToken)).json().rule.tag_ids).toEqual([mine]);
  });

  it("answers 404 for another user's finder, rule or not, and an admin reaches it under /admin", async () => {
    const f = await finder(cast.workspaceId);
    const res = await call('PUT', `/finders/${f.id}`, cast.strangerToken, { rule: {} });
    expect(res.statusCode).toBe(404);
    expect((await call('GET', `/finders/${f.id}`, cast.ownerToken)).json().rule).toBeNull();
    const admin = await call('PUT', `/admin/finders/${f.id}`, cast.adminToken, {
      rule: { countries: ['de'] },
    });
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json().rule).toEqual({ tag_ids: [], set_ids: [], countries: ['DE'] });
    expect((await call('GET', `/admin/finders/${f.id}`, cast.adminToken)).json().rule.countries).toEqual([
      'DE',
    ]);
  });
});

describe('the locations a rule finder shows', () => {
  it('follows inserts, updates (tag added and removed, country changed) and deletes, in the list and the payload', async () => {
    const ws = await freshWorkspace('Following');
    await tag(ws, 'Parking');
    const parking = (
      (await call('GET', `/tags?workspace_id=${ws}`, cast.ownerToken)).json() as {
        id: number;
        slug: string;
      }[]
    ).find((t) => t.slug === 'parking')!.id;
    const flagships = await set(ws, 'Flagships');
    const berlin = await location(ws, 'Berlin', { country: 'DE', tags: ['Parking'], set_ids: [flagships] });
    const munich = await location(ws, 'Munich', { country: ' germany ', tags: ['Parking'] });
    const paris = await location(ws, 'Paris', { country: 'FR', tags: ['Parking'], set_ids: [flagships] });
    const vienna = await location(ws, 'Vienna', { country: 'Österreich' });
    const nowhere = await location(ws, 'Nowhere', { country: null, tags: ['Parking'] });
    // Another workspace's location never matches, whatever it carries.
    await location(cast.workspaceId, 'Elsewhere', { country: 'DE', tags: ['Parking'] });

    const all = await finder(ws, { rule: {} });
    const german = await finder(ws, { rule: { countries: ['de', 'AT'] } });
    const parked = await finder(ws, { rule: { tag_ids: [parking], countries: ['DE'] } });
    const flag = await finder(ws, { rule: { set_ids: [flagships] } });
    const none = await finder(ws);
    await expectShown(all, [berlin, munich, paris, vienna, nowhere]);
    await expectShown(german, [berlin, munich, vienna]);
    await expectShown(parked, [berlin, munich]);
    await expectShown(flag, [berlin, paris]);
    await expectShown(none, []);

    // Insert: the payloads were cached just now; the write shows on the next request.
    const hamburg = await location(ws, 'Hamburg', { country: 'de', tags: ['Parking'] });
    await expectShown(all, [berlin, munich, paris, vienna, nowhere, hamburg]);
    await expectShown(parked, [berlin, munich, hamburg]);
    await expectShown(flag, [berlin, paris]);

    // Update: a tag removed, a country changed, a set and a tag added.
    expect((await call('PUT', `/locations/${munich}`, cast.ownerToken, { tags: [] })).statusCode).toBe(200);
    expect(
      (await call('PUT', `/locations/${paris}`, cast.ownerToken, { country: 'Deutschland' })).statusCode,
    ).toBe(200);
    expect(
      (
        await call('PUT', `/locations/${vienna}`, cast.ownerToken, {
          tags: ['Parking'],
          set_ids: [flagships],
        })
      ).statusCode,
    ).toBe(200);
    await expectShown(german, [berlin, munich, paris, vienna, hamburg]);
    await expectShown(parked, [berlin, paris, hamburg]);
    await expectShown(flag, [berlin, paris, vienna]);

    // Delete.
    expect((await call('DELETE', `/locations/${berlin}`, cast.ownerToken)).statusCode).toBe(204);
    await expectShown(all, [munich, paris, vienna, nowhere, hamburg]);
    await expectShown(parked, [paris, hamburg]);
    await expectShown(flag, [paris, vienna]);

    // A rule change through PUT /finders shows at once too.
    expect((await put(parked.id, { rule: { tag_ids: [parking] } })).statusCode).toBe(200);
    await expectShown(parked, [paris, vienna, nowhere, hamburg]);
    expect((await put(parked.id, { rule: null })).statusCode).toBe(200);
    await expectShown(parked, []);
  });

  it("is the union of the rule's matches and the finder's own list and map, each once, own ones first", async () => {
    const ws = await freshWorkspace('Union');
    const a = await location(ws, 'A', { country: 'DE' });
    const b = await location(ws, 'B', { country: 'FR' });
    const c = await location(ws, 'C', { country: 'FR' });
    const d = await location(ws, 'D', { country: 'IT' });
    const f = await finder(ws, { rule: { countries: ['FR'] } });
    const res = await put(f.id, { locations: [{ location_id: c }, { location_id: a }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().rule.countries).toEqual(['FR']);
    expect((await call('PUT', `/maps/${f.maps[0]}`, cast.ownerToken, { locations: [b, d] })).statusCode).toBe(
      200,
    );
    expect(await listed(f.id)).toEqual([a, b, c, d]);
    // Own locations in their order, then the others by id; nothing twice.
    expect(await payloadIds(f.token)).toEqual([c, a, b, d]);
    // The own list stays exactly as given.
    expect((await call('GET', `/finders/${f.id}`, cast.ownerToken)).json().locations).toEqual([
      { location_id: c, sort_order: 0 },
      { location_id: a, sort_order: 1 },
    ]);
  });

  it('keeps no deleted tag or set, and a rule whose tags are all deleted matches nothing, answered as null', async () => {
    const ws = await freshWorkspace('Deleting');
    const [t1, t2] = [await tag(ws, 'One'), await tag(ws, 'Two')];
    const s1 = await set(ws, 'Set one');
    const one = await location(ws, 'Has one', { tags: ['One'], set_ids: [s1] });
    const two = await location(ws, 'Has two', { tags: ['Two'], set_ids: [s1] });
    await location(ws, 'Has none');
    const f = await finder(ws, { rule: { tag_ids: [t1, t2], set_ids: [s1] } });
    await expectShown(f, [one, two]);

    expect((await call('DELETE', `/tags/${t1}`, cast.ownerToken)).statusCode).toBe(204);
    expect((await call('GET', `/finders/${f.id}`, cast.ownerToken)).json().rule).toEqual({
      tag_ids: [t2],
      set_ids: [s1],
      countries: [],
    });
    await expectShown(f, [two]);

    // Its last tag gone, the criterion cannot be met: the rule matches nothing, answered as null.
    expect((await call('DELETE', `/tags/${t2}`, cast.ownerToken)).statusCode).toBe(204);
    expect((await call('GET', `/finders/${f.id}`, cast.ownerToken)).json().rule).toBeNull();
    await expectShown(f, []);
    expect(
      await db().select().from(finderRuleTagsTable).where(eq(finderRuleTagsTable.finderId, f.id)),
    ).toEqual([]);

    const g = await finder(ws, { rule: { set_ids: [s1] } });
    const three = await location(ws, 'Has none either');
    await expectShown(g, [one, two]);
    expect((await call('DELETE', `/sets/${s1}`, cast.ownerToken)).statusCode).toBe(204);
    const answered = (await call('GET', `/finders/${g.id}`, cast.ownerToken)).json() as FinderJson;
    expect(answered.rule).toBeNull();
    await expectShown(g, []);
    // Sent back as answered, it stays what it shows; only a new rule widens it.
    expect((await put(g.id, { rule: answered.rule })).json().rule).toBeNull();
    await expectShown(g, []);
    expect((await put(g.id, { rule: {} })).statusCode).toBe(200);
    expect(await listed(g.id)).toContain(three);
  });

  it("the analytics' probe by id (among) agrees with the full list", async () => {
    const ws = await freshWorkspace('Probe');
    const x = await location(ws, 'X', { country: 'DE' });
    const y = await location(ws, 'Y', { country: 'FR' });
    const z = await location(cast.workspaceId, 'Z', { country: 'DE' });
    const f = await finder(ws, { rule: { countries: ['DE'] } });
    const probe = async (among: number[]) =>
      (
        (await db().execute(
          sql`select location_id from (${shownLocations(f.id, f.maps[0]!, among)}) s order by 1`,
        )) as unknown as { location_id: number }[]
      ).map((row) => row.location_id);
    expect(await probe([x, y, z, 999_999])).toEqual([x]);
    expect(await probe([y])).toEqual([]);
  });
});

describe('at 100,000 locations', () => {
  // One workspace of 100,000 locations, seeded once for the tests below (in SQL: the API would
  // take minutes), every tenth id tagged Chain, half of all in DE and half in FR.
  let ws: number;
  let chain: number;
  let tagged: number;
  beforeAll(async () => {
    ws = await freshWorkspace('Chain');
    chain = await tag(ws, 'Chain');
    await db().execute(sql`with inserted as (
        insert into locations (workspace_id, title, country)
        select ${ws}, 'Store ' || g, case when g % 2 = 0 then 'DE' else 'FR' end from generate_series(1, 100000) g
        returning id)
      insert into location_tags (location_id, tag_id) select id, ${chain}::int from inserted where id % 10 = 0`);
    tagged = (
      (await db().execute(
        sql`select count(*)::int as n from location_tags where tag_id = ${chain}`,
      )) as unknown as { n: number }[]
    )[0]!.n;
  }, 120_000);

  it('a rule finder {} shows all of them through the payload route, and a tag rule the tagged ones', async () => {
    expect(tagged).toBeGreaterThan(9000);

    const all = await finder(ws, { rule: {} });
    const some = await finder(ws, { rule: { tag_ids: [chain] } });
    const allIds = await payloadIds(all.token);
    expect(allIds).toHaveLength(100_000);
    expect(new Set(allIds).size).toBe(100_000);
    const someIds = await payloadIds(some.token);
    expect(someIds).toHaveLength(tagged);
    expect(someIds.every((id) => id % 10 === 0)).toBe(true);
  }, 120_000);

  // Runs after the test above (which reads the seed as it was): its writes leave 100,000
  // locations and as many tagged ones, but not the same ones.
  it('rule finders ({}, a tag, a country) follow an insert, updates and a delete through the API, in the list and the payload', async () => {
    const rows = async <T>(query: ReturnType<typeof sql>) => (await db().execute(query)) as unknown as T[];
    const isTagged = sql`exists (select 1 from location_tags lt where lt.location_id = l.id and lt.tag_id = ${chain})`;
    // Two tagged locations (one to leave both rules below, one to delete), and an untagged one
    // of the other country (to join both). The tagged ids are all even, so all of one country.
    const [first, second] = await rows<{ id: number; country: string }>(
      sql`select id, country from locations l where workspace_id = ${ws} and ${isTagged} order by id limit 2`,
    );
    const [leaving, doomed, here] = [first!.id, second!.id, first!.country];
    expect(second!.country).toBe(here);
    const there = here === 'DE' ? 'FR' : 'DE';
    const [{ id: joining } = { id: 0 }] = await rows<{ id: number }>(
      sql`select id from locations l where workspace_id = ${ws} and country = ${there} and not ${isTagged} order by id limit 1`,
    );
    expect(joining).toBeGreaterThan(0);
    const [counted] = await rows<{ count: number; local: number }>(
      sql`select count(*)::int as count, (count(*) filter (where country = ${here}))::int as local
        from locations where workspace_id = ${ws}`,
    );
    const { count, local } = counted!;
    expect([count, local]).toEqual([100_000, 50_000]);

    const all = await finder(ws, { rule: {} });
    const chained = await finder(ws, { rule: { tag_ids: [chain] } });
    const inCountry = await finder(ws, { rule: { countries: [here] } });

    /**
     * GET /locations?finder_id= shows `total` locations (X-Total-Count of a page of one), and of
     * `shown` and `hidden` (asked for by ids) exactly `shown`.
     */
    async function expectListed(f: FinderJson, total: number, shown: number[], hidden: number[]) {
      const page = await call('GET', `/locations?finder_id=${f.id}&limit=1`, cast.ownerToken);
      expect(page.statusCode, page.body).toBe(200);
      expect(Number(page.headers['x-total-count'])).toBe(total);
      const some = await call(
        'GET',
        `/locations?finder_id=${f.id}&ids=${[...shown, ...hidden].join(',')}`,
        cast.ownerToken,
      );
      expect(some.statusCode, some.body).toBe(200);
      expect((some.json() as { id: number }[]).map((l) => l.id).sort((a, b) => a - b)).toEqual(
        [...shown].sort((a, b) => a - b),
      );
    }
    /** The widget payload (served from the 60 s cache when current) holds `total` locations, each once, `shown` among them and none of `hidden`. */
    async function expectPayload(f: FinderJson, total: number, shown: number[], hidden: number[]) {
      const shownIds = await payloadIds(f.token);
      expect(shownIds).toHaveLength(total);
      const inPayload = new Set(shownIds);
      expect(inPayload.size).toBe(total);
      expect(shown.filter((id) => !inPayload.has(id))).toEqual([]);
      expect(hidden.filter((id) => inPayload.has(id))).toEqual([]);
    }
    const expectShownAtScale = async (f: FinderJson, total: number, shown: number[], hidden: number[]) => {
      await expectListed(f, total, shown, hidden);
      await expectPayload(f, total, shown, hidden);
    };

    // Before: each payload is built and cached, so a write that left the cache alone would show
    // the counts and members below again.
    await expectShownAtScale(all, count, [leaving, doomed, joining], []);
    await expectShownAtScale(chained, tagged, [leaving, doomed], [joining]);
    await expectShownAtScale(inCountry, local, [leaving, doomed], [joining]);

    // Insert: a tagged location of that country joins all three.
    const added = await location(ws, 'Store added', { country: here.toLowerCase(), tags: ['Chain'] });
    await expectShownAtScale(all, count + 1, [added, leaving, doomed, joining], []);
    await expectShownAtScale(chained, tagged + 1, [added, leaving, doomed], [joining]);
    await expectShownAtScale(inCountry, local + 1, [added, leaving, doomed], [joining]);

    // Update: one loses its tag and moves to the other country (leaving both rules), another
    // gains the tag and moves to the rule's country (joining both); counts stay, members change.
    const left = await call('PUT', `/locations/${leaving}`, cast.ownerToken, { tags: [], country: there });
    expect(left.statusCode, left.body).toBe(200);
    const joined = await call('PUT', `/locations/${joining}`, cast.ownerToken, {
      tags: ['Chain'],
      country: here,
    });
    expect(joined.statusCode, joined.body).toBe(200);
    await expectListed(all, count + 1, [added, leaving, doomed, joining], []);
    await expectShownAtScale(chained, tagged + 1, [added, doomed, joining], [leaving]);
    await expectShownAtScale(inCountry, local + 1, [added, doomed, joining], [leaving]);

    // Delete: gone from all three.
    const deleted = await call('DELETE', `/locations/${doomed}`, cast.ownerToken);
    expect(deleted.statusCode, deleted.body).toBe(204);
    await expectShownAtScale(all, count, [added, leaving, joining], [doomed]);
    await expectShownAtScale(chained, tagged, [added, joining], [leaving, doomed]);
    await expectShownAtScale(inCountry, local, [added, joining], [leaving, doomed]);
  }, 180_000);
});
