// Transaction-scoped locks. Advisory locks serialise work that no row lock covers (the last
// admin, one CSV import per workspace) across every process on the database, released with the
// commit; and a transaction holding locks over work outside the database keeps its session.
import { sql } from 'drizzle-orm';
import type { Transaction } from './client.ts';

export async function advisoryXactLock(tx: Transaction, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/** The longest pause between two pings of holdingLocksWhile, whatever the session's limit. */
const LONGEST_PING_INTERVAL_MS = 10_000;

/**
 * Runs `work`, which runs no statement on `tx` (writes to storage, say), while pinging `tx` at
 * a third of its session's idle_in_transaction_session_timeout, and at least every 10 s.
 * Otherwise a slow but live step (a large upload on a slow link, the removal of thousands of
 * files) has the server end the session after that long, and the row locks the transaction
 * holds (a finder's, which guards its published files) are gone while the work goes on.
 *
 * When a ping fails, the session and its locks are gone (the connection dropped, the server
 * ended it): `signal` aborts with the ping's error, so the work can stop before a step the locks
 * were to guard (a publish's pointer). The transaction rejects with that error too (postgres.js
 * keeps it). The work's own waits are bounded (the storage's timeouts), so the pings end with it.
 */
export async function holdingLocksWhile<T>(
  tx: Transaction,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const [row] = (await tx.execute(
    sql`select setting::int as ms from pg_settings where name = 'idle_in_transaction_session_timeout'`,
  )) as unknown as { ms: number }[];
  const limit = row?.ms ?? 0;
  const every = limit > 0 ? Math.min(limit / 3, LONGEST_PING_INTERVAL_MS) : LONGEST_PING_INTERVAL_MS;
  const lost = new AbortController();
  let ping: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    ping = tx.execute(sql`select 1`).catch((error: unknown) => lost.abort(error));
  }, every);
  try {
    return await work(lost.signal);
  } finally {
    clearInterval(timer);
    await ping;
  }
}
