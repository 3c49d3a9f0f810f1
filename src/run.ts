// What every entry point does, in one place: config -> database (DATABASE_URL or embedded) ->
// optional migrations -> deps -> worker jobs and/or the API -> graceful close on SIGTERM/SIGINT.
//
// Shutdown closes what was started, newest first: the HTTP server (idle keep-alive connections
// at once, the rest after a short grace, see app.ts), then the job queue, Redis, storage and
// database pools (deps), then the embedded PostgreSQL when this process started it. A signal
// during start-up, or a failed start-up, closes whatever had been started so far, so no
// embedded PostgreSQL outlives the process.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type Config, loadConfigOrExit } from './config/config.ts';
import { runMigrations } from './db/migrate.ts';
import { resolveDatabase } from './db/resolve.ts';
import { createDeps } from './deps.ts';
import { registerJobs } from './job-handlers.ts';
import { createLogger } from './lib/logger.ts';
import { onShutdown } from './lib/shutdown.ts';
import { sweepSpools } from './lib/spool.ts';

export interface RunOptions {
  migrate: boolean;
  api: boolean;
  worker: boolean;
  /** Runs once the API listens (npm run demo seeds its finder through the app here). */
  afterListen?: (app: FastifyInstance, config: Config) => Promise<void>;
}

export async function run(options: RunOptions): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config);
  const closers: (() => Promise<void>)[] = [];
  let stopping = false;
  let starting: Promise<void> = Promise.resolve();
  const closeAll = async () => {
    for (const close of closers.reverse()) await close();
  };

  onShutdown(logger, async () => {
    stopping = true;
    // Let the step under way finish, so what it is starting gets closed too.
    await starting.catch(() => {});
    await closeAll();
  });

  starting = (async () => {
    if (options.api) {
      // Uploads a killed process left half-written (its own spools are removed as it goes).
      const swept = await sweepSpools(config.dataDir);
      if (swept > 0) logger.info(`removed ${swept} stale upload spool(s)`);
    }
    const database = await resolveDatabase(config);
    closers.push(() => database.release());
    if (stopping) return;
    if (options.migrate) await runMigrations(database.url);
    if (stopping) return;

    const deps = await createDeps(config, {
      databaseUrl: database.url,
      role: options.worker ? 'worker' : 'api',
      logger,
    });
    closers.push(() => deps.close());
    if (stopping) return;
    if (options.worker) {
      await registerJobs(deps);
      deps.logger.info('worker started');
    }
    if (!options.api || stopping) return;

    const app = await buildApp(deps);
    closers.push(() => app.close());
    await app.listen({ port: config.port, host: config.host });
    app.log.info(`API docs at ${config.appUrl}/docs`);
    await options.afterListen?.(app, config);
  })();

  try {
    await starting;
  } catch (error) {
    if (stopping) return; // the shutdown handler owns the exit
    logger.fatal({ err: error }, 'start-up failed');
    await closeAll().catch((closeError) =>
      logger.error({ err: closeError }, 'closing after a failed start-up'),
    );
    process.exit(1);
  }
}
