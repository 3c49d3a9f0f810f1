// GET /users, GET/PUT/DELETE /users/{id}: user management for admins (docs/api.md,
// "Admin: users and audit logs").

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { renderWith, sendStreamedList } from '../../../lib/http.ts';
import { toPage } from '../../../lib/pagination.ts';
import { bearerSecurity, idParamsSchema } from '../../../lib/schemas.ts';
import { requireRole } from '../../auth/auth.guards.ts';
import {
  adminUserPayloadSchema,
  adminUsersQuerySchema,
  updateUserBodySchema,
  userDeletedSchema,
} from './users.admin.schemas.ts';

const tags = ['admin users'];

export const adminUsersRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.deps.services.adminUsers;
  app.addHook('onRequest', app.authenticate);
  // The role check runs before validation: a non-admin gets 403, never a 422 about the body.
  app.addHook('preValidation', requireRole('admin'));

  app.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'Users, filtered by name or email (q), role and subscription; ordered by id',
        security: bearerSecurity,
        querystring: adminUsersQuerySchema,
        response: { 200: z.array(adminUserPayloadSchema) },
      },
    },
    async (request, reply) =>
      sendStreamedList(
        reply,
        await service.streamList(request.query, toPage(request.query)),
        renderWith(adminUserPayloadSchema),
      ),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'One user (not deleted)',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: adminUserPayloadSchema },
      },
    },
    async (request) => service.get(request.params.id),
  );

  app.put(
    '/users/:id',
    {
      schema: {
        tags,
        summary: "Edit a user's name, email, role or subscription (the last admin keeps the role)",
        security: bearerSecurity,
        params: idParamsSchema,
        body: updateUserBodySchema,
        response: { 200: adminUserPayloadSchema },
      },
    },
    async (request) => service.update(request.params.id, request.body),
  );

  app.delete(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'Soft-delete a user and revoke every session (never the last admin)',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: userDeletedSchema },
      },
    },
    async (request) => {
      await service.delete(request.params.id);
      return { message: 'User deleted.' };
    },
  );
};
