// /workspaces (members, behind `subscription_tier:free`) and /admin/workspaces (role admin).

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendList } from '../../lib/http.ts';
import { paginationQuerySchema, toPage } from '../../lib/pagination.ts';
import { bearerSecurity, idParamsSchema } from '../../lib/schemas.ts';
import { requireTier } from '../auth/auth.guards.ts';
import { requireAuth } from '../auth/auth.plugin.ts';
import { guardScope, type RouteScope } from '../auth/auth.scope.ts';
import { workspaceBodySchema, workspaceDetailSchema, workspaceSchema } from './workspaces.schemas.ts';

export const workspacesRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const service = app.deps.services.workspaces;
  const { admin } = scope;
  // Members need a paid plan (`subscription_tier:free`; docs/api.md, Authentication); the admin
  // area needs the role.
  guardScope(app, scope, admin ? [] : [requireTier('free')]);
  const tags = [`${scope.tag}workspaces`];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: admin ? 'Every workspace' : 'Workspaces the user is a member of',
        security: bearerSecurity,
        querystring: paginationQuerySchema,
        response: { 200: z.array(workspaceSchema) },
      },
    },
    async (request, reply) =>
      sendList(reply, await service.list(scope.actor(request), toPage(request.query))),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        summary: 'One workspace with its member count',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: workspaceDetailSchema },
      },
    },
    async (request) => service.get(scope.actor(request), request.params.id),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a workspace owned by the caller (within the plan limit)',
        security: bearerSecurity,
        body: workspaceBodySchema,
        response: { 201: workspaceSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(requireAuth(request).user, request.body.name)),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Rename a workspace (owner)',
        security: bearerSecurity,
        params: idParamsSchema,
        body: workspaceBodySchema,
        response: { 200: workspaceSchema },
      },
    },
    async (request) => service.rename(scope.actor(request), request.params.id, request.body.name),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete a workspace and everything in it (owner)',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.delete(scope.actor(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
