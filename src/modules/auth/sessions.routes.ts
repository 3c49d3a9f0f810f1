// GET /me/sessions, DELETE /me/sessions (every other session), DELETE /me/sessions/{id}.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity, idParamsSchema } from '../../lib/schemas.ts';

import { requireAuth } from './auth.plugin.ts';
import { revokedCountSchema, sessionSchema } from './sessions/sessions.schemas.ts';

export const sessionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.deps.services.sessions;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/me/sessions',
    {
      schema: {
        tags: ['account'],
        summary: 'Live sessions of the signed-in user, newest first',
        security: bearerSecurity,
        response: { 200: z.array(sessionSchema) },
      },
    },
    async (request) => service.list(requireAuth(request)),
  );

  app.delete(
    '/me/sessions',
    {
      schema: {
        tags: ['account'],
        summary: 'Revoke every session except the current one',
        security: bearerSecurity,
        response: { 200: revokedCountSchema },
      },
    },
    async (request) => service.revokeOthers(requireAuth(request)),
  );

  app.delete(
    '/me/sessions/:id',
    {
      schema: {
        tags: ['account'],
        summary: 'Revoke one session (the current one included)',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.revoke(requireAuth(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
