// One row per state-changing authenticated request (docs/api.md, Audit). Kept when the user goes.
import { bigserial, index, integer, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.ts';
import { usersTable } from '../users/users.table.ts';

export const auditLogsTable = pgTable(
  'audit_logs',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    userId: integer().references(() => usersTable.id, { onDelete: 'set null' }),
    method: text().notNull(),
    route: text().notNull(),
    path: text().notNull(),
    status: smallint().notNull(),
    ip: text(),
    userAgent: text(),
    requestId: text(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('audit_logs_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('audit_logs_created_at_idx').on(t.createdAt),
  ],
);
export type AuditLogRow = typeof auditLogsTable.$inferSelect;
