// /maps: member routes only. Maps are owner-scoped, not workspace-scoped, so there is no /admin
// mount. Create and update answer validation failures with 400 (docs/api.md, Maps).

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendList } from '../../lib/http.ts';
import { registerItemRoutes } from '../../lib/item-routes.ts';
import { toPage } from '../../lib/pagination.ts';
import { bearerSecurity } from '../../lib/schemas.ts';
import { memberActor } from '../auth/auth.scope.ts';
import { createMapBodySchema, listMapsQuerySchema, mapSchema, updateMapBodySchema } from './maps.schemas.ts';

/** A map body that fails validation answers 400, not 422 (docs/api.md, Maps). */
const mapBodyConfig = { validationStatus: 400 } as const;

export const mapsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.deps.services.maps;
  app.addHook('onRequest', app.authenticate);
  const tags = ['maps'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Maps the user owns, optionally only those linked to a workspace',
        security: bearerSecurity,
        querystring: listMapsQuerySchema,
        response: { 200: z.array(mapSchema) },
      },
    },
    async (request, reply) =>
      sendList(
        reply,
        await service.list(
          memberActor(request),
          { workspaceId: request.query.workspace_id },
          toPage(request.query),
        ),
      ),
  );

  registerItemRoutes(app, {
    tags,
    caller: memberActor,
    schema: mapSchema,
    bodies: { create: createMapBodySchema, update: updateMapBodySchema },
    summaries: {
      get: 'One map the user owns',
      create: 'Create a map (owners default to the caller)',
      update: 'Update a map; a present link list replaces the links (null or [] clears)',
      delete: 'Delete a map; finders backed by it keep living without it',
    },
    bodyConfig: mapBodyConfig,
    get: (caller, id) => service.get(caller, id),
    create: (caller, body) => service.create(caller, body),
    update: (caller, id, body) => service.update(caller, id, body),
    delete: (caller, id) => service.delete(caller, id),
  });
};
