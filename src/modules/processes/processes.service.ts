// The processes service: the ONE way anything moves a process (status, progress, step) and
// appends its events. Every change is one transaction (or one statement) with its event and a
// NOTIFY, so readers of the event log and of the live stream see the same history. It also
// owns the life of a process run by a job (start, heartbeat and cancel watch, hand-back when a
// worker stops), the supervisor that notices processes left running by a dead worker, and the
// routes' rules (list, show, events, retry, cancel, stream).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Executor } from '../../db/client.ts';
import { type JobName, type JobPayload, type JobProcessType, processJobs } from '../../jobs/jobs.ts';
import type { JobQueue, JobState } from '../../jobs/queue.ts';
import type { Listed, Page } from '../../lib/pagination.ts';
import { assertWorkspaceAccess } from '../workspaces/workspaces.access.ts';
import {
  createProcessNotCancellableError,
  createProcessNotFoundError,
  createProcessNotRetryableError,
  createProcessTypeNotRetryableError,
} from './processes.errors.ts';
import type { ProcessEventHub } from './processes.hub.ts';
import type {
  ChangedProcess,
  NewProcess,
  NewProcessEvent,
  ProcessChangeSet,
  ProcessChangeWhere,
  ProcessEventInput,
  ProcessesRepository,
  ProcessFilter,
} from './processes.repository.ts';
import {
  type ProcessEventPayload,
  type ProcessPayload,
  type ProcessSummaryPayload,
  toProcessEventPayload,
  toProcessPayload,
  toProcessSummaryPayload,
} from './processes.schemas.ts';
import { openProcessStream, type ProcessStream, type ProcessStreamOptions } from './processes.stream.ts';
import type { ProcessRow, ProcessStatus } from './processes.table.ts';

/** A running job re-reads its process this often: a cancel is noticed within a second. */
export const WATCH_INTERVAL_MS = 500;
/** Every this many watch ticks the read is a heartbeat write instead. */
const HEARTBEAT_EVERY_TICKS = 5;
/** A running process whose heartbeat is older than this was left by a dead worker. */
export const STALE_AFTER_SECONDS = 15;
/** How often a worker's supervisor looks for such processes. */
export const SUPERVISOR_INTERVAL_MS = 5_000;
/** Events per GET /processes/{id}/events response. */
const EVENTS_PAGE = 1_000;

/** Why a job's watch aborted: the process left `running` (cancelled, or taken over). */
export class ProcessNotRunningError extends Error {
  constructor(readonly processId: number) {
    super(`process ${processId} is no longer running`);
    this.name = 'ProcessNotRunningError';
  }
}

export interface ProcessWatch {
  /** Aborts (with ProcessNotRunningError) once the process is no longer running. */
  signal: AbortSignal;
  stop(): void;
}

interface ProcessesServiceDeps {
  db: Database;
  processes: ProcessesRepository;
  jobs: JobQueue;
  hub: ProcessEventHub;
  logger: Logger;
}

const isJobProcessType = (type: string | null): type is JobProcessType =>
  type !== null && Object.hasOwn(processJobs, type);

