// Lists are streamed in batches, rendered by PostgreSQL. The streamed body must be byte for byte
// what the single read gives for each of its locations, through the response schema
// (tests/helpers/unstreamed-lists.ts), pages must concatenate to the whole list, and a long list
// must leave in chunks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LIST_BATCH_ROWS } from '../src/lib/pagination.ts';
import { adminUserPayloadSchema } from '../src/modules/admin/users/users.admin.schemas.ts';
import { locationSchema } from '../src/modules/locations/locations.schemas.ts';
import { setSchema } from '../src/modules/sets/sets.schemas.ts';
import { tagSchema } from '../src/modules/tags/tags.schemas.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createWorkspace, firstWorkspaceId } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';
import {
  type PageQuery,
  unstreamedAdminUsers,
  unstreamedLocations,
  unstreamedNamed,
} from './helpers/unstreamed-lists.ts';

const LOCATIONS = 4_500; // more than two batches
let ctx: TestContext;
let owner: UserRow;
let token: string;
let strangerToken: string;
let workspaceId: number;
let port: number;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await createUser(ctx.deps);
  token = await tokenFor(ctx.deps, owner);
  strangerToken = await tokenFor(ctx.deps, await createUser(ctx.deps));
  workspaceId = await firstWorkspaceId(ctx.deps, owner);
  const ws = workspaceId;
  await ctx.deps.db.transaction(async (tx) => {
    await tx.execute(sql`insert into custom_field_definitions (workspace_id, name, label, type)
      values (${ws}, 'seats', 'Seats', 'number'), (${ws}, 'note', 'Note', 'text'), (${ws}, 'meta', 'Meta', 'text'),
        (${ws}, '7', 'Seven', 'boolean')`);
    await tx.execute(sql`insert into tags (workspace_id, name, slug)
      values (${ws}, 'Zeta "quoted"', 'zeta'), (${ws}, 'alpha', 'alpha'), (${ws}, 'Ünïcode ✓', 'unicode')`);
    await tx.execute(sql`insert into sets (workspace_id, name) values (${ws}, 'Set B'), (${ws}, 'Set A')`);
    // Values that tell JSON writers apart: quotes, backslashes, control characters, non-ASCII,
    // tiny and large floats, numbers jsonb keeps with trailing zeros, orphaned custom values.
    await tx.execute(sql`insert into locations (workspace_id, external_id, title, description, address, city,
        zip, lat, lng, phone, email, website, image_url, custom_values, created_at)
      select ${ws}, case when g % 2 = 0 then 'EXT-' || g end,
        'Store "' || g || '" \\ back' || case when g % 7 = 0 then E'\\n\\ttab\\u0001' else '' end,
        case when g % 3 = 0 then 'Ünïcode — ✓ ' || g end, g || ' Main St', 'Springfield', (10000 + g)::text,
        case g % 5 when 0 then 0.00001 when 1 then -89.5 when 2 then null when 3 then 1e-7 else 45.123456789012345 end,
        case g % 4 when 0 then 179.99999999999997 when 1 then -0.0001 when 2 then 12
          else case when g % 8 = 3 then '-0'::float8 else 999999999999999.9 * (g % 3 - 1) end end,
        '+1 555 ' || g, 'store' || g || '@example.test', null,
        case when g % 11 = 0 then 'https://cdn.example.test/' || g || '.png' end,
        case g % 5 when 0 then '{}'::jsonb
          when 1 then jsonb_build_object('seats', 1.50, 'note', 'n"' || g)
          when 2 then jsonb_build_object('seats', g, 'gone', 'orphaned value')
          when 3 then jsonb_build_object('note', E'line\\nbreak')
          -- JavaScript lists integer keys first; nested values, long integers and fractions.
          else jsonb_build_object('note', 'x', '7', true, 'meta', jsonb_build_object('b', 1, 'a', jsonb_build_array(1.0, 'x', null)),
            'seats', case when g % 3 = 0 then 12345678901234567 else 0.0000001 end) end,
        timestamptz '2026-01-01 00:00:00.123456+00' + g * interval '1 second 1 microsecond'
      from generate_series(1, ${LOCATIONS}) g`);
    await tx.execute(sql`insert into location_tags (location_id, tag_id)
      select l.id, t.id from locations l join tags t on t.workspace_id = l.workspace_id
      where l.workspace_id = ${ws} and (l.id + t.id) % 3 <> 0`);
    await tx.execute(sql`insert into location_sets (location_id, set_id)
      select l.id, s.id from locations l join sets s on s.workspace_id = l.workspace_id
      where l.workspace_id = ${ws} and (l.id + s.id) % 2 = 0`);
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await ctx?.close();
});

