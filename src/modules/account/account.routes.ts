// The signed-in user's own account: GET /me, PUT /me, DELETE /me.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerSecurity } from '../../lib/schemas.ts';

import { requireAuth } from '../auth/auth.plugin.ts';
import { toUserPayload, userPayloadSchema } from '../users/users.schemas.ts';
import { accountDeletedSchema, deleteMeBodySchema, updateMeBodySchema } from './account.schemas.ts';

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { account } = app.deps.services;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/me',
    {
      schema: {
        tags: ['account'],
        summary: 'The signed-in user',
        security: bearerSecurity,
        response: { 200: userPayloadSchema },
      },
    },
    async (request) => toUserPayload(requireAuth(request).user),
  );

  app.put(
    '/me',
    {
      schema: {
        tags: ['account'],
        summary: 'Update name, email or password (email and password need current_password)',
        security: bearerSecurity,
        body: updateMeBodySchema,
        response: { 200: userPayloadSchema },
      },
    },
    async (request) => account.update(requireAuth(request), request.body),
  );

  app.delete(
    '/me',
    {
      schema: {
        tags: ['account'],
        summary: "Delete the account (password and confirmation 'DELETE MY ACCOUNT')",
        security: bearerSecurity,
        body: deleteMeBodySchema,
        response: { 200: accountDeletedSchema },
      },
    },
    async (request) => account.delete(requireAuth(request), request.body),
  );
};
