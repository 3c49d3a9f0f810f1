// Worker entry (Procfile `worker`): config -> deps -> pg-boss -> register jobs; stop on SIGTERM.
import { loadConfigOrExit } from './config.ts';
import { resolveDatabase } from './db/resolve.ts';
import { createDeps } from './deps.ts';
import { registerJobs } from './jobs/register.ts';
import { onShutdown } from './lib/shutdown.ts';

const config = loadConfigOrExit();
const database = await resolveDatabase(config);
const deps = await createDeps(config, { databaseUrl: database.url, role: 'worker' });
await registerJobs(deps);
deps.logger.info('worker started');

onShutdown(deps.logger, async () => {
  await deps.close();
  await database.release();
});