/** The list as the single read renders each of its locations, through the response schema. */
async function previousBody(
  query: { limit?: number; offset?: number } = {},
  ws = workspaceId,
): Promise<string> {
  const items = await unstreamedLocations(ctx.deps.db, ws, query);
  return JSON.stringify(z.array(locationSchema).parse(items));
}

const list = (query = '', bearerToken = token) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/locations?workspace_id=${workspaceId}${query}`,
    headers: bearer(bearerToken),
  });

describe('GET /api/locations, streamed', () => {
  it('sends the whole list byte for byte as before, every row valid against the schema', async () => {
    expect(LOCATIONS).toBeGreaterThan(2 * LIST_BATCH_ROWS);
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-total-count']).toBeUndefined();
    const rows = z.array(locationSchema).parse(res.json());
    expect(rows).toHaveLength(LOCATIONS);
    expect(rows.map((row) => row.id)).toEqual([...rows.map((row) => row.id)].sort((a, b) => a - b));
    expect(res.body).toBe(await previousBody());
    // Orphaned values stay hidden, as before.
    expect(rows.some((row) => 'gone' in row.custom_fields)).toBe(false);
  });

  it('pages concatenate to the whole list, with X-Total-Count, and a deep page matches too', async () => {
    const whole = (await list()).json() as { id: number }[];
    const pages: { id: number }[] = [];
    for (let offset = 0; offset < LOCATIONS; offset += 1000) {
      const res = await list(`&limit=1000&offset=${offset}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe(String(LOCATIONS));
      expect(res.headers['content-length']).toBeDefined();
      expect(res.body).toBe(await previousBody({ limit: 1000, offset }));
      pages.push(...res.json());
    }
    expect(pages).toEqual(whole);
    // An offset without a limit: the rest of the list, streamed.
    const rest = await list('&offset=1500');
    expect(rest.body).toBe(await previousBody({ offset: 1500 }));
    expect(rest.headers['x-total-count']).toBe(String(LOCATIONS));
    // Past the end: an empty page.
    const beyond = await list(`&limit=10&offset=${LOCATIONS + 5}`);
    expect(beyond.body).toBe('[]');
  });

  it('writes a long list in chunks (chunked transfer), a short one whole', async () => {
    const { headers, chunks, body } = await new Promise<{
      headers: http.IncomingHttpHeaders;
      chunks: number;
      body: string;
    }>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            path: `/api/locations?workspace_id=${workspaceId}`,
            headers: bearer(token),
          },
          (res) => {
            let chunks = 0;
            const parts: Buffer[] = [];
            res.on('data', (chunk: Buffer) => {
              chunks += 1;
              parts.push(chunk);
            });
            res.on('end', () =>
              resolve({ headers: res.headers, chunks, body: Buffer.concat(parts).toString() }),
            );
            res.on('error', reject);
          },
        )
        .on('error', reject);
    });
    expect(headers['transfer-encoding']).toBe('chunked');
    expect(headers['content-length']).toBeUndefined();
    expect(chunks).toBeGreaterThan(1);
    expect(body).toBe(await previousBody());

    const short = await list('&limit=5');
    expect(short.headers['content-length']).toBe(String(Buffer.byteLength(short.body)));
  });

  it('answers errors before the first byte as before: foreign workspace 404, bad paging 422', async () => {
    const foreign = await list('', strangerToken);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'not_found' });
    for (const query of ['&limit=0', '&limit=1001', '&offset=-1', '&limit=abc']) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('sends plain values (few floats or custom values JavaScript writes differently) byte for byte too', async () => {
    // The values above are mostly ones JavaScript writes again; these mostly are not.
    const ws = await createWorkspace(ctx.deps, owner, 'Plain values');
    await ctx.deps.db.transaction(async (tx) => {
      await tx.execute(sql`insert into custom_field_definitions (workspace_id, name, label, type)
        values (${ws}, 'seats', 'Seats', 'number'), (${ws}, 'kind', 'Kind', 'text'), (${ws}, 'open', 'Open', 'boolean')`);
      await tx.execute(
        sql`insert into tags (workspace_id, name, slug) values (${ws}, 'Wi-Fi "fast"', 'wifi'), (${ws}, 'atm', 'atm')`,
      );
      await tx.execute(sql`insert into locations (workspace_id, external_id, title, address, zip, lat, lng, custom_values)
        select ${ws}, 'P-' || g, 'Plain ' || g || E' "q" \\ ✓', g || ' Road', null, (g % 180) - 89.5, case when g % 2 = 0 then 12 else -0.5 end,
          case g % 3 when 0 then '{}'::jsonb when 1 then jsonb_build_object('seats', g, 'kind', 'k"' || g, 'open', true)
            -- Multiselect values: flat arrays, empty ones, and one JavaScript writes differently (2.50).
            else jsonb_build_object('seats', -g, 'open', null, 'kind', case g % 4
              when 0 then jsonb_build_array('a "q"', 'b\\c', g, true, null)
              when 1 then '[]'::jsonb
              else jsonb_build_array('x', 2.50) end) end
        from generate_series(1, 2500) g`);
      await tx.execute(sql`insert into location_tags (location_id, tag_id)
        select l.id, t.id from locations l join tags t on t.workspace_id = l.workspace_id where l.workspace_id = ${ws}`);
    });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?workspace_id=${ws}`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(z.array(locationSchema).parse(res.json())).toHaveLength(2500);
    expect(res.body).toBe(await previousBody({}, ws));
  });

  it('writes floats JavaScript writes longer than PostgreSQL (1e-06 as 0.000001) as before', async () => {
    // A text whose first values grow: no bytes freed before them to rewrite them in place.
    const ws = await createWorkspace(ctx.deps, owner, 'Tiny floats');
    await ctx.deps.db.execute(sql`insert into locations (workspace_id, title, lat, lng)
      select ${ws}, 'Tiny ' || g, 0.000001 * g, -0.0000015 from generate_series(1, 3) g`);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?workspace_id=${ws}`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('"lat":0.000001,"lng":-0.0000015');
    expect(res.body).toBe(await previousBody({}, ws));
  });

  it('lists a location as it is after a change (PUT, CSV re-import), never as first written', async () => {
    // A row's own fields are listed from columns PostgreSQL keeps (locations.listed-json.ts):
    // every kind of write must leave them current.
    const ws = await createWorkspace(ctx.deps, owner, 'Changed rows');
    await ctx.deps.db.execute(sql`insert into locations (workspace_id, external_id, title, lat, lng, created_at, updated_at)
      select ${ws}, 'C-' || g, 'First ' || g, 10, 20, now() - interval '1 day', now() - interval '1 day'
      from generate_series(1, 3) g`);
    const before = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?workspace_id=${ws}`,
      headers: bearer(token),
    });
    const [first, second] = z.array(locationSchema).parse(before.json());

    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/locations/${first!.id}`,
      headers: bearer(token),
      payload: { title: 'Put "quoted"\nline', lat: 0.00001, website: 'https://put.example.test' },
    });
    expect(put.statusCode).toBe(200);
    const csv = 'external_id,title,address,city\nC-2,"Imported \\ again",2 Import Road,Reimport City\n';
    const body = multipart({
      fields: { workspace_id: String(ws) },
      files: [
        { field: 'file', filename: 'locations.csv', contentType: 'text/csv', content: Buffer.from(csv) },
      ],
    });
    const imported = await ctx.app.inject({
      method: 'POST',
      url: '/api/locations/import',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
    expect(imported.statusCode, imported.body).toBe(200);

    const after = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?workspace_id=${ws}`,
      headers: bearer(token),
    });
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(await previousBody({}, ws));
    const rows = z.array(locationSchema).parse(after.json());
    expect(rows[0]).toMatchObject({
      title: 'Put "quoted"\nline',
      lat: 0.00001,
      website: 'https://put.example.test',
    });
    expect(rows[0]!.updated_at).toBe(put.json().updated_at);
    expect(rows[0]!.updated_at).not.toBe(first!.updated_at);
    expect(rows[1]).toMatchObject({
      title: 'Imported \\ again',
      address: '2 Import Road',
      city: 'Reimport City',
    });
    expect(rows[1]!.updated_at).not.toBe(second!.updated_at);
  });

  it('the admin list streams the same rows', async () => {
    const admin = await createUser(ctx.deps, { role: 'admin' });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/admin/locations?workspace_id=${workspaceId}`,
      headers: bearer(await tokenFor(ctx.deps, admin)),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(await previousBody());
  });
});

