// POST /locations/bulk (members of the workspace) and /admin/locations/bulk (role admin): one
// action over many locations of a workspace (docs/api.md, Locations: bulk changes).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerSecurity } from '../../../lib/schemas.ts';
import { guardScope, type RouteScope } from '../../auth/auth.scope.ts';
import {
  bulkLocationsBodySchema,
  bulkLocationsResultSchema,
  MAX_BULK_IDS,
  MAX_BULK_LOCATIONS,
} from './locations.bulk.schemas.ts';

export const locationBulkRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const service = app.deps.services.locationBulk;
  guardScope(app, scope);

  app.post(
    '/bulk',
    {
      schema: {
        tags: [`${scope.tag}locations`],
        summary:
          'Delete, tag, untag, add to a set or take out of a set many locations of a workspace at once',
        description: `The locations are named by \`ids\` (at most ${MAX_BULK_IDS.toLocaleString('en')}) or selected by \`filter\` as GET /locations would list them (at most ${MAX_BULK_LOCATIONS.toLocaleString('en')}). One transaction: an id that is not a location of the workspace, or a tag or set of another workspace, answers 404 and changes nothing. \`affected\` counts the locations the action changed.`,
        security: bearerSecurity,
        body: bulkLocationsBodySchema,
        response: { 200: bulkLocationsResultSchema },
      },
    },
    async (request) => service.apply(scope.actor(request), request.body),
  );
};
