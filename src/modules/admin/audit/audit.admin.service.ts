// Reading the audit log (GET /admin/audit-logs): filters, newest first, always paged.
import type { Listed } from '../../../lib/pagination.ts';
import type { AuditRepository } from '../../audit/audit.repository.ts';
import { type AuditLogPayload, type AuditLogsQuery, toAuditLogPayload } from './audit.admin.schemas.ts';

export function createAdminAuditService(audit: AuditRepository) {
  return {
    /** Newest first (created_at, then id); `total` counts every row the filters match. */
    async list(query: AuditLogsQuery): Promise<Required<Listed<AuditLogPayload>>> {
      const { rows, total } = await audit.list(
        { userId: query.user_id, from: query.from, to: query.to, method: query.method, status: query.status },
        { limit: query.limit, offset: query.offset },
      );
      return { items: rows.map(toAuditLogPayload), total };
    },
  };
}

export type AdminAuditService = ReturnType<typeof createAdminAuditService>;
