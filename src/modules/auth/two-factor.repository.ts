// Queries over the second factor's own tables: login challenges and recovery codes.
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { loginChallengesTable } from './auth.table.ts';

export function createTwoFactorRepository(db: Executor) {
  return {
    /** Deletes the user's challenges still waiting for a code (a password change or a method turned off makes them stale). */
    async deleteOpenChallenges(userId: number, tx: Executor = db): Promise<void> {
      await tx
        .delete(loginChallengesTable)
        .where(and(eq(loginChallengesTable.userId, userId), isNull(loginChallengesTable.consumedAt)));
    },
  };
}

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;
