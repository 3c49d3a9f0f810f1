// Database errors a client can provoke never reach them as a 500: unique
// violations are answered in one place from the constraint's name, and a NUL character, which
// PostgreSQL cannot store in text or jsonb, is refused as a validation failure naming the field.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { uniqueConstraintErrors } from '../src/unique-constraints.ts';
import { createCast } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  ctx = await createTestContext({
    extend: (app) => {
      // Probe routes that run real failing statements: a unique violation the table gives no
      // field (a second session with an existing jti), and a NUL that no validator saw.
      app.post('/api/__probe/duplicate-session', async () => {
        await app.deps.db.execute(
          sql`insert into sessions (user_id, jti, expires_at) select user_id, jti, expires_at from sessions limit 1`,
        );
        return { ok: true };
      });
      app.post('/api/__probe/missing-reference', async () => {
        await app.deps.db.execute(sql`insert into locations (workspace_id, title) values (2147483647, 'x')`);
        return { ok: true };
      });
      // Two of these at once take the same two locks in opposite orders: a real deadlock.
      app.post<{ Querystring: { first: string } }>('/api/__probe/deadlock', async (request) => {
        const [first, second] = request.query.first === '1' ? [1, 2] : [2, 1];
        await app.deps.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(4242, ${first})`);
          await tx.execute(sql`select pg_sleep(0.3)`);
          await tx.execute(sql`select pg_advisory_xact_lock(4242, ${second})`);
        });
        return { ok: true };
      });
      app.post('/api/__probe/unvalidated-nul', async () => {
        await app.deps.db.execute(sql`select ${'a\u0000b'}::text`);
        return { ok: true };
      });
    },
  });
  cast = await createCast(ctx.deps);
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);

const externalIdTaken = {
  message: 'The given data was invalid.',
  code: 'validation_failed',
  errors: { external_id: ['The external id has already been taken.'] },
};

const locationsWithExternalId = async (externalId: string) =>
  (await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.externalId, externalId))).length;

describe('unique violations', () => {
  it('answers six parallel creates with one external_id: one 201, five 422 errors.external_id', async () => {
    for (const prefix of ['', '/admin']) {
      const token = prefix ? cast.adminToken : cast.ownerToken;
      const externalId = `store-${prefix || 'member'}`;
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, n) =>
          call('POST', `${prefix}/locations`, token, {
            workspace_id: cast.workspaceId,
            title: `Shop ${n}`,
            external_id: externalId,
          }),
        ),
      );
      const statuses = results.map((res) => res.statusCode).sort();
      expect(statuses, prefix).toEqual([201, 422, 422, 422, 422, 422]);
      for (const res of results.filter((r) => r.statusCode === 422)) {
        expect(res.json()).toEqual(externalIdTaken);
      }
      expect(await locationsWithExternalId(externalId)).toBe(1);
    }
  });

  it('answers 422 errors.external_id when PUT takes an external_id another location of the workspace has', async () => {
    for (const prefix of ['', '/admin']) {
      const token = prefix ? cast.adminToken : cast.ownerToken;
      const create = (title: string, external_id: string) =>
        call('POST', `${prefix}/locations`, token, { workspace_id: cast.workspaceId, title, external_id });
      const first = (await create('First', `put-a${prefix}`)).json();
      const second = (await create('Second', `put-b${prefix}`)).json();
      const res = await call('PUT', `${prefix}/locations/${second.id}`, token, {
        title: 'Renamed',
        external_id: first.external_id,
      });
      expect(res.statusCode, prefix).toBe(422);
      expect(res.json()).toEqual(externalIdTaken);
      // The whole update rolled back.
      const [row] = await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.id, second.id));
      expect(row).toMatchObject({ title: 'Second', externalId: `put-b${prefix}` });
    }
  });

  it('lets another workspace use the same external_id', async () => {
    const mine = await call('POST', '/locations', cast.ownerToken, {
      workspace_id: cast.workspaceId,
      title: 'Mine',
      external_id: 'shared-id',
    });
    const theirs = await call('POST', '/locations', cast.strangerToken, {
      workspace_id: cast.strangerWorkspaceId,
      title: 'Theirs',
      external_id: 'shared-id',
    });
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
  });

  it('answers a unique violation the table gives no field with 409 conflict', async () => {
    const res = await call('POST', '/__probe/duplicate-session');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'The request conflicts with data that already exists.',
      code: 'conflict',
    });
  });

  it('answers a foreign key violation (a row removed meanwhile) with 409 conflict', async () => {
    const res = await call('POST', '/__probe/missing-reference');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'The request refers to something that was removed meanwhile.',
      code: 'conflict',
    });
  });

  it('answers the loser of a deadlock with 409 conflict, and the winner as usual', async () => {
    const answers = await Promise.all([
      call('POST', '/__probe/deadlock?first=1'),
      call('POST', '/__probe/deadlock?first=2'),
    ]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((res) => res.statusCode === 409)!.json()).toEqual({
      message: 'The request collided with another one made at the same time; nothing was changed. Try again.',
      code: 'conflict',
    });
  });

  it('never answers 500 when a workspace is deleted while locations are created in it', async () => {
    const statuses = new Set<number>();
    for (let round = 0; round < 8; round++) {
      const workspace = (
        await call('POST', '/admin/workspaces', cast.adminToken, { name: `Race ${round}` })
      ).json();
      const create = () =>
        call('POST', '/admin/locations', cast.adminToken, { workspace_id: workspace.id, title: 'Shop' });
      const answers = await Promise.all([
        create(),
        create(),
        call('DELETE', `/admin/workspaces/${workspace.id}`, cast.adminToken),
        create(),
        create(),
      ]);
      for (const res of answers) statuses.add(res.statusCode);
    }
    // 409 when the insert lost the race, 404/422 when the workspace was gone before the check.
    expect([...statuses].filter((status) => ![201, 204, 404, 409, 422].includes(status))).toEqual([]);
  });

  it('knows every unique index of the database, and only existing ones', async () => {
    const rows = await ctx.deps.db.execute<{ name: string }>(sql`
      select i.relname as name
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_namespace n on n.oid = i.relnamespace
      where x.indisunique and not x.indisprimary and n.nspname = 'public'
      order by 1`);
    const inDatabase = [...rows].map((row) => row.name);
    expect(Object.keys(uniqueConstraintErrors).sort()).toEqual(inDatabase);
  });
});

const nulRefused = (field: string) => ({
  message: 'The given data was invalid.',
  code: 'validation_failed',
  errors: { [field]: [`The ${field} field may not contain NUL characters.`] },
});

describe('NUL characters', () => {
  const NUL = 'a\u0000b';

  it('refuses a NUL in a string field of any body with 422 naming the field, on every module', async () => {
    const cases: { method: 'POST' | 'PUT'; url: string; token?: string; body: object; field: string }[] = [
      {
        method: 'POST',
        url: '/register',
        body: {
          name: NUL,
          email: 'nul@example.test',
          password: 'password1',
          password_confirmation: 'password1',
        },
        field: 'name',
      },
      { method: 'POST', url: '/login', body: { email: NUL, password: 'whatever' }, field: 'email' },
      { method: 'POST', url: '/login', body: { email: 'a@b.test', password: NUL }, field: 'password' },
      { method: 'PUT', url: '/me', token: 'owner', body: { name: NUL }, field: 'name' },
      { method: 'POST', url: '/sets', token: 'owner', body: { workspace_id: 0, name: NUL }, field: 'name' },
      { method: 'POST', url: '/tags', token: 'owner', body: { workspace_id: 0, name: NUL }, field: 'name' },
      {
        method: 'POST',
        url: '/custom-field-definitions',
        token: 'owner',
        body: { workspace_id: 0, name: 'nul', label: NUL, type: 'text' },
        field: 'label',
      },
      {
        method: 'POST',
        url: '/locations',
        token: 'owner',
        body: { workspace_id: 0, title: 'Shop', address: NUL },
        field: 'address',
      },
      {
        method: 'POST',
        url: '/locations',
        token: 'owner',
        body: { workspace_id: 0, title: 'Shop', tags: ['ok', NUL] },
        field: 'tags.1',
      },
      {
        method: 'POST',
        url: '/locations',
        token: 'owner',
        body: { workspace_id: 0, title: 'Shop', custom_fields: { note: NUL } },
        field: 'custom_fields.note',
      },
      {
        method: 'POST',
        url: '/locations',
        token: 'owner',
        // A NUL in a key is reported on the object holding it, so the answer never echoes it.
        body: { workspace_id: 0, title: 'Shop', custom_fields: { [NUL]: 'x' } },
        field: 'custom_fields',
      },
    ];
    for (const { method, url, token, body, field } of cases) {
      const payload = 'workspace_id' in body ? { ...body, workspace_id: cast.workspaceId } : body;
      const res = await call(method, url, token ? cast.ownerToken : undefined, payload);
      expect(res.statusCode, `${method} ${url} ${field}`).toBe(422);
      expect(res.json(), `${method} ${url} ${field}`).toEqual(nulRefused(field));
    }
  });

  it('refuses a NUL in a map body with the 400 of map validation', async () => {
    const res = await call('POST', '/maps', cast.ownerToken, { title: NUL });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(nulRefused('title'));
  });

  it('refuses a NUL in a query parameter with 422 naming it', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/users?q=%00',
      headers: { authorization: `Bearer ${cast.adminToken}` },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(nulRefused('q'));
  });

  it('answers a NUL that reaches PostgreSQL all the same (22021) with 422, not 500', async () => {
    const res = await call('POST', '/__probe/unvalidated-nul');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { body: ['The request contains characters that cannot be stored.'] },
    });
  });

  it('answers a NUL in a path parameter as an unknown resource', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/register/abc%00def' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});
