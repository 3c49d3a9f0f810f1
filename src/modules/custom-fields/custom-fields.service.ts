// Custom field definitions of a workspace: members read and write them; the admin area acts across
// every workspace (docs/api.md, "Sets, tags and custom field definitions"). Definitions never touch
// the values stored on locations: a retype or a delete leaves them as they are
// (docs/api.md, Custom field definitions). Creating and reordering hold a lock on the workspace
// row, so sort_order = max + 1, the case-insensitive name check and "the list names every
// definition" cannot race each other.
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { createFieldError } from '../../lib/errors.ts';
import type { Listed, Page } from '../../lib/pagination.ts';
import type { PayloadChangeListener } from '../../lib/payload-changes.ts';
import { assertWorkspaceAccess } from '../workspaces/workspaces.access.ts';
import {
  createCustomFieldNameTakenError,
  createCustomFieldNotFoundError,
  createReorderForeignIdsError,
  createReorderIncompleteError,
} from './custom-fields.errors.ts';
import type { CustomFieldChanges, CustomFieldsRepository } from './custom-fields.repository.ts';
import {
  type CreateCustomFieldBody,
  type CustomFieldPayload,
  optionsProblem,
  toCustomFieldPayload,
  typeHasOptions,
  type UpdateCustomFieldBody,
} from './custom-fields.schemas.ts';

interface CustomFieldsServiceDeps {
  db: Database;
  customFields: CustomFieldsRepository;
  /** Told after each write: definitions (and which values show) are in finder payloads. */
  changes: PayloadChangeListener;
}

export function createCustomFieldsService({ db, customFields, changes }: CustomFieldsServiceDeps) {
  return {
    /** A `workspaceId` the actor cannot reach answers 404 `Workspace not found.`, not an empty list. */
    async list(
      actor: Actor,
      workspaceId: number | undefined,
      page: Page,
    ): Promise<Listed<CustomFieldPayload>> {
      if (workspaceId !== undefined) await assertWorkspaceAccess(db, actor, workspaceId);
      const { rows, total } = await customFields.list(actor, workspaceId, page);
      return { items: rows.map(toCustomFieldPayload), total };
    },

    async get(actor: Actor, id: number): Promise<CustomFieldPayload> {
      const row = await customFields.find(actor, id);
      if (!row) throw createCustomFieldNotFoundError();
      return toCustomFieldPayload(row);
    },

    async create(actor: Actor, body: CreateCustomFieldBody): Promise<CustomFieldPayload> {
      // The unique index backs the check below for any writer that skips the lock; the error
      // handler answers its violation with the same 422.
      const row = await db.transaction(async (tx) => {
        await assertWorkspaceAccess(tx, actor, body.workspace_id);
        await customFields.lockWorkspace(body.workspace_id, tx);
        if (await customFields.nameTaken(body.workspace_id, body.name, tx)) {
          throw createCustomFieldNameTakenError();
        }
        return customFields.insert(
          {
            workspaceId: body.workspace_id,
            name: body.name,
            label: body.label,
            type: body.type,
            options: body.options ?? null,
            required: body.required ?? false,
          },
          tx,
        );
      });
      await changes.workspaceChanged(row.workspaceId);
      return toCustomFieldPayload(row);
    },

    /**
     * Options are checked against the resulting type. Leaving select/multiselect drops the
     * options; staying keeps them unless new ones are given. Stored values are not touched.
     */
    async update(actor: Actor, id: number, body: UpdateCustomFieldBody): Promise<CustomFieldPayload> {
      const row = await db.transaction(async (tx) => {
        const current = await customFields.find(actor, id, tx, { forUpdate: true });
        if (!current) throw createCustomFieldNotFoundError();
        if (Object.values(body).every((value) => value === undefined)) return current;
        const type = body.type ?? current.type;
        const options =
          body.options !== undefined ? body.options : typeHasOptions(type) ? current.options : null;
        const problem = optionsProblem(type, options);
        if (problem) throw createFieldError('options', problem);
        const fieldChanges: CustomFieldChanges = {
          label: body.label,
          type,
          options,
          required: body.required,
        };
        return customFields.update(id, fieldChanges, tx);
      });
      await changes.workspaceChanged(row.workspaceId);
      return toCustomFieldPayload(row);
    },

    async delete(actor: Actor, id: number): Promise<void> {
      const workspaceId = await customFields.delete(actor, id);
      if (workspaceId === undefined) throw createCustomFieldNotFoundError();
      await changes.workspaceChanged(workspaceId);
    },

    /**
     * `ids` (distinct, checked by the schema) must be every definition of one workspace the
     * actor can reach, in the new order; anything else changes nothing and answers 422 `errors.ids`.
     * The definitions come back ordered, with sort_order 0..n-1.
     */
    async reorder(actor: Actor, ids: number[]): Promise<CustomFieldPayload[]> {
      const rows = await db.transaction(async (tx) => {
        const found = await customFields.workspacesOf(actor, ids, tx);
        const workspaceId = found[0]?.workspaceId;
        if (
          workspaceId === undefined ||
          found.length !== ids.length ||
          found.some((row) => row.workspaceId !== workspaceId)
        ) {
          throw createReorderForeignIdsError();
        }
        await customFields.lockWorkspace(workspaceId, tx);
        // Read again under the lock: a definition created or deleted meanwhile counts.
        const all = new Set(await customFields.idsOfWorkspace(workspaceId, tx));
        if (all.size !== ids.length || !ids.every((id) => all.has(id))) throw createReorderIncompleteError();
        return customFields.setOrder(workspaceId, ids, tx);
      });
      if (rows[0]) await changes.workspaceChanged(rows[0].workspaceId);
      return rows.map(toCustomFieldPayload);
    },
  };
}

export type CustomFieldsService = ReturnType<typeof createCustomFieldsService>;
