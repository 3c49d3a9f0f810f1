// Migration *_analytics_sessions on a database holding events from before it: the views a
// session posted again are removed (its first kept) so the unique index can be built, and the
// sessions of the stored events are recorded for the report. A database of its own, migrated
// from a copy of drizzle/ whose journal stops before that migration, then to the end.
import { randomBytes } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/db/migrate.ts';
import { tempDir } from './helpers/temp.ts';

/** The migration under test, by the end of its tag (the number may change when branches merge). */
const UNDER_TEST = '_analytics_sessions';
const serverUrl = inject('serverUrl');
const name = `lf_t_migration_${randomBytes(4).toString('hex')}`;
let sql: postgres.Sql;

async function migrateWith(folder: string) {
  const client = postgres(`${serverUrl}/${name}`, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(client), { migrationsFolder: folder });
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const earlier = path.join(tempDir('migrations-'), 'drizzle');
  cpSync(MIGRATIONS_FOLDER, earlier, { recursive: true });
  const journalFile = path.join(earlier, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const underTest = journal.entries.findIndex((entry) => entry.tag.endsWith(UNDER_TEST));
  expect(underTest).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, underTest);
  writeFileSync(journalFile, JSON.stringify(journal));
  await migrateWith(earlier);
  sql = postgres(`${serverUrl}/${name}`, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  const admin = postgres(`${serverUrl}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
});

it('keeps the first view of each session and finder, and records the sessions of the stored events', async () => {
  const [workspace] = await sql<{ id: number }[]>`insert into workspaces (name) values ('w') returning id`;
  const finders = await sql<{ id: number }[]>`
    insert into finders (workspace_id, name, token)
    values (${workspace!.id}, 'one', 'token-one'), (${workspace!.id}, 'two', 'token-two') returning id`;
  const [one, two] = finders.map((finder) => finder.id) as [number, number];
  const rows = [
    [one, 'view', 'a', '2026-01-01T10:00:00Z'],
    [one, 'view', 'a', '2026-01-01T10:05:00Z'],
    [one, 'search', 'a', '2026-01-02T09:00:00Z'],
    [one, 'view', 'a', '2026-01-02T09:00:00Z'],
    [one, 'view', 'b', '2026-01-01T11:00:00Z'],
    [two, 'view', 'a', '2026-01-01T12:00:00Z'],
    [one, 'view', null, '2026-01-01T12:00:00Z'],
    [one, 'view', null, '2026-01-01T12:00:00Z'],
  ] as const;
  for (const [finderId, type, session, at] of rows) {
    await sql`insert into analytics_events (finder_id, type, session_id, occurred_at)
      values (${finderId}, ${type}, ${session}, ${at}::timestamptz)`;
  }

  await migrateWith(MIGRATIONS_FOLDER);

  const events = await sql<{ finder_id: number; type: string; session_id: string | null; at: string }[]>`
    select finder_id, type, session_id, to_char(occurred_at at time zone 'UTC', 'MM-DD HH24:MI') as at
    from analytics_events order by id`;
  expect(events).toEqual([
    { finder_id: one, type: 'view', session_id: 'a', at: '01-01 10:00' },
    { finder_id: one, type: 'search', session_id: 'a', at: '01-02 09:00' },
    { finder_id: one, type: 'view', session_id: 'b', at: '01-01 11:00' },
    { finder_id: two, type: 'view', session_id: 'a', at: '01-01 12:00' },
    // Views without a session were never one session's: both stay.
    { finder_id: one, type: 'view', session_id: null, at: '01-01 12:00' },
    { finder_id: one, type: 'view', session_id: null, at: '01-01 12:00' },
  ]);
  // Sessions of every stored event, the removed views' days included (the session was active).
  const sessions = await sql<{ finder_id: number; day: string; session_id: string }[]>`
    select finder_id, to_char(day, 'MM-DD') as day, session_id from analytics_sessions
    order by finder_id, day, session_id`;
  expect(sessions).toEqual([
    { finder_id: one, day: '01-01', session_id: 'a' },
    { finder_id: one, day: '01-01', session_id: 'b' },
    { finder_id: one, day: '01-02', session_id: 'a' },
    { finder_id: two, day: '01-01', session_id: 'a' },
  ]);
  // The rule holds from now on.
  await expect(
    sql`insert into analytics_events (finder_id, type, session_id, occurred_at) values (${one}, 'view', 'a', now())`,
  ).rejects.toMatchObject({ code: '23505' });
});
