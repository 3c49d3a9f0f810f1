// The real entry points as processes: the API serves and stops gracefully on SIGTERM; so does
// the worker. They run on this test file's database through DATABASE_URL.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { TEST_APP_KEY, TEST_JWT_SECRET } from './helpers/app.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

function start(entry: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      APP_KEY: TEST_APP_KEY,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'lf-entry-')),
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

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
    await waitFor(async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
      } catch {
        return false;
      }
    });
    server.child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(server.output()).toContain('SIGTERM received, shutting down');
  }, 30_000);

  it('src/worker.ts starts and exits 0 on SIGTERM', async () => {
    const worker = start('src/worker.ts', {});
    const exit = exited(worker.child);
    await waitFor(() => worker.output().includes('worker started'));
    worker.child.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 30_000);
});
