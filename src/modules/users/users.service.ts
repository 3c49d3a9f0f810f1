// Rules about user rows that more than one route needs (DELETE /me, DELETE /users/{id}).
import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import type { SessionsRepository } from '../auth/auth.repository.ts';
import { type UserRow, usersTable } from './users.table.ts';

interface UsersServiceDeps {
  db: Database;
  sessions: SessionsRepository;
  /**
   * Ends the user's paid subscription at the payment provider (billing.service
   * `cancelForDeletion`): a no-op without one, a thrown error when the provider fails.
   */
  cancelSubscription: (user: UserRow) => Promise<void>;
}

export function createUsersService({ db, sessions, cancelSubscription }: UsersServiceDeps) {
  return {
    /**
     * Soft delete (decisions §3): the row stays (audit and billing history point at it), every
     * session is revoked in the same transaction, and the email is free again because the
     * unique index covers only users not deleted. Runs in the caller's transaction when given.
     * A live subscription is canceled at the end of its period first; when that fails the
     * error goes up and nothing is deleted.
     */
    async softDelete(userId: number, outer?: Transaction): Promise<void> {
      const [user] = await (outer ?? db).select().from(usersTable).where(eq(usersTable.id, userId));
      if (user) await cancelSubscription(user);
      const work = async (tx: Transaction) => {
        const now = new Date();
        await tx.update(usersTable).set({ deletedAt: now }).where(eq(usersTable.id, userId));
        await sessions.revokeAllForUser(userId, now, undefined, tx);
      };
      await (outer ? work(outer) : db.transaction(work));
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
