// The worker's side of the job registry (src/jobs/): one handler per job name. Handlers re-parse their
// payload (a job may outlive a code change) and are safe to run twice. The worker also runs the
// process supervisor, which notices processes left running by a worker that died.
import { randomUUID } from 'node:crypto';
import type { Deps } from './deps.ts';
import { type JobContext, type JobName, type JobPayload, jobSchedules, jobSchemas } from './jobs/jobs.ts';

type Handler<N extends JobName> = (payload: JobPayload<N>, deps: Deps, job: JobContext) => Promise<unknown>;

export const jobHandlers: { [N in JobName]: Handler<N> } = {
  'maintenance.purge-expired': async (_payload, deps) => ({
    ...(await deps.services.maintenance.purgeExpired()),
    geocodeCache: await deps.services.geocoder.purgeExpired(),
    geocodingQueued: await deps.services.geocoding.enqueueWaiting(),
  }),
  'ai-imports.generate': async (payload, deps, job) => deps.services.aiImportJobs.generate(payload, job),
  'geocoding.run': async (payload, deps, job) => deps.services.geocodingJobs.run(payload, job),
};

/** How often a worker asks for jobs of each queue (seconds); pg-boss's default is 2. */
const pollingSeconds: Partial<Record<JobName, number>> = { 'ai-imports.generate': 1, 'geocoding.run': 1 };

/** Runs one job through its handler, exactly as the worker does (tests call this too). */
export async function runJob<N extends JobName>(
  name: N,
  data: unknown,
  deps: Deps,
  job: JobContext = { id: randomUUID(), retryCount: 0, retryLimit: 0 },
): Promise<unknown> {
  const payload = jobSchemas[name].parse(data) as JobPayload<N>;
  return jobHandlers[name](payload, deps, job);
}

export async function registerJobs(deps: Deps): Promise<void> {
  const { boss } = deps.jobs;
  for (const name of Object.keys(jobHandlers) as JobName[]) {
    await boss.work(
      name,
      { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: pollingSeconds[name] ?? 2 },
      async (jobs) => {
        for (const job of jobs) {
          await runJob(name, job.data, deps, {
            id: job.id,
            retryCount: job.retryCount,
            retryLimit: job.retryLimit,
          });
        }
      },
    );
    const cron = jobSchedules[name];
    if (cron) await boss.schedule(name, cron, {});
  }
  deps.services.processes.startSupervisor();
}
