// Widget analytics events, one row per event posted to POST /analytics. High volume, hence
// bigserial. Events die with their finder. location_id deliberately has no foreign key:
// counts must outlive the location (a deleted location still happened to be clicked), and
// a widget may post an id the API never checked, which must not fail the whole batch.
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
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
    oneOf('analytics_events_type_check', t.type, analyticsEventTypes),
  ],
);

export type AnalyticsEventRow = typeof analyticsEventsTable.$inferSelect;
