// Queries over workspaces and their members. Reads by id are filtered through
// `accessibleWorkspace`, so a workspace out of the actor's reach is indistinguishable from a
// missing one.
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { countWhere } from '../../db/lists.ts';
import type { Actor } from '../../lib/actor.ts';
import { fetchPage, type Page } from '../../lib/pagination.ts';
import { usersTable } from '../users/users.table.ts';
import { accessibleWorkspace } from './workspaces.access.ts';
import {
  type MemberRole,
  type WorkspaceRow,
  workspaceMembersTable,
  workspacesTable,
} from './workspaces.table.ts';

export function createWorkspacesRepository(db: Executor) {
  return {
    async insertWithMember(
      name: string,
      member: { userId: number; role: MemberRole },
      tx: Executor = db,
    ): Promise<WorkspaceRow> {
      const [workspace] = await tx.insert(workspacesTable).values({ name }).returning();
      await tx.insert(workspaceMembersTable).values({ workspaceId: workspace!.id, ...member });
      return workspace!;
    },

    /** The workspaces the actor may reach, by id; `total` when paged. */
    async list(
      actor: Actor,
      page: Page,
      tx: Executor = db,
    ): Promise<{ rows: WorkspaceRow[]; total?: number }> {
      const where = accessibleWorkspace(workspacesTable.id, actor);
      const query = tx.select().from(workspacesTable).where(where).orderBy(workspacesTable.id).$dynamic();
      return fetchPage(query, page, () => countWhere(tx, workspacesTable, where));
    },

    async findAccessible(actor: Actor, id: number, tx: Executor = db): Promise<WorkspaceRow | undefined> {
      const [row] = await tx
        .select()
        .from(workspacesTable)
        .where(and(eq(workspacesTable.id, id), accessibleWorkspace(workspacesTable.id, actor)));
      return row;
    },

    /** Members whose account is not deleted (a soft-deleted user keeps the membership row). */
    async countLiveMembers(id: number, tx: Executor = db): Promise<number> {
      const [row] = await tx
        .select({ value: count() })
        .from(workspaceMembersTable)
        .innerJoin(usersTable, eq(usersTable.id, workspaceMembersTable.userId))
        .where(and(eq(workspaceMembersTable.workspaceId, id), isNull(usersTable.deletedAt)));
      return row?.value ?? 0;
    },

    /**
     * How many workspaces the user owns, with the user's row locked until the transaction
     * ends, so two concurrent creates cannot both count below the plan limit.
     */
    async countOwnedLocking(userId: number, tx: Executor): Promise<number> {
      await tx.execute(sql`select id from ${usersTable} where ${usersTable.id} = ${userId} for update`);
      const [owned] = await tx
        .select({ value: count() })
        .from(workspaceMembersTable)
        .where(and(eq(workspaceMembersTable.userId, userId), eq(workspaceMembersTable.role, 'owner')));
      return owned?.value ?? 0;
    },

    async rename(id: number, name: string, tx: Executor = db): Promise<WorkspaceRow | undefined> {
      const [row] = await tx
        .update(workspacesTable)
        .set({ name })
        .where(eq(workspacesTable.id, id))
        .returning();
      return row;
    },

    /** Deletes the workspace and, through the foreign keys, every row inside it. */
    async delete(id: number, tx: Executor = db): Promise<void> {
      await tx.delete(workspacesTable).where(eq(workspacesTable.id, id));
    },
  };
}

export type WorkspacesRepository = ReturnType<typeof createWorkspacesRepository>;
