// Bodies of the named resources inside a workspace (sets, tags) and the service shape their
// shared route factory (named-resource.routes.ts) calls. Services import these, never the routes.

import { z } from 'zod';
import type { Actor } from '../../lib/actor.ts';
import type { Page, StreamedList } from '../../lib/pagination.ts';
import { bodyIdSchema, nameSchema } from '../../lib/schemas.ts';

export const createNamedBodySchema = z.object({
  name: nameSchema,
  workspace_id: bodyIdSchema('workspace id'),
});
export type CreateNamedBody = z.infer<typeof createNamedBodySchema>;

export const renameBodySchema = z.object({ name: nameSchema });

export interface NamedResourceService {
  /** The list, streamed in batches (lib/pagination.ts streamList). */
  streamList(actor: Actor, workspaceId: number | undefined, page: Page): Promise<StreamedList<unknown>>;
  get(actor: Actor, id: number): Promise<unknown>;
  create(actor: Actor, body: CreateNamedBody): Promise<unknown>;
  rename(actor: Actor, id: number, name: string): Promise<unknown>;
  delete(actor: Actor, id: number): Promise<void>;
}
