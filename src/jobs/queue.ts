// pg-boss on the service's own database. `send` validates the payload against its schema and,
// given a transaction, enqueues through that transaction so a job exists only if its rows do.
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { API_SESSION_TIMEOUTS, CONNECT_TIMEOUT_SECONDS, type Executor } from '../db/client.ts';
import { type JobName, type JobPayload, jobNames, jobSchemas } from './jobs.ts';

export interface SendOptions {
  tx?: Executor;
  /** Delay before the job may run, in seconds. */
  startAfterSeconds?: number;
  singletonKey?: string;
}

/**
 * pg-boss's SQL is written for the pg driver, which sends undefined as NULL, numbers as text
 * and objects as JSON text. postgres.js refuses undefined, and under Drizzle its json/jsonb
 * serializers pass values through untouched (Drizzle stringifies JSON itself), so do as pg does.
 */
function asPgValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value;
}

/**
 * pg-boss runs its statements through `executeSql`; inside a Drizzle transaction we hand it the
 * transaction's postgres.js client (Drizzle keeps it on `session.client`).
 */
function transactionAdapter(tx: Executor) {
  const client = (
    tx as unknown as { session: { client: { unsafe(text: string, values?: unknown[]): Promise<unknown[]> } } }
  ).session.client;
  return {
    executeSql: async (text: string, values: unknown[] = []) => ({
      rows: await client.unsafe(text, values.map(asPgValue)),
    }),
  };
}

export class JobQueue {
  readonly boss: PgBoss;
  private started = false;

  /** `role: 'worker'` also runs pg-boss maintenance and cron; the API only sends. */
  constructor(databaseUrl: string, role: 'api' | 'worker', logger: Logger) {
    const worker = role === 'worker';
    // pg-boss hands these to its pg pool: the same bounds as the postgres.js pool
    // (src/db/client.ts), so a database outage fails its calls instead of hanging them.
    const pool = {
      connectionTimeoutMillis: CONNECT_TIMEOUT_SECONDS * 1000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      ...(worker ? {} : API_SESSION_TIMEOUTS),
    };
    this.boss = new PgBoss({
      connectionString: databaseUrl,
      schema: 'pgboss',
      max: worker ? 4 : 2,
      supervise: worker,
      schedule: worker,
      ...pool,
    });
    // pg-boss reports connection trouble as events; unheard, they would crash the process.
    this.boss.on('error', (error: Error & { code?: string }) =>
      // The error drags its pg client along; the message and code are what an operator needs.
      logger.warn({ error: error.message, pgCode: error.code }, 'pg-boss error'),
    );
  }

  /** Installs the pg-boss schema when needed and creates every queue of the registry. */
  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    const existing = new Set((await this.boss.getQueues()).map((queue) => queue.name));
    for (const name of jobNames) {
      if (!existing.has(name)) await this.boss.createQueue(name);
    }
    this.started = true;
  }

  async send<N extends JobName>(name: N, payload: JobPayload<N>, options: SendOptions = {}): Promise<string> {
    const data = jobSchemas[name].parse(payload);
    const id = await this.boss.send(name, data, {
      ...(options.tx ? { db: transactionAdapter(options.tx) } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    });
    // pg-boss answers null (no error) when the queue is missing or a singleton already exists.
    if (!id) throw new Error(`Job ${name} was not queued`);
    return id;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
