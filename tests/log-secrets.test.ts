// What the log must never hold: the values of a failed query (a password
// hash, an email) that database errors carry, secret path segments (invite and finder tokens)
// and query strings of the request log.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, serializeError } from '../src/lib/logger.ts';
import { UpstreamError } from '../src/lib/upstream.ts';
import { bearer, createUser, DEFAULT_PASSWORD, tokenFor } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});
const logged = () => logLines.join('\n');

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ logger: createLogger({ logLevel: 'debug' }, sink) });
  // A database that refuses one user update, as a full disk or a broken replica would refuse any.
  await ctx.deps.db.execute(sql`
    create function refuse_exploding_update() returns trigger language plpgsql as $$
    begin
      -- The detail carries row values, as PostgreSQL's own "Failing row contains (...)" does.
      if new.name = 'Explode' then
        raise exception 'forced failure of a user update' using detail = 'Failing row contains (' || new.email || ')';
      end if;
      -- A cast that fails after the value: PostgreSQL quotes the text up to the failure in the
      -- error's context (\`where\`: "JSON data, line 1: {"email": "<the email>"").
      if new.name = 'Explode where' then
        perform ('{"email": "' || new.email || '"')::jsonb;
      end if;
      -- A statement the function builds with the value inside: its text comes back in the
      -- error's \`internal_query\` (a syntax error) or in its context.
      if new.name = 'Explode internal' then
        execute 'select ' || quote_literal(new.email) || ' from from';
      end if;
      return new;
    end $$`);
  await ctx.deps.db.execute(sql`
    create trigger refuse_exploding_update before update on users
    for each row execute function refuse_exploding_update()`);
});
afterAll(async () => {
  await ctx?.close();
});

describe('database errors in the log', () => {
  it('logs a failing user update without the values of the query: no hash, no email, no password', async () => {
    const user = await createUser(ctx.deps);
    const token = await tokenFor(ctx.deps, user);
    const newEmail = `secret-${randomBytes(6).toString('hex')}@example.test`;
    const newPassword = `New-${randomBytes(6).toString('hex')}`;
    logLines.length = 0;
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/me',
      headers: bearer(token),
      payload: {
        name: 'Explode',
        email: newEmail,
        current_password: DEFAULT_PASSWORD,
        password: newPassword,
        password_confirmation: newPassword,
      },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Server error.', code: 'internal_error' });

    const errorLine = logLines.map((line) => JSON.parse(line)).find((line) => line.msg === 'unhandled error');
    expect(errorLine).toBeDefined();
    // Still useful: what failed, where, and the SQL without its values.
    expect(JSON.stringify(errorLine.err)).toContain('forced failure of a user update');
    expect(errorLine.err.query).toMatch(/^update "users"/);
    expect(errorLine.err.stack).toContain('account.service');
    const all = logged();
    expect(all).not.toContain('$argon2');
    expect(all).not.toContain(newEmail);
    expect(all).not.toContain(newPassword);
    expect(all).not.toContain(user.email);
  });
});

