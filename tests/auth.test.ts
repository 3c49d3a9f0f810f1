import { count, eq } from 'drizzle-orm';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogsTable } from '../src/modules/audit/audit.table.ts';
import { sessionsTable } from '../src/modules/auth/sessions/sessions.table.ts';
import { usersTable } from '../src/modules/users/users.table.ts';
import { workspaceMembersTable, workspacesTable } from '../src/modules/workspaces/workspaces.table.ts';
import { bearer, createUser, DEFAULT_PASSWORD, tokenFor } from './factories/users.ts';
import { createTestContext, TEST_JWT_SECRET, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const registerBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email: `ada-${Math.random().toString(36).slice(2)}@example.test`,
  password: 'analytical-engine',
  password_confirmation: 'analytical-engine',
  ...overrides,
});

const secret = new TextEncoder().encode(TEST_JWT_SECRET);

describe('POST /api/register', () => {
  it('creates a trialing free user, their first workspace and a session', async () => {
    const body = registerBody();
    const res = await ctx.app.inject({ method: 'POST', url: '/api/register', payload: body });
    expect(res.statusCode).toBe(201);
    const json = res.json();
    expect(json).toMatchObject({
      token_type: 'Bearer',
      expires_in: 1209600,
      user: {
        name: 'Ada Lovelace',
        email: body.email,
        role: 'user',
        subscription_status: 'trialing',
        subscription_tier: 'free',
        permissions: [],
        paddle_customer_id: null,
      },
    });
    const trialEnds = new Date(json.user.trial_ends_at).getTime();
    expect(Math.abs(trialEnds - (Date.now() + 14 * 24 * 3600 * 1000))).toBeLessThan(60_000);
    expect(json.user).not.toHaveProperty('password_hash');
    expect(JSON.stringify(json)).not.toContain('argon2');

    const [user] = await ctx.deps.db.select().from(usersTable).where(eq(usersTable.id, json.user.id));
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
    const memberships = await ctx.deps.db
      .select({ role: workspaceMembersTable.role, name: workspacesTable.name })
      .from(workspaceMembersTable)
      .innerJoin(workspacesTable, eq(workspacesTable.id, workspaceMembersTable.workspaceId))
      .where(eq(workspaceMembersTable.userId, json.user.id));
    expect(memberships).toEqual([{ role: 'owner', name: "Ada Lovelace's workspace" }]);

    const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(json.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(json.user.id);
  });

  it('names every missing field', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/register', payload: {} });
    expect(res.statusCode).toBe(422);
    const json = res.json();
    expect(json.message).toBe('The given data was invalid.');
    expect(json.code).toBe('validation_failed');
    expect(Object.keys(json.errors).sort()).toEqual(['email', 'name', 'password', 'password_confirmation']);
  });

  it.each([
    [{ email: 'not-an-email' }, 'email'],
    [{ password: 'short', password_confirmation: 'short' }, 'password'],
    [{ password_confirmation: 'something-else' }, 'password'],
    [{ name: '   ' }, 'name'],
    [{ name: 42 }, 'name'],
  ])('refuses %j with an error on %s and writes nothing', async (overrides, field) => {
    const before = await ctx.deps.db.select({ n: count() }).from(usersTable);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registerBody(overrides),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[field]).toBeInstanceOf(Array);
    const after = await ctx.deps.db.select({ n: count() }).from(usersTable);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('refuses an email already taken, compared case-insensitively', async () => {
    const first = registerBody();
    expect((await ctx.app.inject({ method: 'POST', url: '/api/register', payload: first })).statusCode).toBe(
      201,
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registerBody({ email: first.email.toUpperCase() }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toEqual(['The email has already been taken.']);
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Malformed JSON body.', code: 'bad_request' });
  });
});

describe('POST /api/login', () => {
  it('issues a token whose claims a second JWT library verifies', async () => {
    const user = await createUser(ctx.deps, { role: 'user' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email.toUpperCase(), password: DEFAULT_PASSWORD },
      headers: { 'user-agent': 'jest-browser/1.0' },
    });
    expect(res.statusCode).toBe(200);
    const json = res.json();
    expect(json.token_type).toBe('Bearer');
    expect(json.expires_in).toBe(20160 * 60);
    expect(json.user.id).toBe(user.id);

    const { payload, protectedHeader } = await jwtVerify(json.token, secret, {
      issuer: ctx.config.jwt.issuer,
      algorithms: ['HS256'],
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.sub).toBe(String(user.id));
    expect(payload).toMatchObject({
      role: 'user',
      subscription_status: 'trialing',
      subscription_tier: 'free',
    });
    for (const claim of ['iss', 'iat', 'exp', 'nbf', 'sub', 'jti']) expect(payload).toHaveProperty(claim);
    expect(payload.exp! - payload.iat!).toBe(20160 * 60);
    expect(payload.nbf).toBe(payload.iat);

    const [session] = await ctx.deps.db
      .select()
      .from(sessionsTable)
      .where(eq(sessionsTable.jti, payload.jti!));
    expect(session).toMatchObject({ userId: user.id, userAgent: 'jest-browser/1.0', revokedAt: null });
    expect(session!.expiresAt.getTime()).toBe(payload.exp! * 1000);
  });

  it('answers 401 for a wrong password or an unknown email, with the same message', async () => {
    const user = await createUser(ctx.deps);
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: 'not the password' },
    });
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'nobody@example.test', password: 'whatever1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      message: 'These credentials do not match our records.',
      code: 'unauthenticated',
    });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('validates its body', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: '' } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'password']);
  });

  it('throttles after 5 failures a minute per email and IP, even for the right password', async () => {
    const user = await createUser(ctx.deps);
    const attempt = (password: string, ip = '10.9.8.7') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password },
        remoteAddress: ip,
      });
    for (let i = 0; i < 5; i++) expect((await attempt('wrong-password')).statusCode).toBe(401);
    const blocked = await attempt(DEFAULT_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ message: 'Too many requests.', code: 'rate_limited' });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another IP is a different key.
    expect((await attempt(DEFAULT_PASSWORD, '10.1.1.1')).statusCode).toBe(200);
  });

  it('refuses a soft-deleted user, whose email can register again', async () => {
    const user = await createUser(ctx.deps);
    const token = await tokenFor(ctx.deps, user);
    await ctx.deps.db.update(usersTable).set({ deletedAt: new Date() }).where(eq(usersTable.id, user.id));
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: DEFAULT_PASSWORD },
    });
    expect(login.statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).statusCode).toBe(
      401,
    );
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registerBody({ email: user.email }),
    });
    expect(again.statusCode).toBe(201);
  });
});

