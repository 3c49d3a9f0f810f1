// Applies the reviewed drizzle-kit migrations in drizzle/ (idempotent), on a separate
// single-connection client as drizzle recommends.
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';

/** drizzle/ is resolved from the working directory: npm scripts and the Procfile run from the project root. */
export const MIGRATIONS_FOLDER = path.resolve('drizzle');

export async function runMigrations(databaseUrl: string): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await sql.end({ timeout: 5 });
  }
}
