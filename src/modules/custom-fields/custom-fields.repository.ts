// Queries over custom field definitions. Reads and writes by id are filtered through
// `accessibleWorkspace`, so a definition of a workspace the actor cannot reach is
// indistinguishable from a missing one.
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { countWhere } from '../../db/lists.ts';
import type { Actor } from '../../lib/actor.ts';
import { fetchPage, type Page } from '../../lib/pagination.ts';
import { accessibleWorkspace, listedWorkspace } from '../workspaces/workspaces.access.ts';
import { workspacesTable } from '../workspaces/workspaces.table.ts';
import {
  type CustomFieldDefinitionRow,
  type CustomFieldType,
  definitionOrder,
  customFieldDefinitionsTable as definitions,
} from './custom-fields.table.ts';

export interface NewCustomField {
  workspaceId: number;
  name: string;
  label: string;
  type: CustomFieldType;
  options: string[] | null;
  required: boolean;
}

export type CustomFieldChanges = Partial<Pick<NewCustomField, 'label' | 'type' | 'options' | 'required'>>;

const inOrder = [asc(definitions.workspaceId), definitionOrder('custom_field_definitions')];

export function createCustomFieldsRepository(db: Executor) {
  const reachable = (actor: Actor, id: number): SQL =>
    and(eq(definitions.id, id), accessibleWorkspace(definitions.workspaceId, actor))!;

  return {
    /** Ordered by workspace, then sort_order, then id; `total` when paged. */
    async list(
      actor: Actor,
      workspaceId: number | undefined,
      page: Page,
      tx: Executor = db,
    ): Promise<{ rows: CustomFieldDefinitionRow[]; total?: number }> {
      const where = listedWorkspace(definitions.workspaceId, actor, workspaceId);
      const query = tx
        .select()
        .from(definitions)
        .where(where)
        .orderBy(...inOrder)
        .$dynamic();
      return fetchPage(query, page, () => countWhere(tx, definitions, where));
    },

    /** With `forUpdate`, the row stays locked until the caller's transaction ends. */
    async find(
      actor: Actor,
      id: number,
      tx: Executor = db,
      options: { forUpdate?: boolean } = {},
    ): Promise<CustomFieldDefinitionRow | undefined> {
      const query = tx.select().from(definitions).where(reachable(actor, id)).$dynamic();
      if (options.forUpdate) query.for('update');
      const [row] = await query;
      return row;
    },

    /**
     * Serializes the writers of a workspace's definition list (create, reorder) until the
     * transaction ends. `no key update` leaves inserts of other rows that reference the
     * workspace (locations, tags, ...) unblocked.
     */
    async lockWorkspace(workspaceId: number, tx: Executor): Promise<void> {
      await tx
        .select({ id: workspacesTable.id })
        .from(workspacesTable)
        .where(eq(workspacesTable.id, workspaceId))
        .for('no key update');
    },

    async nameTaken(workspaceId: number, name: string, tx: Executor = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: definitions.id })
        .from(definitions)
        .where(
          and(eq(definitions.workspaceId, workspaceId), sql`lower(${definitions.name}) = lower(${name})`),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Appended to the workspace's order: sort_order = max + 1 (0 for the first). */
    async insert(values: NewCustomField, tx: Executor = db): Promise<CustomFieldDefinitionRow> {
      const [row] = await tx
        .insert(definitions)
        .values({
          ...values,
          sortOrder: sql`(select coalesce(max(${definitions.sortOrder}), -1) + 1 from ${definitions} where ${definitions.workspaceId} = ${values.workspaceId})`,
        })
        .returning();
      return row!;
    },

    async update(
      id: number,
      changes: CustomFieldChanges,
      tx: Executor = db,
    ): Promise<CustomFieldDefinitionRow> {
      const [row] = await tx.update(definitions).set(changes).where(eq(definitions.id, id)).returning();
      return row!;
    },

    /** The workspace of the deleted definition, undefined when none was. Location values under its name stay (orphaned). */
    async delete(actor: Actor, id: number, tx: Executor = db): Promise<number | undefined> {
      const [row] = await tx
        .delete(definitions)
        .where(reachable(actor, id))
        .returning({ workspaceId: definitions.workspaceId });
      return row?.workspaceId;
    },

    /** The workspaces of those `ids` the actor can reach (unknown and unreachable ids are left out). */
    async workspacesOf(actor: Actor, ids: number[], tx: Executor = db) {
      return tx
        .select({ id: definitions.id, workspaceId: definitions.workspaceId })
        .from(definitions)
        .where(and(inArray(definitions.id, ids), accessibleWorkspace(definitions.workspaceId, actor)));
    },

    async idsOfWorkspace(workspaceId: number, tx: Executor = db): Promise<number[]> {
      const rows = await tx
        .select({ id: definitions.id })
        .from(definitions)
        .where(eq(definitions.workspaceId, workspaceId));
      return rows.map((row) => row.id);
    },

    /** Sets sort_order to each id's index in `ids`, in one statement; `ids` must be every definition of the workspace. */
    async setOrder(
      workspaceId: number,
      ids: number[],
      tx: Executor = db,
    ): Promise<CustomFieldDefinitionRow[]> {
      const positions = JSON.stringify(Object.fromEntries(ids.map((id, index) => [id, index])));
      const rows = await tx
        .update(definitions)
        .set({ sortOrder: sql`(${positions}::jsonb ->> ${definitions.id}::text)::int` })
        .where(eq(definitions.workspaceId, workspaceId))
        .returning();
      return rows.sort((a, b) => a.sortOrder - b.sortOrder);
    },
  };
}

export type CustomFieldsRepository = ReturnType<typeof createCustomFieldsRepository>;
