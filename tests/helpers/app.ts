// A real app on a real database for one test file: config from a fixed environment, deps,
// buildApp, and a way to rebuild the app on the same database (to prove state is not kept
// in memory).
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { tempDir } from './temp.ts';

export const TEST_JWT_SECRET = 'test-jwt-secret-that-is-long-enough-for-hs256';
export const TEST_APP_KEY = Buffer.alloc(32, 7).toString('base64');

export function testConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    JWT_SECRET: TEST_JWT_SECRET,
    APP_KEY: TEST_APP_KEY,
    APP_URL: 'http://app.test',
    DATA_DIR: tempDir('data-'),
    ...env,
  });
}

export interface TestContext {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  database: TestDatabase;
  /** Closes the current app and deps and builds fresh ones on the same database. */
  rebuild(): Promise<void>;
  close(): Promise<void>;
}

export interface TestContextOptions {
  env?: Record<string, string>;
  /** Runs on each built app before it is ready, e.g. to mount a probe route for a guard. */
  extend?: (app: FastifyInstance) => void;
  /** A logger to capture what the app logs. */
  logger?: Logger;
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const { env = {}, extend, logger } = options;
  const database = await createTestDatabase();
  const config = testConfig(database.url, env);

  const start = async () => {
    const deps = await createDeps(config, { databaseUrl: database.url, role: 'api', logger });
    const app = await buildApp(deps);
    extend?.(app);
    await app.ready();
    return { deps, app };
  };

  const context = { ...(await start()), config, database } as TestContext;
  const stop = async () => {
    await context.app.close();
    await context.deps.close();
  };
  context.rebuild = async () => {
    await stop();
    Object.assign(context, await start());
  };
  context.close = async () => {
    await stop();
    await database.drop();
  };
  return context;
}

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * `call(method, '/sets', token, body)`: an injected request under /api with the bearer token
 * (none when omitted). Takes a getter because test files assign their context in beforeAll.
 */
export function createCaller(context: () => TestContext) {
  return (method: ApiMethod, url: string, token?: string, payload?: unknown) =>
    context().app.inject({
      method,
      url: `/api${url}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}
