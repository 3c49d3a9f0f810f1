// Everything the API and the worker share, built once from the config: the database, the job
// queue, Redis when configured, and the services. Tests build the same thing on their own
// database, so no code path differs between a test and production.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createDatabase, type Database, type DatabaseHandle } from './db/client.ts';
import { JobQueue } from './jobs/queue.ts';
import { SecretBox } from './lib/crypto.ts';
import { createFailureLimiter } from './lib/limiter.ts';
import { createLogger } from './lib/logger.ts';
import { createTokenIssuer } from './lib/tokens.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { createSessionsRepository } from './modules/auth/auth.repository.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { createWorkspacesRepository } from './modules/workspaces/workspaces.repository.ts';
import { createWorkspacesService } from './modules/workspaces/workspaces.service.ts';

export interface Deps {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  db: Database;
  jobs: JobQueue;
  redis: Redis | undefined;
  secretBox: SecretBox;
  services: ReturnType<typeof createServices>;
  close(): Promise<void>;
}

function createServices(config: Config, db: Database, redis: Redis | undefined) {
  const users = createUsersRepository(db);
  const sessions = createSessionsRepository(db);
  const workspaces = createWorkspacesRepository(db);
  return {
    audit: createAuditService(db),
    auth: createAuthService({
      db,
      users,
      sessions,
      workspaces,
      issueToken: createTokenIssuer(config.jwt),
      loginLimiter: createFailureLimiter({ prefix: 'login', points: 5, durationSeconds: 60, redis }),
    }),
    workspaces: createWorkspacesService({ db, workspaces }),
  };
}

export interface CreateDepsOptions {
  /** The resolved database URL (DATABASE_URL or the embedded cluster's). */
  databaseUrl: string;
  role: 'api' | 'worker';
  /** Defaults to a pino logger at LOG_LEVEL on stdout. */
  logger?: Logger;
}

export async function createDeps(config: Config, options: CreateDepsOptions): Promise<Deps> {
  const logger = options.logger ?? createLogger(config);
  const database = createDatabase(options.databaseUrl);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  redis?.on('error', (error) => logger.warn({ err: error }, 'redis error'));
  const jobs = new JobQueue(options.databaseUrl, options.role, logger);
  await jobs.start();

  return {
    config,
    logger,
    database,
    db: database.db,
    jobs,
    redis,
    secretBox: new SecretBox(config.appKey),
    services: createServices(config, database.db, redis),
    async close() {
      await jobs.stop();
      redis?.disconnect();
      await database.close();
    },
  };
}
