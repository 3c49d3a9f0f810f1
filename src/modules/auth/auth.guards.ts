// `role:<role>` and `subscription_tier:<tier>` checks (docs/api.md, Authentication and Guards),
// used as preHandlers after `authenticate`.
import type { FastifyRequest } from 'fastify';
import { createForbiddenError, createTierRequiredError } from '../../lib/errors.ts';
import type { SubscriptionTier, UserRole, UserRow } from '../users/users.table.ts';
import { requireAuth } from './auth.plugin.ts';

export function requireRole(...roles: UserRole[]) {
  return async (request: FastifyRequest) => {
    const user = request.auth?.user;
    if (!user || !roles.includes(user.role)) throw createForbiddenError();
  };
}

/** Tier ranks (docs/api.md, Authentication); any tier not named here (free, custom) ranks 0. */
const tierRanks: Partial<Record<SubscriptionTier, number>> = { none: 0, bronze: 1, premium: 2 };
export const tierRank = (tier: string) => tierRanks[tier as SubscriptionTier] ?? 0;

/**
 * Paid: active or past_due, or trialing with a trial that has not ended (docs/api.md,
 * Subscription status and tier).
 */
export function hasPaidSubscription(user: UserRow, now = new Date()): boolean {
  switch (user.subscriptionStatus) {
    case 'active':
    case 'past_due':
      return true;
    case 'trialing':
      return user.trialEndsAt !== null && user.trialEndsAt > now;
    default:
      return false;
  }
}

export function passesTierCheck(user: UserRow, tiers: string[], now = new Date()): boolean {
  if (user.role === 'admin') return true;
  if (!hasPaidSubscription(user, now)) return false;
  const required = Math.max(0, ...tiers.map(tierRank));
  return tierRank(user.subscriptionTier) >= required;
}

export function requireTier(...tiers: string[]) {
  return async (request: FastifyRequest) => {
    if (!passesTierCheck(requireAuth(request).user, tiers)) throw createTierRequiredError();
  };
}
