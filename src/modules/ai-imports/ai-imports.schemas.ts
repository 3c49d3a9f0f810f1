// Request and response shapes of /ai-location-imports and /admin/ai-logs
// (docs/api.md, AI import batch, AI import item and "AI import: routes and lifecycle"), and the
// mapping from rows to them.
import { z } from 'zod';
import { specialHoursOutputSchema, weeklyHoursOutputSchema } from '../../lib/hours/hours.schemas.ts';
import { MAX_PAGE_SIZE } from '../../lib/pagination.ts';
import { bodyIdSchema, idSchema, queryIdSchema } from '../../lib/schemas.ts';
import { answersSchema } from './ai-imports.answers.ts';
import { payloadPatchSchema, storedPayload } from './ai-imports.normalize.ts';
import {
  type AiImportBatchRow,
  type AiImportItemRow,
  aiImportBatchStatuses,
  aiImportConfidences,
  aiImportItemStatuses,
} from './ai-imports.table.ts';

/** The list holds at most 20 batches (docs/api.md, Limits). */
export const BATCH_LIST_SIZE = 20;
export const DEFAULT_AI_LOGS_PAGE_SIZE = 50;

export const createBatchBodySchema = z.object({
  workspace_id: bodyIdSchema('workspace id'),
  finder_id: bodyIdSchema('finder id').nullish(),
  answers: answersSchema,
});
export type CreateBatchBody = z.infer<typeof createBatchBodySchema>;

export const listBatchesQuerySchema = z.object({ workspace_id: queryIdSchema('workspace id').optional() });

export const itemParamsSchema = z.object({ id: idSchema, itemId: idSchema });

/** What a reviewer may set (docs/api.md, AI import item status); the import sets imported and failed. */
export const reviewStatuses = ['pending_review', 'approved', 'rejected'] as const;

export const patchItemBodySchema = z
  .object({
    status: z
      .enum(reviewStatuses, { error: `The status must be one of: ${reviewStatuses.join(', ')}.` })
      .optional(),
    payload: payloadPatchSchema.optional(),
  })
  .refine((body) => body.status !== undefined || body.payload !== undefined, {
    path: ['status'],
    message: 'Give a status, a payload, or both.',
  });
export type PatchItemBody = z.infer<typeof patchItemBodySchema>;

const timestamp = z.string();
const usageSchema = z.object({
  prompt_token_count: z.number().int(),
  candidates_token_count: z.number().int(),
  total_token_count: z.number().int(),
});

const locationPayloadSchema = z.object({
  name: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  country: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  tags: z.array(z.string()),
  custom_fields: z.record(z.string(), z.unknown()),
  time_zone: z.string().nullable(),
  hours: weeklyHoursOutputSchema.nullable(),
  special_hours: specialHoursOutputSchema.nullable(),
});

