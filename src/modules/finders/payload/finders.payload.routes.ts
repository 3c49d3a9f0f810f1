// /ext/finders/details/{key}: the widget payload (GET, PUBLIC, cached, compressed, ETag), the
// same for the dashboard's preview (GET .../preview) and its publishing to object storage
// (POST .../sync, GET .../info, DELETE; members of the finder's workspace). CORS comes from the
// app (any origin; the finder's authorized_urls decide).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendEncoded } from '../../../lib/content-coding.ts';
import { requestOrigin } from '../../../lib/origins.ts';
import { bearerSecurity } from '../../../lib/schemas.ts';
import { guardScope, memberScope } from '../../auth/auth.scope.ts';
import {
  finderKeyParamsSchema,
  finderWidgetPayloadSchema,
  publicationInfoSchema,
  publishResultSchema,
} from './finders.payload.schemas.ts';

/**
 * Browsers may keep the payload but must revalidate each use (a 304 costs no body): a
 * dashboard change shows on the next load, as it does on the server within the same request.
 */
export const DETAILS_CACHE_CONTROL = 'public, no-cache';

export const finderDetailsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.deps.services.finderPayload;

  app.get(
    '/:key',
    {
      schema: {
        tags: ['widget'],
        operationId: 'getFinderPayload',
        summary: "A finder's widget payload (design settings, refinements, locations)",
        description:
          "PUBLIC. The payload of src/widget/types.ts, cached server-side for 60 s and invalidated by any write to what it shows. The finder's authorized_urls apply to the Origin (else Referer). Sent br or gzip by Accept-Encoding, with a strong ETag (304 on If-None-Match).",
        security: [],
        params: finderKeyParamsSchema,
        response: {
          // The bytes as built and cached (compressed once per fill); sent as they are, so
          // this schema describes them and never serializes them.
          200: {
            description: 'The payload (JSON; Content-Encoding by Accept-Encoding)',
            content: { 'application/json': { schema: finderWidgetPayloadSchema } },
          },
          304: z.null().describe('Not modified: If-None-Match holds the current ETag'),
        },
      },
    },
    async (request, reply) => {
      const payload = await service.details(request.params.key, requestOrigin(request.headers));
      reply.header('cache-control', DETAILS_CACHE_CONTROL).type('application/json; charset=utf-8');
      // One strong tag per representation (RFC 9110 §8.8.3); any of them revalidates.
      return sendEncoded(request, reply, payload, { tag: payload.hash, vary: ['Origin'] });
    },
  );
};

export const finderPublishRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.deps.services.finderPayload;
  guardScope(app, memberScope);
  const tags = ['finders'];

  app.post(
    '/:key/sync',
    {
      schema: {
        tags,
        operationId: 'publishFinder',
        summary: "Publish the finder's payload to the CDN",
        description:
          'Builds the payload afresh, stores it as `finders/{key}/v/{sha1}.json` (immutable), then points `finders/{key}/config.json` at it: `{hash, published_at, url}`, `url` relative to the pointer (`v/{sha1}.json`).',
        security: bearerSecurity,
        params: finderKeyParamsSchema,
        response: { 200: publishResultSchema },
      },
    },
    async (request) => {
      const { hash } = await service.publish(memberScope.actor(request), request.params.key);
      return { hash };
    },
  );

  app.get(
    '/:key/preview',
    {
      schema: {
        tags,
        operationId: 'getFinderPreviewPayload',
        summary: "The finder's current widget payload, for the dashboard's preview",
        description:
          "The payload `GET /ext/finders/details/{key}` serves (the current data, never the last publish), for members of the finder's workspace whatever websites the finder lists; the dashboard's finder preview draws it (docs/api.md, Dashboard). Sent br or gzip by Accept-Encoding, with a strong ETag.",
        security: bearerSecurity,
        params: finderKeyParamsSchema,
        response: {
          200: {
            description: 'The payload (JSON; Content-Encoding by Accept-Encoding)',
            content: { 'application/json': { schema: finderWidgetPayloadSchema } },
          },
          304: z.null().describe('Not modified: If-None-Match holds the current ETag'),
        },
      },
    },
    async (request, reply) => {
      const payload = await service.current(memberScope.actor(request), request.params.key);
      reply.type('application/json; charset=utf-8');
      return sendEncoded(request, reply, payload, { tag: payload.hash });
    },
  );

  app.get(
    '/:key/info',
    {
      schema: {
        tags,
        operationId: 'getFinderPublication',
        summary: "The finder's last publish",
        security: bearerSecurity,
        params: finderKeyParamsSchema,
        response: { 200: publicationInfoSchema },
      },
    },
    async (request) => service.info(memberScope.actor(request), request.params.key),
  );

  app.delete(
    '/:key',
    {
      schema: {
        tags,
        operationId: 'unpublishFinder',
        summary: "Remove the finder's published files",
        description:
          'Deletes every file under `finders/{key}/` (pointer and versions) and the publish history.',
        security: bearerSecurity,
        params: finderKeyParamsSchema,
        response: { 204: z.null().describe('Unpublished') },
      },
    },
    async (request, reply) => {
      await service.unpublish(memberScope.actor(request), request.params.key);
      return reply.code(204).send(null);
    },
  );
};
