// Query and output shapes of /processes (docs/api.md, Processes and the event stream), and the
// mapping from rows to them. The SSE stream sends events in the same shape as GET
// /processes/{id}/events.
import { z } from 'zod';
import { paginationQuerySchema } from '../../lib/pagination.ts';
import { queryIdSchema } from '../../lib/schemas.ts';
import { type ProcessEventRow, type ProcessRow, processStatuses } from './processes.table.ts';

export const listProcessesQuerySchema = paginationQuerySchema.extend({
  workspace_id: queryIdSchema('workspace id').optional(),
  status: z
    .enum(processStatuses, { error: `The status must be one of: ${processStatuses.join(', ')}.` })
    .optional(),
});
export type ListProcessesQuery = z.infer<typeof listProcessesQuerySchema>;

export const processEventsQuerySchema = z.object({
  /** Only events after this id (a polling client's last one). */
  after_id: z.coerce
    .number({ error: 'The after id must be an integer.' })
    .int('The after id must be an integer.')
    .min(0, 'The after id must be at least 0.')
    .optional(),
});

const timestamp = z.string();

export const processSummarySchema = z.object({
  id: z.number().int(),
  type: z.string().nullable(),
  status: z.enum(processStatuses),
  progress: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type ProcessSummaryPayload = z.infer<typeof processSummarySchema>;

export const processSchema = processSummarySchema.extend({
  metadata: z.object({
    workspace_id: z.number().int().nullable(),
    related_type: z.string().nullable(),
    related_id: z.number().int().nullable(),
    current_step: z.string().nullable(),
    error_message: z.string().nullable(),
    attempts: z.number().int().nullable(),
    queue: z.string().nullable(),
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
  }),
  result_summary: z.record(z.string(), z.unknown()).nullable(),
});
export type ProcessPayload = z.infer<typeof processSchema>;

export const processEventSchema = z.object({
  id: z.number().int(),
  type: z.string().nullable(),
  status: z.string().nullable(),
  step: z.string().nullable(),
  progress: z.number().int().nullable(),
  message: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()).nullable(),
  created_at: timestamp,
});
export type ProcessEventPayload = z.infer<typeof processEventSchema>;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const toProcessSummaryPayload = (row: ProcessRow): ProcessSummaryPayload => ({
  id: row.id,
  type: row.type,
  status: row.status,
  progress: row.progressPercent,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export const toProcessPayload = (row: ProcessRow): ProcessPayload => ({
  ...toProcessSummaryPayload(row),
  metadata: {
    workspace_id: row.workspaceId,
    related_type: row.relatedType,
    related_id: row.relatedId,
    current_step: row.currentStep,
    error_message: row.errorMessage,
    attempts: row.attempts,
    queue: row.queue,
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  },
  result_summary: row.summary ?? null,
});

export const toProcessEventPayload = (row: ProcessEventRow): ProcessEventPayload => ({
  id: row.id,
  type: row.type,
  status: row.status,
  step: row.step,
  progress: row.progressPercent,
  message: row.message,
  payload: row.payload ?? null,
  created_at: row.createdAt.toISOString(),
});
