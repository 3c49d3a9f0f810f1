// Who may see what inside workspaces (docs/api.md, Conventions). Membership decides access to
// everything a workspace holds; anything outside answers 404, exactly like a missing id. Every
// workspace-scoped query filters through `accessibleWorkspace`, so the rule lives here. Data access
// only: how routes are mounted for members and admins is src/modules/auth/auth.scope.ts.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { createForbiddenError } from '../../lib/errors.ts';
import { createWorkspaceNotFoundError } from './workspaces.errors.ts';
import { type MemberRole, workspaceMembersTable, workspacesTable } from './workspaces.table.ts';

/** A condition that `column` (a workspace id) names a workspace the actor may reach. */
export function accessibleWorkspace(column: AnyPgColumn | SQL, actor: Actor): SQL {
  if (actor.allWorkspaces) return sql`true`;
  return sql`${column} in (select ${workspaceMembersTable.workspaceId} from ${workspaceMembersTable} where ${workspaceMembersTable.userId} = ${actor.userId})`;
}

/**
 * Rows of a list: in a workspace the actor may reach and, when the caller named one with
 * `?workspace_id=`, in that workspace only.
 */
export function listedWorkspace(column: AnyPgColumn, actor: Actor, workspaceId: number | undefined): SQL {
  return and(
    accessibleWorkspace(column, actor),
    workspaceId === undefined ? undefined : eq(column, workspaceId),
  )!;
}

/** The actor's role in the workspace; undefined when they are not a member. */
export async function memberRole(
  db: Executor,
  userId: number,
  workspaceId: number,
): Promise<MemberRole | undefined> {
  const [row] = await db
    .select({ role: workspaceMembersTable.role })
    .from(workspaceMembersTable)
    .where(and(eq(workspaceMembersTable.workspaceId, workspaceId), eq(workspaceMembersTable.userId, userId)));
  return row?.role;
}

/**
 * Throws 404 unless the actor may work inside the workspace (and the workspace exists: admins
 * get the same 404 for a missing one). With `owner`, a member who is not an owner gets 403:
 * they can see the workspace, so hiding it would be a lie.
 */
export async function assertWorkspaceAccess(
  db: Executor,
  actor: Actor,
  workspaceId: number,
  options: { owner?: boolean } = {},
): Promise<void> {
  if (actor.allWorkspaces) {
    const [row] = await db
      .select({ id: workspacesTable.id })
      .from(workspacesTable)
      .where(eq(workspacesTable.id, workspaceId));
    if (!row) throw createWorkspaceNotFoundError();
    return;
  }
  const role = await memberRole(db, actor.userId, workspaceId);
  if (!role) throw createWorkspaceNotFoundError();
  if (options.owner && role !== 'owner') {
    throw createForbiddenError('Only an owner of the workspace may do this.');
  }
}
