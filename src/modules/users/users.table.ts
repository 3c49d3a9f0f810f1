// Users: identity, role, subscription and Paddle billing fields, second-factor state.
// Soft delete: `deleted_at` set; the email is unique only among users not deleted.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf, timestamps, timestamptz } from '../../db/columns.ts';

export const userRoles = ['admin', 'user'] as const;
export const subscriptionStatuses = ['active', 'trialing', 'past_due', 'canceled', 'none'] as const;
export const subscriptionTiers = ['none', 'free', 'bronze', 'premium', 'custom'] as const;

export type UserRole = (typeof userRoles)[number];
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];
export type SubscriptionTier = (typeof subscriptionTiers)[number];

export const usersTable = pgTable(
  'users',
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    role: text({ enum: userRoles }).notNull().default('user'),
    subscriptionStatus: text({ enum: subscriptionStatuses }).notNull().default('none'),
    subscriptionTier: text({ enum: subscriptionTiers }).notNull().default('none'),
    trialEndsAt: timestamptz(),
    // Paddle Billing (docs/api.md, Billing).
    paddleCustomerId: text(),
    paddleSubscriptionId: text(),
    paddlePriceId: text(),
    paddleStatus: text(),
    paddleNextBilledAt: timestamptz(),
    /**
     * When the subscription state above was true at Paddle (the `occurred_at` of the last applied
     * webhook event, or the `updated_at` of a synced subscription). Events arrive out of order;
     * one older than this is stored but not applied.
     */
    paddleSubscriptionUpdatedAt: timestamptz(),
    // Second factor (docs/api.md, "Second factor and the login challenge"). The TOTP secret is
    // encrypted with APP_KEY.
    totpSecretEncrypted: text(),
    totpPendingSecretEncrypted: text(),
    totpEnabledAt: timestamptz(),
    /** The last TOTP time step accepted, so a code is not accepted twice in its step. */
    totpLastUsedStep: integer(),
    emailTwoFactorEnabled: boolean().notNull().default(false),
    deletedAt: timestamptz(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_active_unique').on(sql`lower(${t.email})`).where(sql`${t.deletedAt} is null`),
    index('users_paddle_customer_id_idx').on(t.paddleCustomerId),
    oneOf('users_role_check', t.role, userRoles),
    oneOf('users_subscription_status_check', t.subscriptionStatus, subscriptionStatuses),
    oneOf('users_subscription_tier_check', t.subscriptionTier, subscriptionTiers),
  ],
);

export type UserRow = typeof usersTable.$inferSelect;
