// The throwaway database every benchmark runs on: a new database on the server of
// DATABASE_URL when it is set, else on an embedded PostgreSQL started under `work` (a folder of
// the benchmark's). Migrated before it is handed out; close() drops it and stops the embedded
// server this started.
import { chmodSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { startCluster } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';

export interface BenchDatabase {
  /** The migrated throwaway database. */
  url: string;
  /** One connection to the server's `postgres` database, for server-wide views. */
  admin: postgres.Sql;
  close(): Promise<void>;
}

export async function openBenchDatabase(work: string, name: string): Promise<BenchDatabase> {
  let serverUrl: string;
  let stopCluster: (() => Promise<void>) | undefined;
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = '';
    serverUrl = url.toString().replace(/\/$/, '');
  } else {
    chmodSync(work, 0o755);
    const cluster = await startCluster({ databaseDir: path.join(work, 'cluster'), persistent: false });
    serverUrl = cluster.serverUrl;
    stopCluster = cluster.stop;
  }
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  const close = async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
    await stopCluster?.();
  };
  try {
    await admin.unsafe(`create database "${name}"`);
    await runMigrations(`${serverUrl}/${name}`);
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  return { url: `${serverUrl}/${name}`, admin, close };
}
