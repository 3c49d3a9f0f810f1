// The rules of AI import batches (docs/api.md, "AI import: routes and lifecycle") apart from
// applying them (ai-imports.apply.service.ts): starting one (owner only; batch, generate process
// and job in one transaction), listing and showing the caller's own, reviewing items (PATCH: merge,
// status, errors/warnings/confidence recomputed for the whole batch, counts in sync), discarding,
// and the admins' usage log.
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Listed } from '../../lib/pagination.ts';
import type { ProcessesService } from '../processes/processes.service.ts';
import { assertWorkspaceAccess } from '../workspaces/workspaces.access.ts';
import type { DraftingModel } from './ai-imports.drafting.ts';
import {
  createAiImportBatchNotFoundError,
  createAiImportItemNotFoundError,
  createBatchNotDraftError,
  createFinderNotInWorkspaceError,
  createItemHasValidationErrorsError,
} from './ai-imports.errors.ts';
import { assessPayloads, mergePayload } from './ai-imports.normalize.ts';
import type { AiImportsRepository, ItemUpdate } from './ai-imports.repository.ts';
import {
  type AiLogPayload,
  type AiLogsQuery,
  BATCH_LIST_SIZE,
  type BatchPayload,
  type BatchWithItemsPayload,
  type CreateBatchBody,
  type CreateBatchResponse,
  effectivePayload,
  type PatchItemBody,
  toBatchPayload,
  toItemPayload,
} from './ai-imports.schemas.ts';
import type { AiImportItemStatus, AiImportLocationPayload } from './ai-imports.table.ts';

export const GENERATE_PROCESS_TYPE = 'ai_location_import_generate';
/** processes.related_type of both AI import processes. */
export const BATCH_RELATED_TYPE = 'ai_import_batch';

