// Widget analytics: one row per event stored from POST /analytics (high volume, hence
// bigserial), and one per session, finder and UTC day that stored an event (the report's
// unique sessions). Both die with their finder. location_id deliberately has no foreign key:
// counts must outlive the location (a deleted location still happened to be clicked); the
// service stores only ids the finder shows at receipt.
import { sql } from 'drizzle-orm';
import { bigserial, date, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf, timestamptz } from '../../db/columns.ts';
import { findersTable } from '../finders/finders.table.ts';

export const analyticsEventTypes = ['view', 'search', 'click', 'location_select'] as const;
export type AnalyticsEventType = (typeof analyticsEventTypes)[number];

export const analyticsEventsTable = pgTable(
  'analytics_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    finderId: integer()
      .notNull()
      .references(() => findersTable.id, { onDelete: 'cascade' }),
    type: text({ enum: analyticsEventTypes }).notNull(),
    /** No foreign key: see the first lines of this file. */
    locationId: integer(),
    query: text(),
    sessionId: text(),
    /** When the widget says it happened (defaults to receipt time in the service). */
    occurredAt: timestamptz().notNull(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    // The report reads one finder's window (finder_id, occurred_at) and counts by type and
    // location: with those as trailing key columns it never visits the table (index-only
    // scans; Drizzle has no INCLUDE). Searches are a fifth of the rows and carry the longest
    // column, so their texts get a partial index of their own. Figures: docs/api.md, "Widget
    // analytics" (npm run bench:analytics).
    index('analytics_events_finder_id_occurred_at_type_location_id_idx').on(
      t.finderId,
      t.occurredAt,
      t.type,
      t.locationId,
    ),
    index('analytics_events_search_queries_idx')
      .on(t.finderId, t.occurredAt, t.query)
      .where(sql`${t.type} = 'search'`),
    // A view counts once per session and finder: the insert skips (on conflict do nothing) a
    // view whose session already has one, whichever process or batch stored it first.
    uniqueIndex('analytics_events_view_session_idx')
      .on(t.finderId, t.sessionId)
      .where(sql`${t.type} = 'view'`),
    oneOf('analytics_events_type_check', t.type, analyticsEventTypes),
  ],
);

/**
 * The sessions that stored at least one event, per finder and UTC day of the event, written by
 * the events' insert itself. The report counts unique sessions from here: a range of the
 * primary key holds every column it reads, and a session is one row a day however many events
 * it sent.
 */
export const analyticsSessionsTable = pgTable(
  'analytics_sessions',
  {
    finderId: integer()
      .notNull()
      .references(() => findersTable.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    sessionId: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.finderId, t.day, t.sessionId] })],
);

export type AnalyticsEventRow = typeof analyticsEventsTable.$inferSelect;
