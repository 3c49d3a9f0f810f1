// Workspaces (docs/api.md, Workspaces): listing what the actor is a member of, the plan limit on
// owned workspaces, owner-only rename and delete, and the delete cascade that the schema alone
// cannot express (finders' backing maps have no workspace column).
import type { Database, Transaction } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Listed, Page } from '../../lib/pagination.ts';
import type { UserRow } from '../users/users.table.ts';
import { assertWorkspaceAccess } from './workspaces.access.ts';
import { createWorkspaceLimitError, createWorkspaceNotFoundError } from './workspaces.errors.ts';
import type { WorkspacesRepository } from './workspaces.repository.ts';
import { toWorkspacePayload } from './workspaces.schemas.ts';
import type { WorkspaceRow } from './workspaces.table.ts';

/**
 * Owned workspaces each plan allows (docs/api.md, Subscription status and tier); custom plans
 * and admins have no limit.
 */
const workspaceLimits: Record<string, number> = { none: 1, free: 1, bronze: 3, premium: 10 };

export function workspaceLimitFor(user: UserRow): number {
  if (user.role === 'admin') return Number.POSITIVE_INFINITY;
  return workspaceLimits[user.subscriptionTier] ?? Number.POSITIVE_INFINITY;
}

interface WorkspacesServiceDeps {
  db: Database;
  workspaces: WorkspacesRepository;
  /**
   * Removes what the workspace published (its finders' files) in the delete's transaction,
   * before the rows go, so the CDN stops serving it; throws when the storage fails, and the
   * workspace stays.
   */
  beforeDelete?: (workspaceId: number, tx: Transaction) => Promise<void>;
  /**
   * Deletes, in the delete's transaction, what belongs to the workspace without a foreign key
   * that cascades from it (its finders' backing maps belong to users).
   */
  deleteAlongside?: (workspaceId: number, tx: Transaction) => Promise<void>;
  /** Best-effort removal of a deleted workspace's stored files (images), after the commit. */
  onDeleted?: (workspaceId: number) => Promise<void>;
}

export function createWorkspacesService({
  db,
  workspaces,
  beforeDelete,
  deleteAlongside,
  onDeleted,
}: WorkspacesServiceDeps) {
  async function find(actor: Actor, id: number): Promise<WorkspaceRow> {
    const row = await workspaces.findAccessible(actor, id);
    if (!row) throw createWorkspaceNotFoundError();
    return row;
  }

  return {
    async list(actor: Actor, page: Page): Promise<Listed<ReturnType<typeof toWorkspacePayload>>> {
      const { rows, total } = await workspaces.list(actor, page);
      return { items: rows.map(toWorkspacePayload), total };
    },

    async get(actor: Actor, id: number) {
      const row = await find(actor, id);
      return { ...toWorkspacePayload(row), members_count: await workspaces.countLiveMembers(id) };
    },

    /** The creator owns the new workspace, within the plan limit (checked under a lock on the user). */
    async create(user: UserRow, name: string) {
      const limit = workspaceLimitFor(user);
      const row = await db.transaction(async (tx) => {
        if (Number.isFinite(limit) && (await workspaces.countOwnedLocking(user.id, tx)) >= limit) {
          throw createWorkspaceLimitError(limit);
        }
        return workspaces.insertWithMember(name, { userId: user.id, role: 'owner' }, tx);
      });
      return toWorkspacePayload(row);
    },

    async rename(actor: Actor, id: number, name: string) {
      await assertWorkspaceAccess(db, actor, id, { owner: true });
      const row = await workspaces.rename(id, name);
      if (!row) throw createWorkspaceNotFoundError();
      return toWorkspacePayload(row);
    },

    /** Deletes the workspace, everything in it and its finders' backing maps, in one transaction. */
    async delete(actor: Actor, id: number): Promise<void> {
      await assertWorkspaceAccess(db, actor, id, { owner: true });
      await db.transaction(async (tx) => {
        await beforeDelete?.(id, tx);
        await deleteAlongside?.(id, tx);
        await workspaces.delete(id, tx);
      });
      await onDeleted?.(id);
    },
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