interface AiImportsServiceDeps {
  db: Database;
  repository: AiImportsRepository;
  processes: ProcessesService;
  jobs: JobQueue;
  /** The configured model: its name and prompt version are the new batch's until the job drafts. */
  model: Pick<DraftingModel, 'name' | 'promptVersion'>;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function createAiImportsService({ db, repository, processes, jobs, model }: AiImportsServiceDeps) {
  async function create(actor: Actor, body: CreateBatchBody): Promise<CreateBatchResponse> {
    // Starting AI imports needs the workspace's owner: members get 403, strangers 404
    // (docs/api.md, "AI import: routes and lifecycle").
    await assertWorkspaceAccess(db, actor, body.workspace_id, { owner: true });
    const finderId = body.finder_id ?? null;
    if (finderId !== null && !(await repository.finderInWorkspace(finderId, body.workspace_id))) {
      throw createFinderNotInWorkspaceError();
    }
    return db.transaction(async (tx) => {
      const batch = await repository.insertBatch(
        {
          workspaceId: body.workspace_id,
          userId: actor.userId,
          finderId,
          status: 'draft',
          modelName: model.name,
          promptVersion: model.promptVersion,
          sourceAnswers: body.answers,
        },
        tx,
      );
      const jobId = randomUUID();
      const queue = 'ai-imports.generate';
      const processId = await processes.create(
        {
          workspaceId: body.workspace_id,
          userId: actor.userId,
          type: GENERATE_PROCESS_TYPE,
          status: 'pending',
          progressPercent: 0,
          currentStep: 'queued',
          queue,
          jobId,
          relatedType: BATCH_RELATED_TYPE,
          relatedId: batch.id,
          inputPayload: { batch_id: batch.id, finder_id: finderId },
        },
        [
          {
            type: 'status',
            status: 'pending',
            progressPercent: 0,
            step: 'queued',
            message: 'Queued for drafting.',
          },
        ],
        tx,
      );
      await repository.setProcess(batch.id, processId, tx);
      // In the same transaction: the job exists only if the batch and process do.
      await jobs.send(queue, { process_id: processId }, { tx, id: jobId });
      return {
        // The create response shows `queued`; the process itself is `pending` (docs/api.md,
        // Process status).
        process: { id: processId, type: GENERATE_PROCESS_TYPE, status: 'queued' },
        batch: { id: batch.id, status: batch.status, total_items: batch.totalItems },
        next_action: 'watch_process' as const,
      };
    });
  }

  /** A `workspaceId` the actor cannot reach answers 404 `Workspace not found.`, not an empty list. */
  async function list(actor: Actor, workspaceId: number | undefined): Promise<BatchPayload[]> {
    if (workspaceId !== undefined) await assertWorkspaceAccess(db, actor, workspaceId);
    return (await repository.list(actor.userId, workspaceId, BATCH_LIST_SIZE)).map(toBatchPayload);
  }

  async function get(actor: Actor, id: number): Promise<BatchWithItemsPayload> {
    const batch = await repository.findOwned(actor.userId, id);
    if (!batch) throw createAiImportBatchNotFoundError();
    const items = await repository.items(id);
    return { ...toBatchPayload(batch), items: items.map(toItemPayload) };
  }

  /**
   * A reviewer's change to one item: the payload merged over what the item holds (kept whole in
   * user_payload), the status set (approving needs no validation errors: 422), and the errors,
   * warnings and confidence of every item recomputed (duplicates depend on the others), with
   * the batch's counts, in one transaction. An approved item whose edit brings errors goes back
   * to pending_review.
   */
  async function patchItem(
    actor: Actor,
    batchId: number,
    itemId: number,
    body: PatchItemBody,
  ): Promise<BatchWithItemsPayload> {
    await db.transaction(async (tx) => {
      const batch = await repository.lockOwned(actor.userId, batchId, tx);
      if (!batch) throw createAiImportBatchNotFoundError();
      const items = await repository.items(batchId, tx);
      const item = items.find((candidate) => candidate.id === itemId);
      if (!item) throw createAiImportItemNotFoundError();
      if (batch.status !== 'draft') throw createBatchNotDraftError(batch.status);

      const edited: AiImportLocationPayload | undefined = body.payload
        ? mergePayload(effectivePayload(item), body.payload as Partial<AiImportLocationPayload>)
        : undefined;
      const payloads = items.map((candidate) =>
        candidate.id === itemId && edited ? edited : effectivePayload(candidate),
      );
      const assessments = assessPayloads(
        payloads,
        items.map((candidate) => candidate.rawModelOutput),
      );
      const index = items.indexOf(item);
      const assessment = assessments[index]!;
      const hasErrors = assessment.validation_errors.length > 0;

      let status: AiImportItemStatus = body.status ?? item.status;
      if (body.status === 'approved' && hasErrors) throw createItemHasValidationErrorsError();
      if (body.status === undefined && status === 'approved' && hasErrors) status = 'pending_review';

      const updates: ItemUpdate[] = [];
      items.forEach((candidate, position) => {
        const next = assessments[position]!;
        const changed =
          candidate.confidence !== next.confidence ||
          !sameJson(candidate.warnings, next.warnings) ||
          !sameJson(candidate.validationErrors, next.validation_errors);
        if (candidate.id !== itemId && !changed) return;
        updates.push({
          id: candidate.id,
          confidence: next.confidence,
          warnings: next.warnings,
          validationErrors: next.validation_errors,
          ...(candidate.id === itemId ? { status, ...(edited ? { userPayload: edited } : {}) } : {}),
        });
      });
      await repository.updateItems(updates, tx);
      await repository.recount(batchId, {}, tx);
    });
    return get(actor, batchId);
  }

  /** draft|imported -> discarded (soft); a generate still queued or running is cancelled. */
  async function discard(actor: Actor, id: number): Promise<void> {
    await db.transaction(async (tx) => {
      const batch = await repository.lockOwned(actor.userId, id, tx);
      if (!batch) throw createAiImportBatchNotFoundError();
      await repository.discard(id, tx);
      if (batch.processId !== null) {
        await processes.change(
          { id: batch.processId, from: ['pending', 'running'] },
          { status: 'cancelled', currentStep: 'cancelled', finishedAt: 'now', heartbeatAt: null },
          { type: 'status', message: 'The batch was discarded.' },
          tx,
        );
      }
    });
  }

  async function logs(query: AiLogsQuery): Promise<Listed<AiLogPayload>> {
    const { rows, total } = await repository.logs({
      userId: query.user_id,
      workspaceId: query.workspace_id,
      limit: query.limit,
      offset: query.offset,
    });
    return {
      total,
      items: rows.map(({ batch, userEmail, processStatus, errorMessage }) => ({
        batch_id: batch.id,
        workspace_id: batch.workspaceId,
        user_id: batch.userId,
        user_email: userEmail,
        status: batch.status,
        model_name: batch.modelName,
        prompt_version: batch.promptVersion,
        total_items: batch.totalItems,
        imported_items: batch.importedItems,
        usage_metadata: batch.usageMetadata ?? null,
        process_id: batch.processId,
        process_status: processStatus,
        error_message: errorMessage,
        created_at: batch.createdAt.toISOString(),
        updated_at: batch.updatedAt.toISOString(),
      })),
    };
  }

  return { create, list, get, patchItem, discard, logs };
}

export type AiImportsService = ReturnType<typeof createAiImportsService>;
