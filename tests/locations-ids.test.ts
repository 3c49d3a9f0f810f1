// `ids` of GET /locations through HTTP: a client's own list of locations read in one request
// (repeated or comma-separated, with the other filters, sort and paging), another user's ids
// listing nothing of theirs, and each bad input's 422.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocationPayload } from '../src/modules/locations/locations.schemas.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { created } from './factories/finder-payloads.ts';
import { createCast, createWorkspace } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let owner: UserRow;
let ownerToken: string;
let strangerToken: string;
let workspaceId: number;
let ids: number[];

const call = createCaller(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  ({ owner, ownerToken, strangerToken } = await createCast(ctx.deps));
  workspaceId = await createWorkspace(ctx.deps, owner, 'Shops');
  ids = [];
  for (const title of ['Delta', 'alpha', 'Charlie', 'bravo', 'Echo']) {
    ids.push(
      (await created(call('POST', '/locations', ownerToken, { workspace_id: workspaceId, title }))).id,
    );
  }
});
afterAll(async () => {
  await ctx?.close();
});

async function listed(query: string, token = ownerToken) {
  const res = await call('GET', `/locations?${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return { res, titles: (res.json() as LocationPayload[]).map((location) => location.title) };
}

describe('GET /api/locations?ids=', () => {
  it('lists only those locations, comma-separated or repeated, by id unless sorted', async () => {
    const [delta, alpha, charlie, , echo] = ids as [number, number, number, number, number];
    expect((await listed(`ids=${echo},${alpha},${delta}`)).titles).toEqual(['Delta', 'alpha', 'Echo']);
    expect((await listed(`ids=${echo}&ids=${alpha}&ids=${delta}`)).titles).toEqual([
      'Delta',
      'alpha',
      'Echo',
    ]);
    expect((await listed(`ids=${echo},${alpha},${delta}&sort=title`)).titles).toEqual([
      'alpha',
      'Delta',
      'Echo',
    ]);
    expect((await listed(`ids=${charlie},${charlie}`)).titles).toEqual(['Charlie']);
  });

  it('combines with the workspace, a search and paging, counting what it holds', async () => {
    const [delta, , charlie, bravo, echo] = ids as [number, number, number, number, number];
    const { res, titles } = await listed(
      `workspace_id=${workspaceId}&ids=${[delta, charlie, bravo, echo].join(',')}&q=a&limit=2&offset=1`,
    );
    // Of those four, Delta, Charlie and bravo hold an "a"; alpha holds one too but is not asked for.
    expect(res.headers['x-total-count']).toBe('3');
    expect(titles).toEqual(['Charlie', 'bravo']);
  });

  it('is declared in the OpenAPI document as an array of ids, which generated clients repeat', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, { get: { parameters: { name: string; in: string; schema: unknown }[] } }>;
    };
    const parameter = document.paths['/api/locations']?.get.parameters.find((entry) => entry.name === 'ids');
    expect(parameter).toMatchObject({
      in: 'query',
      schema: {
        type: 'array',
        items: { type: 'integer', minimum: 1, maximum: 2147483647 },
        minItems: 1,
        maxItems: 100,
      },
    });
  });

  it("lists nothing of another user's locations, and an unknown id is simply not listed", async () => {
    expect((await listed(`ids=${ids.join(',')}`, strangerToken)).titles).toEqual([]);
    expect((await listed(`ids=${ids[0]},2147483647`)).titles).toEqual(['Delta']);
  });

  it.each([
    ['', 'The ids must be positive integers separated by commas.'],
    ['abc', 'The ids must be positive integers separated by commas.'],
    ['0', 'The ids must be positive integers separated by commas.'],
    ['1,,2', 'The ids must be positive integers separated by commas.'],
    ['1,', 'The ids must be positive integers separated by commas.'],
    ['01', 'The ids must be positive integers separated by commas.'],
    ['-1', 'The ids must be positive integers separated by commas.'],
    ['1.5', 'The ids must be positive integers separated by commas.'],
    ['2147483648', 'The ids must be positive integers separated by commas.'],
    [
      Array.from({ length: 101 }, (_, index) => index + 1).join(','),
      'The ids may not have more than 100 items.',
    ],
  ])('refuses ids=%s with 422', async (value, message) => {
    const res = await call('GET', `/locations?ids=${value}`, ownerToken);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: { ids: [message] } });
  });

  it('counts repeated and comma-separated ids together against the bound', async () => {
    const fifty = Array.from({ length: 50 }, (_, index) => index + 1).join(',');
    expect((await call('GET', `/locations?ids=${fifty}&ids=${fifty}`, ownerToken)).statusCode).toBe(200);
    const res = await call('GET', `/locations?ids=${fifty}&ids=${fifty}&ids=101`, ownerToken);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ ids: ['The ids may not have more than 100 items.'] });
  });
});
