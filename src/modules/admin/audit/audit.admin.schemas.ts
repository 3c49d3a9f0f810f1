// Query and output of GET /admin/audit-logs (docs/api.md, "Admin: users and audit logs").
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../lib/pagination.ts';
import { queryIdSchema } from '../../../lib/schemas.ts';
import type { AuditLogRow } from '../../audit/audit.table.ts';

export const DEFAULT_AUDIT_PAGE_SIZE = 100;

/** Methods that are audited: the state-changing ones. */
export const auditedMethods = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

const isoDateTime = z.iso.datetime({ offset: true });
const isoDate = z.iso.date();

/**
 * An ISO 8601 instant: a date-time with `Z` or an offset (`2024-05-01T12:00:00Z`,
 * `2024-05-01T14:00:00+02:00`), or a date alone, meaning its midnight UTC.
 */
const instant = (field: string) =>
  z
    .string({ error: `The ${field} field must be a string.` })
    .refine(
      (value) => isoDateTime.safeParse(value).success || isoDate.safeParse(value).success,
      `The ${field} must be an ISO 8601 date-time with a time zone (2024-05-01T12:00:00Z) or a date.`,
    )
    .transform((value) => new Date(value))
    // PostgreSQL has no year 0; earlier instants are refused rather than failing in the query.
    .refine((date) => date.getUTCFullYear() >= 1, `The ${field} must be after the year 0.`);

const integer = (field: string) =>
  z.coerce.number({ error: `The ${field} must be an integer.` }).int(`The ${field} must be an integer.`);

export const auditLogsQuerySchema = z
  .object({
    user_id: queryIdSchema('user id').optional(),
    /** Inclusive lower bound of created_at. */
    from: instant('from').optional(),
    /** Exclusive upper bound of created_at. */
    to: instant('to').optional(),
    method: z
      .string({ error: 'The method field must be a string.' })
      .transform((value) => value.toUpperCase())
      .pipe(z.enum(auditedMethods, { error: `The method must be one of: ${auditedMethods.join(', ')}.` }))
      .optional(),
    status: integer('status')
      .min(100, 'The status must be between 100 and 599.')
      .max(599, 'The status must be between 100 and 599.')
      .optional(),
    limit: integer('limit')
      .min(1, 'The limit must be at least 1.')
      .max(MAX_PAGE_SIZE, `The limit may not be greater than ${MAX_PAGE_SIZE}.`)
      .default(DEFAULT_AUDIT_PAGE_SIZE),
    offset: integer('offset').min(0, 'The offset must be at least 0.').default(0),
  })
  .refine((query) => !query.from || !query.to || query.to > query.from, {
    path: ['to'],
    message: 'The to must be a time after from.',
  });
export type AuditLogsQuery = z.infer<typeof auditLogsQuerySchema>;

export const auditLogSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  method: z.string(),
  route: z.string(),
  path: z.string(),
  status: z.number().int(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable(),
  created_at: z.string(),
});
export type AuditLogPayload = z.infer<typeof auditLogSchema>;

export const toAuditLogPayload = (row: AuditLogRow): AuditLogPayload => ({
  id: row.id,
  user_id: row.userId,
  method: row.method,
  route: row.route,
  path: row.path,
  status: row.status,
  ip: row.ip,
  user_agent: row.userAgent,
  request_id: row.requestId,
  created_at: row.createdAt.toISOString(),
});
