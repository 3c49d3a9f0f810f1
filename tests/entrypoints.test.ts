// The real entry points as processes: the API serves and stops gracefully on SIGTERM, within
// seconds whatever its clients hold open; so does the worker; `npm start` stops as a whole tree.
// They run on this test file's database through DATABASE_URL (npm start on its embedded one).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { createSpool } from '../src/lib/spool.ts';
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

/** Every process below `pid`, read from /proc (Linux), children before their own children. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    // A zombie still answers signal 0; it has exited all the same.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '(exited)';
  }
};

/** An HTTP/1.1 request written by hand, so a test can stop half-way through its body. */
function rawRequest(port: number, body: string, sendBytes: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    'POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n' +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, sendBytes)}`,
  );
  return { socket, closed, received: () => received, finish: () => socket.write(body.slice(sendBytes)) };
}

/** Opens `count` keep-alive connections, each having answered one request, and leaves them open. */
async function keepAliveClients(port: number, count: number): Promise<Socket[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: count });
  const sockets = new Set<Socket>();
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          get({ port, host: '127.0.0.1', path: '/healthz', agent }, (response) => {
            sockets.add(response.socket);
            response.resume();
            response.on('end', resolve);
          }).on('error', reject);
        }),
    ),
  );
  return [...sockets];
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

  it('src/server.ts exits within 10 s of SIGTERM with 20 keep-alive clients connected, one of them stalled mid-body', async () => {
    const port = await freePort();
    const server = start('src/server.ts', { PORT: String(port) });
    const exit = exited(server.child);
    await waitFor(() => readyz(port));

    const idle = await keepAliveClients(port, 18);
    expect(idle).toHaveLength(18);
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'not the password' });
    // Running when SIGTERM arrives; its body completes during the shutdown.
    const finishing = rawRequest(port, body, 10);
    // Never completes its body: only a forced close ends it.
    const stalled = rawRequest(port, body, 10);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const signalled = performance.now();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    finishing.finish();

    expect(await exit).toBe(0);
    const seconds = (performance.now() - signalled) / 1000;
    expect(seconds).toBeLessThan(10);
    // The request under way was answered, and told the client not to reuse the connection.
    expect(finishing.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(finishing.received().toLowerCase()).toContain('connection: close');
    await Promise.all([finishing.closed, stalled.closed]);
    for (const socket of idle) socket.destroy();
  }, 40_000);

  it('npm start (embedded PostgreSQL): SIGTERM to the npm process alone stops the whole tree, the cluster included', async () => {
    const port = await freePort();
    const dataDir = tempDir();
    // No DATABASE_URL: the embedded default (removed from the environment, not set empty).
    const { DATABASE_URL: _unused, ...env } = process.env;
    const npm = spawn('npm', ['start'], {
      env: {
        ...env,
        PORT: String(port),
        DATA_DIR: dataDir,
        JWT_SECRET: TEST_JWT_SECRET,
        APP_KEY: TEST_APP_KEY,
      },
      stdio: 'ignore',
    });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      npm.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let tree: number[] = [];
    try {
      await waitFor(() => readyz(port), 60_000);
      tree = descendants(npm.pid!);
      const { port: pgPort } = JSON.parse(readFileSync(path.join(dataDir, 'postgres.json'), 'utf8'));
      // The service and its PostgreSQL are part of the tree npm started.
      expect(tree.map(commandOf)).toEqual(expect.arrayContaining([expect.stringMatching(/postgres/)]));

      npm.kill('SIGTERM');
      expect(await exit).toEqual({ code: 0, signal: null });
      await waitFor(() => tree.every((pid) => !alive(pid)), 10_000).catch(() => {});
      expect(tree.filter(alive).map(commandOf)).toEqual([]);
      expect(await canConnect(port)).toBe(false);
      expect(await canConnect(pgPort)).toBe(false);
      expect(existsSync(path.join(dataDir, 'postgres.json'))).toBe(false);
    } finally {
      // Whatever a failed run left behind, by the ids this test saw, never by name.
      for (const pid of [npm.pid!, ...tree].filter(alive)) process.kill(pid, 'SIGKILL');
    }
  }, 120_000);

  it('an import spools under DATA_DIR/spool; a spool left by a process killed mid-upload is swept at the next start, one of a live process is not', async () => {
    const dataDir = tempDir();
    const spool = path.join(dataDir, 'spool');
    const spools = () => (existsSync(spool) ? readdirSync(spool) : []);
    const port = await freePort();
    const first = start('src/server.ts', { PORT: String(port), DATA_DIR: dataDir });
    const firstExit = exited(first.child);
    let second: ReturnType<typeof start> | undefined;
    try {
      await waitFor(() => readyz(port));
      const registered = await fetch(`http://127.0.0.1:${port}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Spooler',
          email: `spool-${Date.now()}@example.test`,
          password: 'correct horse battery',
          password_confirmation: 'correct horse battery',
        }),
      });
      const { token } = (await registered.json()) as { token: string };

      // An upload that stops half-way: its spool exists while the body is still coming.
      const boundary = 'spooltest';
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="rows.csv"\r\n` +
        'Content-Type: text/csv\r\n\r\ntitle,address\r\n';
      const upload = connect(port, '127.0.0.1');
      upload.on('error', () => {});
      upload.write(
        'POST /api/locations/import HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          `Authorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
          `Content-Length: 100000\r\n\r\n${head}`,
      );
      await waitFor(() => spools().some((name) => name.startsWith('lf-import-')));
      const [left] = spools();

      // kill -9 mid-upload: nothing gets to clean up.
      first.child.kill('SIGKILL');
      await firstExit;
      upload.destroy();
      expect(spools()).toEqual([left]);

      // Spools the next start must leave: one of a live process on this host (this test's own,
      // as an upload under way in another web process), one of another host sharing the volume
      // and one that names no owner, both touched recently.
      const live = path.basename(await createSpool(dataDir, 'lf-import-'));
      mkdirSync(path.join(spool, 'lf-import-4242.0badc0de.AbCdEf'));
      mkdirSync(path.join(spool, 'lf-import-fresh'));

      // Seconds later, not an hour: the killed process's spool goes at the next start.
      second = start('src/server.ts', { PORT: String(port), DATA_DIR: dataDir });
      const secondExit = exited(second.child);
      await waitFor(() => readyz(port));
      expect(spools().sort()).toEqual([live, 'lf-import-4242.0badc0de.AbCdEf', 'lf-import-fresh'].sort());
      expect(second.output()).toContain('removed 1 stale upload spool(s)');
      second.child.kill('SIGTERM');
      expect(await secondExit).toBe(0);
    } finally {
      for (const child of [first.child, second?.child])
        if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);

  it('src/worker.ts starts and exits 0 on SIGTERM', async () => {
    const worker = start('src/worker.ts', {});
    const exit = exited(worker.child);
    await waitFor(() => worker.output().includes('worker started'));
    worker.child.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 30_000);
});
