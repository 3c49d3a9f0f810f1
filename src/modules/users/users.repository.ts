// Queries over users. Emails are compared case-insensitively among users not deleted.
import { and, eq, gt, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { substringPattern } from '../../db/like.ts';
import { countWhere } from '../../db/lists.ts';
import { type Page, type StreamedList, streamList } from '../../lib/pagination.ts';
import {
  type SubscriptionStatus,
  type SubscriptionTier,
  type UserRole,
  type UserRow,
  usersTable,
} from './users.table.ts';

export type NewUser = typeof usersTable.$inferInsert;

export interface UserListFilter {
  /** A substring of the name or the email, case-insensitive. */
  q?: string;
  role?: UserRole;
  subscriptionStatus?: SubscriptionStatus;
  subscriptionTier?: SubscriptionTier;
  includeDeleted?: boolean;
}

export function createUsersRepository(db: Executor) {
  return {
    async findActiveById(id: number, tx: Executor = db): Promise<UserRow | undefined> {
      const [row] = await tx
        .select()
        .from(usersTable)
        .where(and(eq(usersTable.id, id), isNull(usersTable.deletedAt)));
      return row;
    },

    async findActiveByEmail(email: string, tx: Executor = db): Promise<UserRow | undefined> {
      const [row] = await tx
        .select()
        .from(usersTable)
        .where(and(sql`lower(${usersTable.email}) = lower(${email})`, isNull(usersTable.deletedAt)));
      return row;
    },

    async insert(values: NewUser, tx: Executor = db): Promise<UserRow> {
      const [row] = await tx.insert(usersTable).values(values).returning();
      return row!;
    },

    async update(id: number, values: Partial<NewUser>, tx: Executor = db): Promise<UserRow | undefined> {
      const [row] = await tx.update(usersTable).set(values).where(eq(usersTable.id, id)).returning();
      return row;
    },

    /** The user (not deleted), locked for the caller's transaction. */
    async lockActive(id: number, tx: Executor): Promise<UserRow | undefined> {
      const [row] = await tx
        .select()
        .from(usersTable)
        .where(and(eq(usersTable.id, id), isNull(usersTable.deletedAt)))
        .for('update');
      return row;
    },

    /**
     * Accepts a TOTP step once: the update only succeeds for a step later than the last one
     * used, so two requests with one code cannot both pass.
     */
    async claimTotpStep(userId: number, step: number, tx: Executor = db): Promise<boolean> {
      const rows = await tx
        .update(usersTable)
        .set({ totpLastUsedStep: step })
        .where(
          and(
            eq(usersTable.id, userId),
            sql`(${usersTable.totpLastUsedStep} is null or ${usersTable.totpLastUsedStep} < ${step})`,
          ),
        )
        .returning({ id: usersTable.id });
      return rows.length === 1;
    },

    /** Activates the pending TOTP secret, only if it is still the one that was checked. */
    async activatePendingTotp(userId: number, pendingSecret: string, step: number, tx: Executor = db) {
      const rows = await tx
        .update(usersTable)
        .set({
          totpSecretEncrypted: pendingSecret,
          totpPendingSecretEncrypted: null,
          totpEnabledAt: new Date(),
          totpLastUsedStep: step,
        })
        .where(and(eq(usersTable.id, userId), eq(usersTable.totpPendingSecretEncrypted, pendingSecret)))
        .returning({ id: usersTable.id });
      return rows.length === 1;
    },

    /** Admins (not deleted) other than the given user. */
    async countOtherAdmins(userId: number, tx: Executor = db): Promise<number> {
      return countWhere(
        tx,
        usersTable,
        and(eq(usersTable.role, 'admin'), isNull(usersTable.deletedAt), ne(usersTable.id, userId)),
      );
    },

    /**
     * The admin list read for streaming (lib/pagination.ts streamList): ids from the primary
     * key (an offset skips index entries), then the rows of each batch by id.
     */
    streamList(filter: UserListFilter, page: Page): Promise<StreamedList<UserRow>> {
      const where = listCondition(filter);
      return streamList<UserRow>(
        page,
        {
          ids: async ({ after, offset, limit }) => {
            const rows = await db
              .select({ id: usersTable.id })
              .from(usersTable)
              .where(and(where, after === undefined ? undefined : gt(usersTable.id, after.id)))
              .orderBy(usersTable.id)
              .limit(limit)
              .offset(offset);
            return { ids: rows.map((row) => row.id) };
          },
          rows: (ids) =>
            ids.length === 0
              ? Promise.resolve([])
              : db.select().from(usersTable).where(inArray(usersTable.id, ids)).orderBy(usersTable.id),
        },
        () => countWhere(db, usersTable, where),
      );
    },
  };
}

/** The admin list's filters as one condition. */
function listCondition(filter: UserListFilter) {
  const { q } = filter;
  return and(
    filter.includeDeleted ? undefined : isNull(usersTable.deletedAt),
    q
      ? or(ilike(usersTable.name, substringPattern(q)), ilike(usersTable.email, substringPattern(q)))
      : undefined,
    filter.role ? eq(usersTable.role, filter.role) : undefined,
    filter.subscriptionStatus ? eq(usersTable.subscriptionStatus, filter.subscriptionStatus) : undefined,
    filter.subscriptionTier ? eq(usersTable.subscriptionTier, filter.subscriptionTier) : undefined,
  );
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
