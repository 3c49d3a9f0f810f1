// `q` and `sort` of GET /locations through HTTP: what a search matches (each searched field, any
// case, a part of a field, never across two fields, wildcards as written), its bounds and bad
// inputs, its combination with finder_id, paging and X-Total-Count; each order with its ties,
// and a whole list of more than one window of ids (10,000) in an order by key, with and without
// a search, against a plain sort in JavaScript and byte for byte against the single read.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLocationsRepository } from '../src/modules/locations/locations.repository.ts';
import { type LocationPayload, locationSchema } from '../src/modules/locations/locations.schemas.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { created, setOwnLocations } from './factories/finder-payloads.ts';
import { createWidgetFinder } from './factories/widget-finders.ts';
import { createCast, createWorkspace } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let owner: UserRow;
let ownerToken: string;
let strangerToken: string;
let adminToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ owner, ownerToken, strangerToken, adminToken } = await createCast(ctx.deps));
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);

/** A fresh workspace of the owner with these locations, created through the API; their ids in order. */
async function workspaceWith(name: string, locations: Record<string, unknown>[]) {
  const workspaceId = await createWorkspace(ctx.deps, owner, name);
  const ids: number[] = [];
  for (const location of locations) {
    ids.push(
      (await created(call('POST', '/locations', ownerToken, { workspace_id: workspaceId, ...location }))).id,
    );
  }
  return { workspaceId, ids };
}

const list = (workspaceId: number, query: string, token = ownerToken) =>
  call('GET', `/locations?workspace_id=${workspaceId}${query}`, token);

async function listedIds(workspaceId: number, query: string): Promise<number[]> {
  const res = await list(workspaceId, query);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as LocationPayload[]).map((location) => location.id);
}

const q = (text: string) => `&q=${encodeURIComponent(text)}`;

