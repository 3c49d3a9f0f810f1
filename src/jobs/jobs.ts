// The API/worker contract: every job name and the zod schema of its payload. The API only
// sends (inside the caller's transaction when it has one); the worker consumes.
import { z } from 'zod';

const processIdSchema = z.number().int().positive().max(2_147_483_647);

export const jobSchemas = {
  /** Deletes expired sessions, login challenges and invites. Scheduled hourly. */
  'maintenance.purge-expired': z.object({}),
  /** Drafts the items of an AI import batch: the process names the batch (related_id). */
  'ai-imports.generate': z.object({ process_id: processIdSchema }),
  /**
   * Geocodes a workspace's pending locations: the process names the workspace. `continued`: a
   * run that went on from another's share of the work (geocoding.jobs.ts RUN_SLICE_MS).
   */
  'geocoding.run': z.object({ process_id: processIdSchema, continued: z.literal(true).optional() }),
} as const;

export type JobName = keyof typeof jobSchemas;
export type JobPayload<N extends JobName> = z.infer<(typeof jobSchemas)[N]>;
export const jobNames = Object.keys(jobSchemas) as JobName[];

/** Cron schedules the worker registers (pg-boss keeps one schedule per name across workers). */
export const jobSchedules: Partial<Record<JobName, string>> = {
  'maintenance.purge-expired': '17 * * * *',
};

export interface JobRetryPolicy {
  /** Runs after the first: a job that throws, or whose worker died, runs again this many times. */
  retryLimit: number;
  /** Seconds before a retry (doubled each time with retryBackoff). */
  retryDelay: number;
  retryBackoff: boolean;
  /**
   * An active job older than this is failed by pg-boss's maintenance (and retried while retries
   * remain): the last resort when no worker is left to notice a dead one.
   */
  expireInSeconds: number;
}

/**
 * Retry and expiry per job, given on every send (so they hold whoever created the queue). The
 * generate job's model call is bounded at 90 s; its expiry leaves room for writing the items.
 */
export const jobPolicies: Record<JobName, JobRetryPolicy> = {
  'maintenance.purge-expired': { retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 600 },
  'ai-imports.generate': { retryLimit: 2, retryDelay: 2, retryBackoff: true, expireInSeconds: 180 },
  // A run waits out short provider outages itself; a longer one hands the process back and
  // pg-boss tries again after 30 s, 1, 2, 4 and 8 minutes. A run hands the rest of a large
  // workspace to a new job after an hour (geocoding.jobs.ts RUN_SLICE_MS), so no run nears its
  // expiry; the heartbeat notices a dead worker long before.
  'geocoding.run': { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 3 * 3600 },
};

/**
 * Process types whose work is a job, and that job: what POST /processes/{id}/retry sends again.
 * Other types (csv_import, ai_location_import_apply) run inside their request and cannot fail
 * half-way, so they are never retried.
 */
export const processJobs = {
  ai_location_import_generate: 'ai-imports.generate',
} as const satisfies Record<string, JobName>;
export type JobProcessType = keyof typeof processJobs;

/** What a handler knows of the job it runs (pg-boss metadata). */
export interface JobContext {
  id: string;
  /** Retries done before this run (0 on the first). */
  retryCount: number;
  retryLimit: number;
}
