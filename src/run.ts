// What every entry point does, in one place: config -> database (DATABASE_URL or embedded) ->
// optional migrations -> deps -> worker jobs and/or the API -> graceful close on SIGTERM/SIGINT.
import { buildApp } from './app.ts';
import { loadConfigOrExit } from './config.ts';
import { runMigrations } from './db/migrate.ts';
import { resolveDatabase } from './db/resolve.ts';
import { createDeps } from './deps.ts';
import { registerJobs } from './jobs/register.ts';
import { onShutdown } from './lib/shutdown.ts';

export interface RunOptions {
  migrate: boolean;
  api: boolean;
  worker: boolean;
}

export async function run(options: RunOptions): Promise<void> {
  const config = loadConfigOrExit();
  const database = await resolveDatabase(config);
  if (options.migrate) await runMigrations(database.url);

  const deps = await createDeps(config, {
    databaseUrl: database.url,
    role: options.worker ? 'worker' : 'api',
  });
  if (options.worker) {
    await registerJobs(deps);
    deps.logger.info('worker started');
  }
  const app = options.api ? await buildApp(deps) : undefined;

  onShutdown(deps.logger, async () => {
    await app?.close();
    await deps.close();
    await database.release();
  });

  if (app) {
    await app.listen({ port: config.port, host: config.host });
    app.log.info(`API docs at ${config.appUrl}/docs`);
  }
}
