// No body answers 500: a string PostgreSQL cannot store in jsonb (an unpaired UTF-16 surrogate,
// `"\ud800"`) is refused by the validator of every route like a NUL, with the field named and
// nothing written, and a body nesting arrays and objects deeper than 32 levels is refused before
// it is parsed (2,000 levels in a setting value, 8,000 in custom values used to overflow the
// stack), while 32 levels still pass where a schema takes free JSON.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '../scripts/fuzz/world.ts';
import { runJob } from '../src/job-handlers.ts';
import { aiImportBatchesTable, aiImportItemsTable } from '../src/modules/ai-imports/ai-imports.table.ts';
import { customFieldDefinitionsTable } from '../src/modules/custom-fields/custom-fields.table.ts';
import { findersTable } from '../src/modules/finders/finders.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { mapsTable } from '../src/modules/maps/maps.table.ts';
import { processesTable } from '../src/modules/processes/processes.table.ts';
import { tagsTable } from '../src/modules/tags/tags.table.ts';
import { createCast } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let finderId: number;
let finderToken: string;
beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx.deps);
  const finder = await call('POST', '/finders', cast.ownerToken, {
    workspace_id: cast.workspaceId,
    name: 'Shops',
  });
  expect(finder.statusCode, finder.body).toBe(201);
  finderId = finder.json().id;
  finderToken = finder.json().token;
  const field = await call('POST', '/custom-field-definitions', cast.ownerToken, {
    workspace_id: cast.workspaceId,
    name: 'note',
    label: 'Note',
    type: 'text',
  });
  expect(field.statusCode, field.body).toBe(201);
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);
const withToken = ({ payload, headers }: { payload: Buffer; headers: Record<string, string> }) => ({
  payload,
  headers: { ...headers, authorization: `Bearer ${cast.ownerToken}` },
});

const HIGH = '\ud800';
const LOW = '\udc00';

const surrogateRefused = (field: string) => ({
  message: 'The given data was invalid.',
  code: 'validation_failed',
  errors: { [field]: [`The ${field} field may not contain unpaired UTF-16 surrogates.`] },
});

const tooDeep = {
  message: 'The given data was invalid.',
  code: 'validation_failed',
  errors: { body: ['The body may not nest arrays and objects more than 32 levels deep.'] },
};

/** `levels` nested arrays around a number. */
const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
};
/** The same as JSON text (JSON.stringify itself recurses too deep past a few thousand levels). */
const nestedText = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

const finderRow = async () =>
  (await ctx.deps.db.select().from(findersTable).where(eq(findersTable.id, finderId)))[0]!;
const rows = async () => {
  const [locations] = await ctx.deps.db.select({ n: count() }).from(locationsTable);
  const [fields] = await ctx.deps.db.select({ n: count() }).from(customFieldDefinitionsTable);
  const [tags] = await ctx.deps.db.select({ n: count() }).from(tagsTable);
  const [maps] = await ctx.deps.db.select({ n: count() }).from(mapsTable);
  const [batches] = await ctx.deps.db.select({ n: count() }).from(aiImportBatchesTable);
  const [processes] = await ctx.deps.db.select({ n: count() }).from(processesTable);
  return {
    locations: locations!.n,
    fields: fields!.n,
    tags: tags!.n,
    maps: maps!.n,
    batches: batches!.n,
    processes: processes!.n,
    finder: await finderRow(),
  };
};

const aiAnswers = {
  business_type: 'Coffee shops',
  approximate_location_count: '2',
  geographic_scope: 'Illinois',
  customer_description: 'Commuters',
  source_notes:
    '1. Daily Grind Downtown - 123 Main St, Springfield, IL 62704\n2. Daily Grind North - 400 N 5th St, Springfield, IL 62702',
};

