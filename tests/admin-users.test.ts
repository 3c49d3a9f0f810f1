// Admin user management through HTTP on a real database: listing and filtering, reading,
// editing (email uniqueness, races included), soft deletion that kills the user's tokens at
// once, role and tier changes that take effect without a new token, and the rule that the last
// admin can be neither demoted nor deleted, even by two requests racing.

import { and, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionsTable } from '../src/modules/auth/sessions/sessions.table.ts';
import { type UserRow, usersTable } from '../src/modules/users/users.table.ts';
import { createUser, tokenFor } from './factories/users.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let admin: UserRow;
let adminToken: string;
let user: UserRow;
let userToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await createUser(ctx.deps, { role: 'admin', name: 'Ada Admin' });
  adminToken = await tokenFor(ctx.deps, admin);
  user = await createUser(ctx.deps, { name: 'Plain User' });
  userToken = await tokenFor(ctx.deps, user);
});
afterAll(async () => {
  await ctx?.close();
});

const call = createCaller(() => ctx);

const row = async (id: number) =>
  (await ctx.deps.db.select().from(usersTable).where(eq(usersTable.id, id)))[0]!;
const ids = (body: { id: number }[]) => body.map((item) => item.id);
const uniqueEmail = (prefix = 'admin-test') =>
  `${prefix}-${Math.random().toString(36).slice(2)}@example.test`;
const notFound = { message: 'User not found.', code: 'not_found' };
const forbidden = { message: 'You do not have permission to access this resource.', code: 'forbidden' };

async function signedIn(overrides: Parameters<typeof createUser>[1] = {}) {
  const created = await createUser(ctx.deps, overrides);
  return { user: created, token: await tokenFor(ctx.deps, created) };
}

/** Makes exactly these users the active admins (test setup for the last-admin rule). */
async function onlyAdmins(...users: UserRow[]) {
  const keep = users.map((u) => u.id);
  await ctx.deps.db
    .update(usersTable)
    .set({ role: 'user' })
    .where(and(eq(usersTable.role, 'admin'), notInArray(usersTable.id, keep)));
  await ctx.deps.db.update(usersTable).set({ role: 'admin' }).where(inArray(usersTable.id, keep));
}

const activeAdmins = async () =>
  (
    await ctx.deps.db
      .select({ id: usersTable.id })
      .from(usersTable)
      .where(and(eq(usersTable.role, 'admin'), isNull(usersTable.deletedAt)))
  ).map((r) => r.id);

