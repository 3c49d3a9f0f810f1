// Sets (the product UI calls them Categories) of a workspace. Sets die with their workspace;
// which locations are in a set is the locations module's (locations.relations.table.ts).
import { index, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.ts';
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

export type SetRow = typeof setsTable.$inferSelect;
