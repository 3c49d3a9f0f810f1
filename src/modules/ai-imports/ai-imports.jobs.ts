// The worker's side of AI imports (docs/api.md, "AI import: routes and lifecycle"):
// `ai-imports.generate` drafts a batch's items. The process moves pending -> running ->
// waiting_review (or failed, or cancelled) through the processes service. Safe to run twice: the
// run claims its process only while it is pending (or left running by a dead worker) and this job
// is its latest dispatch; the items replace any earlier draft in the same transaction that moves
// the process on, which only happens while the process is still this run's. A cancel is noticed
// within a second and aborts the model call.
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import type { JobContext, JobPayload } from '../../jobs/jobs.ts';
import { UpstreamError } from '../../lib/upstream.ts';
import type { ProcessChangeWhere } from '../processes/processes.repository.ts';
import type { ProcessesService } from '../processes/processes.service.ts';
import { locationCountTarget } from './ai-imports.answers.ts';
import type { Draft, DraftingModel } from './ai-imports.drafting.ts';
import { normalizeItems } from './ai-imports.normalize.ts';
import type { AiImportsRepository } from './ai-imports.repository.ts';
import type { AiImportBatchRow } from './ai-imports.table.ts';

/** The model call may take at most 90 seconds (docs/api.md, Limits); the openai client enforces it too. */
export const GENERATE_TIMEOUT_MS = 90_000;

interface AiImportJobsDeps {
  db: Database;
  repository: AiImportsRepository;
  processes: ProcessesService;
  model: DraftingModel;
  /** Aborted when the worker stops: the run hands its process back for a retry. */
  stopping: AbortSignal;
  logger: Logger;
}

export type GenerateOutcome = 'skipped' | 'cancelled' | 'failed' | 'waiting_review';

/** Thrown to make pg-boss retry the job (the process was handed back to pending or failed). */
class HandedBackError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'HandedBackError';
  }
}

/** Rolls the item writes back when the process left `running` meanwhile. */
class NoLongerRunningError extends Error {}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One run of the job: its process, its pg-boss job, and the condition of every later change. */
interface Run {
  processId: number;
  job: JobContext;
  /** Changes apply only while the process is still this run's. */
  stillRunning: ProcessChangeWhere;
}

/** What a run listens to while the model answers. */
interface RunSignals {
  /** Aborted when the process is cancelled or taken over. */
  cancelled: AbortSignal;
  timeout: AbortSignal;
}

