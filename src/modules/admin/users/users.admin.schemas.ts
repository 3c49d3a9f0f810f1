// Request and response shapes of the admin user routes (GET /users, GET/PUT/DELETE /users/{id}).

import { z } from 'zod';
import { paginationQuerySchema } from '../../../lib/pagination.ts';
import { nameSchema } from '../../../lib/schemas.ts';
import { emailSchema, toUserPayload, userPayloadSchema } from '../../users/users.schemas.ts';
import { subscriptionStatuses, subscriptionTiers, type UserRow, userRoles } from '../../users/users.table.ts';

/**
 * The user payload plus `deleted_at`, so a list with `include_deleted` tells them apart
 * (docs/api.md, "Admin: users and audit logs").
 */
export const adminUserPayloadSchema = userPayloadSchema.extend({ deleted_at: z.string().nullable() });
export type AdminUserPayload = z.infer<typeof adminUserPayloadSchema>;

export const toAdminUserPayload = (user: UserRow): AdminUserPayload => ({
  ...toUserPayload(user),
  deleted_at: user.deletedAt ? user.deletedAt.toISOString() : null,
});

const oneOf = <const T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: `The ${field} must be one of: ${values.join(', ')}.` });

const roleSchema = oneOf('role', userRoles);
const subscriptionStatusSchema = oneOf('subscription status', subscriptionStatuses);
const subscriptionTierSchema = oneOf('subscription tier', subscriptionTiers);

export const adminUsersQuerySchema = paginationQuerySchema.extend({
  /** A substring of the name or the email, case-insensitive; empty means no filter. */
  q: z
    .string({ error: 'The q field must be a string.' })
    .trim()
    .max(255, 'The q may not be greater than 255 characters.')
    .optional(),
  role: roleSchema.optional(),
  subscription_status: subscriptionStatusSchema.optional(),
  subscription_tier: subscriptionTierSchema.optional(),
  include_deleted: z
    .enum(['true', 'false', '1', '0'], { error: 'The include deleted field must be true or false.' })
    .transform((value) => value === 'true' || value === '1')
    .optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

/** Every field optional; absent fields stay as they are; unknown fields are ignored. */
export const updateUserBodySchema = z.object({
  name: nameSchema.optional(),
  email: emailSchema.optional(),
  role: roleSchema.optional(),
  subscription_tier: subscriptionTierSchema.optional(),
  subscription_status: subscriptionStatusSchema.optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

export const userDeletedSchema = z.object({ message: z.string() });