describe('GET /api/locations?q=', () => {
  let workspaceId: number;
  let berlin: number;
  let fields: Record<string, number>;
  let unsearched: number;

  beforeAll(async () => {
    const made = await workspaceWith('Search', [
      { title: 'Berlin Mitte', city: 'Berlin', zip: '10115', country: 'DE' },
      { title: 'Title Xylophone' },
      { title: 'A', address: '12 Quokka Road' },
      { title: 'B', city: 'Zanzibar City' },
      { title: 'C', zip: 'ZP-7781' },
      { title: 'D', state: 'Wyomingstate' },
      { title: 'E', country: 'Narnialand' },
      { title: 'F', external_id: 'EXT-Jabberwock' },
      { title: 'G', description: 'Gryphon', phone: '+1 555 0199', email: 'gryphon@example.test' },
      { title: 'Percent 100% sure', address: 'Under_score lane' },
    ]);
    workspaceId = made.workspaceId;
    const [b, title, address, city, zip, state, country, externalId, g] = made.ids;
    berlin = b!;
    fields = {
      title: title!,
      address: address!,
      city: city!,
      zip: zip!,
      state: state!,
      country: country!,
      external_id: externalId!,
    };
    unsearched = g!;
  });

  it('finds a part of a field in any case', async () => {
    for (const text of ['berl', 'BERL', 'Berlin', 'rlin mi', 'erlin']) {
      expect(await listedIds(workspaceId, q(text)), text).toEqual([berlin]);
    }
  });

  it('looks in each searched field: title, address, city, zip, state, country, external_id', async () => {
    const parts: Record<string, string> = {
      title: 'xyloph',
      address: 'QUOKKA',
      city: 'zanzib',
      zip: 'p-778',
      state: 'oming',
      country: 'narni',
      external_id: 'jabberw',
    };
    for (const [field, text] of Object.entries(parts)) {
      expect(await listedIds(workspaceId, q(text)), field).toEqual([fields[field]]);
    }
  });

  it('does not look in the description, phone or email, nor across two fields', async () => {
    for (const text of ['gryphon', '0199', 'example.test']) {
      expect(await listedIds(workspaceId, q(text)), text).toEqual([]);
    }
    expect(unsearched).toBeGreaterThan(0);
    // City "Berlin" and zip "10115" are neighbours among the searched fields.
    expect(await listedIds(workspaceId, q('lin101'))).toEqual([]);
    expect(await listedIds(workspaceId, q('10115'))).toEqual([berlin]);
  });

  it('takes %, _ and \\ as the characters they are, not as wildcards', async () => {
    const percent = await listedIds(workspaceId, q('0%'));
    expect(percent).toHaveLength(1);
    expect(await listedIds(workspaceId, q('%'))).toEqual(percent);
    expect(await listedIds(workspaceId, q('r_s'))).toEqual(percent);
    expect(await listedIds(workspaceId, q('_'))).toEqual(percent);
    expect(await listedIds(workspaceId, q('\\'))).toEqual([]);
  });

  it('trims q, and an empty one is no filter', async () => {
    const all = await listedIds(workspaceId, '');
    expect(all).toHaveLength(10);
    expect(await listedIds(workspaceId, q('  berl\t '))).toEqual([berlin]);
    expect(await listedIds(workspaceId, q(''))).toEqual(all);
    expect(await listedIds(workspaceId, q('   '))).toEqual(all);
  });

  it('keeps to the caller: another user gets the 404 of the workspace, an admin the same matches', async () => {
    expect((await list(workspaceId, q('berl'), strangerToken)).statusCode).toBe(404);
    const admin = await call('GET', `/admin/locations?workspace_id=${workspaceId}${q('berl')}`, adminToken);
    expect((admin.json() as LocationPayload[]).map((location) => location.id)).toEqual([berlin]);
    // Without workspace_id: every workspace of the caller, none of another user's.
    const everywhere = await call('GET', '/locations?q=zanzib', ownerToken);
    expect((everywhere.json() as LocationPayload[]).map((location) => location.id)).toEqual([fields.city]);
    const strangers = await call('GET', '/locations?q=zanzib', strangerToken);
    expect(strangers.json()).toEqual([]);
  });

  it.each([
    ['a q over 200 characters', q('x'.repeat(201)), 'The q may not be greater than 200 characters.'],
    ['a control character', q('ber\u0007lin'), 'The q may not contain control characters.'],
    ['a line break inside', q('ber\nlin'), 'The q may not contain control characters.'],
    ['q given twice', `${q('a')}${q('b')}`, 'The q field must be a string.'],
  ])('refuses %s with 422 errors.q', async (_case, query, message) => {
    const res = await list(workspaceId, query);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { q: [message] },
    });
  });

  it('takes 200 characters, its length counted after trimming', async () => {
    expect((await list(workspaceId, q(` ${'x'.repeat(200)} `))).statusCode).toBe(200);
  });
});

