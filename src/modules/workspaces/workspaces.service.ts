// Workspaces: listing what the actor is a member of, the plan limit on owned workspaces
// (decisions §3), owner-only rename and delete, and the delete cascade that the schema alone
// cannot express (finders' backing maps have no workspace column).
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { createTierRequiredError } from '../../lib/errors.ts';
import { countWhere, fetchPage, type Listed, type Page } from '../../lib/pagination.ts';
import { findersTable } from '../finders/finders.table.ts';
import { mapsTable } from '../maps/maps.table.ts';
import { type UserRow, usersTable } from '../users/users.table.ts';
import { type Actor, accessibleWorkspace, assertWorkspaceAccess } from './workspaces.access.ts';
import { createWorkspaceNotFoundError } from './workspaces.errors.ts';
import type { WorkspacesRepository } from './workspaces.repository.ts';
import { toWorkspacePayload } from './workspaces.schemas.ts';
import { type WorkspaceRow, workspaceMembersTable, workspacesTable } from './workspaces.table.ts';

/** Owned workspaces each plan allows (decisions §3); custom plans and admins have no limit. */
const workspaceLimits: Record<string, number> = { none: 1, free: 1, bronze: 3, premium: 10 };

export function workspaceLimitFor(user: UserRow): number {
  if (user.role === 'admin') return Number.POSITIVE_INFINITY;
  return workspaceLimits[user.subscriptionTier] ?? Number.POSITIVE_INFINITY;
}

export const createWorkspaceLimitError = (limit: number) =>
  createTierRequiredError(
    `Your plan allows ${limit} workspace${limit === 1 ? '' : 's'}. Upgrade to create more.`,
  );

interface WorkspacesServiceDeps {
  db: Database;
  workspaces: WorkspacesRepository;
  /** Best-effort removal of a deleted workspace's stored files (images), after the commit. */
  onDeleted?: (workspaceId: number) => Promise<void>;
}

export function createWorkspacesService({ db, workspaces, onDeleted }: WorkspacesServiceDeps) {
  async function find(actor: Actor, id: number): Promise<WorkspaceRow> {
    const [row] = await db
      .select()
      .from(workspacesTable)
      .where(and(eq(workspacesTable.id, id), accessibleWorkspace(workspacesTable.id, actor)));
    if (!row) throw createWorkspaceNotFoundError();
    return row;
  }

  /** Members whose account is not deleted (a soft-deleted user keeps the membership row). */
  async function membersCount(id: number): Promise<number> {
    const [row] = await db
      .select({ value: count() })
      .from(workspaceMembersTable)
      .innerJoin(usersTable, eq(usersTable.id, workspaceMembersTable.userId))
      .where(and(eq(workspaceMembersTable.workspaceId, id), isNull(usersTable.deletedAt)));
    return row?.value ?? 0;
  }

  return {
    async list(actor: Actor, page: Page): Promise<Listed<ReturnType<typeof toWorkspacePayload>>> {
      const where = accessibleWorkspace(workspacesTable.id, actor);
      const query = db.select().from(workspacesTable).where(where).orderBy(workspacesTable.id).$dynamic();
      const { rows, total } = await fetchPage(query, page, () => countWhere(db, workspacesTable, where));
      return { items: rows.map(toWorkspacePayload), total };
    },

    async get(actor: Actor, id: number) {
      const row = await find(actor, id);
      return { ...toWorkspacePayload(row), members_count: await membersCount(id) };
    },

    /** The creator owns the new workspace. The user row is locked so two concurrent creates cannot both slip under the limit. */
    async create(user: UserRow, name: string) {
      const limit = workspaceLimitFor(user);
      const row = await db.transaction(async (tx) => {
        if (Number.isFinite(limit)) {
          await tx.execute(sql`select id from users where id = ${user.id} for update`);
          const [owned] = await tx
            .select({ value: count() })
            .from(workspaceMembersTable)
            .where(and(eq(workspaceMembersTable.userId, user.id), eq(workspaceMembersTable.role, 'owner')));
          if ((owned?.value ?? 0) >= limit) throw createWorkspaceLimitError(limit);
        }
        return workspaces.insertWithMember(name, { userId: user.id, role: 'owner' }, tx);
      });
      return toWorkspacePayload(row);
    },

    async rename(actor: Actor, id: number, name: string) {
      await assertWorkspaceAccess(db, actor, id, { owner: true });
      const [row] = await db
        .update(workspacesTable)
        .set({ name })
        .where(eq(workspacesTable.id, id))
        .returning();
      if (!row) throw createWorkspaceNotFoundError();
      return toWorkspacePayload(row);
    },

    /**
     * Deletes the workspace and, through the foreign keys, every row inside it. Its finders'
     * backing maps are deleted in the same transaction: maps belong to users, not workspaces,
     * so no cascade reaches them.
     */
    async delete(actor: Actor, id: number): Promise<void> {
      await assertWorkspaceAccess(db, actor, id, { owner: true });
      await db.transaction(async (tx) => {
        const backingMaps = tx
          .select({ id: findersTable.mapId })
          .from(findersTable)
          .where(eq(findersTable.workspaceId, id));
        await tx.delete(mapsTable).where(inArray(mapsTable.id, backingMaps));
        await tx.delete(workspacesTable).where(eq(workspacesTable.id, id));
      });
      await onDeleted?.(id);
    },
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
