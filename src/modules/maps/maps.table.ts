// Maps and their many-to-many links: owners (users), workspaces, sets and directly attached
// locations. A map belongs to no single workspace, so it has no workspace column and does
// not die with one; every link row dies with either side, so deleting a user, workspace, set
// or location only detaches it, and deleting a map removes its links. A finder's backing map
// is referenced from finders.map_id (set null there when the map goes).
import { index, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.ts';
import { locationsTable } from '../locations/locations.table.ts';
import { setsTable } from '../sets/sets.table.ts';
import { usersTable } from '../users/users.table.ts';
import { workspaceIdColumn } from '../workspaces/workspaces.table.ts';

export const mapsTable = pgTable('maps', {
  id: serial().primaryKey(),
  title: text().notNull(),
  description: text(),
  ...timestamps,
});

/** A map is visible only to its owners (docs/api.md, Maps). */
export const mapOwnersTable = pgTable(
  'map_owners',
  {
    mapId: integer()
      .notNull()
      .references(() => mapsTable.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => usersTable.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.mapId, t.userId] }), index('map_owners_user_id_idx').on(t.userId)],
);

export const mapWorkspacesTable = pgTable(
  'map_workspaces',
  {
    mapId: integer()
      .notNull()
      .references(() => mapsTable.id, { onDelete: 'cascade' }),
    workspaceId: workspaceIdColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.mapId, t.workspaceId] }),
    index('map_workspaces_workspace_id_idx').on(t.workspaceId),
  ],
);

export const mapSetsTable = pgTable(
  'map_sets',
  {
    mapId: integer()
      .notNull()
      .references(() => mapsTable.id, { onDelete: 'cascade' }),
    setId: integer()
      .notNull()
      .references(() => setsTable.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.mapId, t.setId] }), index('map_sets_set_id_idx').on(t.setId)],
);

/** Locations attached to the map directly; locations reached through sets are not listed here. */
export const mapLocationsTable = pgTable(
  'map_locations',
  {
    mapId: integer()
      .notNull()
      .references(() => mapsTable.id, { onDelete: 'cascade' }),
    locationId: integer()
      .notNull()
      .references(() => locationsTable.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.mapId, t.locationId] }),
    index('map_locations_location_id_idx').on(t.locationId),
  ],
);

export type MapRow = typeof mapsTable.$inferSelect;
