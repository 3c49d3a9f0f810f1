// Queries over sets. Every read and write is filtered through `accessibleWorkspace`, so a set
// of a workspace the actor cannot reach is indistinguishable from a missing one.
import { and, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { streamTable } from '../../db/lists.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Page, StreamedList } from '../../lib/pagination.ts';
import { accessibleWorkspace, listedWorkspace } from '../workspaces/workspaces.access.ts';
import { type SetRow, setsTable } from './sets.table.ts';

export function createSetsRepository(db: Executor) {
  const reachable = (actor: Actor, id: number): SQL =>
    and(eq(setsTable.id, id), accessibleWorkspace(setsTable.workspaceId, actor))!;

  return {
    /**
     * The actor's sets, of one workspace when `workspaceId` is given, streamed in batches
     * (lib/pagination.ts streamTable); `total` when paged.
     */
    streamList(actor: Actor, workspaceId: number | undefined, page: Page): Promise<StreamedList<SetRow>> {
      return streamTable<SetRow>(
        db,
        setsTable,
        listedWorkspace(setsTable.workspaceId, actor, workspaceId),
        page,
      );
    },

    async find(actor: Actor, id: number, tx: Executor = db): Promise<SetRow | undefined> {
      const [row] = await tx.select().from(setsTable).where(reachable(actor, id));
      return row;
    },

    async insert(values: { workspaceId: number; name: string }, tx: Executor = db): Promise<SetRow> {
      const [row] = await tx.insert(setsTable).values(values).returning();
      return row!;
    },

    /** Undefined when the set is missing or out of the actor's reach. */
    async rename(actor: Actor, id: number, name: string, tx: Executor = db): Promise<SetRow | undefined> {
      const [row] = await tx.update(setsTable).set({ name }).where(reachable(actor, id)).returning();
      return row;
    },

    /** The workspace of the deleted set, undefined when none was; its location, map and finder links go with it (cascade). */
    async delete(actor: Actor, id: number, tx: Executor = db): Promise<number | undefined> {
      const [row] = await tx
        .delete(setsTable)
        .where(reachable(actor, id))
        .returning({ workspaceId: setsTable.workspaceId });
      return row?.workspaceId;
    },
  };
}

export type SetsRepository = ReturnType<typeof createSetsRepository>;
