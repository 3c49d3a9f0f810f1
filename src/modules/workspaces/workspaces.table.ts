// Workspaces and their members (owner | member). Deleting a workspace
// cascades to every child table (each child references it with onDelete cascade).
import { index, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
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

export type WorkspaceRow = typeof workspacesTable.$inferSelect;
