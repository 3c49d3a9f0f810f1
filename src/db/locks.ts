// Transaction-scoped advisory locks: serialise work that no row lock covers (the last admin,
// one CSV import per workspace) across every process on the database. Released with the commit.
import { sql } from 'drizzle-orm';
import type { Transaction } from './client.ts';

export async function advisoryXactLock(tx: Transaction, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}
