// Tags of a workspace. Tags die with their workspace; which locations carry a tag is the
// locations module's (locations.relations.table.ts).
import { pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.ts';
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

export type TagRow = typeof tagsTable.$inferSelect;