export const itemSchema = z.object({
  id: z.number().int(),
  batch_id: z.number().int(),
  status: z.enum(aiImportItemStatuses),
  confidence: z.enum(aiImportConfidences),
  warnings: z.array(z.string()),
  validation_errors: z.array(z.object({ field: z.string(), message: z.string() })),
  normalized_payload: locationPayloadSchema,
  user_payload: locationPayloadSchema.nullable(),
  raw_model_output: z.record(z.string(), z.unknown()),
  location_id: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const batchSchema = z.object({
  id: z.number().int(),
  workspace_id: z.number().int(),
  user_id: z.number().int(),
  finder_id: z.number().int().nullable(),
  status: z.enum(aiImportBatchStatuses),
  model_name: z.string(),
  prompt_version: z.string(),
  total_items: z.number().int(),
  approved_items: z.number().int(),
  rejected_items: z.number().int(),
  imported_items: z.number().int(),
  failed_items: z.number().int(),
  source_answers: z.record(z.string(), z.unknown()),
  usage_metadata: usageSchema.nullable(),
  process_id: z.number().int().nullable(),
  apply_process_id: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type BatchPayload = z.infer<typeof batchSchema>;

export const batchWithItemsSchema = batchSchema.extend({ items: z.array(itemSchema) });
export type BatchWithItemsPayload = z.infer<typeof batchWithItemsSchema>;

const processRefSchema = z.object({ id: z.number().int(), type: z.string(), status: z.string() });

export const createBatchResponseSchema = z.object({
  process: processRefSchema,
  batch: z.object({
    id: z.number().int(),
    status: z.enum(aiImportBatchStatuses),
    total_items: z.number().int(),
  }),
  next_action: z.literal('watch_process'),
});
export type CreateBatchResponse = z.infer<typeof createBatchResponseSchema>;

export const importBatchResponseSchema = z.object({
  process: processRefSchema,
  batch: z.object({
    id: z.number().int(),
    status: z.enum(aiImportBatchStatuses),
    imported_items: z.number().int(),
    failed_items: z.number().int(),
  }),
  next_action: z.literal('review_locations'),
});
export type ImportBatchResponse = z.infer<typeof importBatchResponseSchema>;

const integer = (field: string) =>
  z.coerce.number({ error: `The ${field} must be an integer.` }).int(`The ${field} must be an integer.`);

export const aiLogsQuerySchema = z.object({
  user_id: queryIdSchema('user id').optional(),
  workspace_id: queryIdSchema('workspace id').optional(),
  limit: integer('limit')
    .min(1, 'The limit must be at least 1.')
    .max(MAX_PAGE_SIZE, `The limit may not be greater than ${MAX_PAGE_SIZE}.`)
    .default(DEFAULT_AI_LOGS_PAGE_SIZE),
  offset: integer('offset').min(0, 'The offset must be at least 0.').default(0),
});
export type AiLogsQuery = z.infer<typeof aiLogsQuerySchema>;

export const aiLogSchema = z.object({
  batch_id: z.number().int(),
  workspace_id: z.number().int(),
  user_id: z.number().int(),
  user_email: z.string().nullable(),
  status: z.enum(aiImportBatchStatuses),
  model_name: z.string(),
  prompt_version: z.string(),
  total_items: z.number().int(),
  imported_items: z.number().int(),
  usage_metadata: usageSchema.nullable(),
  process_id: z.number().int().nullable(),
  process_status: z.string().nullable(),
  error_message: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type AiLogPayload = z.infer<typeof aiLogSchema>;

/**
 * What the item holds now: the reviewer's edited payload, else the drafted one (completed with
 * the fields added since it was stored).
 */
export const effectivePayload = (item: Pick<AiImportItemRow, 'normalizedPayload' | 'userPayload'>) =>
  storedPayload(item.userPayload ?? item.normalizedPayload);

export const toItemPayload = (row: AiImportItemRow) => ({
  id: row.id,
  batch_id: row.batchId,
  status: row.status,
  confidence: row.confidence,
  warnings: row.warnings,
  validation_errors: row.validationErrors,
  normalized_payload: storedPayload(row.normalizedPayload),
  user_payload: row.userPayload ? storedPayload(row.userPayload) : null,
  raw_model_output: row.rawModelOutput,
  location_id: row.locationId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export const toBatchPayload = (row: AiImportBatchRow): BatchPayload => ({
  id: row.id,
  workspace_id: row.workspaceId,
  user_id: row.userId,
  finder_id: row.finderId,
  status: row.status,
  model_name: row.modelName,
  prompt_version: row.promptVersion,
  total_items: row.totalItems,
  approved_items: row.approvedItems,
  rejected_items: row.rejectedItems,
  imported_items: row.importedItems,
  failed_items: row.failedItems,
  source_answers: row.sourceAnswers as unknown as Record<string, unknown>,
  usage_metadata: row.usageMetadata ?? null,
  process_id: row.processId,
  apply_process_id: row.applyProcessId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
