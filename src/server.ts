// API entry (Procfile `web`): config -> deps -> buildApp -> listen; graceful close on signals.
import { buildApp } from './app.ts';
import { loadConfigOrExit } from './config.ts';
import { resolveDatabase } from './db/resolve.ts';
import { createDeps } from './deps.ts';
import { onShutdown } from './lib/shutdown.ts';

const config = loadConfigOrExit();
const database = await resolveDatabase(config);
const deps = await createDeps(config, { databaseUrl: database.url, role: 'api' });
const app = await buildApp(deps);

onShutdown(app.log, async () => {
  await app.close();
  await deps.close();
  await database.release();
});

await app.listen({ port: config.port, host: config.host });
