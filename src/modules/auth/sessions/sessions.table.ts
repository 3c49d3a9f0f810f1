// Sessions: one per issued token, keyed by the token's jti. They die with their user.
import { index, integer, pgTable, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../../db/columns.ts';
import { type UserRow, usersTable } from '../../users/users.table.ts';

export const sessionsTable = pgTable(
  'sessions',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => usersTable.id, { onDelete: 'cascade' }),
    jti: uuid().notNull(),
    ip: text(),
    userAgent: text(),
    createdAt: timestamptz().notNull().defaultNow(),
    lastUsedAt: timestamptz().notNull().defaultNow(),
    expiresAt: timestamptz().notNull(),
    revokedAt: timestamptz(),
  },
  (t) => [uniqueIndex('sessions_jti_unique').on(t.jti), index('sessions_user_id_idx').on(t.userId)],
);

export type SessionRow = typeof sessionsTable.$inferSelect;

/** A signed-in request: its user, and the session its token belongs to. */
export interface AuthContext {
  user: UserRow;
  session: SessionRow;
}
