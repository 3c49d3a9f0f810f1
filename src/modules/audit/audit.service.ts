// The `audit` check: records who changed what. Reading the log is the admin module's job.
import type { Executor } from '../../db/client.ts';
import { auditLogsTable } from './audit.table.ts';

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

export function createAuditService(db: Executor) {
  return {
    async record(entry: AuditEntry): Promise<void> {
      await db.insert(auditLogsTable).values({
        ...entry,
        path: entry.path.slice(0, 2048),
        ip: entry.ip ?? null,
        userAgent: entry.userAgent?.slice(0, 512) ?? null,
      });
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