describe('the auth:api and auth_session checks', () => {
  const me = (headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: '/api/me', headers });

  it('answers 401 without a token, with garbage, or with a token signed by another key', async () => {
    const user = await createUser(ctx.deps);
    const good = decodeJwt(await tokenFor(ctx.deps, user));
    const forged = await new SignJWT({ ...good })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    for (const headers of [{}, bearer('not.a.jwt'), bearer(forged), { authorization: 'Basic abc' }]) {
      const res = await me(headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.', code: 'unauthenticated' });
    }
  });

  it('answers 401 for an expired token and for one whose session row is missing', async () => {
    const user = await createUser(ctx.deps);
    const claims = decodeJwt(await tokenFor(ctx.deps, user));
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ...claims, iat: now - 7200, nbf: now - 7200, exp: now - 3600 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(secret);
    expect((await me(bearer(expired))).statusCode).toBe(401);
    const unknownSession = await new SignJWT({ ...claims, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(secret);
    expect((await me(bearer(unknownSession))).statusCode).toBe(401);
  });

  describe('the six registered claims, each required with its type', () => {
    /** The claims of a live session's token, changed by `change`, signed with the right secret. */
    async function resigned(change: (claims: Record<string, unknown>) => void): Promise<string> {
      const user = await createUser(ctx.deps);
      const claims: Record<string, unknown> = { ...decodeJwt(await tokenFor(ctx.deps, user)) };
      change(claims);
      return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    }

    it('accepts the token re-signed unchanged (the control of the cases below)', async () => {
      expect((await me(bearer(await resigned(() => {})))).statusCode).toBe(200);
    });

    it.each(['iss', 'iat', 'nbf', 'exp', 'sub', 'jti'])(
      'answers 401 for a token without %s',
      async (claim) => {
        const res = await me(
          bearer(
            await resigned((claims) => {
              delete claims[claim];
            }),
          ),
        );
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: 'Unauthenticated.', code: 'unauthenticated' });
      },
    );

    it.each([
      ['jti', 'not-a-uuid'],
      ['jti', `${crypto.randomUUID()}x`],
      ['jti', 42],
      ['iss', 7],
      ['iat', String(Math.floor(Date.now() / 1000))],
      ['iat', 1.5],
      ['nbf', String(Math.floor(Date.now() / 1000))],
      ['sub', 'abc'],
      ['sub', '0'],
      ['sub', '-1'],
      ['sub', '01'],
      ['sub', 1],
    ])('answers 401 (never 500) when %s is %j', async (claim, value) => {
      const res = await me(
        bearer(
          await resigned((claims) => {
            claims[claim] = value;
          }),
        ),
      );
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.', code: 'unauthenticated' });
    });
  });

  it('refreshes last_used_at at most once a minute', async () => {
    const user = await createUser(ctx.deps);
    const token = await tokenFor(ctx.deps, user);
    const { jti } = decodeJwt(token);
    const old = new Date(Date.now() - 5 * 60_000);
    await ctx.deps.db.update(sessionsTable).set({ lastUsedAt: old }).where(eq(sessionsTable.jti, jti!));
    expect((await me(bearer(token))).statusCode).toBe(200);
    const [touched] = await ctx.deps.db.select().from(sessionsTable).where(eq(sessionsTable.jti, jti!));
    expect(touched!.lastUsedAt.getTime()).toBeGreaterThan(old.getTime() + 60_000);
    expect((await me(bearer(token))).statusCode).toBe(200);
    const [again] = await ctx.deps.db.select().from(sessionsTable).where(eq(sessionsTable.jti, jti!));
    expect(again!.lastUsedAt.getTime()).toBe(touched!.lastUsedAt.getTime());
  });
});

describe('POST /api/logout', () => {
  it('revokes the token, writes an audit row, and the revocation survives a rebuilt app', async () => {
    const user = await createUser(ctx.deps);
    const token = await tokenFor(ctx.deps, user);
    const other = await tokenFor(ctx.deps, user);

    const res = await ctx.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).statusCode).toBe(
      401,
    );

    const audit = await ctx.deps.db.select().from(auditLogsTable).where(eq(auditLogsTable.userId, user.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      method: 'POST',
      route: '/api/logout',
      path: '/api/logout',
      status: 204,
    });

    await ctx.rebuild();
    expect((await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).statusCode).toBe(
      401,
    );
    // Only that session was revoked.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(other) })).statusCode).toBe(
      200,
    );
  });

  it('does not audit reads', async () => {
    const user = await createUser(ctx.deps);
    const token = await tokenFor(ctx.deps, user);
    await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    const audit = await ctx.deps.db.select().from(auditLogsTable).where(eq(auditLogsTable.userId, user.id));
    expect(audit).toHaveLength(0);
  });

  it('answers 401 without a token', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/logout' });
    expect(res.statusCode).toBe(401);
  });
});
