// Tags of a workspace and their attachment to locations. Tags die with their workspace; the
// location_tags rows die with either side, so deleting a tag removes it from every location
// (docs/api.md, Tags) and deleting a location removes its tag links, never the tags themselves.
import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.ts';
import { locationsTable } from '../locations/locations.table.ts';
import { workspaceIdColumn } from '../workspaces/workspaces.table.ts';

export const tagsTable = pgTable(
  'tags',
  {
    id: serial().primaryKey(),
    workspaceId: workspaceIdColumn(),
    name: text().notNull(),
    /** Generated from the name and regenerated on rename; refinements and the widget filter use it. */
    slug: text().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('tags_workspace_id_slug_unique').on(t.workspaceId, t.slug)],
);

export const locationTagsTable = pgTable(
  'location_tags',
  {
    locationId: integer()
      .notNull()
      .references(() => locationsTable.id, { onDelete: 'cascade' }),
    tagId: integer()
      .notNull()
      .references(() => tagsTable.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.tagId] }), index('location_tags_tag_id_idx').on(t.tagId)],
);

export type TagRow = typeof tagsTable.$inferSelect;
