// The worker's side of geocoding (docs/api.md, Geocoding): `geocoding.run` looks up a
// workspace's pending locations one by one, through the shared cache and rate limit, and writes
// each verdict at once, so a run that stops anywhere leaves only the unfinished locations
// pending and the next run resumes there. Its `geocoding` process records the work: progress as
// done/total in the summary, an event for each failure (by location id and reason, never the
// address) and the counts at the end.
//   - A provider outage (timeouts, 5xx, 429) is waited out with growing pauses; when it lasts
//     longer the process goes back to pending and pg-boss runs the job again later (jobPolicies).
//   - A refused key (401, 403, REQUEST_DENIED) fails the process at once: no retries, no further
//     requests, until someone fixes the key and starts it again.
//   - A cancel is noticed within a second; a stopping worker hands the process back.
//   - A run works for RUN_SLICE_MS at most, then hands the rest to a new job of the process.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import type { JobContext, JobPayload } from '../../jobs/jobs.ts';
import type { PayloadChangeListener } from '../../lib/payload-changes.ts';
import { UpstreamError } from '../../lib/upstream.ts';
import type { ProcessChangeWhere } from '../processes/processes.repository.ts';
import type { ProcessesService } from '../processes/processes.service.ts';
import { type CachedGeocoder, type GeocodeAnswerValue, isPrecise } from './geocoding.cache.ts';
import { classifyGeocoderFailure } from './geocoding.failures.ts';
import { type GeocodingRepository, KEY_REFUSED_STEP, type PendingLocation } from './geocoding.repository.ts';

/** Pauses before each new try of a location while the provider fails for a passing reason. */
export const OUTAGE_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];
/**
 * How long one job works before a new job takes over the rest. At one request a second (the
 * Nominatim policy) 100,000 addresses take about 28 hours, longer than pg-boss lets a job run
 * (its expiry's ceiling is 24 hours); and while one workspace's run holds the worker, the
 * queued runs of others wait behind it, where a new job queues after them.
 */
export const RUN_SLICE_MS = 60 * 60 * 1000;
/** Pending locations read at a time. */
const BATCH = 100;
/** A progress event at least every this many locations, or this often. */
const PROGRESS_EVERY = 25;
const PROGRESS_INTERVAL_MS = 5_000;

interface GeocodingJobsDeps {
  db: Database;
  repository: GeocodingRepository;
  processes: ProcessesService;
  geocoder: CachedGeocoder;
  changes: PayloadChangeListener;
  /** Aborted when the worker stops: the run hands its process back. */
  stopping: AbortSignal;
  logger: Logger;
  outageRetryDelaysMs?: readonly number[];
  runSliceMs?: number;
}

/** `continued`: the run did its share and a new job of the process goes on. */
export type GeocodingOutcome = 'skipped' | 'completed' | 'continued' | 'failed' | 'cancelled';

/** What a run did, kept in the process's summary so a resumed run counts on. */
export interface GeocodingTally {
  total: number;
  done: number;
  geocoded: number;
  not_found: number;
  imprecise: number;
  failed: number;
  /** Answers the cache gave without asking the provider. */
  from_cache: number;
}

/** Thrown to make pg-boss run the job again (the process went back to pending, or failed). */
class HandedBackError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'HandedBackError';
  }
}

/** The provider refused the key: the run ends, the process failed. */
class RefusedError extends Error {}

const readTally = (summary: Record<string, unknown> | null | undefined): GeocodingTally => {
  const number = (name: keyof GeocodingTally) => {
    const value = summary?.[name];
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
  };
  return {
    total: number('total'),
    done: number('done'),
    geocoded: number('geocoded'),
    not_found: number('not_found'),
    imprecise: number('imprecise'),
    failed: number('failed'),
    from_cache: number('from_cache'),
  };
};

const percentOf = (tally: GeocodingTally) =>
  tally.total === 0 ? 100 : Math.min(99, Math.floor((tally.done / tally.total) * 100));

/**
 * What a failure may say in events and logs: a provider's failure (whose message never holds a
 * query string, so no address or key) or the run's own wording of one. Nothing else's text: a
 * database error's message holds the statement's parameters, the address among them.
 */
const reasonOf = (error: unknown) =>
  error instanceof UpstreamError || error instanceof RefusedError || error instanceof HandedBackError
    ? error.message
    : 'an internal error';

