// Redis for tests. `connectTestRedis` reaches the shared server (TEST_REDIS_URL, default
// 127.0.0.1:6379) or gives undefined, so Redis tests skip on a machine with nothing but Node.
// `startThrowawayRedis` runs a private redis-server on a free port that a test may kill,
// restart, freeze and thaw: the shared server is used by other test runs and is never touched.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { freePort } from '../../src/db/embedded.ts';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function connectTestRedis(url = TEST_REDIS_URL): Promise<Redis | undefined> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch {
    client.disconnect();
    return undefined;
  }
}

const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((file) =>
  existsSync(file),
);

/** Whether this machine can run a throwaway redis-server. */
export const canRunRedisServer = REDIS_SERVER !== undefined;

export interface ThrowawayRedis {
  url: string;
  /** A plain client of this server (for the test's own reads), reconnecting after restarts. */
  client(): Promise<Redis>;
  /** SIGKILL: the port refuses connections until `start`. */
  kill(): Promise<void>;
  /** Starts the server again on the same port (empty: nothing is saved). */
  start(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers, as a frozen server. */
  freeze(): void;
  thaw(): void;
  /** Thaws and kills; safe to call twice. */
  stop(): Promise<void>;
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  if (!REDIS_SERVER) throw new Error('no redis-server on this machine');
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const clients: Redis[] = [];

  const waitUntilAnswering = async () => {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const probe = await connectTestRedis(url);
      if (probe) {
        probe.disconnect();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server on port ${port} did not answer`);
  };

  const start = async () => {
    child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitUntilAnswering();
  };

  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGCONT');
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    url,
    async client() {
      const client = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => 100 });
      client.on('error', () => {});
      clients.push(client);
      return client;
    },
    kill,
    start,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    async stop() {
      for (const client of clients.splice(0)) client.disconnect();
      await kill();
    },
  };
}
