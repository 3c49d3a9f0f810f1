// The database handle: postgres.js under Drizzle. One pool per process; transactions come
// from `db.transaction`, and repositories accept either.
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema.ts';

export type Database = PostgresJsDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** What a repository method runs on: the pool or a caller's transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  sql: postgres.Sql;
  close(): Promise<void>;
}

export function createDatabase(url: string, options: { max?: number } = {}): DatabaseHandle {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Timestamps leave and arrive as ISO strings in UTC; Drizzle maps them to Date.
    connection: { TimeZone: 'UTC' },
  });
  const db = drizzle(sql, { schema, casing: 'snake_case' });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}
