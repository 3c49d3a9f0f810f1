// The signed-in user's own account: GET /me.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerSecurity, errorResponseSchema } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { toUserPayload, userPayloadSchema } from './users.schemas.ts';

export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/me',
    {
      schema: {
        tags: ['account'],
        summary: 'The signed-in user',
        security: bearerSecurity,
        response: { 200: userPayloadSchema, 401: errorResponseSchema },
      },
    },
    async (request) => toUserPayload(requireAuth(request).user),
  );
};
