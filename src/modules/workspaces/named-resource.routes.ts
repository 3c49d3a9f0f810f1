// The five routes of a named resource inside a workspace (sets, tags): list, show, create
// `{name, workspace_id}`, rename `{name}`, delete. One plugin factory, so the two resources
// cannot drift apart; each module supplies its output schema, service and wording.

import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { renderWith, sendStreamedList } from '../../lib/http.ts';
import { registerItemRoutes } from '../../lib/item-routes.ts';
import { toPage } from '../../lib/pagination.ts';
import { bearerSecurity } from '../../lib/schemas.ts';
import { guardScope, type RouteScope } from '../auth/auth.scope.ts';
import {
  createNamedBodySchema,
  type NamedResourceService,
  renameBodySchema,
} from './named-resource.schemas.ts';
import { workspaceListQuerySchema } from './workspaces.schemas.ts';

export interface NamedResource {
  /** Plural, lower case: the OpenAPI tag ("sets"). */
  plural: string;
  /** The output of one resource. */
  schema: z.ZodType;
  /** Picks the resource's service from the app's (typed where app.ts declares `deps`). */
  service: (services: FastifyInstance['deps']['services']) => NamedResourceService;
  summaries: { list: string; get: string; create: string; rename: string; delete: string };
}

export function namedResourceRoutes(resource: NamedResource): FastifyPluginAsyncZod<{ scope: RouteScope }> {
  return async (app, { scope }) => {
    const service = resource.service(app.deps.services);
    guardScope(app, scope);
    const tags = [`${scope.tag}${resource.plural}`];
    const { summaries } = resource;

    app.get(
      '/',
      {
        schema: {
          tags,
          summary: scope.admin ? `${summaries.list}, of every workspace` : summaries.list,
          security: bearerSecurity,
          querystring: workspaceListQuerySchema,
          response: { 200: z.array(resource.schema) },
        },
      },
      async (request, reply) =>
        sendStreamedList(
          reply,
          await service.streamList(scope.actor(request), request.query.workspace_id, toPage(request.query)),
          renderWith(resource.schema),
        ),
    );

    registerItemRoutes(app, {
      tags,
      caller: scope.actor,
      schema: resource.schema,
      bodies: { create: createNamedBodySchema, update: renameBodySchema },
      summaries: {
        get: summaries.get,
        create: summaries.create,
        update: summaries.rename,
        delete: summaries.delete,
      },
      get: (caller, id) => service.get(caller, id),
      create: (caller, body) => service.create(caller, body),
      update: (caller, id, body) => service.rename(caller, id, body.name),
      delete: (caller, id) => service.delete(caller, id),
    });
  };
}
