// The API/worker contract: every job name and the zod schema of its payload. The API only
// sends (inside the caller's transaction when it has one); the worker consumes.
import { z } from 'zod';

export const jobSchemas = {
  /** Deletes expired sessions, login challenges and invites. Scheduled hourly. */
  'maintenance.purge-expired': z.object({}),
} as const;

export type JobName = keyof typeof jobSchemas;
export type JobPayload<N extends JobName> = z.infer<(typeof jobSchemas)[N]>;
export const jobNames = Object.keys(jobSchemas) as JobName[];

/** Cron schedules the worker registers (pg-boss keeps one schedule per name across workers). */
export const jobSchedules: Partial<Record<JobName, string>> = {
  'maintenance.purge-expired': '17 * * * *',
};
