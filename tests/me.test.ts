import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/lib/crypto.ts';
import { sessionsTable } from '../src/modules/auth/sessions/sessions.table.ts';
import { usersTable } from '../src/modules/users/users.table.ts';
import { bearer, createUser, DEFAULT_PASSWORD, tokenFor } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { waitForLockWaiters } from './helpers/lock-waiters.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const NEW_PASSWORD = 'a brand new passphrase';
const uniqueEmail = (prefix = 'new') => `${prefix}-${Math.random().toString(36).slice(2)}@example.test`;

const me = (token: string) => ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
const putMe = (token: string, payload: unknown) =>
  ctx.app.inject({ method: 'PUT', url: '/api/me', headers: bearer(token), payload: payload as object });
const deleteMe = (token: string, payload?: unknown) =>
  ctx.app.inject({
    method: 'DELETE',
    url: '/api/me',
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const login = (email: string, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

async function userRow(id: number) {
  const [row] = await ctx.deps.db.select().from(usersTable).where(eq(usersTable.id, id));
  return row!;
}

async function signedIn() {
  const user = await createUser(ctx.deps);
  return { user, token: await tokenFor(ctx.deps, user) };
}

describe('PUT /api/me', () => {
  it('changes the name alone without a password, and ignores fields it does not take', async () => {
    const { user, token } = await signedIn();
    const res = await putMe(token, { name: '  Grace Hopper ', role: 'admin', subscription_tier: 'custom' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: user.id,
      name: 'Grace Hopper',
      email: user.email,
      role: 'user',
      subscription_tier: 'free',
    });
    const row = await userRow(user.id);
    expect(row).toMatchObject({ name: 'Grace Hopper', role: 'user', subscriptionTier: 'free' });
    expect(row.passwordHash).toBe(user.passwordHash);
    expect((await me(token)).json().name).toBe('Grace Hopper');
  });

  it('answers 200 with the user unchanged for an empty body', async () => {
    const { user, token } = await signedIn();
    for (const payload of [{}, undefined]) {
      const res = await ctx.app.inject({
        method: 'PUT',
        url: '/api/me',
        headers: bearer(token),
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual((await me(token)).json());
    }
    const row = await userRow(user.id);
    expect(row.updatedAt.getTime()).toBe(user.updatedAt.getTime());
    expect(row.name).toBe(user.name);
  });

  it('changes the email with the current password; login then takes the new email', async () => {
    const { user, token } = await signedIn();
    const email = uniqueEmail();
    const res = await putMe(token, { email, current_password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(email);
    expect((await userRow(user.id)).email).toBe(email);
    expect((await login(email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(401);
    // An email change alone keeps every session.
    expect((await me(token)).statusCode).toBe(200);
  });

  it('takes the current email in another case without a password and stores the new spelling', async () => {
    const { user, token } = await signedIn();
    const res = await putMe(token, { email: user.email.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect((await userRow(user.id)).email).toBe(user.email.toUpperCase());
  });

  it('refuses an email another active user has, in any case; a deleted user’s email is free', async () => {
    const { user, token } = await signedIn();
    const other = await createUser(ctx.deps);
    const res = await putMe(token, { email: other.email.toUpperCase(), current_password: DEFAULT_PASSWORD });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ email: ['The email has already been taken.'] });
    expect((await userRow(user.id)).email).toBe(user.email);

    await ctx.deps.db.update(usersTable).set({ deletedAt: new Date() }).where(eq(usersTable.id, other.id));
    const freed = await putMe(token, { email: other.email, current_password: DEFAULT_PASSWORD });
    expect(freed.statusCode).toBe(200);
    expect((await userRow(user.id)).email).toBe(other.email);
  });

  it('answers the same 422 when the email is taken between the check and the write', async () => {
    const { user, token } = await signedIn();
    const email = uniqueEmail('race');
    let pending: ReturnType<typeof putMe> | undefined;
    // Another registration holds the email in a transaction not yet committed: the check cannot
    // see it, so the PUT's write waits on the unique index and fails when it commits.
    await ctx.deps.db.transaction(async (tx) => {
      await tx.insert(usersTable).values({ name: 'Racer', email, passwordHash: 'x' });
      pending = putMe(token, { email: email.toUpperCase(), current_password: DEFAULT_PASSWORD });
      await waitForLockWaiters(ctx.deps.db, 1, 5_000);
    });
    const res = await pending!;
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ email: ['The email has already been taken.'] });
    expect((await userRow(user.id)).email).toBe(user.email);
  });

  it('changes the password, revokes every other session and keeps the current one', async () => {
    const { user, token } = await signedIn();
    const others = [await tokenFor(ctx.deps, user), await tokenFor(ctx.deps, user)];
    const stranger = await signedIn();

    const res = await putMe(token, {
      current_password: DEFAULT_PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(user.id);
    expect(JSON.stringify(res.json())).not.toContain('argon2');

    const row = await userRow(user.id);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.passwordHash, NEW_PASSWORD)).toBe(true);
    for (const other of others) expect((await me(other)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(stranger.token)).statusCode).toBe(200);
    const live = await ctx.deps.db.select().from(sessionsTable).where(eq(sessionsTable.userId, user.id));
    expect(live.filter((s) => s.revokedAt === null)).toHaveLength(1);

    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  const passwordChange = { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
  it.each([
    ['a name of the wrong type', { name: 42 }, 'name', undefined],
    ['a blank name', { name: '   ' }, 'name', undefined],
    ['a null name', { name: null }, 'name', undefined],
    ['a bad email', { email: 'not-an-email', current_password: DEFAULT_PASSWORD }, 'email', undefined],
    ['an email of the wrong type', { email: 12, current_password: DEFAULT_PASSWORD }, 'email', undefined],
    [
      'a short password',
      { password: 'short', password_confirmation: 'short', current_password: DEFAULT_PASSWORD },
      'password',
      undefined,
    ],
    [
      'a mismatched confirmation',
      { password: NEW_PASSWORD, password_confirmation: 'something else', current_password: DEFAULT_PASSWORD },
      'password',
      ['The password confirmation does not match.'],
    ],
    [
      'a missing confirmation',
      { password: NEW_PASSWORD, current_password: DEFAULT_PASSWORD },
      'password',
      ['The password confirmation does not match.'],
    ],
    [
      'a password change without the current password',
      passwordChange,
      'current_password',
      ['The current password is required to change the email or password.'],
    ],
    [
      'an email change without the current password',
      { email: 'someone-new@example.test' },
      'current_password',
      ['The current password is required to change the email or password.'],
    ],
    [
      'an empty current password',
      { ...passwordChange, current_password: '' },
      'current_password',
      ['The current password is required to change the email or password.'],
    ],
    [
      'a wrong current password for a password change',
      { ...passwordChange, current_password: 'not my password' },
      'current_password',
      ['The current password is incorrect.'],
    ],
    [
      'a wrong current password for an email change',
      { email: 'someone-else@example.test', current_password: 'not my password' },
      'current_password',
      ['The current password is incorrect.'],
    ],
    [
      'a current password of the wrong type',
      { ...passwordChange, current_password: 12345678 },
      'current_password',
      undefined,
    ],
  ])('refuses %s with 422 on the field and changes nothing', async (_case, payload, field, messages) => {
    const { user, token } = await signedIn();
    const other = await tokenFor(ctx.deps, user);
    const res = await putMe(token, { name: 'Changed Name', ...payload });
    expect(res.statusCode).toBe(422);
    const json = res.json();
    expect(json).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
    expect(Object.keys(json.errors)).toEqual([field]);
    if (messages) expect(json.errors[field]).toEqual(messages);

    const row = await userRow(user.id);
    expect(row.passwordHash).toBe(user.passwordHash);
    expect(row.email).toBe(user.email);
    expect(row.name).toBe(user.name);
    expect(row.updatedAt.getTime()).toBe(user.updatedAt.getTime());
    expect((await me(other)).statusCode).toBe(200);
  });

  it('throttles wrong current passwords: 5 a minute, then 429 even for the right one', async () => {
    const { user, token } = await signedIn();
    const attempt = (current_password: string) => putMe(token, { email: uniqueEmail(), current_password });
    for (let i = 0; i < 5; i++) expect((await attempt('wrong password')).statusCode).toBe(422);
    const blocked = await attempt(DEFAULT_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ message: 'Too many requests.', code: 'rate_limited' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await userRow(user.id)).email).toBe(user.email);
    // Changes that need no password are not throttled.
    expect((await putMe(token, { name: 'Still Allowed' })).statusCode).toBe(200);
  });
});

describe('DELETE /api/me', () => {
  const confirmation = 'DELETE MY ACCOUNT';

  it('soft-deletes the account: its tokens answer 401, login 401, and the email registers again', async () => {
    const { user, token } = await signedIn();
    const other = await tokenFor(ctx.deps, user);
    const res = await deleteMe(token, { password: DEFAULT_PASSWORD, confirmation });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Account deleted.' });

    const row = await userRow(user.id);
    expect(row.deletedAt).not.toBeNull();
    const sessions = await ctx.deps.db.select().from(sessionsTable).where(eq(sessionsTable.userId, user.id));
    expect(sessions.every((s) => s.revokedAt !== null)).toBe(true);

    expect((await me(token)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(401);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: {
        name: 'Second Life',
        email: user.email,
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().user.id).not.toBe(user.id);
  });

  const notExact = ["The confirmation must be exactly 'DELETE MY ACCOUNT'."];
  it.each<[string, Record<string, unknown>, string, string[]]>([
    [
      'a confirmation in lower case',
      { password: DEFAULT_PASSWORD, confirmation: 'delete my account' },
      'confirmation',
      notExact,
    ],
    [
      'a confirmation with extra spaces',
      { password: DEFAULT_PASSWORD, confirmation: ' DELETE MY ACCOUNT ' },
      'confirmation',
      notExact,
    ],
    [
      'a missing confirmation',
      { password: DEFAULT_PASSWORD },
      'confirmation',
      ['The confirmation field is required.'],
    ],
    [
      'a wrong password',
      { password: 'not my password', confirmation },
      'password',
      ['The password is incorrect.'],
    ],
    ['a missing password', { confirmation }, 'password', ['The password field is required.']],
    ['an empty password', { password: '', confirmation }, 'password', ['The password field is required.']],
    [
      'a password of the wrong type',
      { password: 12345678, confirmation },
      'password',
      ['The password field is required.'],
    ],
  ])('refuses %s with 422 and keeps the account', async (_case, payload, field, messages) => {
    const { user, token } = await signedIn();
    const res = await deleteMe(token, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ [field]: messages });
    expect((await userRow(user.id)).deletedAt).toBeNull();
    expect((await me(token)).statusCode).toBe(200);
  });

  it('names both fields for an empty body', async () => {
    const { user, token } = await signedIn();
    const res = await deleteMe(token);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['confirmation', 'password']);
    expect((await userRow(user.id)).deletedAt).toBeNull();
  });
});

describe('authentication', () => {
  it('answers 401 without a token on GET, PUT and DELETE /me, and changes nothing', async () => {
    const { user } = await signedIn();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'Nobody' }],
      ['DELETE', { password: DEFAULT_PASSWORD, confirmation: 'DELETE MY ACCOUNT' }],
    ] as const) {
      const res = await ctx.app.inject({ method, url: '/api/me', ...(payload ? { payload } : {}) });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.', code: 'unauthenticated' });
    }
    const row = await userRow(user.id);
    expect(row.deletedAt).toBeNull();
    expect(row.name).toBe(user.name);
  });
});
