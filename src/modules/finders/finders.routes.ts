// /finders (members of the finder's workspace) and /admin/finders (role admin, every
// workspace): CRUD, lookup by public token, and the finder's provider keys.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendList } from '../../lib/http.ts';
import { registerItemRoutes } from '../../lib/item-routes.ts';
import { toPage } from '../../lib/pagination.ts';
import { bearerSecurity, idParamsSchema } from '../../lib/schemas.ts';
import { guardScope, type RouteScope } from '../auth/auth.scope.ts';
import { workspaceListQuerySchema } from '../workspaces/workspaces.schemas.ts';
import {
  createFinderBodySchema,
  finderSchema,
  finderTokenParamsSchema,
  integrationBodySchema,
  integrationParamsSchema,
  integrationSchema,
  updateFinderBodySchema,
} from './finders.schemas.ts';

export const findersRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const service = app.deps.services.finders;
  const integrations = app.deps.services.finderIntegrations;
  guardScope(app, scope);
  const tags = [`${scope.tag}finders`];
  const anyWorkspace = scope.admin ? ' (any workspace)' : '';

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: scope.admin
          ? 'Finders of every workspace, optionally of one'
          : 'Finders of the workspaces the user is a member of, optionally of one',
        security: bearerSecurity,
        querystring: workspaceListQuerySchema,
        response: { 200: z.array(finderSchema) },
      },
    },
    async (request, reply) =>
      sendList(
        reply,
        await service.list(scope.actor(request), request.query.workspace_id, toPage(request.query)),
      ),
  );

  app.get(
    '/token/:token',
    {
      schema: {
        tags,
        operationId: scope.admin ? 'getAdminFinderByToken' : 'getFinderByToken',
        summary: `One finder by its public widget token${anyWorkspace}`,
        security: bearerSecurity,
        params: finderTokenParamsSchema,
        response: { 200: finderSchema },
      },
    },
    async (request) => service.getByToken(scope.actor(request), request.params.token),
  );

  registerItemRoutes(app, {
    tags,
    caller: scope.actor,
    schema: finderSchema,
    bodies: { create: createFinderBodySchema, update: updateFinderBodySchema },
    summaries: {
      get: `One finder with its settings, refinements, authorized URLs, locations and map${anyWorkspace}`,
      create: 'Create a finder (with its token and a paired map of the same name) in a workspace',
      update: 'Update a finder; each list given replaces the stored one (locations wholesale)',
      delete: 'Delete a finder and its paired map',
    },
    get: (caller, id) => service.get(caller, id),
    create: (caller, body) => service.create(caller, body),
    update: (caller, id, body) => service.update(caller, id, body),
    delete: (caller, id) => service.delete(caller, id),
  });

  app.get(
    '/:id/integrations',
    {
      schema: {
        tags,
        summary: `Every autocomplete provider, with whether the finder holds its key${anyWorkspace}`,
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: z.array(integrationSchema) },
      },
    },
    async (request) => integrations.list(scope.actor(request), request.params.id),
  );

  app.put(
    '/:id/integrations/:provider',
    {
      schema: {
        tags,
        summary: "Store (or replace) the finder's key for a provider, encrypted; the key is never returned",
        security: bearerSecurity,
        params: integrationParamsSchema,
        body: integrationBodySchema,
        response: { 200: integrationSchema },
      },
    },
    async (request) =>
      integrations.put(
        scope.actor(request),
        request.params.id,
        request.params.provider,
        request.body.api_key,
      ),
  );

  app.delete(
    '/:id/integrations/:provider',
    {
      schema: {
        tags,
        summary: "Remove the finder's key for a provider",
        security: bearerSecurity,
        params: integrationParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await integrations.delete(scope.actor(request), request.params.id, request.params.provider);
      return reply.status(204).send(null);
    },
  );
};
