// Queries over finders. Reads by id are filtered through `accessibleWorkspace`, so a finder of
// a workspace the actor cannot reach is indistinguishable from a missing one.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type Actor, accessibleWorkspace } from '../workspaces/workspaces.access.ts';
import { findersTable } from './finders.table.ts';

export function createFindersRepository(db: Executor) {
  return {
    /** The finder's id and backing map, when the actor may reach it. */
    async findAccessibleRef(
      actor: Actor,
      id: number,
      tx: Executor = db,
    ): Promise<{ id: number; mapId: number | null } | undefined> {
      const [row] = await tx
        .select({ id: findersTable.id, mapId: findersTable.mapId })
        .from(findersTable)
        .where(and(eq(findersTable.id, id), accessibleWorkspace(findersTable.workspaceId, actor)));
      return row;
    },
  };
}

export type FindersRepository = ReturnType<typeof createFindersRepository>;