export function createAiImportJobs({ db, repository, processes, model, stopping, logger }: AiImportJobsDeps) {
  /** The batch was discarded or imported before the run began: the process ends cancelled. */
  async function cancelWithNothingToDraft(run: Run): Promise<'cancelled'> {
    await processes.change(
      run.stillRunning,
      { status: 'cancelled', currentStep: 'cancelled', finishedAt: 'now', heartbeatAt: null },
      { type: 'status', message: 'The batch was discarded or imported; there is nothing to draft.' },
    );
    return 'cancelled';
  }

  /**
   * The model's draft; or how the run ended without one: cancelled (whoever cancelled recorded
   * it), failed (recorded here, retryable by POST /processes/{id}/retry; docs/api.md, Process
   * status), or handed back to pg-boss when the worker is stopping (thrown).
   */
  async function askModel(
    run: Run,
    batch: AiImportBatchRow,
    signals: RunSignals,
  ): Promise<Draft | 'cancelled' | 'failed'> {
    const signal = AbortSignal.any([signals.cancelled, stopping, signals.timeout]);
    try {
      const draft = await model.draft(batch.sourceAnswers, {
        signal,
        target: locationCountTarget(batch.sourceAnswers),
      });
      if (signal.aborted) throw signal.reason;
      return draft;
    } catch (error) {
      if (signals.cancelled.aborted) return 'cancelled';
      if (stopping.aborted) {
        const reason = 'The worker stopped while drafting.';
        await processes.handBack(run.processId, run.job.id, reason, run.job.retryLimit - run.job.retryCount);
        throw new HandedBackError(reason, { cause: error });
      }
      const detail = error instanceof Error ? error.message : String(error);
      const message = signals.timeout.aborted
        ? `The model did not answer within ${GENERATE_TIMEOUT_MS / 1000} seconds.`
        : error instanceof UpstreamError
          ? `The model call failed: ${detail}`
          : `Drafting failed: ${detail}`;
      await processes.change(
        run.stillRunning,
        {
          status: 'failed',
          errorMessage: message,
          currentStep: 'failed',
          finishedAt: 'now',
          heartbeatAt: null,
        },
        { type: 'error', message },
      );
      return 'failed';
    }
  }

  /**
   * The drafted items replace any earlier draft in the transaction that moves the process to
   * waiting_review, which only happens while the process is still this run's.
   */
  async function saveDraft(
    run: Run,
    batch: AiImportBatchRow,
    draft: Draft,
  ): Promise<'waiting_review' | 'cancelled'> {
    const items = normalizeItems(draft.locations);
    const confidence = { high: 0, medium: 0, low: 0 };
    for (const item of items) confidence[item.confidence] += 1;
    const summary = {
      batch_id: batch.id,
      total_items: items.length,
      confidence,
      with_validation_errors: items.filter((item) => item.validation_errors.length > 0).length,
      model_name: model.name,
      usage: draft.usage,
    };
    try {
      await db.transaction(async (tx) => {
        // First, so the row lock orders this against a cancel: writes only while still ours.
        const moved = await processes.change(
          run.stillRunning,
          {
            status: 'waiting_review',
            progressPercent: 100,
            currentStep: 'waiting_review',
            summary,
            heartbeatAt: null,
          },
          {
            type: 'status',
            message: `Drafted ${items.length} location${items.length === 1 ? '' : 's'}; waiting for review.`,
            payload: summary,
          },
          tx,
        );
        if (!moved) throw new NoLongerRunningError();
        await repository.replaceItems(
          batch.id,
          items.map((item, index) => ({
            status: 'pending_review',
            confidence: item.confidence,
            warnings: item.warnings,
            validationErrors: item.validation_errors,
            normalizedPayload: item.normalized_payload,
            rawModelOutput: isRecord(draft.locations[index])
              ? draft.locations[index]
              : { value: draft.locations[index] },
          })),
          tx,
        );
        await repository.recount(
          batch.id,
          { modelName: model.name, promptVersion: model.promptVersion, usageMetadata: draft.usage },
          tx,
        );
      });
    } catch (error) {
      if (error instanceof NoLongerRunningError) return 'cancelled';
      throw error;
    }
    return 'waiting_review';
  }

  /** Something unexpected (the database went away...): the process goes back for pg-boss's retry. */
  async function handBackAfter(run: Run, error: unknown): Promise<void> {
    const reason = `Drafting failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
    await processes
      .handBack(run.processId, run.job.id, reason, run.job.retryLimit - run.job.retryCount)
      .catch((handBackError) =>
        logger.error({ err: handBackError, processId: run.processId }, 'could not hand a process back'),
      );
  }

  async function generate(
    payload: JobPayload<'ai-imports.generate'>,
    job: JobContext,
  ): Promise<GenerateOutcome> {
    const processId = payload.process_id;
    const started = await processes.startRun(
      processId,
      job.id,
      `Drafting started (attempt ${job.retryCount + 1}).`,
    );
    if (!started) return 'skipped';
    const run: Run = { processId, job, stillRunning: { id: processId, jobId: job.id, from: ['running'] } };

    const watch = processes.watch(processId);
    try {
      const batch = await repository.findByProcess(processId);
      if (batch?.status !== 'draft') return await cancelWithNothingToDraft(run);
      await processes.change(
        run.stillRunning,
        { currentStep: 'drafting', progressPercent: 10, heartbeatAt: 'now' },
        { type: 'progress', message: `Asking ${model.name} for a draft.` },
      );
      const draft = await askModel(run, batch, {
        cancelled: watch.signal,
        timeout: AbortSignal.timeout(GENERATE_TIMEOUT_MS),
      });
      if (draft === 'cancelled' || draft === 'failed') return draft;
      return await saveDraft(run, batch, draft);
    } catch (error) {
      if (!(error instanceof HandedBackError)) await handBackAfter(run, error);
      throw error;
    } finally {
      watch.stop();
    }
  }

  return { generate };
}

export type AiImportJobs = ReturnType<typeof createAiImportJobs>;
