// Every route plugin of the API, mounted under /api by buildApp.
import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { meRoutes } from './modules/users/me.routes.ts';

export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes);
  await app.register(meRoutes);
};
