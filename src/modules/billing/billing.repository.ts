// Queries of the billing module: stored webhook events, and the billing fields of users.
// Every method takes an optional transaction; the service owns the transactions.
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type UserRow, usersTable } from '../users/users.table.ts';
import { webhookEventsTable } from './billing.table.ts';
import type { BillingState } from './paddle.events.ts';

export interface NewWebhookEvent {
  provider: string;
  eventId: string;
  eventType: string;
  payload: Record<string, unknown>;
}

export function createBillingRepository(db: Executor) {
  return {
    /**
     * Stores an event; undefined when (provider, event_id) is already stored. The unique index
     * decides: a concurrent delivery of the same event waits for the first to commit, then
     * finds it here.
     */
    async insertEvent(values: NewWebhookEvent, tx: Executor = db): Promise<{ id: number } | undefined> {
      const [row] = await tx
        .insert(webhookEventsTable)
        .values(values)
        .onConflictDoNothing({ target: [webhookEventsTable.provider, webhookEventsTable.eventId] })
        .returning({ id: webhookEventsTable.id });
      return row;
    },

    /** Records the user an event was matched to, and when it was applied (null: it was not). */
    async markEvent(id: number, values: { userId: number; processedAt: Date | null }, tx: Executor = db) {
      await tx.update(webhookEventsTable).set(values).where(eq(webhookEventsTable.id, id));
    },

    /**
     * The user an event belongs to, locked for the rest of the transaction: by Paddle customer
     * (a user not deleted first, since a deleted account's email may have registered again and
     * been matched to the same customer), else by the user id our checkout put in custom_data.
     */
    async findUserForEvent(
      customerId: string,
      userId: number | undefined,
      tx: Executor = db,
    ): Promise<UserRow | undefined> {
      const [byCustomer] = await tx
        .select()
        .from(usersTable)
        .where(eq(usersTable.paddleCustomerId, customerId))
        .orderBy(sql`${usersTable.deletedAt} is null desc`, desc(usersTable.id))
        .limit(1)
        .for('update');
      if (byCustomer || userId === undefined) return byCustomer;
      const [byId] = await tx.select().from(usersTable).where(eq(usersTable.id, userId)).for('update');
      return byId;
    },

    /** The user's row, locked for the rest of the transaction. */
    async lockUser(userId: number, tx: Executor = db): Promise<UserRow | undefined> {
      const [row] = await tx.select().from(usersTable).where(eq(usersTable.id, userId)).for('update');
      return row;
    },

    /**
     * Remembers the user's Paddle customer unless one is remembered already; answers the row
     * either way, so two checkouts racing agree on the first customer stored.
     */
    async rememberCustomer(
      userId: number,
      customerId: string,
      tx: Executor = db,
    ): Promise<UserRow | undefined> {
      const [updated] = await tx
        .update(usersTable)
        .set({ paddleCustomerId: customerId })
        .where(and(eq(usersTable.id, userId), isNull(usersTable.paddleCustomerId)))
        .returning();
      if (updated) return updated;
      const [row] = await tx.select().from(usersTable).where(eq(usersTable.id, userId));
      return row;
    },

    /**
     * Writes a subscription state that was true at `asOf` (an RFC 3339 string, compared by
     * PostgreSQL at full microsecond precision) unless the user's stored state is as new or
     * newer. Undefined when the state was older and nothing was written.
     */
    async applySubscriptionState(
      userId: number,
      state: BillingState,
      asOf: string,
      tx: Executor = db,
    ): Promise<UserRow | undefined> {
      const at = sql`${asOf}::timestamptz`;
      const [row] = await tx
        .update(usersTable)
        .set({ ...state, paddleSubscriptionUpdatedAt: at })
        .where(
          and(
            eq(usersTable.id, userId),
            or(
              isNull(usersTable.paddleSubscriptionUpdatedAt),
              lt(usersTable.paddleSubscriptionUpdatedAt, at),
            ),
          ),
        )
        .returning();
      return row;
    },
  };
}

export type BillingRepository = ReturnType<typeof createBillingRepository>;
