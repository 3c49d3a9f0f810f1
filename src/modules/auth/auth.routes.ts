// POST /register, POST /login, POST /login/2fa, POST /logout.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientInfo } from '../../lib/http.ts';
import { bearerSecurity } from '../../lib/schemas.ts';
import { requireAuth } from './auth.plugin.ts';
import {
  loginBodySchema,
  loginResponseSchema,
  loginTwoFactorBodySchema,
  registerBodySchema,
  tokenResponseSchema,
} from './auth.schemas.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth } = app.deps.services;

  app.post(
    '/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account',
        body: registerBodySchema,
        response: { 201: tokenResponseSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await auth.register(request.body, clientInfo(request))),
  );

  app.post(
    '/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with email and password',
        body: loginBodySchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request) => auth.login(request.body, clientInfo(request)),
  );

  app.post(
    '/login/2fa',
    {
      schema: {
        tags: ['auth'],
        summary: 'Complete a login with a TOTP code, the mailed code or a recovery code',
        body: loginTwoFactorBodySchema,
        response: {
          200: tokenResponseSchema,
        },
      },
    },
    async (request) => auth.completeLogin(request.body, clientInfo(request)),
  );

  app.post(
    '/logout',
    {
      onRequest: [app.authenticate],
      schema: {
        tags: ['auth'],
        summary: 'Revoke the current token',
        security: bearerSecurity,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await auth.logout(requireAuth(request));
      return reply.status(204).send(null);
    },
  );
};
