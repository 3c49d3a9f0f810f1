// The no-DATABASE_URL default: `npm start` owns a cluster under the data directory and CLI
// scripts attach to it through .data/postgres.json, or start it when none runs.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { ensureDevDatabase } from '../src/db/embedded.ts';
import { tempDir } from './helpers/temp.ts';

const dataDir = tempDir('embedded-');

const selectOne = async (url: string) => {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return (await sql`select current_database() as db`)[0]!.db as string;
  } finally {
    await sql.end();
  }
};

describe('ensureDevDatabase', () => {
  it('starts a cluster, lets a second caller attach to it, and stops it on release', async () => {
    const owner = await ensureDevDatabase(dataDir);
    const sql = postgres(owner.url, { max: 1, onnotice: () => {} });
    await sql`create table kept (note text)`;
    await sql`insert into kept values ('survives restarts')`;
    await sql.end();
    const stateFile = path.join(dataDir, 'postgres.json');
    expect(existsSync(stateFile)).toBe(true);
    expect(existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    expect(await selectOne(owner.url)).toBe('location_finder');

    const attached = await ensureDevDatabase(dataDir);
    expect(attached.url).toBe(owner.url);
    await attached.release(); // a no-op: the owner still holds the cluster
    expect(await selectOne(owner.url)).toBe('location_finder');

    const { port } = JSON.parse(readFileSync(stateFile, 'utf8'));
    expect(owner.url).toContain(`:${port}/`);
    await owner.release();
    expect(existsSync(stateFile)).toBe(false);
    await expect(selectOne(owner.url)).rejects.toThrow();

    // Data persists across a restart of the cluster.
    const again = await ensureDevDatabase(dataDir);
    const reopened = postgres(again.url, { max: 1, onnotice: () => {} });
    try {
      expect(await reopened`select note from kept`).toEqual([{ note: 'survives restarts' }]);
    } finally {
      await reopened.end();
      await again.release();
    }
  }, 60_000);
});