describe('unpaired surrogates', () => {
  it('refuses one, high or low, in a value or a key, on every JSON field, with 422 naming the field and nothing written', async () => {
    const workspace_id = () => cast.workspaceId;
    const cases: {
      method: 'POST' | 'PUT';
      url: () => string;
      body: () => object;
      field: string;
      also?: string;
    }[] = [
      {
        method: 'PUT',
        url: () => `/finders/${finderId}`,
        body: () => ({ settings: [{ key: 'units', value: `km${HIGH}` }] }),
        field: 'settings.0.value',
      },
      {
        method: 'PUT',
        url: () => `/finders/${finderId}`,
        body: () => ({ settings: [{ key: 'default_center', value: { lat: 1, [LOW]: 2 } }] }),
        field: 'settings.0.value',
      },
      {
        method: 'PUT',
        url: () => `/finders/${finderId}`,
        body: () => ({ settings: [{ key: `units${LOW}`, value: 'km' }] }),
        field: 'settings.0.key',
      },
      {
        method: 'PUT',
        url: () => `/finders/${finderId}`,
        body: () => ({
          advanced_refinements: [
            { name: 'Wifi', match: 'any', conditions: [{ field: 'city', op: 'eq', value: `x${LOW}` }] },
          ],
        }),
        field: 'advanced_refinements.0.conditions.0.value',
      },
      {
        method: 'PUT',
        url: () => `/finders/${finderId}`,
        body: () => ({
          advanced_refinements: [
            { name: HIGH, match: 'all', conditions: [{ field: 'city', op: 'in', value: ['a', `b${HIGH}`] }] },
          ],
        }),
        field: 'advanced_refinements.0.name',
        also: 'advanced_refinements.0.conditions.0.value.1',
      },
      {
        method: 'POST',
        url: () => '/custom-field-definitions',
        body: () => ({
          workspace_id: workspace_id(),
          name: 'size',
          label: 'Size',
          type: 'select',
          options: ['S', LOW],
        }),
        field: 'options.1',
      },
      {
        method: 'POST',
        url: () => '/locations',
        body: () => ({ workspace_id: workspace_id(), title: 'Shop', tags: ['wifi', `${HIGH}late`] }),
        field: 'tags.1',
      },
      {
        method: 'POST',
        url: () => '/locations',
        body: () => ({ workspace_id: workspace_id(), title: 'Shop', custom_fields: { note: `a${LOW}b` } }),
        field: 'custom_fields.note',
      },
      {
        method: 'POST',
        url: () => '/locations',
        // A key is reported on the object holding it, so the answer never echoes it.
        body: () => ({ workspace_id: workspace_id(), title: 'Shop', custom_fields: { [HIGH]: 'x' } }),
        field: 'custom_fields',
      },
      {
        method: 'POST',
        url: () => '/locations',
        body: () => ({ workspace_id: workspace_id(), title: `Shop ${HIGH}` }),
        field: 'title',
      },
      {
        method: 'POST',
        url: () => '/ai-location-imports',
        body: () => ({
          workspace_id: workspace_id(),
          answers: { ...aiAnswers, source_notes: `1. ${LOW} Main St` },
        }),
        field: 'answers.source_notes',
      },
      {
        method: 'POST',
        url: () => '/ai-location-imports',
        body: () => ({ workspace_id: workspace_id(), answers: { ...aiAnswers, brand_name: HIGH } }),
        field: 'answers.brand_name',
      },
    ];
    for (const { method, url, body, field, also } of cases) {
      const before = await rows();
      const res = await call(method, url(), cast.ownerToken, body());
      expect(res.statusCode, `${method} ${url()} ${field}`).toBe(422);
      const expected = surrogateRefused(field);
      // Every string at fault is named, each under its own path.
      if (also) Object.assign(expected.errors, surrogateRefused(also).errors);
      expect(res.json(), `${method} ${url()} ${field}`).toEqual(expected);
      expect(await rows(), `${method} ${url()} ${field}`).toEqual(before);
    }
  });

  it('lets a surrogate pair (an emoji) through: only an unpaired half is refused', async () => {
    const res = await call('PUT', `/finders/${finderId}`, cast.ownerToken, {
      settings: [{ key: 'tile_attribution', value: 'Maps 🗺️ by us' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await finderRow()).settings).toEqual([{ key: 'tile_attribution', value: 'Maps 🗺️ by us' }]);
  });

  it('refuses one in an AI item payload update, and leaves the item as it was', async () => {
    const started = await call('POST', '/ai-location-imports', cast.ownerToken, {
      workspace_id: cast.workspaceId,
      answers: aiAnswers,
    });
    expect(started.statusCode, started.body).toBe(200);
    const { process, batch } = started.json();
    // The job as the worker would run it: the process answers only to its latest dispatch.
    const [row] = await ctx.deps.db.select().from(processesTable).where(eq(processesTable.id, process.id));
    await runJob('ai-imports.generate', { process_id: process.id }, ctx.deps, {
      id: row!.jobId!,
      retryCount: 0,
      retryLimit: 2,
    });
    const [item] = await ctx.deps.db
      .select()
      .from(aiImportItemsTable)
      .where(eq(aiImportItemsTable.batchId, batch.id));
    expect(item).toBeDefined();
    for (const [payload, field] of [
      [{ name: `Shop${LOW}` }, 'payload.name'],
      [{ custom_fields: { note: HIGH } }, 'payload.custom_fields.note'],
      [{ custom_fields: { [LOW]: 'x' } }, 'payload.custom_fields'],
    ] as const) {
      const res = await call('PATCH', `/ai-location-imports/${batch.id}/items/${item!.id}`, cast.ownerToken, {
        payload,
      });
      expect(res.statusCode, field).toBe(422);
      expect(res.json(), field).toEqual(surrogateRefused(field));
      const [after] = await ctx.deps.db
        .select()
        .from(aiImportItemsTable)
        .where(eq(aiImportItemsTable.id, item!.id));
      expect(after, field).toEqual(item);
    }
  });

  it('refuses one in a map body with the 400 of map validation', async () => {
    const before = await rows();
    const res = await call('POST', '/maps', cast.ownerToken, { title: `Map ${HIGH}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(surrogateRefused('title'));
    expect(await rows()).toEqual(before);
  });

  it('refuses one in a text/plain analytics body with 422 naming the field', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/analytics',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({
        finder_token: finderToken,
        events: [{ type: 'search', query: `coffee${LOW}` }],
      }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(surrogateRefused('events.0.query'));
  });

  it('answers a query string or path whose percent-encoding is a surrogate without a 500', async () => {
    const query = await ctx.app.inject({
      method: 'GET',
      url: '/api/users?q=%ED%A0%80',
      headers: { authorization: `Bearer ${cast.adminToken}` },
    });
    expect(query.statusCode).toBeLessThan(500);
    const path = await ctx.app.inject({ method: 'GET', url: '/api/register/abc%ED%A0%80def' });
    expect(path.statusCode).toBeLessThan(500);
    expect(path.statusCode).not.toBe(200);
  });
});

describe('bytes that are not UTF-8 in uploads', () => {
  // A surrogate half written as UTF-8 (CESU-8), which no valid UTF-8 contains.
  const SURROGATE_BYTES = Buffer.from([0xed, 0xa0, 0x80]);

  it('reads them as U+FFFD in CSV cells, so the rows are stored, and refuses them as a workspace id', async () => {
    const csv = Buffer.concat([
      Buffer.from('title,address,note\nCafe '),
      SURROGATE_BYTES,
      Buffer.from(',1 Main St,late '),
      SURROGATE_BYTES,
      Buffer.from('\n'),
    ]);
    const upload = (workspaceId: string | Buffer) =>
      multipartBody({
        fields: { workspace_id: workspaceId },
        files: [{ field: 'file', filename: 'shops.csv', contentType: 'text/csv', content: csv }],
      });
    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/api/locations/import',
      ...withToken(upload(String(cast.workspaceId))),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ created: 1, skipped: 0 });
    const [row] = await ctx.deps.db
      .select()
      .from(locationsTable)
      .where(eq(locationsTable.address, '1 Main St'));
    expect(row?.title.startsWith('Cafe \ufffd')).toBe(true);
    expect(row?.customValues).toEqual({ note: expect.stringMatching(/^late \ufffd/) });

    const before = await rows();
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/locations/import',
      ...withToken(upload(SURROGATE_BYTES)),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ workspace_id: ['The workspace id must be a positive integer.'] });
    expect(await rows()).toEqual(before);
  });
});

describe('nesting depth', () => {
  it('takes a body nesting 32 levels where a setting value is free JSON, and refuses 33 with 422', async () => {
    // The body, its settings array and the setting object are three levels: the value has the rest.
    const fits = { settings: [{ key: 'deep', value: nested(29) }] };
    const ok = await call('PUT', `/finders/${finderId}`, cast.ownerToken, fits);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await finderRow()).settings).toEqual(fits.settings);

    const before = await rows();
    const res = await call('PUT', `/finders/${finderId}`, cast.ownerToken, {
      settings: [{ key: 'deep', value: nested(30) }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(tooDeep);
    expect(await rows()).toEqual(before);
  });

  it('refuses 2,000 levels in a setting value and 8,000 in custom values with 422, and keeps answering', async () => {
    const before = await rows();
    const send = (url: string, method: 'POST' | 'PUT', payload: string) =>
      ctx.app.inject({
        method,
        url: `/api${url}`,
        headers: { authorization: `Bearer ${cast.ownerToken}`, 'content-type': 'application/json' },
        payload,
      });
    for (const [method, url, payload] of [
      ['PUT', `/finders/${finderId}`, `{"settings":[{"key":"deep","value":${nestedText(2_000)}}]}`],
      [
        'POST',
        '/locations',
        `{"workspace_id":${cast.workspaceId},"title":"Shop","custom_fields":{"note":${nestedText(8_000)}}}`,
      ],
      ['POST', '/locations', nestedText(100_000)],
      [
        'PUT',
        `/finders/${finderId}`,
        // Prototype keys make Fastify's parser scan the whole value (recursively): refused first.
        `{"__proto__":{"a":${nestedText(8_000)}}}`,
      ],
    ] as const) {
      const res = await send(url, method, payload);
      expect(res.statusCode, url).toBe(422);
      expect(res.json(), url).toEqual(tooDeep);
    }
    expect(await rows()).toEqual(before);
    expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('counts only brackets outside strings', async () => {
    const res = await call('PUT', `/finders/${finderId}`, cast.ownerToken, {
      settings: [{ key: 'tile_attribution', value: `${'['.repeat(50)} map ${'{'.repeat(50)}` }],
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a too deep map body with 400, and a too deep text/plain analytics body with 422', async () => {
    const map = await ctx.app.inject({
      method: 'POST',
      url: '/api/maps',
      headers: { authorization: `Bearer ${cast.ownerToken}`, 'content-type': 'application/json' },
      payload: `{"title":"Map","sets":${nestedText(40)}}`,
    });
    expect(map.statusCode).toBe(400);
    expect(map.json()).toEqual(tooDeep);
    const analytics = await ctx.app.inject({
      method: 'POST',
      url: '/api/analytics',
      headers: { 'content-type': 'text/plain' },
      payload: `{"finder_token":"${finderToken}","events":${nestedText(8_000)}}`,
    });
    expect(analytics.statusCode).toBe(422);
    expect(analytics.json()).toEqual(tooDeep);
  });

  it('asks for a token before it reads the body', async () => {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/finders/${finderId}`,
      headers: { 'content-type': 'application/json' },
      payload: nestedText(8_000),
    });
    expect(res.statusCode).toBe(401);
  });
});
