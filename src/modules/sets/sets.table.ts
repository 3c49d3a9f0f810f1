// Sets (the product UI calls them Categories) of a workspace and their locations. Sets die with
// their workspace; location_sets rows die with either side, so deleting a set removes its
// associations only and the locations (and finders, maps) remain (docs/api.md, Sets).
import { index, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.ts';
import { locationsTable } from '../locations/locations.table.ts';
import { workspaceIdColumn } from '../workspaces/workspaces.table.ts';

export const setsTable = pgTable(
  'sets',
  {
    id: serial().primaryKey(),
    workspaceId: workspaceIdColumn(),
    name: text().notNull(),
    ...timestamps,
  },
  (t) => [index('sets_workspace_id_idx').on(t.workspaceId)],
);

export const locationSetsTable = pgTable(
  'location_sets',
  {
    setId: integer()
      .notNull()
      .references(() => setsTable.id, { onDelete: 'cascade' }),
    locationId: integer()
      .notNull()
      .references(() => locationsTable.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.setId, t.locationId] }),
    index('location_sets_location_id_idx').on(t.locationId),
  ],
);

export type SetRow = typeof setsTable.$inferSelect;
