// /locations (members of the workspace) and /admin/locations (role admin): CRUD and listing.
// Images and CSV import have their own route files in this folder.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendStreamedList } from '../../lib/http.ts';
import { registerItemRoutes } from '../../lib/item-routes.ts';
import { toPage } from '../../lib/pagination.ts';
import { bearerSecurity } from '../../lib/schemas.ts';
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

  registerItemRoutes(app, {
    tags,
    caller: scope.actor,
    schema: locationSchema,
    bodies: { create: createLocationBodySchema, update: updateLocationBodySchema },
    summaries: {
      get: 'One location with its tags, sets and custom fields',
      create: 'Create a location',
      update: 'Update a location (partial)',
      delete: 'Delete a location',
    },
    get: (caller, id) => service.get(caller, id),
    create: (caller, body) => service.create(caller, body),
    update: (caller, id, body) => service.update(caller, id, body),
    delete: (caller, id) => service.delete(caller, id),
  });
};
