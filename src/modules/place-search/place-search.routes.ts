// GET /mapping/autocomplete and GET /mapping/places (docs/api.md, Autocomplete and places routes):
// PUBLIC, called by the widget from the customer's page. The finder's token names the finder; its
// authorized_urls apply as on the payload route (these calls spend the customer's provider key). 30
// requests a minute per IP across both routes. Query strings stay out of the logs: they hold what
// visitors type.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pathOnlyLogSerializers } from '../../lib/http.ts';
import { requestOrigin } from '../../lib/origins.ts';
import { PLACE_SEARCH_LIMIT, sharedRateLimit } from '../../plugins/rate-limit.ts';
import {
  autocompleteQuerySchema,
  autocompleteResponseSchema,
  placeQuerySchema,
  placeResponseSchema,
} from './place-search.schemas.ts';

export const placeSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.deps.services.placeSearch;
  const limit = sharedRateLimit(app, PLACE_SEARCH_LIMIT);
  const tags = ['widget'];

  app.get(
    '/autocomplete',
    {
      onRequest: limit,
      logSerializers: pathOnlyLogSerializers,
      schema: {
        tags,
        operationId: 'autocompletePlaces',
        summary: "Place suggestions for the widget's search box, from the finder's provider",
        description:
          'PUBLIC. The provider is the one the finder is configured with (its settings key `autocomplete_provider`, else its most recently updated integration, else Photon); pass the answered `provider` on to GET /mapping/places. 30 requests a minute per IP, shared with GET /mapping/places.',
        security: [],
        querystring: autocompleteQuerySchema,
        response: { 200: autocompleteResponseSchema },
      },
    },
    async (request) => {
      const { q, finder_key, lat, lng, country, language, session_token } = request.query;
      return service.autocomplete(
        { finderKey: finder_key, origin: requestOrigin(request.headers), signal: request.signal },
        { q, lat, lng, country, language, sessionToken: session_token },
      );
    },
  );

  app.get(
    '/places',
    {
      onRequest: limit,
      logSerializers: pathOnlyLogSerializers,
      schema: {
        tags,
        operationId: 'getPlace',
        summary: 'The position and address of a suggestion chosen in the widget',
        description:
          "PUBLIC. `provider` is the one GET /mapping/autocomplete answered: the finder's provider, or `photon`. 30 requests a minute per IP, shared with GET /mapping/autocomplete.",
        security: [],
        querystring: placeQuerySchema,
        response: { 200: placeResponseSchema },
      },
    },
    async (request) => {
      const { place_id, provider, finder_key, language, session_token } = request.query;
      return service.place(
        { finderKey: finder_key, origin: requestOrigin(request.headers), signal: request.signal },
        provider,
        { placeId: place_id, language, sessionToken: session_token },
      );
    },
  );
};