describe('GET /api/users', () => {
  it('lists users not deleted, ordered by id, with the admin payload', async () => {
    const gone = await createUser(ctx.deps);
    await ctx.deps.services.users.softDelete(gone.id);
    const res = await call('GET', '/users', adminToken);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBeUndefined();
    const listed = ids(res.json());
    expect(listed).toEqual([...listed].sort((a, b) => a - b));
    expect(listed).toEqual(expect.arrayContaining([admin.id, user.id]));
    expect(listed).not.toContain(gone.id);
    const item = res.json().find((u: { id: number }) => u.id === user.id);
    expect(item).toEqual({
      id: user.id,
      name: 'Plain User',
      email: user.email,
      role: 'user',
      subscription_status: 'trialing',
      subscription_tier: 'free',
      trial_ends_at: user.trialEndsAt!.toISOString(),
      paddle_customer_id: null,
      paddle_subscription_id: null,
      paddle_price_id: null,
      paddle_status: null,
      paddle_next_billed_at: null,
      two_factor: { totp_enabled: false, email_enabled: false },
      permissions: [],
      created_at: user.createdAt.toISOString(),
      updated_at: user.updatedAt.toISOString(),
      deleted_at: null,
    });
    expect(res.json().find((u: { id: number }) => u.id === admin.id).permissions).toEqual([
      'admin.access',
      'users.manage',
    ]);
  });

  it('shows soft-deleted users with include_deleted=true, with deleted_at', async () => {
    const gone = await createUser(ctx.deps);
    await ctx.deps.services.users.softDelete(gone.id);
    const res = await call('GET', '/users?include_deleted=true', adminToken);
    expect(res.statusCode).toBe(200);
    const item = res.json().find((u: { id: number }) => u.id === gone.id);
    expect(item.deleted_at).toBe((await row(gone.id)).deletedAt!.toISOString());
    expect(ids(res.json())).toContain(user.id);
    const without = await call('GET', '/users?include_deleted=false', adminToken);
    expect(ids(without.json())).not.toContain(gone.id);
  });

  it('filters by q on name or email, case-insensitively, with LIKE wildcards taken literally', async () => {
    const tag = `k${Math.random().toString(36).slice(2, 8)}`;
    const byName = await createUser(ctx.deps, { name: `Zora ${tag.toUpperCase()} Quill` });
    const byEmail = await createUser(ctx.deps, { email: `quill-${tag}@Example.test` });
    const percent = await createUser(ctx.deps, { name: `Zed 100% ${tag}` });
    const res = await call('GET', `/users?q=${tag}`, adminToken);
    expect(ids(res.json())).toEqual([byName.id, byEmail.id, percent.id]);
    const upper = await call(
      'GET',
      `/users?q=${encodeURIComponent(` QUILL-${tag.toUpperCase()} `)}`,
      adminToken,
    );
    expect(ids(upper.json())).toEqual([byEmail.id]);
    const literal = await call('GET', `/users?q=${encodeURIComponent(`0% ${tag}`)}`, adminToken);
    expect(ids(literal.json())).toEqual([percent.id]);
    const wildcard = await call('GET', `/users?q=${encodeURIComponent('_%_%_')}`, adminToken);
    expect(wildcard.json()).toEqual([]);
    const empty = await call('GET', '/users?q=', adminToken);
    expect(ids(empty.json())).toContain(user.id);
  });

  it('filters by role, subscription_status and subscription_tier, together', async () => {
    const premium = await createUser(ctx.deps, {
      subscriptionStatus: 'past_due',
      subscriptionTier: 'premium',
    });
    const bronze = await createUser(ctx.deps, { subscriptionStatus: 'past_due', subscriptionTier: 'bronze' });
    const admins = await call('GET', '/users?role=admin', adminToken);
    expect(admins.json().every((u: { role: string }) => u.role === 'admin')).toBe(true);
    expect(ids(admins.json())).toContain(admin.id);
    expect(ids(admins.json())).not.toContain(user.id);
    const pastDue = await call('GET', '/users?subscription_status=past_due', adminToken);
    expect(ids(pastDue.json())).toEqual([premium.id, bronze.id]);
    const both = await call(
      'GET',
      '/users?subscription_status=past_due&subscription_tier=premium&role=user',
      adminToken,
    );
    expect(ids(both.json())).toEqual([premium.id]);
  });

  it('pages with limit and offset and sends X-Total-Count', async () => {
    const all = ids((await call('GET', '/users', adminToken)).json());
    const res = await call('GET', '/users?limit=2&offset=1', adminToken);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe(String(all.length));
    expect(ids(res.json())).toEqual(all.slice(1, 3));
  });

  it.each([
    ['role=owner', 'role'],
    ['subscription_status=paid', 'subscription_status'],
    ['subscription_tier=gold', 'subscription_tier'],
    ['include_deleted=maybe', 'include_deleted'],
    ['limit=0', 'limit'],
    ['offset=-1', 'offset'],
    [`q=${'x'.repeat(256)}`, 'q'],
  ])('answers 422 for %s, naming the field', async (query, field) => {
    const res = await call('GET', `/users?${query}`, adminToken);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', message: 'The given data was invalid.' });
    expect(Object.keys(res.json().errors)).toEqual([field]);
  });

  it('answers 403 to a non-admin (before looking at the query) and 401 without a token', async () => {
    expect((await call('GET', '/users', userToken)).json()).toEqual(forbidden);
    const bad = await call('GET', '/users?role=owner', userToken);
    expect(bad.statusCode).toBe(403);
    expect((await call('GET', '/users')).statusCode).toBe(401);
  });
});

