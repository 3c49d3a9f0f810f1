// Housekeeping of the accounts tables. Safe to run twice: it only deletes what has expired.
import { lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { invitesTable } from '../workspaces/workspaces.table.ts';
import { loginChallengesTable, sessionsTable } from './auth.table.ts';

/** Expired or revoked sessions are kept this long so users can still see them listed. */
const SESSION_RETENTION_DAYS = 30;

export async function purgeExpired(db: Database, now = new Date()) {
  const cutoff = new Date(now.getTime() - SESSION_RETENTION_DAYS * 24 * 3600 * 1000);
  const sessions = await db
    .delete(sessionsTable)
    .where(or(lt(sessionsTable.expiresAt, cutoff), lt(sessionsTable.revokedAt, cutoff)))
    .returning({ id: sessionsTable.id });
  const challenges = await db
    .delete(loginChallengesTable)
    .where(lt(loginChallengesTable.expiresAt, now))
    .returning({ id: loginChallengesTable.id });
  const invites = await db
    .delete(invitesTable)
    .where(lt(invitesTable.expiresAt, sql`${now.toISOString()}::timestamptz`))
    .returning({ id: invitesTable.id });
  return { sessions: sessions.length, challenges: challenges.length, invites: invites.length };
}
