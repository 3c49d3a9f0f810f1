// How a workspace-content route plugin is mounted: for members at /x and for admins at /admin/x
// (docs/api.md, Routes). The same plugin runs with a different actor and guard, so the admin area
// cannot drift from what members see. Who may reach which rows is decided in the data layer
// (src/modules/workspaces/workspaces.access.ts); this file only says who the request acts for.
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Actor } from '../../lib/actor.ts';
import { requireRole } from './auth.guards.ts';
import { requireAuth } from './auth.plugin.ts';

export const memberActor = (request: FastifyRequest): Actor => ({
  userId: requireAuth(request).user.id,
  allWorkspaces: false,
});

/** Admin routes: role admin was checked by the route's guard. */
export const adminActor = (request: FastifyRequest): Actor => ({
  userId: requireAuth(request).user.id,
  allWorkspaces: true,
});

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