describe('GET /api/users/:id', () => {
  it('answers the user', async () => {
    const res = await call('GET', `/users/${user.id}`, adminToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, email: user.email, role: 'user', deleted_at: null });
  });

  it('answers 404 for a missing, a deleted or a malformed id', async () => {
    const gone = await createUser(ctx.deps);
    await ctx.deps.services.users.softDelete(gone.id);
    for (const id of [2_000_000_000, gone.id]) {
      const res = await call('GET', `/users/${id}`, adminToken);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect((await call('GET', '/users/abc', adminToken)).statusCode).toBe(404);
  });

  it('answers 403 to a non-admin, also for their own id, and 401 without a token', async () => {
    expect((await call('GET', `/users/${user.id}`, userToken)).statusCode).toBe(403);
    expect((await call('GET', `/users/${user.id}`)).statusCode).toBe(401);
  });
});

describe('PUT /api/users/:id', () => {
  it('edits name, email, role, tier and status, and answers the new payload', async () => {
    const { user: target } = await signedIn();
    const email = uniqueEmail('Edited');
    const res = await call('PUT', `/users/${target.id}`, adminToken, {
      name: '  Edited Name ',
      email,
      role: 'admin',
      subscription_tier: 'premium',
      subscription_status: 'active',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: target.id,
      name: 'Edited Name',
      email,
      role: 'admin',
      subscription_tier: 'premium',
      subscription_status: 'active',
      permissions: ['admin.access', 'users.manage'],
      deleted_at: null,
    });
    expect(await row(target.id)).toMatchObject({
      name: 'Edited Name',
      email,
      role: 'admin',
      subscriptionTier: 'premium',
      subscriptionStatus: 'active',
    });
  });

  it('changes only the fields given; an empty body changes nothing; unknown fields are ignored', async () => {
    const { user: target } = await signedIn();
    const partial = await call('PUT', `/users/${target.id}`, adminToken, {
      subscription_tier: 'bronze',
      password: 'ignored-password',
    });
    expect(partial.statusCode).toBe(200);
    const after = await row(target.id);
    expect(after).toMatchObject({
      name: target.name,
      email: target.email,
      role: 'user',
      subscriptionTier: 'bronze',
      subscriptionStatus: 'trialing',
      passwordHash: target.passwordHash,
    });
    const empty = await call('PUT', `/users/${target.id}`, adminToken, {});
    expect(empty.statusCode).toBe(200);
    expect(empty.json().subscription_tier).toBe('bronze');
    expect((await row(target.id)).updatedAt).toEqual(after.updatedAt);
  });

  it.each([
    [{ email: 'not-an-email' }, 'email'],
    [{ email: '' }, 'email'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(256) }, 'name'],
    [{ role: 'owner' }, 'role'],
    [{ role: null }, 'role'],
    [{ subscription_tier: 'gold' }, 'subscription_tier'],
    [{ subscription_status: 'paid' }, 'subscription_status'],
    [{ name: 'Fine', subscription_status: 'paid' }, 'subscription_status'],
  ])('answers 422 for %j, naming the field, and writes nothing', async (body, field) => {
    const { user: target } = await signedIn();
    const res = await call('PUT', `/users/${target.id}`, adminToken, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    expect(Object.keys(res.json().errors)).toEqual([field]);
    expect(await row(target.id)).toEqual(target);
  });

  it('refuses an email another active user has, compared case-insensitively', async () => {
    const { user: target } = await signedIn();
    const res = await call('PUT', `/users/${target.id}`, adminToken, {
      name: 'Not Written',
      email: ` ${user.email.toUpperCase()} `,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { email: ['The email has already been taken.'] },
    });
    expect(await row(target.id)).toEqual(target);
  });

  it("takes a deleted user's email, and the user's own email in another case", async () => {
    const gone = await createUser(ctx.deps, { email: uniqueEmail('gone') });
    await ctx.deps.services.users.softDelete(gone.id);
    const { user: target } = await signedIn();
    const taken = await call('PUT', `/users/${target.id}`, adminToken, { email: gone.email });
    expect(taken.statusCode).toBe(200);
    expect((await row(target.id)).email).toBe(gone.email);
    const recased = await call('PUT', `/users/${target.id}`, adminToken, { email: gone.email.toUpperCase() });
    expect(recased.statusCode).toBe(200);
    expect((await row(target.id)).email).toBe(gone.email.toUpperCase());
  });

  it('gives one of two racing requests for one email a 422, not a 500 (the unique index decides)', async () => {
    for (let round = 0; round < 5; round++) {
      const first = await createUser(ctx.deps);
      const second = await createUser(ctx.deps);
      const email = uniqueEmail('race');
      const results = await Promise.all(
        [first, second].map((target) => call('PUT', `/users/${target.id}`, adminToken, { email })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
      const loser = results.find((r) => r.statusCode === 422)!;
      expect(loser.json().errors).toEqual({ email: ['The email has already been taken.'] });
    }
  });

  it('answers 404 for a missing or deleted user', async () => {
    const gone = await createUser(ctx.deps);
    await ctx.deps.services.users.softDelete(gone.id);
    for (const id of [2_000_000_000, gone.id]) {
      const res = await call('PUT', `/users/${id}`, adminToken, { name: 'Ghost' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect((await row(gone.id)).name).toBe(gone.name);
  });

  it('answers 403 to a non-admin, even for a bad body or themselves, and writes nothing', async () => {
    const { user: target } = await signedIn();
    for (const body of [{ role: 'admin' }, { role: 'owner' }, { name: 'Hacked' }]) {
      const res = await call('PUT', `/users/${target.id}`, userToken, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(forbidden);
      const self = await call('PUT', `/users/${user.id}`, userToken, body);
      expect(self.statusCode).toBe(403);
    }
    expect(await row(target.id)).toEqual(target);
    expect((await row(user.id)).role).toBe('user');
  });

  it('answers 401 without a token and writes nothing', async () => {
    const { user: target } = await signedIn();
    expect((await call('PUT', `/users/${target.id}`, undefined, { role: 'admin' })).statusCode).toBe(401);
    expect(await row(target.id)).toEqual(target);
  });
});

describe('changes take effect at once, on tokens issued before them', () => {
  it('a promoted user passes an admin route with their old token; demoted, they are refused again', async () => {
    const { user: target, token } = await signedIn();
    expect((await call('GET', '/users', token)).statusCode).toBe(403);
    expect((await call('PUT', `/users/${target.id}`, adminToken, { role: 'admin' })).statusCode).toBe(200);
    expect((await call('GET', '/users', token)).statusCode).toBe(200);
    expect((await call('PUT', `/users/${target.id}`, adminToken, { role: 'user' })).statusCode).toBe(200);
    expect((await call('GET', '/users', token)).statusCode).toBe(403);
  });

  it('a subscription change moves the tier check of /workspaces with the same token', async () => {
    const { user: target, token } = await signedIn();
    expect((await call('GET', '/workspaces', token)).statusCode).toBe(200);
    await call('PUT', `/users/${target.id}`, adminToken, { subscription_status: 'canceled' });
    const refused = await call('GET', '/workspaces', token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('tier_required');
    await call('PUT', `/users/${target.id}`, adminToken, {
      subscription_status: 'active',
      subscription_tier: 'bronze',
    });
    expect((await call('GET', '/workspaces', token)).statusCode).toBe(200);
  });
});

describe('DELETE /api/users/:id', () => {
  it('soft-deletes the user and their tokens stop working at once', async () => {
    const { user: target, token } = await signedIn();
    const other = await tokenFor(ctx.deps, target);
    expect((await call('GET', '/me', token)).statusCode).toBe(200);
    const res = await call('DELETE', `/users/${target.id}`, adminToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'User deleted.' });
    expect((await row(target.id)).deletedAt).toBeInstanceOf(Date);
    const sessions = await ctx.deps.db
      .select()
      .from(sessionsTable)
      .where(eq(sessionsTable.userId, target.id));
    expect(sessions).toHaveLength(2);
    expect(sessions.every((session) => session.revokedAt !== null)).toBe(true);
    expect((await call('GET', '/me', token)).statusCode).toBe(401);
    expect((await call('GET', '/me', other)).statusCode).toBe(401);
    expect((await call('GET', `/users/${target.id}`, adminToken)).json()).toEqual(notFound);
    const again = await call('DELETE', `/users/${target.id}`, adminToken);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(notFound);
    expect(ids((await call('GET', '/users', adminToken)).json())).not.toContain(target.id);
  });

  it('answers 404 for a missing or malformed id', async () => {
    expect((await call('DELETE', '/users/2000000000', adminToken)).json()).toEqual(notFound);
    expect((await call('DELETE', '/users/0', adminToken)).statusCode).toBe(404);
  });

  it('answers 403 to a non-admin and 401 without a token, and deletes nothing', async () => {
    const { user: target, token } = await signedIn();
    const res = await call('DELETE', `/users/${target.id}`, userToken);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(forbidden);
    expect((await call('DELETE', `/users/${admin.id}`, userToken)).statusCode).toBe(403);
    expect((await call('DELETE', `/users/${target.id}`)).statusCode).toBe(401);
    expect((await row(target.id)).deletedAt).toBeNull();
    expect((await row(admin.id)).deletedAt).toBeNull();
    expect((await call('GET', '/me', token)).statusCode).toBe(200);
  });
});

describe('the last admin', () => {
  it('cannot demote or delete themselves when no other admin is left', async () => {
    const { user: last, token } = await signedIn({ role: 'admin' });
    await onlyAdmins(last);
    const demote = await call('PUT', `/users/${last.id}`, token, { role: 'user', name: 'Not Written' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({ message: 'The last admin cannot be demoted.', code: 'conflict' });
    const remove = await call('DELETE', `/users/${last.id}`, token);
    expect(remove.statusCode).toBe(409);
    expect(remove.json()).toEqual({ message: 'The last admin cannot be deleted.', code: 'conflict' });
    expect(await row(last.id)).toMatchObject({ role: 'admin', name: last.name, deletedAt: null });
    expect((await call('GET', '/users', token)).statusCode).toBe(200);
    // Keeping the role, or changing other fields of the last admin, is fine.
    const keep = await call('PUT', `/users/${last.id}`, token, { role: 'admin', name: 'Still Here' });
    expect(keep.statusCode).toBe(200);
  });

  it('another admin may be demoted or deleted, and an admin may leave while another remains', async () => {
    const { user: first, token: firstToken } = await signedIn({ role: 'admin' });
    const { user: second } = await signedIn({ role: 'admin' });
    const { user: third, token: thirdToken } = await signedIn({ role: 'admin' });
    await onlyAdmins(first, second, third);
    expect((await call('PUT', `/users/${second.id}`, firstToken, { role: 'user' })).statusCode).toBe(200);
    expect((await call('PUT', `/users/${first.id}`, firstToken, { role: 'user' })).statusCode).toBe(200);
    // first is no longer an admin: their token is refused at once.
    expect((await call('GET', '/users', firstToken)).statusCode).toBe(403);
    expect((await call('PUT', `/users/${first.id}`, thirdToken, { role: 'admin' })).statusCode).toBe(200);
    const leave = await call('DELETE', `/users/${first.id}`, firstToken);
    expect(leave.statusCode).toBe(200);
    expect((await call('GET', '/me', firstToken)).statusCode).toBe(401);
    expect(await activeAdmins()).toEqual([third.id]);
    expect((await call('DELETE', `/users/${third.id}`, thirdToken)).statusCode).toBe(409);
  });

  it('survives two admins deleting each other at the same time', async () => {
    for (let round = 0; round < 5; round++) {
      const { user: one, token: oneToken } = await signedIn({ role: 'admin' });
      const { user: two, token: twoToken } = await signedIn({ role: 'admin' });
      await onlyAdmins(one, two);
      const results = await Promise.all([
        call('DELETE', `/users/${two.id}`, oneToken),
        call('DELETE', `/users/${one.id}`, twoToken),
      ]);
      const statuses = results.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      // The loser either got past its token check first (409) or its token died first (401).
      expect(statuses.find((s) => s !== 200)).toBeOneOf([401, 409]);
      expect(await activeAdmins()).toHaveLength(1);
    }
  });

  it('survives two admins demoting each other at the same time', async () => {
    for (let round = 0; round < 5; round++) {
      const { user: one, token: oneToken } = await signedIn({ role: 'admin' });
      const { user: two, token: twoToken } = await signedIn({ role: 'admin' });
      await onlyAdmins(one, two);
      const results = await Promise.all([
        call('PUT', `/users/${two.id}`, oneToken, { role: 'user' }),
        call('PUT', `/users/${one.id}`, twoToken, { role: 'user' }),
      ]);
      const statuses = results.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.find((s) => s !== 200)).toBeOneOf([403, 409]);
      expect(await activeAdmins()).toHaveLength(1);
    }
    // Five rounds of two accounts and their races: seconds on a busy machine.
  }, 60_000);
});
