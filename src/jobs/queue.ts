// pg-boss on the service's own database. `send` validates the payload against its schema and,
// given a transaction, enqueues through that transaction so a job exists only if its rows do.
// Starting installs pg-boss and creates the queues under one advisory lock, so any number of
// web and worker processes may start at once on a fresh database (pg-boss's createQueue is DDL
// plus DML and deadlocks when several processes run it together), and retries a start that
// hit a passing failure.
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import postgres from 'postgres';
import { API_SESSION_TIMEOUTS, CONNECT_TIMEOUT_SECONDS, type Executor, sqlClientOf } from '../db/client.ts';
import { retryTransient } from '../lib/retry.ts';
import { type JobName, type JobPayload, jobNames, jobPolicies, jobSchemas } from './jobs.ts';

export interface SendOptions {
  tx?: Executor;
  /** Delay before the job may run, in seconds. */
  startAfterSeconds?: number;
  singletonKey?: string;
  /** The job's id (a UUID), when the caller records it before sending. */
  id?: string;
}

/** pg-boss's job states; `missing` when the job is not (or no longer) in the job table. */
export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed' | 'missing';

/** Tries of a start (the first included) and the delay before the second. */
export const START_ATTEMPTS = 6;
const START_RETRY_DELAY_MS = 250;
/** How long a start waits for another process's setup before giving up (and retrying). */
const SETUP_LOCK_TIMEOUT_MS = 60_000;

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
 * transaction's postgres.js client, so a job is sent with the transaction's writes or not at all.
 */
function transactionAdapter(tx: Executor) {
  const client = sqlClientOf(tx);
  return {
    executeSql: async (text: string, values: unknown[] = []) => ({
      rows: await client.unsafe(text, values.map(asPgValue) as postgres.ParameterOrJSON<never>[]),
    }),
  };
}

/** Creates the queues of the registry that do not exist yet. Callers hold the setup lock. */
export async function ensureQueues(boss: PgBoss): Promise<void> {
  const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
  for (const name of jobNames) {
    if (!existing.has(name)) await boss.createQueue(name);
  }
}

/**
 * Runs `work` while holding the session-level advisory lock that serialises pg-boss setup
 * across every process on the database, on a connection of its own (released on the way out,
 * and by PostgreSQL if this process dies).
 */
export async function withSetupLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const sql = postgres(databaseUrl, {
    max: 1,
    onnotice: () => {},
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    connection: { application_name: 'lf-queue-setup', lock_timeout: SETUP_LOCK_TIMEOUT_MS },
  });
  try {
    await sql`select pg_advisory_lock(hashtextextended('lf:pgboss-setup', 0))`;
    return await work();
  } finally {
    // Ending the session releases the lock even when the unlock cannot be sent.
    await sql.end({ timeout: 5 });
  }
}

export class JobQueue {
  boss: PgBoss;
  private started = false;
  private readonly stopController = new AbortController();

  /** `role: 'worker'` also runs pg-boss maintenance and cron; the API only sends. */
  constructor(
    private readonly databaseUrl: string,
    private readonly role: 'api' | 'worker',
    private readonly logger: Logger,
  ) {
    this.boss = this.createBoss();
  }

  private createBoss(): PgBoss {
    const worker = this.role === 'worker';
    // pg-boss hands these to its pg pool (they are pg's options, not in pg-boss's types): the
    // same bounds as the postgres.js pool (src/db/client.ts), so a database outage fails its
    // calls instead of hanging them.
    const pool = {
      connectionTimeoutMillis: CONNECT_TIMEOUT_SECONDS * 1000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      ...(worker ? {} : API_SESSION_TIMEOUTS),
    };
    const boss = new PgBoss({
      connectionString: this.databaseUrl,
      schema: 'pgboss',
      max: worker ? 4 : 2,
      supervise: worker,
      schedule: worker,
      // Expired jobs (a worker died) are noticed within half a minute, not pg-boss's 2 minutes.
      maintenanceIntervalSeconds: 30,
      ...pool,
    });
    // pg-boss reports connection trouble as events; unheard, they would crash the process.
    boss.on('error', (error: Error & { code?: string }) =>
      // The error drags its pg client along; the message and code are what an operator needs.
      this.logger.warn({ error: error.message, pgCode: error.code }, 'pg-boss error'),
    );
    return boss;
  }

  /** Aborted when the queue stops: handlers hand their work back instead of holding the stop. */
  get stopping(): AbortSignal {
    return this.stopController.signal;
  }

  /**
   * Installs the pg-boss schema when needed and creates every queue of the registry, under the
   * setup lock; a start that fails for a passing reason is retried with a fresh pg-boss (one
   * that failed half-way cannot be started again).
   */
  async start(): Promise<void> {
    if (this.started) return;
    await retryTransient(
      async () => {
        try {
          await withSetupLock(this.databaseUrl, async () => {
            await this.boss.start();
            await ensureQueues(this.boss);
          });
        } catch (error) {
          await this.discardBoss();
          this.boss = this.createBoss();
          throw error;
        }
      },
      {
        attempts: START_ATTEMPTS,
        baseDelayMs: START_RETRY_DELAY_MS,
        onRetry: (error, attempt, delayMs) =>
          this.logger.warn(
            { err: error, attempt, delayMs },
            'job queue start failed for a passing reason; retrying',
          ),
      },
    );
    this.started = true;
  }

  private async discardBoss(): Promise<void> {
    const boss = this.boss;
    await boss.stop({ graceful: false, wait: true }).catch(() => {});
    // A start that failed half-way leaves pg-boss's own pool open and stop() refuses to run.
    const db = (boss as unknown as { getDb(): { opened?: boolean; close(): Promise<void> } }).getDb();
    if (db.opened) await db.close().catch(() => {});
  }

  async send<N extends JobName>(name: N, payload: JobPayload<N>, options: SendOptions = {}): Promise<string> {
    const data = jobSchemas[name].parse(payload);
    const id = await this.boss.send(name, data, {
      ...jobPolicies[name],
      ...(options.tx ? { db: transactionAdapter(options.tx) } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.id ? { id: options.id } : {}),
    });
    // pg-boss answers null (no error) when the queue is missing or a singleton already exists.
    if (!id) throw new Error(`Job ${name} was not queued`);
    return id;
  }

  /**
   * Fails an unfinished job as if its handler had thrown: pg-boss retries it while retries
   * remain. Answers the job's state afterwards (`retry`, `failed`, or what it already was).
   */
  async fail(name: string, id: string, message: string): Promise<JobState> {
    await this.boss.fail(name, id, { message });
    return this.state(name, id);
  }

  async state(name: string, id: string): Promise<JobState> {
    const job = await this.boss.getJobById(name, id);
    return job?.state ?? 'missing';
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.stopController.abort(new Error('the worker is stopping'));
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
