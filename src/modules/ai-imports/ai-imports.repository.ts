// Queries over AI import batches and their items. A batch is reachable by its own user only,
// in a workspace they are still a member of, and never once discarded: every read by id goes
// through `ownedBatch`, so anything else is indistinguishable from a missing id. Item writes
// are set-based (one statement for any number of items).
import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { findersTable } from '../finders/finders.table.ts';
import { mapLocationsTable } from '../maps/maps.table.ts';
import { processesTable } from '../processes/processes.table.ts';
import { usersTable } from '../users/users.table.ts';
import { accessibleWorkspace } from '../workspaces/workspaces.access.ts';
import {
  type AiImportBatchRow,
  type AiImportConfidence,
  type AiImportItemRow,
  type AiImportItemStatus,
  type AiImportLocationPayload,
  type AiImportValidationError,
  aiImportBatchesTable,
  aiImportItemsTable,
} from './ai-imports.table.ts';

const b = aiImportBatchesTable;
const i = aiImportItemsTable;

export type NewAiImportBatch = typeof aiImportBatchesTable.$inferInsert;

export interface NewAiImportItem {
  status?: AiImportItemStatus;
  confidence: AiImportConfidence;
  warnings: string[];
  validationErrors: AiImportValidationError[];
  normalizedPayload: AiImportLocationPayload;
  rawModelOutput: Record<string, unknown>;
}

/** One item's new state; absent keys stay as they are. */
export interface ItemUpdate {
  id: number;
  status?: AiImportItemStatus;
  confidence?: AiImportConfidence;
  warnings?: string[];
  validationErrors?: AiImportValidationError[];
  userPayload?: AiImportLocationPayload;
  locationId?: number;
}

/** The caller's own batch, in a workspace they are a member of, not discarded. */
function ownedBatch(userId: number, id: number): SQL {
  return and(
    eq(b.id, id),
    eq(b.userId, userId),
    isNull(b.discardedAt),
    accessibleWorkspace(b.workspaceId, { userId, allWorkspaces: false }),
  )!;
}

export interface AiLogsFilter {
  userId?: number | undefined;
  workspaceId?: number | undefined;
  limit: number;
  offset: number;
}

