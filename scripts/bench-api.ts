// What the benchmarks that measure the API through HTTP share: an owner with a workspace and a
// token, and the API started as src/server.ts in a process of its own, so that its time and
// memory are not the benchmark's.
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../src/db/embedded.ts';
import type { Deps } from '../src/deps.ts';
import { createUsersRepository } from '../src/modules/users/users.repository.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { createWorkspacesRepository } from '../src/modules/workspaces/workspaces.repository.ts';

export interface BenchOwner {
  user: UserRow;
  workspaceId: number;
  /** A bearer token of the owner. */
  token: string;
}

/** A premium user owning one workspace, with a session's token. */
export async function createBenchOwner(deps: Deps): Promise<BenchOwner> {
  const user = await createUsersRepository(deps.db).insert({
    name: 'Bench',
    email: 'bench@example.test',
    passwordHash: 'x',
    role: 'user',
    subscriptionStatus: 'active',
    subscriptionTier: 'premium',
  });
  const workspace = await createWorkspacesRepository(deps.db).insertWithMember('Bench', {
    userId: user.id,
    role: 'owner',
  });
  const { token } = await deps.services.auth.startSession(user, { ip: '127.0.0.1', userAgent: 'bench' });
  return { user, workspaceId: workspace.id, token };
}

export interface BenchApi {
  /** `http://127.0.0.1:<port>` */
  base: string;
  pid: number;
  /** SIGTERM, then waits for the process to exit. */
  stop(): Promise<void>;
}

/** The API (src/server.ts) with `env` on a free port, once `/healthz` answers. */
export async function startBenchApi(env: Record<string, string>): Promise<BenchApi> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (attempt > 300) {
      await stop();
      throw new Error('the API did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { base, pid: child.pid!, stop };
}
