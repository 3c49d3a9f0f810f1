// Worker entry (Procfile `worker`): config -> deps -> pg-boss -> register jobs; stop on SIGTERM.
import pino from 'pino';
import { loadConfigOrExit } from './config.ts';
import { resolveDatabase } from './db/resolve.ts';
import { createDeps } from './deps.ts';
import { registerJobs } from './jobs/register.ts';
import { loggerOptions } from './lib/logger.ts';
import { onShutdown } from './lib/shutdown.ts';

const config = loadConfigOrExit();
const log = pino(loggerOptions(config) as pino.LoggerOptions);
const database = await resolveDatabase(config);
const deps = await createDeps(config, { databaseUrl: database.url, role: 'worker' });
await registerJobs(deps);
log.info('worker started');

onShutdown(log, async () => {
  await deps.close();
  await database.release();
});