export function createGeocodingJobs({
  db,
  repository,
  processes,
  geocoder,
  changes,
  stopping,
  logger,
  outageRetryDelaysMs = OUTAGE_RETRY_DELAYS_MS,
  runSliceMs = RUN_SLICE_MS,
}: GeocodingJobsDeps) {
  async function run(payload: JobPayload<'geocoding.run'>, job: JobContext): Promise<GeocodingOutcome> {
    const processId = payload.process_id;
    const runStarted = Date.now();
    // A retry of a job that went on is an attempt like any other.
    const continued = payload.continued === true && job.retryCount === 0;
    const started = await processes.startRun(
      processId,
      job.id,
      continued ? 'Geocoding goes on in a new job.' : `Geocoding started (attempt ${job.retryCount + 1}).`,
      { continued },
    );
    if (!started) return 'skipped';
    const stillRunning: ProcessChangeWhere = { id: processId, jobId: job.id, from: ['running'] };
    const process = await repository.process(processId);
    if (process?.workspaceId == null) {
      await processes.change(
        stillRunning,
        { status: 'cancelled', currentStep: 'cancelled', finishedAt: 'now', heartbeatAt: null },
        { type: 'status', message: 'The workspace is gone; there is nothing to geocode.' },
      );
      return 'cancelled';
    }
    const workspaceId = process.workspaceId;
    if (geocoder.kind === 'none') {
      // Queued while a geocoder was configured: the locations keep waiting for one.
      const message = 'No geocoder is configured (GEOCODER=none); the locations stay pending.';
      await processes.change(
        stillRunning,
        { status: 'failed', errorMessage: message, finishedAt: 'now', heartbeatAt: null },
        { type: 'error', message },
      );
      return 'failed';
    }

    // A resumed run counts on from where the last one stopped.
    const tally = readTally(process.summary);
    tally.total = tally.done + (await repository.pendingCount(workspaceId));
    const watch = processes.watch(processId);
    const signal = AbortSignal.any([watch.signal, stopping]);
    let placedSinceNotice = false;
    let lastProgress = { done: tally.done, at: Date.now() };

    /** Locations written pending during a pass are looked up in it too: counted in once met. */
    const countLateArrivals = async () => {
      if (tally.done > tally.total) tally.total = tally.done + (await repository.pendingCount(workspaceId));
    };

    const progress = async (message: string, type = 'progress') => {
      lastProgress = { done: tally.done, at: Date.now() };
      if (placedSinceNotice) {
        placedSinceNotice = false;
        await changes.workspaceChanged(workspaceId);
      }
      return processes.change(
        stillRunning,
        {
          progressPercent: percentOf(tally),
          currentStep: 'geocoding',
          summary: { ...tally },
          heartbeatAt: 'now',
        },
        { type, message, payload: { ...tally } },
      );
    };

    /** The provider's answer, waiting out a passing outage; throws what ends the run. */
    async function lookup(
      location: PendingLocation,
    ): Promise<{ answer: GeocodeAnswerValue; fromCache: boolean }> {
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await geocoder.lookup(location, { signal });
        } catch (error) {
          if (signal.aborted) throw error;
          const kind = classifyGeocoderFailure(error);
          if (kind === 'refused') throw new RefusedError(reasonOf(error), { cause: error });
          if (kind !== 'transient') throw error;
          const delay = outageRetryDelaysMs[attempt];
          if (delay === undefined)
            throw new HandedBackError(`The geocoder kept failing: ${reasonOf(error)}.`);
          logger.warn(
            { err: error, processId, locationId: location.id },
            'geocoding: the geocoder failed; retrying',
          );
          await progress(
            `The geocoder failed (${reasonOf(error)}); trying again in ${delay / 1000} s.`,
            'error',
          );
          await sleep(delay, undefined, { signal });
        }
      }
    }

    /**
     * Looks one location up and writes the verdict. A location whose address changed meanwhile
     * is pending again with the new address and is left for a later pass.
     */
    async function geocodeOne(location: PendingLocation): Promise<void> {
      let verdict: 'geocoded' | 'not_found' | 'imprecise' | 'failed';
      let written: boolean;
      let answeredFromCache = false;
      try {
        const { answer, fromCache } = await lookup(location);
        answeredFromCache = fromCache;
        if (isPrecise(answer)) {
          verdict = 'geocoded';
          written = await repository.place(location, answer);
          if (written) placedSinceNotice = true;
        } else {
          verdict = answer ? 'imprecise' : 'not_found';
          written = await repository.mark(location, verdict);
        }
      } catch (error) {
        // Only the provider's answer fails this one address (a 4xx, a body of another shape);
        // anything else (a refused key, an outage handed back, the database) stops the run.
        if (signal.aborted || !(error instanceof UpstreamError)) throw error;
        verdict = 'failed';
        written = await repository.mark(location, 'failed');
        if (written) {
          await progress(
            `Location ${location.id}: the geocoder could not look it up (${reasonOf(error)}).`,
            'error',
          );
        }
      }
      // A location changed meanwhile is looked up again later, and counted then.
      if (!written) return;
      tally[verdict] += 1;
      tally.done += 1;
      if (answeredFromCache) tally.from_cache += 1;
    }

    /**
     * Whether the run may end: under the workspace's lock, no location is pending (a write that
     * left one pending meanwhile saw this process running and queued nothing).
     */
    async function finish(): Promise<boolean> {
      return db.transaction(async (tx) => {
        await repository.lockWorkspace(tx, workspaceId);
        const left = await repository.pendingCount(workspaceId, tx);
        if (left > 0) {
          tally.total = tally.done + left;
          return false;
        }
        tally.total = tally.done;
        const message = `Geocoded ${tally.done} location${tally.done === 1 ? '' : 's'}: ${tally.geocoded} placed, ${tally.not_found} not found, ${tally.imprecise} only approximately, ${tally.failed} failed (${tally.from_cache} answered from the cache).`;
        await processes.change(
          stillRunning,
          {
            status: 'completed',
            progressPercent: 100,
            currentStep: 'completed',
            summary: { ...tally },
            finishedAt: 'now',
            heartbeatAt: null,
          },
          { type: 'status', message, payload: { ...tally } },
          tx,
        );
        return true;
      });
    }

    try {
      await progress(`${tally.total - tally.done} locations to geocode with ${geocoder.kind}.`);
      let afterId = 0;
      pass: for (;;) {
        const batch = await repository.nextPending(workspaceId, afterId, BATCH);
        if (batch.length === 0) {
          if (await finish()) break;
          afterId = 0;
          continue;
        }
        for (const location of batch) {
          await geocodeOne(location);
          afterId = location.id;
          if (
            tally.done - lastProgress.done >= PROGRESS_EVERY ||
            Date.now() - lastProgress.at >= PROGRESS_INTERVAL_MS
          ) {
            await countLateArrivals();
            if (!(await progress(`Geocoded ${tally.done} of ${tally.total} locations.`))) return 'cancelled';
          }
          // Its time is up: a new job goes on with what is left, if anything is.
          if (Date.now() - runStarted >= runSliceMs) {
            if (await finish()) break pass;
            const handedOn = await processes.continueInNewJob(
              processId,
              job.id,
              { name: 'geocoding.run', payload: { process_id: processId, continued: true } },
              { progressPercent: percentOf(tally), summary: { ...tally } },
              `Geocoded ${tally.done} of ${tally.total} locations; a new job goes on with the rest (a run lasts at most ${Math.round(runSliceMs / 60_000)} minutes).`,
            );
            return handedOn ? 'continued' : 'cancelled';
          }
        }
      }
      if (placedSinceNotice) await changes.workspaceChanged(workspaceId);
      return 'completed';
    } catch (error) {
      if (watch.signal.aborted) return 'cancelled';
      if (error instanceof RefusedError) {
        const message = `The geocoder refused the key (${error.message}); geocoding stopped. Fix GEOCODER_API_KEY and start it again.`;
        await processes.change(
          stillRunning,
          {
            status: 'failed',
            currentStep: KEY_REFUSED_STEP,
            errorMessage: message,
            summary: { ...tally },
            finishedAt: 'now',
            heartbeatAt: null,
          },
          { type: 'error', message, payload: { ...tally } },
        );
        return 'failed';
      }
      const reason = stopping.aborted
        ? 'The worker stopped while geocoding.'
        : error instanceof HandedBackError
          ? error.message
          : `Geocoding failed unexpectedly: ${reasonOf(error)}.`;
      await progress(`Stopped after ${tally.done} of ${tally.total} locations.`).catch(() => undefined);
      await processes
        .handBack(processId, job.id, reason, job.retryLimit - job.retryCount)
        .catch((handBackError) =>
          logger.error({ err: handBackError, processId }, 'could not hand a process back'),
        );
      if (!(error instanceof HandedBackError || error instanceof UpstreamError)) {
        // Its name and code only (see reasonOf).
        const code = (error as { cause?: { code?: unknown } }).cause?.code;
        logger.error(
          { processId, error: error instanceof Error ? error.name : typeof error, code },
          'geocoding failed',
        );
      }
      throw error instanceof HandedBackError
        ? error
        : new HandedBackError(reason, error instanceof UpstreamError ? { cause: error } : undefined);
    } finally {
      watch.stop();
      if (placedSinceNotice) await changes.workspaceChanged(workspaceId).catch(() => undefined);
    }
  }

  return { run };
}

export type GeocodingJobs = ReturnType<typeof createGeocodingJobs>;