export function createProcessesService({ db, processes, jobs, hub, logger }: ProcessesServiceDeps) {
  let supervisor: NodeJS.Timeout | undefined;
  /** Open streams of this process, ended when it shuts down (their clients reconnect elsewhere). */
  const streams = new Set<ProcessStream>();

  /** A process with its first events; in the caller's transaction when given, else its own. */
  async function create(process: NewProcess, events: NewProcessEvent[], tx?: Executor): Promise<number> {
    if (tx) return processes.insertWithEvents(process, events, tx);
    return db.transaction((own) => processes.insertWithEvents(process, events, own));
  }

  /** One change and its event, notified at commit; undefined when `where` matched nothing. */
  function change(
    where: ProcessChangeWhere,
    set: ProcessChangeSet,
    event: ProcessEventInput,
    tx?: Executor,
  ): Promise<ChangedProcess | undefined> {
    return processes.change(where, set, event, tx);
  }

  async function findVisibleOr404(userId: number, id: number): Promise<ProcessRow> {
    const row = await processes.findVisible(userId, id);
    if (!row) throw createProcessNotFoundError();
    return row;
  }

  // --- a process run by a job -------------------------------------------------------------

  /**
   * The job's claim on its process: pending (or running with a dead heartbeat, when pg-boss
   * retries the job of a worker that died) -> running, while `jobId` is its latest dispatch.
   * Undefined: nothing to do (cancelled, finished, or superseded by a retry). A job that goes on
   * from another's share of the work (`continued`, continueInNewJob) is no new attempt and keeps
   * the progress.
   */
  function startRun(processId: number, jobId: string, message: string, { continued = false } = {}) {
    return change(
      { id: processId, jobId, from: ['pending'], orStaleRunningSeconds: STALE_AFTER_SECONDS },
      {
        status: 'running',
        ...(continued ? {} : { attempts: 'increment', progressPercent: 0 }),
        startedAt: 'now',
        finishedAt: null,
        heartbeatAt: 'now',
        errorMessage: null,
        currentStep: 'started',
      },
      { type: 'status', message },
    );
  }

  /**
   * Watches a running process: a heartbeat every few seconds (so the supervisor knows its worker
   * lives), and an abort within a second once it is no longer running (cancelled by the user,
   * or taken over). Read failures are logged and retried on the next tick.
   */
  function watch(processId: number): ProcessWatch {
    const controller = new AbortController();
    let tick = 0;
    let busy = false;
    const timer = setInterval(async () => {
      if (busy || controller.signal.aborted) return;
      busy = true;
      tick += 1;
      try {
        const running =
          tick % HEARTBEAT_EVERY_TICKS === 0
            ? await processes.heartbeat(processId)
            : (await processes.statuses([processId])).get(processId) === 'running';
        if (!running) controller.abort(new ProcessNotRunningError(processId));
      } catch (error) {
        logger.warn({ err: error, processId }, 'process watch: could not read the process');
      } finally {
        busy = false;
      }
    }, WATCH_INTERVAL_MS);
    return { signal: controller.signal, stop: () => clearInterval(timer) };
  }

  /**
   * A run that cannot finish here (the worker is stopping, or something unexpected broke): back
   * to pending while pg-boss has retries left for the job, else failed with the reason.
   */
  function handBack(processId: number, jobId: string, reason: string, retriesLeft: number) {
    const where = { id: processId, jobId, from: ['running'] as ProcessStatus[] };
    if (retriesLeft > 0) {
      return change(
        where,
        { status: 'pending', currentStep: 'queued', heartbeatAt: null },
        {
          type: 'error',
          message: `${reason} The job will be retried (${retriesLeft} ${retriesLeft === 1 ? 'retry' : 'retries'} left).`,
        },
      );
    }
    return change(
      where,
      { status: 'failed', errorMessage: reason, finishedAt: 'now', heartbeatAt: null },
      { type: 'error', message: reason },
    );
  }

  /**
   * A running process whose job has done its share hands the rest to a new job of the same
   * queue: running -> pending under a new job id, and the job sent, in one transaction. The
   * job ends without failing (no retry spent). Answers whether the process was still this job's.
   */
  async function continueInNewJob<N extends JobName>(
    processId: number,
    jobId: string,
    job: { name: N; payload: JobPayload<N> },
    set: Pick<ProcessChangeSet, 'progressPercent' | 'summary'>,
    message: string,
  ): Promise<boolean> {
    return db.transaction((tx) =>
      sendAgain(
        tx,
        { id: processId, jobId, from: ['running'] },
        { ...set, status: 'pending', currentStep: 'queued', heartbeatAt: null },
        { type: 'status', message, ...(set.summary ? { payload: set.summary } : {}) },
        job,
      ),
    );
  }

  /**
   * In `tx`: the change to the process under a new job id and, when it applied, that job sent,
   * so that the process names the job pg-boss holds. Answers whether it applied.
   */
  async function sendAgain<N extends JobName>(
    tx: Executor,
    where: ProcessChangeWhere,
    set: ProcessChangeSet,
    event: ProcessEventInput,
    job: { name: N; payload: JobPayload<N> },
  ): Promise<boolean> {
    const jobId = randomUUID();
    if (!(await change(where, { ...set, jobId }, event, tx))) return false;
    await jobs.send(job.name, job.payload, { tx, id: jobId });
    return true;
  }

  // --- the supervisor ---------------------------------------------------------------------

  /**
   * Processes left `running` by a worker that died (no heartbeat for STALE_AFTER_SECONDS): their
   * pg-boss job is failed so pg-boss retries it (the process goes back to pending), or, with no
   * retry left or no job, the process fails with a message. One supervisor pass at a time
   * across all workers (an advisory lock); every change is guarded, so a late pass is harmless.
   */
  async function recoverStale(): Promise<{ retried: number; failed: number }> {
    const result = { retried: 0, failed: 0 };
    await db.transaction(async (tx) => {
      const [lock] = await tx.execute<{ locked: boolean }>(
        sql`select pg_try_advisory_xact_lock(hashtextextended('lf:process-supervisor', 0)) as locked`,
      );
      if (!lock?.locked) return;
      for (const stale of await processes.staleRunning(STALE_AFTER_SECONDS, tx)) {
        let state: JobState = 'missing';
        if (stale.jobId && stale.queue) {
          state = await jobs.fail(stale.queue, stale.jobId, 'The worker running this job stopped.');
        }
        const retrying = state === 'retry' || state === 'created' || state === 'active';
        const where = { id: stale.id, orStaleRunningSeconds: STALE_AFTER_SECONDS };
        const changed = retrying
          ? await change(
              where,
              { status: 'pending', currentStep: 'queued', heartbeatAt: null },
              {
                type: 'error',
                message: 'The worker running this process stopped; the job will be retried.',
              },
            )
          : await change(
              where,
              {
                status: 'failed',
                errorMessage: 'The worker running this process stopped and no retry is left.',
                finishedAt: 'now',
                heartbeatAt: null,
              },
              { type: 'error', message: 'The worker running this process stopped and no retry is left.' },
            );
        if (changed) {
          result[retrying ? 'retried' : 'failed'] += 1;
          logger.warn(
            { processId: stale.id, jobState: state },
            'recovered a process left running by a dead worker',
          );
        }
      }
    });
    return result;
  }

  /** Runs the supervisor now and every SUPERVISOR_INTERVAL_MS (workers only). */
  function startSupervisor(intervalMs = SUPERVISOR_INTERVAL_MS): void {
    if (supervisor) return;
    let running = false;
    const pass = async () => {
      if (running) return;
      running = true;
      try {
        await recoverStale();
      } catch (error) {
        logger.warn({ err: error }, 'process supervisor pass failed');
      } finally {
        running = false;
      }
    };
    void pass();
    supervisor = setInterval(pass, intervalMs);
  }

  // --- the routes' rules ------------------------------------------------------------------

  /**
   * The caller's processes. A `workspaceId` the caller is not a member of (or that does not
   * exist) answers 404 `Workspace not found.`, as every workspace-content list does.
   */
  async function list(
    userId: number,
    filter: ProcessFilter,
    page: Page,
  ): Promise<Listed<ProcessSummaryPayload>> {
    if (filter.workspaceId !== undefined) {
      await assertWorkspaceAccess(db, { userId, allWorkspaces: false }, filter.workspaceId);
    }
    const { rows, total } = await processes.list(userId, filter, page);
    return { items: rows.map(toProcessSummaryPayload), total };
  }

  async function get(userId: number, id: number): Promise<ProcessPayload> {
    return toProcessPayload(await findVisibleOr404(userId, id));
  }

  async function events(userId: number, id: number, afterId = 0): Promise<ProcessEventPayload[]> {
    await findVisibleOr404(userId, id);
    return (await processes.eventsAfter(id, afterId, EVENTS_PAGE)).map(toProcessEventPayload);
  }

  /** failed -> pending, and the process's job sent again in the same transaction (409 otherwise). */
  async function retry(userId: number, id: number): Promise<ProcessPayload> {
    await db.transaction(async (tx) => {
      const row = await processes.lockVisible(userId, id, tx);
      if (!row) throw createProcessNotFoundError();
      if (row.status !== 'failed') throw createProcessNotRetryableError(row.status);
      if (!isJobProcessType(row.type)) throw createProcessTypeNotRetryableError(row.type);
      await sendAgain(
        tx,
        { id, from: ['failed'] },
        {
          status: 'pending',
          progressPercent: 0,
          currentStep: 'queued',
          errorMessage: null,
          summary: null,
          finishedAt: null,
          heartbeatAt: null,
        },
        { type: 'status', message: 'Retry requested; the job is queued again.' },
        { name: processJobs[row.type], payload: { process_id: id } },
      );
    });
    return get(userId, id);
  }

  /** pending|running -> cancelled (409 otherwise); a running job notices within a second. */
  async function cancel(userId: number, id: number): Promise<ProcessPayload> {
    await db.transaction(async (tx) => {
      const row = await processes.lockVisible(userId, id, tx);
      if (!row) throw createProcessNotFoundError();
      if (row.status !== 'pending' && row.status !== 'running') {
        throw createProcessNotCancellableError(row.status);
      }
      await change(
        { id, from: ['pending', 'running'] },
        { status: 'cancelled', currentStep: 'cancelled', finishedAt: 'now', heartbeatAt: null },
        { type: 'status', message: 'Cancelled by the user.' },
        tx,
      );
    });
    return get(userId, id);
  }

  async function openStream(
    userId: number,
    id: number,
    lastEventId: number,
    options?: ProcessStreamOptions,
  ): Promise<ProcessStream> {
    const row = await findVisibleOr404(userId, id);
    const stream = openProcessStream(hub, row, lastEventId, options);
    streams.add(stream);
    stream.stream.once('close', () => streams.delete(stream));
    return stream;
  }

  /** Ends every open stream (a server shutting down): clients reconnect with their Last-Event-ID. */
  function closeStreams(): void {
    for (const stream of streams) stream.close();
    streams.clear();
  }

  function stopSupervisor(): void {
    if (supervisor) clearInterval(supervisor);
    supervisor = undefined;
  }

  async function close(): Promise<void> {
    stopSupervisor();
    closeStreams();
    await hub.close();
  }

  return {
    create,
    change,
    startRun,
    watch,
    handBack,
    continueInNewJob,
    recoverStale,
    startSupervisor,
    list,
    get,
    events,
    retry,
    cancel,
    openStream,
    closeStreams,
    hub,
    stopSupervisor,
    close,
  };
}

export type ProcessesService = ReturnType<typeof createProcessesService>;
