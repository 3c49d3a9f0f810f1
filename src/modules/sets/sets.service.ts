// Sets (Categories) of a workspace: members of the workspace read and write them; the admin area
// acts across every workspace (docs/api.md, "Sets, tags and custom field definitions"). Deleting a
// set removes its links only (docs/api.md, Sets).
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { mapBatches, type Page, type StreamedList } from '../../lib/pagination.ts';
import type { PayloadChangeListener } from '../../lib/payload-changes.ts';
import type { CreateNamedBody } from '../workspaces/named-resource.schemas.ts';
import { assertWorkspaceAccess } from '../workspaces/workspaces.access.ts';
import { createSetNotFoundError } from './sets.errors.ts';
import type { SetsRepository } from './sets.repository.ts';
import { type SetPayload, toSetPayload } from './sets.schemas.ts';

interface SetsServiceDeps {
  db: Database;
  sets: SetsRepository;
  /** Told after each write: sets and their names are in finder payloads. */
  changes: PayloadChangeListener;
}

export function createSetsService({ db, sets, changes }: SetsServiceDeps) {
  return {
    /** The list, streamed in batches (lib/pagination.ts streamList). A `workspaceId` the actor cannot reach answers 404 `Workspace not found.`, not an empty list. */
    async streamList(
      actor: Actor,
      workspaceId: number | undefined,
      page: Page,
    ): Promise<StreamedList<SetPayload>> {
      if (workspaceId !== undefined) await assertWorkspaceAccess(db, actor, workspaceId);
      const list = await sets.streamList(actor, workspaceId, page);
      return { ...list, first: list.first.map(toSetPayload), rest: mapBatches(list.rest, toSetPayload) };
    },

    async get(actor: Actor, id: number): Promise<SetPayload> {
      const row = await sets.find(actor, id);
      if (!row) throw createSetNotFoundError();
      return toSetPayload(row);
    },

    async create(actor: Actor, body: CreateNamedBody): Promise<SetPayload> {
      await assertWorkspaceAccess(db, actor, body.workspace_id);
      const row = await sets.insert({ workspaceId: body.workspace_id, name: body.name });
      await changes.workspaceChanged(row.workspaceId);
      return toSetPayload(row);
    },

    async rename(actor: Actor, id: number, name: string): Promise<SetPayload> {
      const row = await sets.rename(actor, id, name);
      if (!row) throw createSetNotFoundError();
      await changes.workspaceChanged(row.workspaceId);
      return toSetPayload(row);
    },

    async delete(actor: Actor, id: number): Promise<void> {
      const workspaceId = await sets.delete(actor, id);
      if (workspaceId === undefined) throw createSetNotFoundError();
      await changes.workspaceChanged(workspaceId);
    },
  };
}

export type SetsService = ReturnType<typeof createSetsService>;
