// The real entry points (src/server.ts, src/worker.ts) as child processes on a test database,
// for tests that need another OS process: events written by a worker, a worker killed with
// SIGKILL, several processes started at once.
import { type ChildProcess, spawn } from 'node:child_process';
import { TEST_APP_KEY, TEST_JWT_SECRET } from './app.ts';
import { tempDir } from './temp.ts';

export interface Child {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string | null>;
  /** Waits until the output contains `text`; rejects when the process exits first or time runs out. */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
  /** SIGTERM, then SIGKILL after a grace period; resolves when it is gone. */
  stop(graceMs?: number): Promise<void>;
}

export function startChild(
  entry: 'src/server.ts' | 'src/worker.ts',
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: TEST_JWT_SECRET,
      APP_KEY: TEST_APP_KEY,
      DATA_DIR: tempDir(),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  let done = false;
  void exited.then(() => {
    done = true;
    for (const listener of listeners) listener();
  });

  return {
    child,
    output: () => output,
    exited,
    waitForOutput(text, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (output.includes(text)) finish();
          else if (done) finish(new Error(`${entry} exited before printing "${text}":\n${output}`));
        };
        const timer = setTimeout(
          () => finish(new Error(`${entry} did not print "${text}" within ${timeoutMs} ms:\n${output}`)),
          timeoutMs,
        );
        const finish = (error?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        listeners.add(check);
        check();
      });
    },
    async stop(graceMs = 10_000) {
      if (done) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
