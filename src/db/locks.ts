// Transaction-scoped locks. Advisory locks serialise work that no row lock covers (the last
// admin, one CSV import per workspace) across every process on the database, released with the
// commit; and a transaction holding locks over work outside the database keeps its session.
import { sql } from 'drizzle-orm';
import type { Transaction } from './client.ts';

export async function advisoryXactLock(tx: Transaction, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * Runs `work`, which runs no statement on `tx` (writes to storage, say), while pinging `tx` at
 * a third of its session's idle_in_transaction_session_timeout. Otherwise a slow but live step
 * (a large upload on a slow link, the removal of thousands of files) has the server end the
 * session after that long, and the row locks the transaction holds (a finder's, which guards
 * its published files) are gone while the work goes on. The work's own waits are bounded (the
 * storage's timeouts), so the pings end with it. No pings where the timeout is off (0).
 */
export async function holdingLocksWhile<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
  const [row] = (await tx.execute(
    sql`select setting::int as ms from pg_settings where name = 'idle_in_transaction_session_timeout'`,
  )) as unknown as { ms: number }[];
  const every = (row?.ms ?? 0) / 3;
  if (every <= 0) return work();
  let ping: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    // A failed ping is not lost: postgres.js keeps its error and the transaction rejects with it.
    ping = tx.execute(sql`select 1`).catch(() => {});
  }, every);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await ping;
  }
}
