// Who may see what inside workspaces (decisions §5). Membership decides access to everything a
// workspace holds; anything outside answers 404, exactly like a missing id (decisions §2).
// Every workspace-scoped query filters through `accessibleWorkspace`, so the rule lives here.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Executor } from '../../db/client.ts';
import { createForbiddenError, createNotFoundError } from '../../lib/errors.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { requireRole } from '../../plugins/guards.ts';
import { type MemberRole, workspaceMembersTable, workspacesTable } from './workspaces.table.ts';

/** The user a request acts for, and whether it acts across every workspace (the /admin routes). */
export interface Actor {
  userId: number;
  allWorkspaces: boolean;
}

export const memberActor = (request: FastifyRequest): Actor => ({
  userId: requireAuth(request).user.id,
  allWorkspaces: false,
});

/** Admin routes: role admin was checked by the route's guard. */
export const adminActor = (request: FastifyRequest): Actor => ({
  userId: requireAuth(request).user.id,
  allWorkspaces: true,
});

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

export const createWorkspaceNotFoundError = () => createNotFoundError('Workspace not found.');

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

/**
 * How a route plugin is mounted: the member routes (/sets, /tags, ...) and the admin routes
 * (/admin/sets, ...) are the same plugin with a different actor and guard, so the admin area
 * cannot drift from what members see.
 */
export interface RouteScope {
  admin: boolean;
  actor: (request: FastifyRequest) => Actor;
  /** The admin role guard, run at preValidation (after `authenticate`): a 403 comes before any 422. */
  guards: preHandlerAsyncHookHandler[];
  /** OpenAPI tag prefix. */
  tag: string;
}

export const memberScope: RouteScope = { admin: false, actor: memberActor, guards: [], tag: '' };
export const adminScope: RouteScope = {
  admin: true,
  actor: adminActor,
  guards: [requireRole('admin')],
  tag: 'admin ',
};

/**
 * The hooks every scoped route plugin starts with: the token checks, then the scope's guards
 * before validation, so a 403 comes before any 422.
 */
export function guardScope(
  app: FastifyInstance,
  scope: RouteScope,
  extra: preHandlerAsyncHookHandler[] = [],
) {
  app.addHook('onRequest', app.authenticate);
  for (const guard of [...scope.guards, ...extra]) app.addHook('preValidation', guard);
}
