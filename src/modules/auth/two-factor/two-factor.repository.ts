// Queries over the second factor's own tables: login challenges and recovery codes. Codes and
// challenge tokens arrive here already hashed; nothing in this file sees a plain secret.

import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { type LoginChallengeRow, loginChallengesTable, recoveryCodesTable } from './two-factor.table.ts';

export type NewLoginChallenge = typeof loginChallengesTable.$inferInsert;

export function createTwoFactorRepository(db: Executor) {
  return {
    async countUnusedRecoveryCodes(userId: number, tx: Executor = db): Promise<number> {
      const [row] = await tx
        .select({ value: count() })
        .from(recoveryCodesTable)
        .where(and(eq(recoveryCodesTable.userId, userId), isNull(recoveryCodesTable.usedAt)));
      return row?.value ?? 0;
    },

    /** The user's recovery codes become exactly these (hashed) ones. */
    async replaceRecoveryCodes(userId: number, codeHashes: string[], tx: Executor = db): Promise<void> {
      await tx.delete(recoveryCodesTable).where(eq(recoveryCodesTable.userId, userId));
      if (codeHashes.length > 0) {
        await tx.insert(recoveryCodesTable).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
      }
    },

    async deleteRecoveryCodes(userId: number, tx: Executor = db): Promise<void> {
      await tx.delete(recoveryCodesTable).where(eq(recoveryCodesTable.userId, userId));
    },

    /** Marks an unused code as used; false when there is none with that hash. One statement, so a code works once. */
    async consumeRecoveryCode(userId: number, codeHash: string, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .update(recoveryCodesTable)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(recoveryCodesTable.userId, userId),
            eq(recoveryCodesTable.codeHash, codeHash),
            isNull(recoveryCodesTable.usedAt),
          ),
        )
        .returning({ id: recoveryCodesTable.id });
      return rows.length > 0;
    },

    async insertChallenge(values: NewLoginChallenge, tx: Executor = db): Promise<LoginChallengeRow> {
      const [row] = await tx.insert(loginChallengesTable).values(values).returning();
      return row!;
    },

    async deleteChallenge(id: number, tx: Executor = db): Promise<void> {
      await tx.delete(loginChallengesTable).where(eq(loginChallengesTable.id, id));
    },

    /**
     * The challenge of a token that may still take a code (not consumed, not expired, fewer
     * than `maxFailures` wrong codes), locked for the caller's transaction.
     */
    async lockLiveChallenge(
      tokenHash: string,
      now: Date,
      maxFailures: number,
      tx: Executor,
    ): Promise<LoginChallengeRow | undefined> {
      const [row] = await tx
        .select()
        .from(loginChallengesTable)
        .where(
          and(
            eq(loginChallengesTable.tokenHash, tokenHash),
            isNull(loginChallengesTable.consumedAt),
            gt(loginChallengesTable.expiresAt, now),
            lt(loginChallengesTable.failedAttempts, maxFailures),
          ),
        )
        .for('update');
      return row;
    },

    async recordWrongCode(id: number, tx: Executor = db): Promise<void> {
      await tx
        .update(loginChallengesTable)
        .set({ failedAttempts: sql`${loginChallengesTable.failedAttempts} + 1` })
        .where(eq(loginChallengesTable.id, id));
    },

    async consumeChallenge(id: number, at: Date, tx: Executor = db): Promise<void> {
      await tx.update(loginChallengesTable).set({ consumedAt: at }).where(eq(loginChallengesTable.id, id));
    },

    /** Deletes the user's challenges still waiting for a code (a password change or a method turned off makes them stale). */
    async deleteOpenChallenges(userId: number, tx: Executor = db): Promise<void> {
      await tx
        .delete(loginChallengesTable)
        .where(and(eq(loginChallengesTable.userId, userId), isNull(loginChallengesTable.consumedAt)));
    },

    /** Challenges past their expiry (the hourly purge). */
    async deleteExpiredChallenges(now: Date, tx: Executor = db): Promise<number> {
      const rows = await tx
        .delete(loginChallengesTable)
        .where(lt(loginChallengesTable.expiresAt, now))
        .returning({ id: loginChallengesTable.id });
      return rows.length;
    },
  };
}

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;
