// What the log must never hold (issue 14, point 6): the values of a failed query (a password
// hash, an email) that database errors carry, secret path segments (invite and finder tokens)
// and query strings of the request log.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.ts';
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

describe('the request log', () => {
  it('writes no invite token, finder token or query string', async () => {
    const secret = randomBytes(24).toString('base64url');
    logLines.length = 0;
    const urls = [
      `/api/register/${secret}`,
      `/api/register/${secret}/`,
      `/api/ext/finders/details/${secret}`,
      `/api/finders/token/${secret}`,
      `/api/admin/finders/token/${secret}`,
      `/cdn/finders/${secret}/config.json`,
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
      '/api/mapping/places',
      '/api/me',
    ]);
    expect(logged()).not.toContain(secret);
  });
});
