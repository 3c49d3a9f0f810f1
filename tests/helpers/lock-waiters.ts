// For tests of concurrent writes: waiting until the sessions a test started are blocked on a
// row's lock, so that what each read before blocking is settled before the lock is let go.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../src/db/client.ts';

/** Resolves once `n` sessions of this database wait on a lock; throws after `timeoutMs`. */
export async function waitForLockWaiters(db: Executor, n: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await db.execute<{ waiting: number }>(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (row!.waiting >= n) return;
    if (Date.now() > deadline) throw new Error(`only ${row!.waiting} of ${n} sessions waiting on a lock`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
