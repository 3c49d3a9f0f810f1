// Two web and two worker processes (the real entry points) started at the same moment on a
// fresh, migrated database where pg-boss is not installed yet, twenty times in a row: every
// one comes up (the API answers /readyz, the worker says it started) and stops cleanly. Before
// pg-boss setup went under an advisory lock, a worker died here about once in fifteen starts
// with `deadlock detected` inside createQueue. The slowest file of the suite (~80 processes).
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { type Child, startChild } from './helpers/children.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

const ROUNDS = 20;
/** Rounds run side by side: each is four processes on a database of its own. */
const PARALLEL_ROUNDS = 2;

let template: TestDatabase;
let admin: postgres.Sql;
const serverOf = (url: string) => {
  const parsed = new URL(url);
  parsed.pathname = '/postgres';
  return parsed;
};

beforeAll(async () => {
  // The migrated schema as the release step leaves it, without pg-boss (it installs itself).
  template = await createTestDatabase();
  const sql = postgres(template.url, { max: 1, onnotice: () => {} });
  await sql`drop schema pgboss cascade`;
  await sql.end();
  admin = postgres(serverOf(template.url).toString(), { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await admin?.end();
  await template?.drop();
});

const readyz = async (port: number) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
  } catch {
    return false;
  }
};

async function round(index: number): Promise<{ retries: number }> {
  const name = `${new URL(template.url).pathname.slice(1)}_r${index}`;
  await admin.unsafe(`create database "${name}" template "${new URL(template.url).pathname.slice(1)}"`);
  const url = new URL(template.url);
  url.pathname = `/${name}`;
  const ports = [await freePort(), await freePort()];
  const children: Child[] = [
    startChild('src/server.ts', url.toString(), { PORT: String(ports[0]) }),
    startChild('src/worker.ts', url.toString()),
    startChild('src/server.ts', url.toString(), { PORT: String(ports[1]) }),
    startChild('src/worker.ts', url.toString()),
  ];
  try {
    await Promise.all(
      children.map(async (child, position) => {
        if (position % 2 === 1) return child.waitForOutput('worker started', 120_000);
        await child.waitForOutput('Server listening', 120_000);
        const port = ports[position / 2]!;
        expect(await readyz(port), `round ${index}: web on ${port}`).toBe(true);
      }),
    );
    const exits = await Promise.all(
      children.map(async (child) => {
        await child.stop();
        return child.exited;
      }),
    );
    expect(exits, children.map((child) => child.output()).join('\n')).toEqual([0, 0, 0, 0]);
    const retries = children.reduce(
      (sum, child) => sum + (child.output().match(/job queue start failed/g)?.length ?? 0),
      0,
    );
    return { retries };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
  }
}

describe('starting web and worker processes at once on a fresh database', () => {
  it(`comes up ${ROUNDS} times in a row`, async () => {
    let next = 0;
    let retries = 0;
    const lanes = Array.from({ length: PARALLEL_ROUNDS }, async () => {
      while (next < ROUNDS) {
        const index = next++;
        retries += (await round(index)).retries;
      }
    });
    await Promise.all(lanes);
    // The setup lock serialises pg-boss setup, so no start even needed its retry.
    expect(retries).toBe(0);
  }, 600_000);
});
