import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionsTable } from '../src/modules/auth/sessions/sessions.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { bearer, createUser, DEFAULT_PASSWORD, tokenFor } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const me = (token: string) => ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
const list = (token: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/me/sessions', headers: bearer(token) });
const revokeOne = (token: string, id: number | string) =>
  ctx.app.inject({ method: 'DELETE', url: `/api/me/sessions/${id}`, headers: bearer(token) });
const revokeOthers = (token: string) =>
  ctx.app.inject({ method: 'DELETE', url: '/api/me/sessions', headers: bearer(token) });

async function sessionOf(token: string) {
  const [row] = await ctx.deps.db
    .select()
    .from(sessionsTable)
    .where(eq(sessionsTable.jti, decodeJwt(token).jti!));
  return row!;
}

/** A user with `n` sessions whose created_at are one minute apart, oldest first. */
async function userWithSessions(n: number): Promise<{ user: UserRow; tokens: string[]; ids: number[] }> {
  const user = await createUser(ctx.deps);
  const tokens: string[] = [];
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const token = await tokenFor(ctx.deps, user);
    const session = await sessionOf(token);
    await ctx.deps.db
      .update(sessionsTable)
      .set({ createdAt: new Date(Date.now() - (n - i) * 60_000) })
      .where(eq(sessionsTable.id, session.id));
    tokens.push(token);
    ids.push(session.id);
  }
  return { user, tokens, ids };
}

describe('GET /api/me/sessions', () => {
  it("lists the caller's live sessions, newest first, with the current one flagged", async () => {
    const { user, tokens, ids } = await userWithSessions(3);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: DEFAULT_PASSWORD },
      headers: { 'user-agent': 'Firefox/140.0' },
      remoteAddress: '203.0.113.9',
    });
    expect(login.statusCode).toBe(200);
    const loginSession = await sessionOf(login.json().token);

    // Neither a revoked nor an expired session is listed; nor another user's.
    await ctx.deps.db
      .update(sessionsTable)
      .set({ revokedAt: new Date() })
      .where(eq(sessionsTable.id, ids[0]!));
    const expired = await tokenFor(ctx.deps, user);
    await ctx.deps.db
      .update(sessionsTable)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessionsTable.jti, decodeJwt(expired).jti!));
    await tokenFor(ctx.deps, await createUser(ctx.deps));

    const res = await list(tokens[1]!);
    expect(res.statusCode).toBe(200);
    const sessions = res.json();
    expect(sessions.map((s: { id: number }) => s.id)).toEqual([loginSession.id, ids[2], ids[1]]);
    expect(sessions.map((s: { current: boolean }) => s.current)).toEqual([false, false, true]);
    expect(sessions[0]).toEqual({
      id: loginSession.id,
      ip: '203.0.113.9',
      user_agent: 'Firefox/140.0',
      created_at: loginSession.createdAt.toISOString(),
      last_used_at: loginSession.lastUsedAt.toISOString(),
      expires_at: loginSession.expiresAt.toISOString(),
      current: false,
    });
    expect(sessions[2]).toMatchObject({ ip: '127.0.0.1', user_agent: 'vitest' });

    // The flag follows the token used.
    const fromLogin = (await list(login.json().token)).json();
    expect(fromLogin.filter((s: { current: boolean }) => s.current).map((s: { id: number }) => s.id)).toEqual(
      [loginSession.id],
    );
  });
});

describe('DELETE /api/me/sessions', () => {
  it('revokes every live session but the current one and counts them', async () => {
    const { tokens, ids } = await userWithSessions(5);
    // Already revoked and expired sessions are not counted.
    await ctx.deps.db
      .update(sessionsTable)
      .set({ revokedAt: new Date() })
      .where(eq(sessionsTable.id, ids[3]!));
    await ctx.deps.db
      .update(sessionsTable)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessionsTable.id, ids[2]!));
    const other = await tokenFor(ctx.deps, await createUser(ctx.deps));

    const res = await revokeOthers(tokens[1]!);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    expect((await me(tokens[0]!)).statusCode).toBe(401);
    expect((await me(tokens[4]!)).statusCode).toBe(401);
    expect((await me(tokens[1]!)).statusCode).toBe(200);
    expect((await sessionOf(tokens[0]!)).revokedAt).not.toBeNull();
    expect((await sessionOf(tokens[4]!)).revokedAt).not.toBeNull();
    expect((await sessionOf(other)).revokedAt).toBeNull();
    expect((await me(other)).statusCode).toBe(200);

    const listed = (await list(tokens[1]!)).json();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: ids[1], current: true });

    // Nothing left to revoke.
    expect((await revokeOthers(tokens[1]!)).json()).toEqual({ revoked: 0 });
  });
});

describe('DELETE /api/me/sessions/:id', () => {
  it('revokes one session; its token answers 401 at once, the others keep working', async () => {
    const { tokens, ids } = await userWithSessions(3);
    const res = await revokeOne(tokens[0]!, ids[1]!);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await me(tokens[1]!)).statusCode).toBe(401);
    expect((await me(tokens[0]!)).statusCode).toBe(200);
    expect((await me(tokens[2]!)).statusCode).toBe(200);
    expect((await sessionOf(tokens[1]!)).revokedAt).not.toBeNull();

    const again = await revokeOne(tokens[0]!, ids[1]!);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Session not found.', code: 'not_found' });
  });

  it('may revoke the current session, which ends the token', async () => {
    const { tokens, ids } = await userWithSessions(2);
    expect((await revokeOne(tokens[1]!, ids[1]!)).statusCode).toBe(204);
    expect((await me(tokens[1]!)).statusCode).toBe(401);
    expect((await list(tokens[1]!)).statusCode).toBe(401);
    expect((await me(tokens[0]!)).statusCode).toBe(200);
  });

  it("answers 404 for another user's session and leaves it alone", async () => {
    const mine = await userWithSessions(1);
    const theirs = await userWithSessions(1);
    const res = await revokeOne(mine.tokens[0]!, theirs.ids[0]!);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Session not found.', code: 'not_found' });
    expect((await sessionOf(theirs.tokens[0]!)).revokedAt).toBeNull();
    expect((await me(theirs.tokens[0]!)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown, expired or malformed id', async () => {
    const { tokens, ids } = await userWithSessions(2);
    await ctx.deps.db
      .update(sessionsTable)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessionsTable.id, ids[0]!));
    for (const id of [2_000_000_000, ids[0]!, 'abc', 0]) {
      const res = await revokeOne(tokens[1]!, id);
      expect(res.statusCode).toBe(404);
    }
    expect((await sessionOf(tokens[0]!)).revokedAt).toBeNull();
  });
});

describe('authentication', () => {
  it('answers 401 without a token on every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/me/sessions'],
      ['DELETE', '/api/me/sessions'],
      ['DELETE', '/api/me/sessions/1'],
    ] as const) {
      const res = await ctx.app.inject({ method, url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.', code: 'unauthenticated' });
    }
  });

  it('a session revoked by another device stops its token at once, also after a rebuilt app', async () => {
    const { tokens, ids } = await userWithSessions(2);
    expect((await me(tokens[0]!)).statusCode).toBe(200);
    expect((await revokeOne(tokens[1]!, ids[0]!)).statusCode).toBe(204);
    expect((await me(tokens[0]!)).statusCode).toBe(401);
    await ctx.rebuild();
    expect((await me(tokens[0]!)).statusCode).toBe(401);
    expect((await me(tokens[1]!)).statusCode).toBe(200);
  });
});
