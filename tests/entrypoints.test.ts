// The real entry points as processes: the API serves and stops gracefully on SIGTERM; so does
// the worker. They run on this test file's database through DATABASE_URL.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { TEST_APP_KEY, TEST_JWT_SECRET } from './helpers/app.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { tempDir } from './helpers/temp.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

function start(entry: string, env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      APP_KEY: TEST_APP_KEY,
      DATA_DIR: tempDir(),
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

const readyz = async (port: number) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
  } catch {
    return false;
  }
};

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
}

describe('entry points', () => {
  it('src/server.ts serves /readyz and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const server = start('src/server.ts', { PORT: String(port) });
    const exit = exited(server.child);
    await waitFor(() => readyz(port));
    server.child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(server.output()).toContain('SIGTERM received, shutting down');
  }, 30_000);

  it('src/main.ts (npm start) runs on its embedded PostgreSQL and stops it on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = tempDir();
    // No DATABASE_URL: the embedded default (undefined removes it from the environment).
    const main = start('src/main.ts', { PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: undefined });
    const exit = exited(main.child);
    await waitFor(() => readyz(port), 40_000);
    const stateFile = path.join(dataDir, 'postgres.json');
    const { port: pgPort } = JSON.parse(readFileSync(stateFile, 'utf8'));
    main.child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(existsSync(stateFile)).toBe(false);
    // The cluster stopped with the process.
    expect(await canConnect(pgPort)).toBe(false);
  }, 60_000);

  it('src/worker.ts starts and exits 0 on SIGTERM', async () => {
    const worker = start('src/worker.ts', {});
    const exit = exited(worker.child);
    await waitFor(() => worker.output().includes('worker started'));
    worker.child.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 30_000);
});
