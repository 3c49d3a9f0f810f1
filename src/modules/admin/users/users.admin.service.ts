// Admin user management (docs/api.md, "Admin: users and audit logs"): listing and filtering every
// user, editing name, email, role and subscription, and soft-deleting through the users service. It
// owns one rule of its own: the service never loses its last admin, by demotion or by deletion.
import type { Database, Executor, Transaction } from '../../../db/client.ts';
import { advisoryXactLock } from '../../../db/locks.ts';
import { mapBatches, type Page, type StreamedList } from '../../../lib/pagination.ts';
import {
  createEmailTakenError,
  createLastAdminError,
  createUserNotFoundError,
} from '../../users/users.errors.ts';
import type { NewUser, UsersRepository } from '../../users/users.repository.ts';
import type { UsersService } from '../../users/users.service.ts';
import {
  type AdminUserPayload,
  type AdminUsersQuery,
  toAdminUserPayload,
  type UpdateUserBody,
} from './users.admin.schemas.ts';

/** The one advisory lock that role changes and deletions of users take, in every process. */
const ADMINS_LOCK = 'users:admins';

interface AdminUsersServiceDeps {
  db: Database;
  users: UsersRepository;
  /** Owns what "soft delete" means (sessions revoked with it), shared with DELETE /me. */
  accounts: UsersService;
}

export function createAdminUsersService({ db, users, accounts }: AdminUsersServiceDeps) {
  /**
   * Runs `work` in a transaction that holds the admins lock (transaction-scoped, so it is
   * released with the commit), so two changes that each leave one admin cannot both pass.
   */
  function withAdminsLock<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => {
      await advisoryXactLock(tx, ADMINS_LOCK);
      return work(tx);
    });
  }

  /** Throws 409 unless an admin other than `userId` remains. Call it holding the admins lock. */
  async function assertAnotherAdmin(tx: Executor, userId: number, action: 'demoted' | 'deleted') {
    if ((await users.countOtherAdmins(userId, tx)) === 0) throw createLastAdminError(action);
  }

  async function applyUpdate(tx: Executor, id: number, body: UpdateUserBody) {
    const user = await users.lockActive(id, tx);
    if (!user) throw createUserNotFoundError();
    if (user.role === 'admin' && body.role === 'user') await assertAnotherAdmin(tx, id, 'demoted');
    if (body.email !== undefined && body.email.toLowerCase() !== user.email.toLowerCase()) {
      if (await users.findActiveByEmail(body.email, tx)) throw createEmailTakenError();
    }
    const given: Partial<NewUser> = {
      name: body.name,
      email: body.email,
      role: body.role,
      subscriptionTier: body.subscription_tier,
      subscriptionStatus: body.subscription_status,
    };
    const values = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
    // An empty body changes nothing, not even updated_at.
    if (Object.keys(values).length === 0) return user;
    return (await users.update(id, values, tx))!;
  }

  const listFilter = (query: AdminUsersQuery) => ({
    q: query.q || undefined,
    role: query.role,
    subscriptionStatus: query.subscription_status,
    subscriptionTier: query.subscription_tier,
    includeDeleted: query.include_deleted,
  });

  return {
    /**
     * Ordered by id, streamed in batches (lib/pagination.ts streamList). Without
     * `include_deleted`, soft-deleted users are left out.
     */
    async streamList(query: AdminUsersQuery, page: Page): Promise<StreamedList<AdminUserPayload>> {
      const list = await users.streamList(listFilter(query), page);
      return {
        ...list,
        first: list.first.map(toAdminUserPayload),
        rest: mapBatches(list.rest, toAdminUserPayload),
      };
    },

    async get(id: number): Promise<AdminUserPayload> {
      const user = await users.findActiveById(id);
      if (!user) throw createUserNotFoundError();
      return toAdminUserPayload(user);
    },

    /**
     * Partial update. The email stays unique among users not deleted, compared
     * case-insensitively: checked first for a clear answer, and the unique index settles a
     * race (its violation is answered by the error handler, src/unique-constraints.ts). A role change takes the admins lock, so the last admin cannot be demoted.
     */
    async update(id: number, body: UpdateUserBody): Promise<AdminUserPayload> {
      const user =
        body.role === undefined
          ? await db.transaction((tx) => applyUpdate(tx, id, body))
          : await withAdminsLock((tx) => applyUpdate(tx, id, body));
      return toAdminUserPayload(user);
    },

    /**
     * Soft delete through the users service (every session revoked). The check and the
     * delete happen under the admins lock, so the last admin cannot be deleted even by two
     * admins deleting each other at once.
     */
    async delete(id: number): Promise<void> {
      await withAdminsLock(async (tx) => {
        const user = await users.findActiveById(id, tx);
        if (!user) throw createUserNotFoundError();
        if (user.role === 'admin') await assertAnotherAdmin(tx, id, 'deleted');
        await accounts.softDelete(id, tx);
      });
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
