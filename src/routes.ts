// Every route plugin of the API, mounted under /api by buildApp. Workspace content is mounted
// twice: for members, and under /admin for admins acting across every workspace.
import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { meRoutes } from './modules/users/me.routes.ts';
import { adminScope, memberScope } from './modules/workspaces/workspaces.access.ts';
import { workspacesRoutes } from './modules/workspaces/workspaces.routes.ts';

export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes);
  await app.register(meRoutes);

  await app.register(workspacesRoutes, { prefix: '/workspaces', scope: memberScope });
  await app.register(workspacesRoutes, { prefix: '/admin/workspaces', scope: adminScope });
};
