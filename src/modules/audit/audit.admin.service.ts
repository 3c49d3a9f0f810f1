// Reading the audit log (GET /admin/audit-logs): filters, newest first, always paged.
import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { countWhere, type Listed } from '../../lib/pagination.ts';
import { type AuditLogPayload, type AuditLogsQuery, toAuditLogPayload } from './audit.schemas.ts';
import { auditLogsTable } from './audit.table.ts';

export function createAdminAuditService(db: Executor) {
  return {
    /** Newest first (created_at, then id); `total` counts every row the filters match. */
    async list(query: AuditLogsQuery): Promise<Required<Listed<AuditLogPayload>>> {
      const where = and(
        query.user_id === undefined ? undefined : eq(auditLogsTable.userId, query.user_id),
        query.from ? gte(auditLogsTable.createdAt, query.from) : undefined,
        query.to ? lt(auditLogsTable.createdAt, query.to) : undefined,
        query.method ? eq(auditLogsTable.method, query.method) : undefined,
        query.status === undefined ? undefined : eq(auditLogsTable.status, query.status),
      );
      const rows = await db
        .select()
        .from(auditLogsTable)
        .where(where)
        .orderBy(desc(auditLogsTable.createdAt), desc(auditLogsTable.id))
        .limit(query.limit)
        .offset(query.offset);
      return { items: rows.map(toAuditLogPayload), total: await countWhere(db, auditLogsTable, where) };
    },
  };
}

export type AdminAuditService = ReturnType<typeof createAdminAuditService>;
