// Inbound payment-provider webhooks, one row per provider event. The unique (provider, event_id)
// makes a redelivered event a no-op (docs/api.md, "The webhook: POST /api/webhooks/paddle"). Rows
// are an audit trail of what the provider said, so they outlive the user they were matched to (set
// null).
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.ts';
import { usersTable } from '../users/users.table.ts';

export const webhookEventsTable = pgTable(
  'webhook_events',
  {
    id: serial().primaryKey(),
    /** e.g. `paddle`. */
    provider: text().notNull(),
    eventId: text().notNull(),
    eventType: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    /** The user the event was matched to, when one was found. */
    userId: integer().references(() => usersTable.id, { onDelete: 'set null' }),
    /** Null until the event has been applied. */
    processedAt: timestamptz(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_events_provider_event_id_unique').on(t.provider, t.eventId),
    index('webhook_events_user_id_idx').on(t.userId),
  ],
);

export type WebhookEventRow = typeof webhookEventsTable.$inferSelect;
