// The user payload (docs/api.md, User), with the Paddle billing fields and the second-factor state;
// and the rules of an account's email and password (docs/api.md, Accounts), shared by register,
// invites, PUT /me and the admin routes.
import { z } from 'zod';
import { subscriptionStatuses, subscriptionTiers, type UserRow, userRoles } from './users.table.ts';

export const passwordSchema = z
  .string({ error: 'The password field is required.' })
  .min(8, 'The password must be at least 8 characters.')
  .max(255, 'The password may not be greater than 255 characters.');

export const passwordConfirmationSchema = z.string({ error: 'The password confirmation field is required.' });

/** password_confirmation must equal password; the failure is reported on `password`, as usual. */
export const passwordsMatch: [
  (body: { password?: string; password_confirmation?: string }) => boolean,
  { path: string[]; message: string },
] = [
  (body) => body.password === undefined || body.password === body.password_confirmation,
  { path: ['password'], message: 'The password confirmation does not match.' },
];

export const emailSchema = z
  .string({ error: 'The email field is required.' })
  .trim()
  .max(255, 'The email may not be greater than 255 characters.')
  .pipe(z.email('The email must be a valid email address.'));

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
