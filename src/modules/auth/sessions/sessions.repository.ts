// Session rows: one per issued token, looked up by the token's jti on every AUTH request.

import { and, desc, eq, gt, isNull, lt, ne, or } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { type UserRow, usersTable } from '../../users/users.table.ts';
import { type SessionRow, sessionsTable } from './sessions.table.ts';

/** A session of the user that a token may still use: not revoked and not expired. */
const live = (userId: number, now: Date) =>
  and(eq(sessionsTable.userId, userId), isNull(sessionsTable.revokedAt), gt(sessionsTable.expiresAt, now));

export function createSessionsRepository(db: Executor) {
  return {
    async insert(values: typeof sessionsTable.$inferInsert, tx: Executor = db): Promise<SessionRow> {
      const [row] = await tx.insert(sessionsTable).values(values).returning();
      return row!;
    },

    /** The session and its user in one query: the hot path of every AUTH request. */
    async findWithUserByJti(
      jti: string,
      tx: Executor = db,
    ): Promise<{ session: SessionRow; user: UserRow } | undefined> {
      const [row] = await tx
        .select({ session: sessionsTable, user: usersTable })
        .from(sessionsTable)
        .innerJoin(usersTable, eq(usersTable.id, sessionsTable.userId))
        .where(eq(sessionsTable.jti, jti));
      return row;
    },

    async touch(id: number, at: Date, tx: Executor = db): Promise<void> {
      await tx.update(sessionsTable).set({ lastUsedAt: at }).where(eq(sessionsTable.id, id));
    },

    async revoke(id: number, at: Date, tx: Executor = db): Promise<void> {
      await tx
        .update(sessionsTable)
        .set({ revokedAt: at })
        .where(and(eq(sessionsTable.id, id), isNull(sessionsTable.revokedAt)));
    },

    /**
     * Revokes every live session (not revoked, not expired) of a user, except `exceptId` when
     * given; returns how many. Expired ones are already refused, so they are left as they are.
     */
    async revokeAllForUser(userId: number, at: Date, exceptId?: number, tx: Executor = db): Promise<number> {
      const rows = await tx
        .update(sessionsTable)
        .set({ revokedAt: at })
        .where(and(live(userId, at), exceptId === undefined ? undefined : ne(sessionsTable.id, exceptId)))
        .returning({ id: sessionsTable.id });
      return rows.length;
    },

    /** Live sessions (not revoked, not expired) of a user, newest first. */
    async listLiveForUser(userId: number, now: Date, tx: Executor = db): Promise<SessionRow[]> {
      return tx
        .select()
        .from(sessionsTable)
        .where(live(userId, now))
        .orderBy(desc(sessionsTable.createdAt), desc(sessionsTable.id));
    },

    /** Revokes one live session of a user; false when it is not theirs, unknown, revoked or expired. */
    async revokeLiveOfUser(id: number, userId: number, at: Date, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .update(sessionsTable)
        .set({ revokedAt: at })
        .where(and(eq(sessionsTable.id, id), live(userId, at)))
        .returning({ id: sessionsTable.id });
      return rows.length > 0;
    },

    /** Sessions that expired or were revoked before `cutoff` (the hourly purge). */
    async deleteEndedBefore(cutoff: Date, tx: Executor = db): Promise<number> {
      const rows = await tx
        .delete(sessionsTable)
        .where(or(lt(sessionsTable.expiresAt, cutoff), lt(sessionsTable.revokedAt, cutoff)))
        .returning({ id: sessionsTable.id });
      return rows.length;
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
