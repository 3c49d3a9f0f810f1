// The `audit` check: records who changed what. Reading the log is admin/audit.admin.service.ts.
import type { AuditRepository } from './audit.repository.ts';

export interface AuditEntry {
  userId: number | null;
  method: string;
  route: string;
  path: string;
  status: number;
  ip: string | undefined;
  userAgent: string | undefined;
  requestId: string;
}

export function createAuditService(audit: AuditRepository) {
  return {
    async record(entry: AuditEntry): Promise<void> {
      await audit.insert({
        ...entry,
        path: entry.path.slice(0, 2048),
        ip: entry.ip ?? null,
        userAgent: entry.userAgent?.slice(0, 512) ?? null,
      });
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
