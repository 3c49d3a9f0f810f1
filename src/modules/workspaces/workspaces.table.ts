// Workspaces, their members (owner | member) and pending invites. Deleting a workspace
// cascades to every child table (each child references it with onDelete cascade).
import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf, timestamps, timestamptz } from '../../db/columns.ts';
import { usersTable } from '../users/users.table.ts';

export const workspacesTable = pgTable('workspaces', {
  id: serial().primaryKey(),
  name: text().notNull(),
  ...timestamps,
});

/** The workspace a row belongs to: required, and the row dies with its workspace. */
export const workspaceIdColumn = () =>
  integer()
    .notNull()
    .references(() => workspacesTable.id, { onDelete: 'cascade' });

export const memberRoles = ['owner', 'member'] as const;
export type MemberRole = (typeof memberRoles)[number];

export const workspaceMembersTable = pgTable(
  'workspace_members',
  {
    workspaceId: workspaceIdColumn(),
    userId: integer()
      .notNull()
      .references(() => usersTable.id, { onDelete: 'cascade' }),
    role: text({ enum: memberRoles }).notNull().default('member'),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_id_idx').on(t.userId),
    oneOf('workspace_members_role_check', t.role, memberRoles),
  ],
);

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

export type WorkspaceRow = typeof workspacesTable.$inferSelect;
