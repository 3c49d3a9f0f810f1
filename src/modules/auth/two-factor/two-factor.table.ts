// The second factor's rows: login challenges (the step between password and tokens) and
// recovery codes. Both die with their user.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../../db/columns.ts';
import { usersTable } from '../../users/users.table.ts';

export const twoFactorMethods = ['totp', 'email', 'recovery_code'] as const;
export type TwoFactorMethod = (typeof twoFactorMethods)[number];

export const loginChallengesTable = pgTable(
  'login_challenges',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => usersTable.id, { onDelete: 'cascade' }),
    /** SHA-256 of the challenge token; the token itself is only ever in the client's hands. */
    tokenHash: text().notNull(),
    methods: jsonb().$type<TwoFactorMethod[]>().notNull(),
    /** SHA-256 of the mailed 6-digit code, when email is one of the methods. */
    emailCodeHash: text(),
    emailCodeExpiresAt: timestamptz(),
    failedAttempts: integer().notNull().default(0),
    ip: text(),
    userAgent: text(),
    expiresAt: timestamptz().notNull(),
    consumedAt: timestamptz(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('login_challenges_token_hash_unique').on(t.tokenHash),
    index('login_challenges_user_id_idx').on(t.userId),
  ],
);

export const recoveryCodesTable = pgTable(
  'recovery_codes',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => usersTable.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamptz(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('recovery_codes_user_id_idx').on(t.userId),
    index('recovery_codes_unused_idx').on(t.userId, t.codeHash).where(sql`${t.usedAt} is null`),
  ],
);

export type LoginChallengeRow = typeof loginChallengesTable.$inferSelect;
