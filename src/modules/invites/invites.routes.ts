// POST /invite/send (role admin), GET and POST /register/{token} (public).

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientInfo } from '../../lib/http.ts';
import { bearerSecurity } from '../../lib/schemas.ts';
import { requireRole } from '../auth/auth.guards.ts';
import { requireAuth } from '../auth/auth.plugin.ts';
import { tokenResponseSchema } from '../auth/auth.schemas.ts';
import {
  inviteBodySchema,
  invitePreviewSchema,
  inviteRegisterBodySchema,
  inviteSchema,
  inviteTokenParamsSchema,
} from './invites.schemas.ts';

export const invitesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { invites } = app.deps.services;

  app.post(
    '/invite/send',
    {
      onRequest: [app.authenticate],
      // Before validation, so a non-admin gets 403 whatever the body.
      preValidation: [requireRole('admin')],
      schema: {
        tags: ['auth'],
        summary: 'Invite an email into a workspace (admin); mails a registration link',
        security: bearerSecurity,
        body: inviteBodySchema,
        response: {
          201: inviteSchema,
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await invites.send(requireAuth(request).user, request.body)),
  );

  app.get(
    '/register/:token',
    {
      schema: {
        tags: ['auth'],
        summary: 'The invite behind a registration link',
        params: inviteTokenParamsSchema,
        response: { 200: invitePreviewSchema },
      },
    },
    async (request) => invites.preview(request.params.token),
  );

  app.post(
    '/register/:token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account through an invite and join its workspace',
        params: inviteTokenParamsSchema,
        body: inviteRegisterBodySchema,
        response: { 201: tokenResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await invites.register(request.params.token, request.body, clientInfo(request))),
  );
};