describe('q with finder_id, paging and X-Total-Count', () => {
  it('narrows a finder to the matches, and pages the matches with their count', async () => {
    const locations = Array.from({ length: 30 }, (_, index) => ({
      title: `${index % 3 === 0 ? 'Harbour' : 'Inland'} store ${index}`,
    }));
    const { workspaceId, ids } = await workspaceWith('Paged search', locations);
    const harbour = ids.filter((_, index) => index % 3 === 0);
    expect(harbour).toHaveLength(10);

    const pages: number[] = [];
    for (let offset = 0; offset < 12; offset += 4) {
      const res = await list(workspaceId, `${q('harb')}&limit=4&offset=${offset}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('10');
      pages.push(...(res.json() as LocationPayload[]).map((location) => location.id));
    }
    expect(pages).toEqual(harbour);
    const beyond = await list(workspaceId, `${q('harb')}&limit=4&offset=40`);
    expect(beyond.headers['x-total-count']).toBe('10');
    expect(beyond.json()).toEqual([]);
    const none = await list(workspaceId, `${q('nowhere')}&limit=4`);
    expect(none.headers['x-total-count']).toBe('0');

    const finder = await createWidgetFinder(ctx.deps, workspaceId);
    const shown = ids.slice(0, 9);
    await setOwnLocations(ctx.deps, finder.id, shown);
    const narrowed = await list(workspaceId, `${q('HARBOUR')}&finder_id=${finder.id}&limit=2`);
    expect(narrowed.headers['x-total-count']).toBe('3');
    expect((narrowed.json() as LocationPayload[]).map((location) => location.id)).toEqual(
      shown.filter((id) => harbour.includes(id)).slice(0, 2),
    );
  });
});

describe('GET /api/locations?sort=', () => {
  let workspaceId: number;
  let byTitle: Record<string, number>;

  beforeAll(async () => {
    const titles = ['cherry', 'Banana', 'apple', 'Same', 'same', 'Same', 'Äpfel', 'date'];
    const cities = ['Zurich', null, 'aachen', 'Bonn', null, 'bonn', 'Celle', 'Aachen'];
    const made = await workspaceWith(
      'Orders',
      titles.map((title, index) => ({ title, city: cities[index] })),
    );
    workspaceId = made.workspaceId;
    byTitle = Object.fromEntries(titles.map((title, index) => [`${title}${index}`, made.ids[index]!]));
  });

  const id = (key: string) => byTitle[key]!;

  it('orders by id by default, and by -id in reverse', async () => {
    const ids = Object.values(byTitle);
    expect(await listedIds(workspaceId, '')).toEqual(ids);
    expect(await listedIds(workspaceId, '&sort=id')).toEqual(ids);
    expect(await listedIds(workspaceId, '&sort=-id')).toEqual([...ids].reverse());
  });

  it('orders by title without case, equal titles by id; -title is the exact reverse', async () => {
    // Lower-cased, then compared as written: "äpfel" after every ASCII letter.
    const expected = [
      id('apple2'),
      id('Banana1'),
      id('cherry0'),
      id('date7'),
      id('Same3'),
      id('same4'),
      id('Same5'),
      id('Äpfel6'),
    ];
    expect(await listedIds(workspaceId, '&sort=title')).toEqual(expected);
    expect(await listedIds(workspaceId, '&sort=-title')).toEqual([...expected].reverse());
  });

  it('orders by city without case, a location without a city first; -city is the exact reverse', async () => {
    const expected = [
      id('Banana1'),
      id('same4'),
      id('apple2'),
      id('date7'),
      id('Same3'),
      id('Same5'),
      id('Äpfel6'),
      id('cherry0'),
    ];
    expect(await listedIds(workspaceId, '&sort=city')).toEqual(expected);
    expect(await listedIds(workspaceId, '&sort=-city')).toEqual([...expected].reverse());
  });

  it('orders by updated_at: a location just changed comes last, and first with -updated_at', async () => {
    const changed = id('cherry0');
    expect((await call('PUT', `/locations/${changed}`, ownerToken, { title: 'cherry' })).statusCode).toBe(
      200,
    );
    const ascending = await listedIds(workspaceId, '&sort=updated_at');
    expect(ascending.at(-1)).toBe(changed);
    expect(await listedIds(workspaceId, '&sort=-updated_at')).toEqual([...ascending].reverse());
    const rows = (await list(workspaceId, '&sort=updated_at')).json() as LocationPayload[];
    const times = rows.map((row) => row.updated_at);
    expect(times).toEqual([...times].sort());
  });

  it('pages an order without repeating or skipping a location, ties included', async () => {
    const whole = await listedIds(workspaceId, '&sort=title');
    const pages: number[] = [];
    for (let offset = 0; offset < whole.length; offset += 3) {
      const res = await list(workspaceId, `&sort=title&limit=3&offset=${offset}`);
      expect(res.headers['x-total-count']).toBe(String(whole.length));
      pages.push(...(res.json() as LocationPayload[]).map((location) => location.id));
    }
    expect(pages).toEqual(whole);
  });

  it('sorts a search: q and sort together', async () => {
    expect(await listedIds(workspaceId, `${q('SAME')}&sort=-title`)).toEqual([
      id('Same5'),
      id('same4'),
      id('Same3'),
    ]);
    expect(await listedIds(workspaceId, `${q('a')}&sort=city&limit=2`)).toEqual([id('Banana1'), id('same4')]);
  });

  it.each([['name'], ['TITLE'], ['+title'], ['title,id'], ['']])(
    'refuses sort=%s naming the allowed ones',
    async (sort) => {
      const res = await list(workspaceId, `&sort=${encodeURIComponent(sort)}`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'The given data was invalid.',
        code: 'validation_failed',
        errors: {
          sort: ['The sort must be one of: id, -id, title, -title, city, -city, updated_at, -updated_at.'],
        },
      });
    },
  );
});

describe('a whole list of more than one window of ids, in an order by key', () => {
  const LOCATIONS = 12_500;
  let workspaceId: number;
  let rows: { id: number; title: string; city: string | null }[];

  beforeAll(async () => {
    workspaceId = await createWorkspace(ctx.deps, owner, 'Many');
    // Titles in mixed case, many of them shared (ties), none in id order.
    await ctx.deps.db.execute(sql`insert into locations (workspace_id, title, city)
      select ${workspaceId}, case when g % 2 = 0 then 'Store ' else 'store ' end || ((g * 7919) % 5000),
        case when g % 4 = 0 then 'Harbourside' end
      from generate_series(1, ${LOCATIONS}) g`);
    rows = [
      ...(await ctx.deps.db.execute<{ id: number; title: string; city: string | null }>(
        sql`select id, title, city from locations where workspace_id = ${workspaceId}`,
      )),
    ];
  });

  /** The order by title as JavaScript sorts it: lower-cased (all ASCII here), then by id. */
  const byTitle = (a: { id: number; title: string }, b: { id: number; title: string }) => {
    const [x, y] = [a.title.toLowerCase(), b.title.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : a.id - b.id;
  };

  /** The body the single read gives for these ids, in this order, through the response schema. */
  async function singleReads(ids: number[]): Promise<string> {
    const payloads = await createLocationsRepository(ctx.deps.db).findPayloads(ids);
    const byId = new Map(payloads.map((row) => [row.id, row]));
    return JSON.stringify(z.array(locationSchema).parse(ids.map((id) => byId.get(id))));
  }

  it('streams every location once, in order, byte for byte as the single read renders them', async () => {
    const expected = [...rows].sort(byTitle).map((row) => row.id);
    const res = await list(workspaceId, '&sort=title');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    const listed = (res.json() as LocationPayload[]).map((location) => location.id);
    expect(listed).toHaveLength(LOCATIONS);
    expect(listed).toEqual(expected);
    expect(res.body).toBe(await singleReads(expected));
    expect(await listedIds(workspaceId, '&sort=-title')).toEqual([...expected].reverse());
  });

  it('streams a search of more than a window of matches in order, the offset skipping into it', async () => {
    const matches = rows.filter((row) => /store 1/i.test(row.title)).sort(byTitle);
    expect(matches.length).toBeGreaterThan(1000);
    const all = await listedIds(workspaceId, `${q('STORE ')}&sort=-title`);
    expect(all).toEqual(
      [...rows]
        .sort(byTitle)
        .map((row) => row.id)
        .reverse(),
    );
    expect(await listedIds(workspaceId, `${q('store 1')}&sort=title&offset=500`)).toEqual(
      matches.slice(500).map((row) => row.id),
    );
    const page = await list(workspaceId, `${q('store 1')}&sort=title&limit=7&offset=1000`);
    expect(page.headers['x-total-count']).toBe(String(matches.length));
    expect((page.json() as LocationPayload[]).map((location) => location.id)).toEqual(
      matches.slice(1000, 1007).map((row) => row.id),
    );
  });

  it('orders by city across windows, the locations without a city first, ties by id', async () => {
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    const withoutCity = rows.filter((row) => row.city === null).sort(byId);
    const harbourside = rows.filter((row) => row.city !== null).sort(byId);
    expect(withoutCity.length).toBeGreaterThan(9000);
    const expected = [...withoutCity, ...harbourside].map((row) => row.id);
    expect(await listedIds(workspaceId, '&sort=city')).toEqual(expected);
    expect(await listedIds(workspaceId, '&sort=-city')).toEqual([...expected].reverse());
  });
});
