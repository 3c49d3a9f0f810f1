// Rules about user rows that more than one route needs (DELETE /me, DELETE /users/{id}).
import type { Database, Transaction } from '../../db/client.ts';
import type { UsersRepository } from './users.repository.ts';
import type { UserRow } from './users.table.ts';

interface UsersServiceDeps {
  db: Database;
  users: UsersRepository;
  /** Revokes every live session of the user (the auth module owns sessions). */
  revokeSessions: (userId: number, at: Date, tx: Transaction) => Promise<unknown>;
  /**
   * Ends the user's paid subscription at the payment provider (billing.service
   * `cancelForDeletion`): a no-op without one, a thrown error when the provider fails.
   */
  cancelSubscription: (user: UserRow) => Promise<void>;
}

export function createUsersService({ db, users, revokeSessions, cancelSubscription }: UsersServiceDeps) {
  return {
    /**
     * Soft delete (docs/api.md, "Account: sessions, PUT /me, DELETE /me"): the row stays (audit and
     * billing history point at it), every session is revoked in the same transaction, and the email
     * is free again because the unique index covers only users not deleted. Runs in the caller's
     * transaction when given. A live subscription is canceled at the end of its period first; when
     * that fails the error goes up and nothing is deleted.
     */
    async softDelete(userId: number, outer?: Transaction): Promise<void> {
      const user = await users.findActiveById(userId, outer);
      if (user) await cancelSubscription(user);
      const work = async (tx: Transaction) => {
        const now = new Date();
        await users.update(userId, { deletedAt: now }, tx);
        await revokeSessions(userId, now, tx);
      };
      await (outer ? work(outer) : db.transaction(work));
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