export function createAiImportsRepository(db: Executor) {
  const repository = {
    async insertBatch(values: NewAiImportBatch, tx: Executor = db): Promise<AiImportBatchRow> {
      const [row] = await tx.insert(b).values(values).returning();
      return row!;
    },

    async setProcess(batchId: number, processId: number, tx: Executor = db): Promise<void> {
      await tx.update(b).set({ processId }).where(eq(b.id, batchId));
    },

    async findOwned(userId: number, id: number, tx: Executor = db): Promise<AiImportBatchRow | undefined> {
      const [row] = await tx.select().from(b).where(ownedBatch(userId, id));
      return row;
    },

    /** Locks the batch for the caller's transaction: PATCH, import and discard queue up on it. */
    async lockOwned(userId: number, id: number, tx: Executor): Promise<AiImportBatchRow | undefined> {
      const [row] = await tx.select().from(b).where(ownedBatch(userId, id)).for('update');
      return row;
    },

    /** The batch a generate process drafts (whatever its state; the job decides). */
    async findByProcess(processId: number, tx: Executor = db): Promise<AiImportBatchRow | undefined> {
      const [row] = await tx.select().from(b).where(eq(b.processId, processId));
      return row;
    },

    async list(userId: number, workspaceId: number | undefined, limit: number, tx: Executor = db) {
      return tx
        .select()
        .from(b)
        .where(
          and(
            eq(b.userId, userId),
            isNull(b.discardedAt),
            accessibleWorkspace(b.workspaceId, { userId, allWorkspaces: false }),
            workspaceId === undefined ? undefined : eq(b.workspaceId, workspaceId),
          ),
        )
        .orderBy(desc(b.updatedAt), desc(b.id))
        .limit(limit);
    },

    async items(batchId: number, tx: Executor = db): Promise<AiImportItemRow[]> {
      return tx.select().from(i).where(eq(i.batchId, batchId)).orderBy(asc(i.id));
    },

    /** The draft's items replace any earlier ones (a retried generate writes its own). */
    async replaceItems(batchId: number, items: NewAiImportItem[], tx: Executor): Promise<void> {
      await tx.delete(i).where(eq(i.batchId, batchId));
      if (items.length > 0) await tx.insert(i).values(items.map((item) => ({ ...item, batchId })));
    },

    /** Applies item updates in one statement. */
    async updateItems(updates: ItemUpdate[], tx: Executor): Promise<void> {
      if (updates.length === 0) return;
      const rows = JSON.stringify(
        updates.map((update) => ({
          id: update.id,
          status: update.status ?? null,
          confidence: update.confidence ?? null,
          warnings: update.warnings ?? null,
          validation_errors: update.validationErrors ?? null,
          user_payload: update.userPayload ?? null,
          location_id: update.locationId ?? null,
        })),
      );
      await tx.execute(sql`
        update ai_import_items t set
          status = coalesce(u.status, t.status),
          confidence = coalesce(u.confidence, t.confidence),
          warnings = coalesce(u.warnings, t.warnings),
          validation_errors = coalesce(u.validation_errors, t.validation_errors),
          user_payload = coalesce(u.user_payload, t.user_payload),
          location_id = coalesce(u.location_id, t.location_id),
          updated_at = now()
        from jsonb_to_recordset(${rows}::jsonb) as u(id int, status text, confidence text, warnings jsonb,
          validation_errors jsonb, user_payload jsonb, location_id int)
        where t.id = u.id`);
    },

    /**
     * Recounts the batch's item counters from its items (so they can never drift) and sets the
     * other given columns, in one statement.
     */
    async recount(
      batchId: number,
      set: Partial<
        Pick<NewAiImportBatch, 'status' | 'modelName' | 'promptVersion' | 'usageMetadata' | 'applyProcessId'>
      > = {},
      tx: Executor = db,
    ): Promise<void> {
      const counted = (status: AiImportItemStatus) =>
        sql<number>`(select count(*)::int from ${i} where ${i.batchId} = ${batchId} and ${i.status} = ${status})`;
      await tx
        .update(b)
        .set({
          ...set,
          totalItems: sql<number>`(select count(*)::int from ${i} where ${i.batchId} = ${batchId})`,
          approvedItems: counted('approved'),
          rejectedItems: counted('rejected'),
          importedItems: counted('imported'),
          failedItems: counted('failed'),
        })
        .where(eq(b.id, batchId));
    },

    async discard(batchId: number, tx: Executor): Promise<void> {
      await tx.update(b).set({ status: 'discarded', discardedAt: new Date() }).where(eq(b.id, batchId));
    },

    /** The finder, when it belongs to the workspace, with its backing map. */
    async finderInWorkspace(
      finderId: number,
      workspaceId: number,
      tx: Executor = db,
    ): Promise<{ id: number; mapId: number | null } | undefined> {
      const [row] = await tx
        .select({ id: findersTable.id, mapId: findersTable.mapId })
        .from(findersTable)
        .where(and(eq(findersTable.id, finderId), eq(findersTable.workspaceId, workspaceId)));
      return row;
    },

    /** Adds locations to a map (the finder's backing map); links that exist are kept. */
    async joinMap(mapId: number, locationIds: number[], tx: Executor): Promise<void> {
      if (locationIds.length === 0) return;
      await tx.execute(sql`
        insert into ${mapLocationsTable} (map_id, location_id)
        select ${mapId}, ids.value::int from jsonb_array_elements_text(${JSON.stringify(locationIds)}::jsonb) as ids
        on conflict do nothing`);
    },

    /** Batches with their model usage, newest first, for GET /admin/ai-logs (discarded included). */
    async logs(filter: AiLogsFilter, tx: Executor = db) {
      const where = and(
        filter.userId === undefined ? undefined : eq(b.userId, filter.userId),
        filter.workspaceId === undefined ? undefined : eq(b.workspaceId, filter.workspaceId),
      );
      const rows = await tx
        .select({
          batch: b,
          userEmail: usersTable.email,
          processStatus: processesTable.status,
          errorMessage: processesTable.errorMessage,
        })
        .from(b)
        .leftJoin(usersTable, eq(usersTable.id, b.userId))
        .leftJoin(processesTable, eq(processesTable.id, b.processId))
        .where(where)
        .orderBy(desc(b.createdAt), desc(b.id))
        .limit(filter.limit)
        .offset(filter.offset);
      const [total] = await tx.select({ value: count() }).from(b).where(where);
      return { rows, total: total?.value ?? 0 };
    },
  };
  return repository;
}

export type AiImportsRepository = ReturnType<typeof createAiImportsRepository>;
