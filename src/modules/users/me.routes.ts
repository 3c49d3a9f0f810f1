// The signed-in user's own account: GET /me.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth.ts';
import { toUserPayload, userPayloadSchema } from './users.schemas.ts';

export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/me',
    { schema: { tags: ['account'], summary: 'The signed-in user', response: { 200: userPayloadSchema } } },
    async (request) => toUserPayload(requireAuth(request).user),
  );
};
