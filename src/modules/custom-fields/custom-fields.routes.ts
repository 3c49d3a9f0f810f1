// /custom-field-definitions (members of the workspace) and its admin mount (role admin, every
// workspace). `/reorder` is a static path, so the router never hands it to `/:id`.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendList } from '../../lib/http.ts';
import { toPage } from '../../lib/pagination.ts';
import { bearerSecurity, idParamsSchema } from '../../lib/schemas.ts';
import { guardScope, type RouteScope } from '../auth/auth.scope.ts';
import { workspaceListQuerySchema } from '../workspaces/workspaces.schemas.ts';
import {
  createCustomFieldBodySchema,
  customFieldSchema,
  reorderBodySchema,
  updateCustomFieldBodySchema,
} from './custom-fields.schemas.ts';

export const customFieldsRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const service = app.deps.services.customFields;
  guardScope(app, scope);
  const tags = [`${scope.tag}custom field definitions`];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Definitions, ordered by workspace, sort_order and id',
        security: bearerSecurity,
        querystring: workspaceListQuerySchema,
        response: { 200: z.array(customFieldSchema) },
      },
    },
    async (request, reply) =>
      sendList(
        reply,
        await service.list(scope.actor(request), request.query.workspace_id, toPage(request.query)),
      ),
  );

  app.post(
    '/reorder',
    {
      schema: {
        tags,
        summary: 'Set the order of every definition of one workspace (sort_order 0..n-1), atomically',
        security: bearerSecurity,
        body: reorderBodySchema,
        response: { 200: z.array(customFieldSchema) },
      },
    },
    async (request) => service.reorder(scope.actor(request), request.body.ids),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        summary: 'One definition',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: customFieldSchema },
      },
    },
    async (request) => service.get(scope.actor(request), request.params.id),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a definition, placed last in the workspace order',
        security: bearerSecurity,
        body: createCustomFieldBodySchema,
        response: { 201: customFieldSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(scope.actor(request), request.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Change label, type, options or required; stored location values are not migrated',
        security: bearerSecurity,
        params: idParamsSchema,
        body: updateCustomFieldBodySchema,
        response: { 200: customFieldSchema },
      },
    },
    async (request) => service.update(scope.actor(request), request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete a definition; location values under its name stay, orphaned',
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
