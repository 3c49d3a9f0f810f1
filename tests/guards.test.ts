// The role:admin and subscription_tier:<tier> guards (docs/api.md, Authentication and Guards),
// through HTTP on probe routes, over a table of role/status/tier cases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireRole, requireTier } from '../src/modules/auth/auth.guards.ts';
import type { SubscriptionStatus, SubscriptionTier, UserRole } from '../src/modules/users/users.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    extend: (app) => {
      const ok = async () => ({ ok: true });
      app.get('/api/__probe/admin', { onRequest: [app.authenticate], preHandler: requireRole('admin') }, ok);
      for (const tier of ['free', 'bronze', 'premium']) {
        app.get(
          `/api/__probe/tier/${tier}`,
          { onRequest: [app.authenticate], preHandler: requireTier(tier) },
          ok,
        );
      }
    },
  });
});
afterAll(async () => {
  await ctx?.close();
});

const DAY = 24 * 3600 * 1000;
const future = () => new Date(Date.now() + DAY);
const past = () => new Date(Date.now() - DAY);

async function call(
  url: string,
  user: { role: UserRole; status: SubscriptionStatus; tier: SubscriptionTier; trialEndsAt?: Date | null },
) {
  const row = await createUser(ctx.deps, {
    role: user.role,
    subscriptionStatus: user.status,
    subscriptionTier: user.tier,
    trialEndsAt: user.trialEndsAt ?? null,
  });
  return ctx.app.inject({ method: 'GET', url, headers: bearer(await tokenFor(ctx.deps, row)) });
}

describe('role:admin', () => {
  it('lets an admin through', async () => {
    const res = await call('/api/__probe/admin', { role: 'admin', status: 'none', tier: 'none' });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a user with the exact message', async () => {
    const res = await call('/api/__probe/admin', { role: 'user', status: 'active', tier: 'premium' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'You do not have permission to access this resource.',
      code: 'forbidden',
    });
  });

  it('answers 401 before 403 without a token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/__probe/admin' })).statusCode).toBe(401);
  });
});

describe('subscription_tier:<tier>', () => {
  type Case = [string, UserRole, SubscriptionStatus, SubscriptionTier, 'future' | 'past' | null, number];
  const cases: Case[] = [
    // admins always pass
    ['premium', 'admin', 'none', 'none', null, 200],
    ['bronze', 'admin', 'canceled', 'free', null, 200],
    // the paid condition
    ['free', 'user', 'active', 'free', null, 200],
    ['free', 'user', 'past_due', 'free', null, 200],
    ['free', 'user', 'trialing', 'free', 'future', 200],
    ['free', 'user', 'trialing', 'free', 'past', 403],
    ['free', 'user', 'trialing', 'free', null, 403],
    ['free', 'user', 'canceled', 'premium', null, 403],
    ['free', 'user', 'none', 'premium', null, 403],
    // ranks: none 0, bronze 1, premium 2, unlisted (free, custom) 0
    ['free', 'user', 'active', 'none', null, 200],
    ['bronze', 'user', 'active', 'free', null, 403],
    ['bronze', 'user', 'active', 'bronze', null, 200],
    ['bronze', 'user', 'active', 'premium', null, 200],
    ['bronze', 'user', 'past_due', 'bronze', null, 200],
    ['premium', 'user', 'active', 'bronze', null, 403],
    ['premium', 'user', 'active', 'premium', null, 200],
    ['premium', 'user', 'trialing', 'premium', 'future', 200],
    ['bronze', 'user', 'active', 'custom', null, 403],
  ];

  it.each(cases)(
    'tier %s: %s %s/%s (trial %s) -> %i',
    async (required, role, status, tier, trial, expected) => {
      const trialEndsAt = trial === 'future' ? future() : trial === 'past' ? past() : null;
      const res = await call(`/api/__probe/tier/${required}`, { role, status, tier, trialEndsAt });
      expect(res.statusCode).toBe(expected);
      if (expected === 403) {
        expect(res.json()).toEqual({
          message: 'This feature requires a qualifying subscription.',
          code: 'tier_required',
        });
      }
    },
  );
});
