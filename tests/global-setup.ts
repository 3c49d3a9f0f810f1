// Starts one PostgreSQL for the whole run (the embedded package in a throwaway directory, or
// the server of DATABASE_URL when set), migrates a template database once, and hands its
// name to the test files; each file copies it into a database of its own.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PgBoss from 'pg-boss';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { startCluster } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { ensureQueues } from '../src/jobs/queue.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
    templateDatabase: string;
    /** Root of every temporary directory of this run (tests/helpers/temp.ts). */
    tempRoot: string;
  }
}

/** `postgres://u:p@h:port/db` -> `postgres://u:p@h:port` */
const serverOf = (url: string) => {
  const parsed = new URL(url);
  parsed.pathname = '';
  return parsed.toString().replace(/\/$/, '');
};

export default async function setup(project: TestProject) {
  let stopCluster: (() => Promise<void>) | undefined;
  let serverUrl: string;
  const tempRoot = mkdtempSync(path.join(os.tmpdir(), 'lf-test-'));
  // initdb runs as the postgres OS user, which must be able to enter the directory.
  chmodSync(tempRoot, 0o755);

  // Tests read DATABASE_URL directly: it names only a server to create throwaway databases on.
  if (process.env.DATABASE_URL) {
    serverUrl = serverOf(process.env.DATABASE_URL);
  } else {
    const cluster = await startCluster({ databaseDir: path.join(tempRoot, 'cluster'), persistent: false });
    serverUrl = cluster.serverUrl;
    stopCluster = cluster.stop;
  }

  const templateDatabase = `lf_template_${process.pid}`;
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${templateDatabase}" with (force)`);
  await admin.unsafe(`create database "${templateDatabase}"`);

  const templateUrl = `${serverUrl}/${templateDatabase}`;
  await runMigrations(templateUrl);
  // pg-boss's schema and queues go into the template too, so each copy starts ready.
  const boss = new PgBoss({
    connectionString: templateUrl,
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await ensureQueues(boss);
  await boss.stop({ graceful: false, wait: true });

  project.provide('serverUrl', serverUrl);
  project.provide('templateDatabase', templateDatabase);
  project.provide('tempRoot', tempRoot);

  return async () => {
    const leftovers = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`lf_t_${process.pid}_%`} or datname = ${templateDatabase}`;
    for (const { datname } of leftovers)
      await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    await admin.end();
    await stopCluster?.();
    rmSync(tempRoot, { recursive: true, force: true });
  };
}
