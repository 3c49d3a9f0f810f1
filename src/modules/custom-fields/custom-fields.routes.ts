// /custom-field-definitions (members of the workspace) and its admin mount (role admin, every
// workspace). `/reorder` is a static path, so the router never hands it to `/:id`.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendList } from '../../lib/http.ts';
import { registerItemRoutes } from '../../lib/item-routes.ts';
import { toPage } from '../../lib/pagination.ts';
import { bearerSecurity } from '../../lib/schemas.ts';
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

  registerItemRoutes(app, {
    tags,
    caller: scope.actor,
    schema: customFieldSchema,
    bodies: { create: createCustomFieldBodySchema, update: updateCustomFieldBodySchema },
    summaries: {
      get: 'One definition',
      create: 'Create a definition, placed last in the workspace order',
      update: 'Change label, type, options or required; stored location values are not migrated',
      delete: 'Delete a definition; location values under its name stay, orphaned',
    },
    get: (caller, id) => service.get(caller, id),
    create: (caller, body) => service.create(caller, body),
    update: (caller, id, body) => service.update(caller, id, body),
    delete: (caller, id) => service.delete(caller, id),
  });
};
