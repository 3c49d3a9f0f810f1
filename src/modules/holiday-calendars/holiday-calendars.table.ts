// Holiday calendars: named lists of dated exceptions a workspace keeps ("Public holidays DE
// 2027") and assigns to locations directly or through sets, so that a chain changes its
// December once instead of in every store. A location's own special hours win over a
// calendar's (docs/api.md, Holiday calendars). Calendars die with their workspace; their
// assignments die with either side.
import { index, integer, json, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.ts';
import type { SpecialHours } from '../../lib/hours/hours.model.ts';
import { locationsTable } from '../locations/locations.table.ts';
import { setsTable } from '../sets/sets.table.ts';
import { workspaceIdColumn } from '../workspaces/workspaces.table.ts';

export const holidayCalendarsTable = pgTable(
  'holiday_calendars',
  {
    id: serial().primaryKey(),
    workspaceId: workspaceIdColumn(),
    name: text().notNull(),
    /** The calendar's days, in the shape of a location's special hours (checked, sorted, compact). */
    days: json().$type<SpecialHours[]>().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('holiday_calendars_workspace_name_unique').on(t.workspaceId, t.name)],
);

export const holidayCalendarLocationsTable = pgTable(
  'holiday_calendar_locations',
  {
    calendarId: integer()
      .notNull()
      .references(() => holidayCalendarsTable.id, { onDelete: 'cascade' }),
    locationId: integer()
      .notNull()
      .references(() => locationsTable.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.calendarId, t.locationId] }),
    index('holiday_calendar_locations_location_id_idx').on(t.locationId),
  ],
);

export const holidayCalendarSetsTable = pgTable(
  'holiday_calendar_sets',
  {
    calendarId: integer()
      .notNull()
      .references(() => holidayCalendarsTable.id, { onDelete: 'cascade' }),
    setId: integer()
      .notNull()
      .references(() => setsTable.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.calendarId, t.setId] }),
    index('holiday_calendar_sets_set_id_idx').on(t.setId),
  ],
);

export type HolidayCalendarRow = typeof holidayCalendarsTable.$inferSelect;
