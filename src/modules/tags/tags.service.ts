// Tags of a workspace: members read and write them; the admin area acts across every workspace
// (docs/api.md, "Sets, tags and custom field definitions"). The slug follows the name, and
// (workspace, slug) is unique (docs/api.md, Tags): the unique index decides, so two concurrent
// creates cannot both win; the error handler answers its violation as 422 `errors.name`
// (src/unique-constraints.ts).
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { mapBatches, type Page, type StreamedList } from '../../lib/pagination.ts';
import type { PayloadChangeListener } from '../../lib/payload-changes.ts';
import type { CreateNamedBody } from '../workspaces/named-resource.schemas.ts';
import { assertWorkspaceAccess } from '../workspaces/workspaces.access.ts';
import { createTagNotFoundError } from './tags.errors.ts';
import type { TagsRepository } from './tags.repository.ts';
import { type TagPayload, toTagPayload } from './tags.schemas.ts';

interface TagsServiceDeps {
  db: Database;
  tags: TagsRepository;
  /** Told after each write: tags are in finder payloads. */
  changes: PayloadChangeListener;
}

export function createTagsService({ db, tags, changes }: TagsServiceDeps) {
  return {
    /** The list, streamed in batches (lib/pagination.ts streamList). A `workspaceId` the actor cannot reach answers 404 `Workspace not found.`, not an empty list. */
    async streamList(
      actor: Actor,
      workspaceId: number | undefined,
      page: Page,
    ): Promise<StreamedList<TagPayload>> {
      if (workspaceId !== undefined) await assertWorkspaceAccess(db, actor, workspaceId);
      const list = await tags.streamList(actor, workspaceId, page);
      return { ...list, first: list.first.map(toTagPayload), rest: mapBatches(list.rest, toTagPayload) };
    },

    async get(actor: Actor, id: number): Promise<TagPayload> {
      const row = await tags.find(actor, id);
      if (!row) throw createTagNotFoundError();
      return toTagPayload(row);
    },

    async create(actor: Actor, body: CreateNamedBody): Promise<TagPayload> {
      await assertWorkspaceAccess(db, actor, body.workspace_id);
      const row = await tags.insert({ workspaceId: body.workspace_id, name: body.name });
      await changes.workspaceChanged(row.workspaceId);
      return toTagPayload(row);
    },

    /** The slug is regenerated; refinements naming the old slug stop matching (docs/api.md, Tags). */
    async rename(actor: Actor, id: number, name: string): Promise<TagPayload> {
      const row = await tags.rename(actor, id, name);
      if (!row) throw createTagNotFoundError();
      await changes.workspaceChanged(row.workspaceId);
      return toTagPayload(row);
    },

    async delete(actor: Actor, id: number): Promise<void> {
      const workspaceId = await tags.delete(actor, id);
      if (workspaceId === undefined) throw createTagNotFoundError();
      await changes.workspaceChanged(workspaceId);
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
