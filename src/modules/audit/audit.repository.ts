// Queries over the audit log: one insert per audited request, and the admin's filtered read.
import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { countWhere } from '../../db/lists.ts';
import { type AuditLogRow, auditLogsTable } from './audit.table.ts';

export type NewAuditLog = typeof auditLogsTable.$inferInsert;

export interface AuditLogFilter {
  userId?: number;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  method?: string;
  status?: number;
}

export function createAuditRepository(db: Executor) {
  return {
    async insert(values: NewAuditLog, tx: Executor = db): Promise<void> {
      await tx.insert(auditLogsTable).values(values);
    },

    /** Newest first (created_at, then id); `total` counts every row the filter matches. */
    async list(
      filter: AuditLogFilter,
      page: { limit: number; offset: number },
      tx: Executor = db,
    ): Promise<{ rows: AuditLogRow[]; total: number }> {
      const where = and(
        filter.userId === undefined ? undefined : eq(auditLogsTable.userId, filter.userId),
        filter.from ? gte(auditLogsTable.createdAt, filter.from) : undefined,
        filter.to ? lt(auditLogsTable.createdAt, filter.to) : undefined,
        filter.method ? eq(auditLogsTable.method, filter.method) : undefined,
        filter.status === undefined ? undefined : eq(auditLogsTable.status, filter.status),
      );
      const rows = await tx
        .select()
        .from(auditLogsTable)
        .where(where)
        .orderBy(desc(auditLogsTable.createdAt), desc(auditLogsTable.id))
        .limit(page.limit)
        .offset(page.offset);
      return { rows, total: await countWhere(tx, auditLogsTable, where) };
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
