// /maps: member routes only. Maps are owner-scoped, not workspace-scoped, so there is no /admin
// mount. Create and update answer validation failures with 400 (docs/api.md, Maps).

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendList } from '../../lib/http.ts';
import { toPage } from '../../lib/pagination.ts';
import { bearerSecurity, idParamsSchema } from '../../lib/schemas.ts';
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

  app.get(
    '/:id',
    {
      schema: {
        tags,
        summary: 'One map the user owns',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: mapSchema },
      },
    },
    async (request) => service.get(memberActor(request), request.params.id),
  );

  app.post(
    '/',
    {
      config: mapBodyConfig,
      schema: {
        tags,
        summary: 'Create a map (owners default to the caller)',
        security: bearerSecurity,
        body: createMapBodySchema,
        response: { 201: mapSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(memberActor(request), request.body)),
  );

  app.put(
    '/:id',
    {
      config: mapBodyConfig,
      schema: {
        tags,
        summary: 'Update a map; a present link list replaces the links (null or [] clears)',
        security: bearerSecurity,
        params: idParamsSchema,
        body: updateMapBodySchema,
        response: { 200: mapSchema },
      },
    },
    async (request) => service.update(memberActor(request), request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete a map; finders backed by it keep living without it',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.delete(memberActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
