// AI-assisted location import: a batch (one user's guided answers and the model's draft)
// and its items (draft locations under review). A batch dies with its workspace or its user;
// items die with their batch. The finder and the two processes are optional references that
// are set null, so deleting a finder or pruning processes leaves the batch and its history.
// An item's location_id is set null when the imported location is deleted: the item records
// what was drafted and imported, not a live link.
import { index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { oneOf, timestamps, timestamptz } from '../../db/columns.ts';
import type { StoredSpecialHours, WeeklyHours } from '../../lib/hours/hours.model.ts';
import { findersTable } from '../finders/finders.table.ts';
import { locationsTable } from '../locations/locations.table.ts';
import { processesTable } from '../processes/processes.table.ts';
import { usersTable } from '../users/users.table.ts';
import { workspaceIdColumn } from '../workspaces/workspaces.table.ts';

export const aiImportBatchStatuses = ['draft', 'imported', 'discarded'] as const;
export type AiImportBatchStatus = (typeof aiImportBatchStatuses)[number];

export const aiImportItemStatuses = ['pending_review', 'approved', 'rejected', 'imported', 'failed'] as const;
export type AiImportItemStatus = (typeof aiImportItemStatuses)[number];

export const aiImportConfidences = ['high', 'medium', 'low'] as const;
export type AiImportConfidence = (typeof aiImportConfidences)[number];

/** The submitted `answers` object, stored as received (docs/api.md, Answers). */
export interface AiImportSourceAnswers {
  brand_name?: string;
  business_type: string;
  approximate_location_count: string;
  geographic_scope: string;
  customer_description: string;
  common_tags?: string;
  important_fields?: string;
  example_locations?: string;
  notes_to_avoid?: string;
  source_notes: string;
}

export interface AiImportUsageMetadata {
  prompt_token_count: number;
  candidates_token_count: number;
  total_token_count: number;
}

/** A drafted location, in the snake_case shape the API returns (docs/api.md, AI import item). */
export interface AiImportLocationPayload {
  name: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  phone: string | null;
  website: string | null;
  lat: number | null;
  lng: number | null;
  tags: string[];
  custom_fields: Record<string, unknown>;
  /** IANA name; null: derived from the coordinates on import (docs/api.md, "Opening hours"). */
  time_zone: string | null;
  /** The regular week as a location keeps it; null: not known. */
  hours: WeeklyHours | null;
  special_hours: StoredSpecialHours[] | null;
}

export interface AiImportValidationError {
  field: string;
  message: string;
}

export const aiImportBatchesTable = pgTable(
  'ai_import_batches',
  {
    id: serial().primaryKey(),
    workspaceId: workspaceIdColumn(),
    userId: integer()
      .notNull()
      .references(() => usersTable.id, { onDelete: 'cascade' }),
    /** When set, imported locations join this finder's backing map. */
    finderId: integer().references(() => findersTable.id, { onDelete: 'set null' }),
    /** The generate process. */
    processId: integer().references(() => processesTable.id, { onDelete: 'set null' }),
    /** The apply process, once the batch has been imported. */
    applyProcessId: integer().references(() => processesTable.id, { onDelete: 'set null' }),
    status: text({ enum: aiImportBatchStatuses }).notNull().default('draft'),
    modelName: text().notNull(),
    promptVersion: text().notNull(),
    totalItems: integer().notNull().default(0),
    approvedItems: integer().notNull().default(0),
    rejectedItems: integer().notNull().default(0),
    importedItems: integer().notNull().default(0),
    failedItems: integer().notNull().default(0),
    sourceAnswers: jsonb().$type<AiImportSourceAnswers>().notNull(),
    usageMetadata: jsonb().$type<AiImportUsageMetadata>(),
    /** Soft delete: a discarded batch keeps its items but is excluded from every query. */
    discardedAt: timestamptz(),
    ...timestamps,
  },
  (t) => [
    // Also the index of the workspace_id foreign key.
    index('ai_import_batches_workspace_id_updated_at_idx').on(t.workspaceId, t.updatedAt),
    index('ai_import_batches_user_id_idx').on(t.userId),
    index('ai_import_batches_finder_id_idx').on(t.finderId),
    index('ai_import_batches_process_id_idx').on(t.processId),
    index('ai_import_batches_apply_process_id_idx').on(t.applyProcessId),
    oneOf('ai_import_batches_status_check', t.status, aiImportBatchStatuses),
  ],
);

export const aiImportItemsTable = pgTable(
  'ai_import_items',
  {
    id: serial().primaryKey(),
    batchId: integer()
      .notNull()
      .references(() => aiImportBatchesTable.id, { onDelete: 'cascade' }),
    status: text({ enum: aiImportItemStatuses }).notNull().default('pending_review'),
    confidence: text({ enum: aiImportConfidences }).notNull(),
    warnings: jsonb().$type<string[]>().notNull().default([]),
    validationErrors: jsonb().$type<AiImportValidationError[]>().notNull().default([]),
    /** Items drafted before a field of the payload existed lack it: read through storedPayload. */
    normalizedPayload: jsonb().$type<AiImportLocationPayload>().notNull(),
    /** The user's edits, merged over normalized_payload. */
    userPayload: jsonb().$type<Partial<AiImportLocationPayload>>(),
    rawModelOutput: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** The location written from this item on import. */
    locationId: integer().references(() => locationsTable.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('ai_import_items_batch_id_id_idx').on(t.batchId, t.id),
    index('ai_import_items_location_id_idx').on(t.locationId),
    oneOf('ai_import_items_status_check', t.status, aiImportItemStatuses),
    oneOf('ai_import_items_confidence_check', t.confidence, aiImportConfidences),
  ],
);

export type AiImportBatchRow = typeof aiImportBatchesTable.$inferSelect;
export type AiImportItemRow = typeof aiImportItemsTable.$inferSelect;
