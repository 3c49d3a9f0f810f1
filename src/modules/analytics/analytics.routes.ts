// POST /analytics (PUBLIC, the widget's events) and GET /finders/{id}/analytics (members of the
// finder's workspace, and admins at /admin/finders/{id}/analytics).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestOrigin } from '../../lib/origins.ts';
import { bearerSecurity, idParamsSchema } from '../../lib/schemas.ts';
import { addJsonBodyParser } from '../../plugins/json-body.ts';
import { ANALYTICS_LIMIT, clientAddress, sharedRateLimit } from '../../plugins/rate-limit.ts';
import { guardScope, type RouteScope } from '../auth/auth.scope.ts';
import {
  analyticsBodySchema,
  analyticsReceivedSchema,
  analyticsReportQuerySchema,
  analyticsReportSchema,
} from './analytics.schemas.ts';
import { EVENTS_PER_HOUR } from './analytics.service.ts';

/**
 * The widget posts with navigator.sendBeacon and a text/plain Blob (a CORS-safelisted type: no
 * preflight), so this plugin, and only it, reads text/plain bodies as JSON too. The parser is
 * the app's JSON parser (src/plugins/json-body.ts: prototype poisoning and deep nesting refused,
 * an empty body is no body).
 */
export const analyticsIngestRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.deps.services.analytics;
  addJsonBodyParser(app, 'text/plain');

  app.post(
    '/',
    {
      onRequest: sharedRateLimit(app, ANALYTICS_LIMIT),
      schema: {
        tags: ['widget'],
        operationId: 'recordAnalyticsEvents',
        summary: "Record a batch of the widget's visitor events",
        description:
          "PUBLIC. At most 100 events; the body may be sent as `text/plain` (navigator.sendBeacon). The finder's authorized_urls apply to the Origin (else Referer). 120 requests a minute per IP. " +
          `Stored: a view once per session and finder, at most ${EVENTS_PER_HOUR} events an hour per IP and finder, location ids the finder shows; the rest is acknowledged and dropped, and \`received\` counts what was stored.`,
        security: [],
        consumes: ['application/json', 'text/plain'],
        body: analyticsBodySchema,
        response: { 200: analyticsReceivedSchema },
      },
    },
    async (request) =>
      service.record(
        {
          finderToken: request.body.finder_token,
          origin: requestOrigin(request.headers),
          client: clientAddress(request),
        },
        request.body.events,
      ),
  );
};

export const analyticsReportRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const service = app.deps.services.analytics;
  guardScope(app, scope);

  app.get(
    '/:id/analytics',
    {
      schema: {
        tags: [`${scope.tag}finders`],
        summary: scope.admin
          ? "A finder's widget analytics over the last days (any workspace)"
          : "A finder's widget analytics over the last days (UTC), with every day of the window",
        security: bearerSecurity,
        params: idParamsSchema,
        querystring: analyticsReportQuerySchema,
        response: { 200: analyticsReportSchema },
      },
    },
    async (request) => service.report(scope.actor(request), request.params.id, request.query.days),
  );
};
