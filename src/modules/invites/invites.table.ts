// Pending invites into a workspace (docs/api.md, Invites and mail). An invite dies with its
// workspace; the inviter may go first (set null). Only the SHA-256 of the token is stored.
import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.ts';
import { usersTable } from '../users/users.table.ts';
import { workspaceIdColumn } from '../workspaces/workspaces.table.ts';

export const invitesTable = pgTable(
  'invites',
  {
    id: serial().primaryKey(),
    email: text().notNull(),
    workspaceId: workspaceIdColumn(),
    invitedBy: integer().references(() => usersTable.id, { onDelete: 'set null' }),
    /** SHA-256 of the invite token; the token travels only in the mail. */
    tokenHash: text().notNull(),
    expiresAt: timestamptz().notNull(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invites_token_hash_unique').on(t.tokenHash),
    index('invites_workspace_id_idx').on(t.workspaceId),
    index('invites_invited_by_idx').on(t.invitedBy),
  ],
);

export type InviteRow = typeof invitesTable.$inferSelect;
export type NewInvite = typeof invitesTable.$inferInsert;
