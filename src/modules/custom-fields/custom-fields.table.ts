// Custom field definitions of a workspace: the name, label, type and order of the extra fields a
// location may carry. They die with their workspace. Location values live in
// locations.custom_values keyed by definition name, deliberately without a foreign key: deleting or
// retyping a definition orphans the stored values instead of touching them
// (docs/api.md, Data model notes).
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf, timestamps } from '../../db/columns.ts';
import { workspaceIdColumn } from '../workspaces/workspaces.table.ts';

export const customFieldTypes = [
  'text',
  'textarea',
  'number',
  'boolean',
  'select',
  'multiselect',
  'url',
  'email',
  'phone',
  'date',
] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

export const customFieldDefinitionsTable = pgTable(
  'custom_field_definitions',
  {
    id: serial().primaryKey(),
    workspaceId: workspaceIdColumn(),
    /** The key of the value in locations.custom_values and the CSV column name. */
    name: text().notNull(),
    label: text().notNull(),
    type: text({ enum: customFieldTypes }).notNull(),
    /** Allowed values of select / multiselect fields. */
    options: jsonb().$type<string[]>(),
    required: boolean().notNull().default(false),
    sortOrder: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('custom_field_definitions_workspace_id_name_unique').on(t.workspaceId, t.name),
    index('custom_field_definitions_workspace_id_sort_order_idx').on(t.workspaceId, t.sortOrder),
    oneOf('custom_field_definitions_type_check', t.type, customFieldTypes),
  ],
);

export type CustomFieldDefinitionRow = typeof customFieldDefinitionsTable.$inferSelect;

/**
 * The order of a workspace's definitions, for definitions named `d` in a statement: sort_order,
 * then id. The API's lists and the widget payload both show them in it.
 */
export const definitionOrder = (d: string) => sql.raw(`${d}.sort_order, ${d}.id`);
