// The job registry: sends are validated and transactional; the worker's handlers run for real.

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../src/deps.ts';
import { registerJobs, runJob } from '../src/job-handlers.ts';
import { sessionsTable } from '../src/modules/auth/sessions/sessions.table.ts';
import { createUser } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const jobCount = async (name: string) => {
  const rows = await ctx.deps.db.execute<{ n: number }>(
    sql`select count(*)::int as n from pgboss.job where name = ${name}`,
  );
  return rows[0]!.n;
};

describe('sending jobs', () => {
  it('enqueues through the caller transaction: a rolled back transaction leaves no job', async () => {
    const before = await jobCount('maintenance.purge-expired');
    await expect(
      ctx.deps.db.transaction(async (tx) => {
        await ctx.deps.jobs.send('maintenance.purge-expired', {}, { tx });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await jobCount('maintenance.purge-expired')).toBe(before);

    const id = await ctx.deps.db.transaction(async (tx) =>
      ctx.deps.jobs.send('maintenance.purge-expired', {}, { tx }),
    );
    expect(await jobCount('maintenance.purge-expired')).toBe(before + 1);
    // The payload is stored as a JSON object, exactly as a send outside a transaction stores it.
    const [row] = await ctx.deps.db.execute<{ kind: string }>(
      sql`select jsonb_typeof(data) as kind from pgboss.job where id = ${id}::uuid`,
    );
    expect(row!.kind).toBe('object');
  });

  it('refuses a payload that does not match its schema', async () => {
    await expect(
      ctx.deps.jobs.send('maintenance.purge-expired', { unexpected: true } as never),
    ).resolves.toBeTypeOf('string'); // zod objects strip unknown keys: still a valid payload
    await expect(ctx.deps.jobs.send('maintenance.purge-expired', 'nope' as never)).rejects.toThrow();
  });
});

describe('maintenance.purge-expired', () => {
  it('deletes long-dead sessions, keeps live ones, and is safe to run twice', async () => {
    const user = await createUser(ctx.deps);
    const old = new Date(Date.now() - 60 * 24 * 3600 * 1000);
    const live = await ctx.deps.services.auth.startSession(user, { ip: undefined, userAgent: undefined });
    const dead = await ctx.deps.services.auth.startSession(user, { ip: undefined, userAgent: undefined });
    await ctx.deps.db.update(sessionsTable).set({ expiresAt: old }).where(eq(sessionsTable.jti, dead.jti));

    const first = (await runJob('maintenance.purge-expired', {}, ctx.deps)) as { sessions: number };
    expect(first.sessions).toBeGreaterThanOrEqual(1);
    const second = (await runJob('maintenance.purge-expired', {}, ctx.deps)) as { sessions: number };
    expect(second.sessions).toBe(0);

    const left = await ctx.deps.db.select().from(sessionsTable).where(eq(sessionsTable.userId, user.id));
    expect(left.map((row) => row.jti)).toEqual([live.jti]);
  });

  it('is consumed by a real worker', async () => {
    const worker: Deps = await createDeps(ctx.config, { databaseUrl: ctx.database.url, role: 'worker' });
    try {
      await registerJobs(worker);
      const id = await ctx.deps.jobs.send('maintenance.purge-expired', {});
      const deadline = Date.now() + 15_000;
      let state: string | undefined;
      while (Date.now() < deadline) {
        state = (await worker.jobs.boss.getJobById('maintenance.purge-expired', id))?.state;
        if (state === 'completed' || state === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(state).toBe('completed');
    } finally {
      await worker.close();
    }
  });
});
