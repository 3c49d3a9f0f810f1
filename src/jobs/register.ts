// The worker's side of the job registry: one handler per job name. Handlers re-parse their
// payload (a job may outlive a code change) and are safe to run twice.
import type { Deps } from '../deps.ts';
import { type JobName, type JobPayload, jobSchedules, jobSchemas } from './jobs.ts';

type Handler<N extends JobName> = (payload: JobPayload<N>, deps: Deps) => Promise<unknown>;

export const jobHandlers: { [N in JobName]: Handler<N> } = {
  'maintenance.purge-expired': async (_payload, deps) => deps.services.maintenance.purgeExpired(),
};

/** Runs one job through its handler, exactly as the worker does (tests call this too). */
export async function runJob<N extends JobName>(name: N, data: unknown, deps: Deps): Promise<unknown> {
  const payload = jobSchemas[name].parse(data) as JobPayload<N>;
  return jobHandlers[name](payload, deps);
}

export async function registerJobs(deps: Deps): Promise<void> {
  const { boss } = deps.jobs;
  for (const name of Object.keys(jobHandlers) as JobName[]) {
    await boss.work(name, { batchSize: 1 }, async (jobs) => {
      for (const job of jobs) await runJob(name, job.data, deps);
    });
    const cron = jobSchedules[name];
    if (cron) await boss.schedule(name, cron, {});
  }
}