describe('PostgreSQL error fields that quote data', () => {
  it.each([
    ['Explode where', 'where'],
    ['Explode internal', 'internal_query'],
  ])(
    'logs a failing update (%s) without its %s: the value is in neither the line nor the answer',
    async (name, field) => {
      const user = await createUser(ctx.deps);
      const token = await tokenFor(ctx.deps, user);
      const newEmail = `quoted-${randomBytes(6).toString('hex')}@example.test`;
      // What PostgreSQL puts in the field when nothing drops it: the value itself.
      const raw = await ctx.deps.db
        .execute(sql`update users set name = ${name}, email = ${newEmail} where id = ${user.id}`)
        .then(
          () => undefined,
          (error: { cause?: Record<string, unknown> }) => error.cause,
        );
      expect(String(raw?.[field])).toContain(newEmail);

      logLines.length = 0;
      const res = await ctx.app.inject({
        method: 'PUT',
        url: '/api/me',
        headers: bearer(token),
        payload: { name, email: newEmail, current_password: DEFAULT_PASSWORD },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Server error.', code: 'internal_error' });
      const errorLine = logLines
        .map((line) => JSON.parse(line))
        .find((line) => line.msg === 'unhandled error');
      expect(errorLine).toBeDefined();
      // Still useful: the statement without its values, and PostgreSQL's code.
      expect(errorLine.err.query).toMatch(/^update "users"/);
      expect(JSON.stringify(errorLine.err)).toMatch(/"code":"(22P02|42601)"/);
      expect(JSON.stringify(errorLine.err)).not.toContain(`"${field}"`);
      expect(logged()).not.toContain(newEmail);
      expect(res.body).not.toContain(newEmail);
    },
  );

  it('drops where, internal_query and detail through every cause when serialising an error', () => {
    const pgError = Object.assign(new Error('invalid input syntax for type json'), {
      code: '22P02',
      detail: 'Token "ada" is invalid.',
      where: 'JSON data, line 1: ada@example.test',
      internal_query: "select 'ada@example.test' from from",
      internal_position: '8',
      hint: 'Check the statement.',
      query: 'update "users" set "email" = $1',
      parameters: ['ada@example.test'],
    });
    const wrapped = new Error('Failed query: update "users" set "email" = $1\nparams: ada@example.test', {
      cause: pgError,
    });
    const outer = new Error('the request failed', { cause: wrapped });
    const serialized = serializeError(outer) as { cause: { cause: Record<string, unknown> } };
    expect(JSON.stringify(serialized)).not.toContain('ada@example.test');
    expect(serialized.cause.cause).toMatchObject({
      code: '22P02',
      hint: 'Check the statement.',
      query: 'update "users" set "email" = $1',
    });
    for (const field of ['where', 'internal_query', 'detail', 'parameters']) {
      expect(serialized.cause.cause).not.toHaveProperty(field);
    }
  });
});

describe("another service's answer", () => {
  it("logs an UpstreamError's service, failure and status, never the body it answered", () => {
    // A proxy's error page that echoes the request: the address and the key-bearing URL.
    const echoed = '<h1>502</h1> GET /search?q=Unter+den+Linden+1&key=sk-live-123';
    const error = new UpstreamError('nominatim', 'status', 'answered 502', 502, echoed);
    const serialized = serializeError(new Error('geocoding failed', { cause: error })) as {
      cause: Record<string, unknown>;
    };
    expect(serialized.cause).toMatchObject({ service: 'nominatim', failure: 'status', status: 502 });
    expect(serialized.cause).not.toHaveProperty('body');
    expect(JSON.stringify(serialized)).not.toMatch(/Linden|sk-live/);
  });
});

describe('the request log', () => {
  it('writes no invite token, finder token (demo page included) or query string', async () => {
    const secret = randomBytes(24).toString('base64url');
    logLines.length = 0;
    const urls = [
      `/api/register/${secret}`,
      `/api/register/${secret}/`,
      `/api/ext/finders/details/${secret}`,
      `/api/finders/token/${secret}`,
      `/api/admin/finders/token/${secret}`,
      `/cdn/finders/${secret}/config.json`,
      `/demo/${secret}`,
      `/demo/${secret}/`,
      `//DEMO//${secret}`,
      `/api/mapping/places?finder_key=${secret}`,
      `/api/me?access_token=${secret}`,
    ];
    for (const url of urls) await ctx.app.inject({ method: 'GET', url });
    const requests = logLines
      .map((line) => JSON.parse(line))
      .filter((line) => line.req)
      .map((line) => line.req.url);
    expect(requests).toEqual([
      '/api/register/[redacted]',
      '/api/register/[redacted]/',
      '/api/ext/finders/details/[redacted]',
      '/api/finders/token/[redacted]',
      '/api/admin/finders/token/[redacted]',
      '/cdn/finders/[redacted]/config.json',
      '/demo/[redacted]',
      '/demo/[redacted]/',
      '//DEMO//[redacted]',
      '/api/mapping/places',
      '/api/me',
    ]);
    expect(logged()).not.toContain(secret);
  });
});
