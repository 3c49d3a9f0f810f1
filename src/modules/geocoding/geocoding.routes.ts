// /workspaces/{id}/geocoding (docs/api.md, Geocoding): how many of a workspace's locations wait
// for coordinates and why, and starting the geocoding job again. Members only; another user's
// workspace answers 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerSecurity, idParamsSchema } from '../../lib/schemas.ts';
import { requireTier } from '../auth/auth.guards.ts';
import { guardScope, type RouteScope } from '../auth/auth.scope.ts';
import { geocodingStateSchema, startGeocodingBodySchema } from './geocoding.schemas.ts';

export const geocodingRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const service = app.deps.services.geocoding;
  guardScope(app, scope, scope.admin ? [] : [requireTier('free')]);
  const tags = [`${scope.tag}workspaces`];

  app.get(
    '/:id/geocoding',
    {
      schema: {
        tags,
        summary: 'Locations waiting for coordinates, by geocoding status, and the running job',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: geocodingStateSchema },
      },
    },
    async (request) => service.get(scope.actor(request), request.params.id),
  );

  app.post(
    '/:id/geocoding',
    {
      schema: {
        tags,
        summary: 'Start geocoding again (the statuses in `retry` are looked up again)',
        security: bearerSecurity,
        params: idParamsSchema,
        body: startGeocodingBodySchema.optional(),
        response: { 202: geocodingStateSchema },
      },
    },
    async (request, reply) => {
      const retry = [...new Set(request.body?.retry ?? ['failed' as const])];
      return reply.status(202).send(await service.start(scope.actor(request), request.params.id, retry));
    },
  );
};
