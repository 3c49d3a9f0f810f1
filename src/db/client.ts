// The database handle: postgres.js under Drizzle. One pool per process; transactions come
// from `db.transaction`, and repositories accept either.
//
// Every wait on the database is bounded, so that while PostgreSQL is down a
// request fails within seconds (503 through the error handler) instead of hanging, and the
// first request after it is back succeeds.
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';

/**
 * Queries are built from the tables themselves (no relational `db.query`), so the handle needs
 * no schema: the data layer stays below the modules that own the tables.
 */
export type Database = PostgresJsDatabase & { $client: postgres.Sql };
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** What a repository method runs on: the pool or a caller's transaction. */
export type Executor = Database | Transaction;

/**
 * TCP connect plus startup and authentication. Milliseconds on a LAN; three seconds leave room
 * for a slow TLS or SCRAM handshake and still fail inside the few seconds a client waits.
 */
export const CONNECT_TIMEOUT_SECONDS = 3;

/**
 * Pause before a connection that failed tries again. postgres.js grows it up to 20 s by
 * default, which kept requests waiting long after the server was back; a connection only
 * retries when a query asks for it, so a short pause does not hammer a server that is down.
 */
const reconnectDelaySeconds = (failures: number) => Math.min(0.1 * 2 ** failures, 1);

/**
 * Idle connections are closed after this long: fewer sockets to a server that went away
 * unnoticed, and fewer server slots held by a quiet process.
 */
const IDLE_TIMEOUT_SECONDS = 30;

/** TCP keep-alive probes start after this much silence, so a vanished server is noticed. */
const KEEP_ALIVE_SECONDS = 10;

/**
 * Server-side bounds for the API's connections. The longest statement a request runs is the
 * CSV import's merge (seconds at 100,000 rows); 30 s stops a runaway or lock-blocked statement
 * long before a proxy gives up on the request. A transaction left idle for a minute (a stuck
 * process) is ended by the server, so its locks do not outlive it. The worker has no such
 * bound: its jobs may legitimately run longer.
 */
export const API_SESSION_TIMEOUTS = {
  statement_timeout: 30_000,
  idle_in_transaction_session_timeout: 60_000,
} as const;

const dialect = new PgDialect({ casing: 'snake_case' });

/** A postgres.js handle: the pool (`db.$client`) or one of its transactions (`sql.begin`'s). */
export type SqlClient = postgres.Sql | postgres.TransactionSql;

/**
 * The postgres.js handle under a Drizzle executor: the pool, or the connection a transaction
 * holds. Raw access (COPY, pg-boss's statements, rows as bytes) goes through here: Drizzle keeps
 * a transaction's client on its session without typing it as public, so this is the one place
 * that reaches for it.
 */
export function sqlClientOf(executor: Executor | SqlClient): SqlClient {
  if (typeof executor === 'function') return executor;
  if ('$client' in executor) return executor.$client;
  return (executor as unknown as { session: { client: postgres.TransactionSql } }).session.client;
}

/**
 * A statement's rows as the bytes PostgreSQL sent, a Buffer (or null) per column: for text the
 * service relays as it is, not decoded into strings to be encoded again. The statement is
 * prepared once per connection and reused (db.execute plans each statement anew).
 */
export function rawRows(db: Executor | SqlClient, query: SQL): Promise<(Buffer | null)[][]> {
  const { sql, params } = dialect.sqlToQuery(query);
  return sqlClientOf(db)
    .unsafe(sql, params as postgres.ParameterOrJSON<never>[], { prepare: true })
    .raw();
}

/** Ids as one int[] parameter (one text, however many ids): Drizzle would bind an array as one parameter per id. */
export const idArray = (ids: readonly number[]) => sql`${`{${ids.join(',')}}`}::int[]`;

/** Ids PostgreSQL wrote as one text, comma-separated (`string_agg`), read as bytes; none for null. */
export const idsFromText = (bytes: Buffer | null | undefined): number[] =>
  bytes && bytes.length > 0 ? bytes.toString('latin1').split(',').map(Number) : [];

/** A statement's rows as postgres.js parses them (column names as written), on a postgres.js handle. */
export async function rowsOn<T extends Record<string, unknown>>(client: SqlClient, query: SQL): Promise<T[]> {
  const { sql, params } = dialect.sqlToQuery(query);
  return (await client.unsafe(sql, params as postgres.ParameterOrJSON<never>[], {
    prepare: true,
  })) as unknown as T[];
}

/** rowsOn in batches of `batch` rows (a cursor), for results too large to hold at once. */
export function cursorOn<T extends object>(client: SqlClient, query: SQL, batch: number): AsyncIterable<T[]> {
  const { sql, params } = dialect.sqlToQuery(query);
  return client.unsafe(sql, params as postgres.ParameterOrJSON<never>[]).cursor(batch) as AsyncIterable<T[]>;
}

export interface DatabaseOptions {
  max?: number;
  /** PostgreSQL settings for every connection of the pool (e.g. API_SESSION_TIMEOUTS). */
  settings?: Record<string, string | number>;
}

export interface DatabaseHandle {
  db: Database;
  sql: postgres.Sql;
  /** Whether the server answers `select 1` within the time given; never waits longer. */
  ping(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export function createDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    idle_timeout: IDLE_TIMEOUT_SECONDS,
    keep_alive: KEEP_ALIVE_SECONDS,
    backoff: reconnectDelaySeconds,
    // Timestamps leave and arrive as ISO strings in UTC; Drizzle maps them to Date.
    connection: { TimeZone: 'UTC', ...options.settings },
  });
  const db = drizzle(sql, { casing: 'snake_case' });

  async function ping(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    // When the time is up the query is left to settle on its own (connect_timeout bounds it):
    // cancelling a query that a connection is still opening for would strand that connection.
    const answered = sql`select 1`.then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([answered, gaveUp]);
    } finally {
      clearTimeout(timer);
    }
  }

  return { db, sql, ping, close: () => sql.end({ timeout: 5 }) };
}
