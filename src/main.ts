// `npm start`: the embedded defaults of decisions §1 (PostgreSQL under .data/ when there is no
// DATABASE_URL), migrations, then the API and the worker in one process.
import { buildApp } from './app.ts';
import { loadConfigOrExit } from './config.ts';
import { runMigrations } from './db/migrate.ts';
import { resolveDatabase } from './db/resolve.ts';
import { createDeps } from './deps.ts';
import { registerJobs } from './jobs/register.ts';
import { onShutdown } from './lib/shutdown.ts';

const config = loadConfigOrExit();
const database = await resolveDatabase(config);
await runMigrations(database.url);

const deps = await createDeps(config, { databaseUrl: database.url, role: 'worker' });
await registerJobs(deps);
const app = await buildApp(deps);

onShutdown(app.log, async () => {
  await app.close();
  await deps.close();
  await database.release();
});

await app.listen({ port: config.port, host: config.host });
app.log.info(`API docs at ${config.appUrl}/docs`);