describe('GET /api/users (admin), streamed', () => {
  it('sends more than a batch of users byte for byte as before, pages concatenating to it', async () => {
    await ctx.deps.db.execute(sql`insert into users (name, email, password_hash, role, subscription_status, subscription_tier)
      select 'Bulk "user" ' || g, 'bulk' || g || '@example.test', 'x', 'user', 'active', 'premium'
      from generate_series(1, 2100) g`);
    const admin = await createUser(ctx.deps, { role: 'admin' });
    const headers = bearer(await tokenFor(ctx.deps, admin));
    const previous = async (query: PageQuery = {}) =>
      JSON.stringify(
        z.encode(z.array(adminUserPayloadSchema), await unstreamedAdminUsers(ctx.deps.db, undefined, query)),
      );
    const whole = await ctx.app.inject({ method: 'GET', url: '/api/users', headers });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBeUndefined();
    expect(whole.body).toBe(await previous());
    const count = (whole.json() as unknown[]).length;
    expect(count).toBeGreaterThan(2100);
    const pages: unknown[] = [];
    for (let offset = 0; offset < count; offset += 1000) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/users?limit=1000&offset=${offset}`,
        headers,
      });
      expect(res.headers['x-total-count']).toBe(String(count));
      expect(res.body).toBe(await previous({ limit: 1000, offset }));
      pages.push(...res.json());
    }
    expect(pages).toEqual(whole.json());
    const filtered = await ctx.app.inject({ method: 'GET', url: '/api/users?q=bulk1', headers });
    expect(filtered.body).toBe(
      JSON.stringify(
        z.encode(z.array(adminUserPayloadSchema), await unstreamedAdminUsers(ctx.deps.db, 'bulk1')),
      ),
    );
  });
});

describe('GET /api/tags and /api/sets, streamed', () => {
  it('sends more than a batch byte for byte as before, pages concatenating to it', async () => {
    const ws = await createWorkspace(ctx.deps, owner, 'Many tags');
    await ctx.deps.db.execute(sql`insert into tags (workspace_id, name, slug)
      select ${ws}, 'Tag "' || g || '" ✓', 'tag-' || g from generate_series(1, 2100) g`);
    await ctx.deps.db.execute(sql`insert into sets (workspace_id, name)
      select ${ws}, 'Set ' || g from generate_series(1, 1500) g`);
    for (const [resource, schema] of [
      ['tags', tagSchema],
      ['sets', setSchema],
    ] as const) {
      const previous = async (query: PageQuery = {}) =>
        JSON.stringify(
          z.encode(z.array(schema), (await unstreamedNamed(ctx.deps.db, resource, ws, query)) as never),
        );
      const url = `/api/${resource}?workspace_id=${ws}`;
      const whole = await ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-length']).toBeUndefined();
      expect(whole.body).toBe(await previous());
      const page = await ctx.app.inject({
        method: 'GET',
        url: `${url}&limit=1000&offset=1000`,
        headers: bearer(token),
      });
      expect(page.headers['x-total-count']).toBe(String((whole.json() as unknown[]).length));
      expect(page.body).toBe(await previous({ limit: 1000, offset: 1000 }));
      const foreign = await ctx.app.inject({ method: 'GET', url, headers: bearer(strangerToken) });
      expect(foreign.statusCode).toBe(404);
    }
  });
});
