// /locations (members of the workspace) and /admin/locations (role admin): CRUD and listing.
// Images and CSV import have their own route files in this folder.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendStreamedList } from '../../lib/http.ts';
import { toPage } from '../../lib/pagination.ts';
import { bearerSecurity, idParamsSchema } from '../../lib/schemas.ts';
import { guardScope, type RouteScope } from '../auth/auth.scope.ts';
import {
  createLocationBodySchema,
  listLocationsQuerySchema,
  locationSchema,
  updateLocationBodySchema,
} from './locations.schemas.ts';

export const locationsRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const service = app.deps.services.locations;
  guardScope(app, scope);
  const tags = [`${scope.tag}locations`];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Locations the caller can reach, optionally of one workspace or one finder',
        security: bearerSecurity,
        querystring: listLocationsQuerySchema,
        response: { 200: z.array(locationSchema) },
      },
    },
    async (request, reply) => {
      const { limit, offset, ...filter } = request.query;
      return sendStreamedList(
        reply,
        await service.streamList(scope.actor(request), filter, toPage({ limit, offset })),
      );
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        summary: 'One location with its tags, sets and custom fields',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: locationSchema },
      },
    },
    async (request) => service.get(scope.actor(request), request.params.id),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a location',
        security: bearerSecurity,
        body: createLocationBodySchema,
        response: { 201: locationSchema },
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
        summary: 'Update a location (partial)',
        security: bearerSecurity,
        params: idParamsSchema,
        body: updateLocationBodySchema,
        response: { 200: locationSchema },
      },
    },
    async (request) => service.update(scope.actor(request), request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete a location',
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
