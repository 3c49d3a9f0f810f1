// The user payload of spec §2 (authentication payload), with the Paddle billing fields of
// decisions §7 and the second-factor state.
import { z } from 'zod';
import { subscriptionStatuses, subscriptionTiers, type UserRow, userRoles } from './users.table.ts';

export const userPayloadSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(userRoles),
  subscription_status: z.enum(subscriptionStatuses),
  subscription_tier: z.enum(subscriptionTiers),
  trial_ends_at: z.string().nullable(),
  paddle_customer_id: z.string().nullable(),
  paddle_subscription_id: z.string().nullable(),
  paddle_price_id: z.string().nullable(),
  paddle_status: z.string().nullable(),
  paddle_next_billed_at: z.string().nullable(),
  two_factor: z.object({ totp_enabled: z.boolean(), email_enabled: z.boolean() }),
  permissions: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});

export type UserPayload = z.infer<typeof userPayloadSchema>;

export const ADMIN_PERMISSIONS = ['admin.access', 'users.manage'];

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function toUserPayload(user: UserRow): UserPayload {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    subscription_status: user.subscriptionStatus,
    subscription_tier: user.subscriptionTier,
    trial_ends_at: iso(user.trialEndsAt),
    paddle_customer_id: user.paddleCustomerId,
    paddle_subscription_id: user.paddleSubscriptionId,
    paddle_price_id: user.paddlePriceId,
    paddle_status: user.paddleStatus,
    paddle_next_billed_at: iso(user.paddleNextBilledAt),
    two_factor: { totp_enabled: user.totpEnabledAt !== null, email_enabled: user.emailTwoFactorEnabled },
    permissions: user.role === 'admin' ? [...ADMIN_PERMISSIONS] : [],
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}
