// buildApp(deps): plugins, error handling, health and docs routes, and every route plugin under
// /api. It never listens: src/server.ts and the tests (through app.inject) do that part.
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from './deps.ts';
import { compressBody, type EncodedBody, sendEncoded } from './lib/content-coding.ts';
import { createRateLimitedError } from './lib/errors.ts';
import { authPlugin } from './modules/auth/auth.plugin.ts';
import { cdnRoutes } from './modules/cdn/cdn.routes.ts';
import { dashboardRoutes } from './modules/dashboard-assets/dashboard-assets.routes.ts';
import { createDemoRepository } from './modules/demo/demo.repository.ts';
import { demoRoutes } from './modules/demo/demo.routes.ts';
import { widgetRoutes } from './modules/widget-assets/widget-assets.routes.ts';
import { registerNamedSchemas } from './openapi.components.ts';
import {
  createClientErrorHandler,
  declareErrorResponses,
  errorHandler,
  registerErrorHandling,
} from './plugins/error-handler.ts';
import { registerHttpPolicy } from './plugins/http-policy.ts';
import { addJsonBodyParser } from './plugins/json-body.ts';
import { declareOperations, openApiTransform, openApiTransformObject } from './plugins/openapi.ts';
import { validatorCompiler } from './plugins/validation.ts';
import { apiRoutes } from './routes.ts';
import { uniqueConstraintErrors } from './unique-constraints.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    /** Aborted once the close begins: a connection closing after it was most likely cut by it. */
    shuttingDown: AbortSignal;
  }
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** /readyz answers within 2 s whatever the database does. */
const READY_TIMEOUT_MS = 1_500;

/**
 * On close, how long requests already under way may run before their connections are cut.
 * Requests take well under a second; an upload or a stalled client must not hold the process
 * (and a deploy) for long.
 */
const CLOSE_GRACE_MS = 5_000;

export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const app = createServer(deps);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  closeWithinGrace(app);

  // An empty body is no body; a body nesting deeper than 32 levels is refused before parsing.
  addJsonBodyParser(app, 'application/json');
  registerErrorHandling(app, uniqueConstraintErrors);
  declareErrorResponses(app);
  declareOperations(app);
  await registerHttpPolicy(app, { appUrl: deps.config.appUrl });
  await app.register(rateLimit, {
    global: false,
    ...(deps.redis ? { redis: deps.redis } : {}),
    // Redis down or frozen (its commands fail fast, src/lib/redis.ts): serve unthrottled rather
    // than answer 500 to every limited route.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => createRateLimitedError(context.ttl / 1000),
  });
  await registerApiDocs(app, deps.config.appUrl);
  // Global ceilings; each upload route passes its own smaller fileSize (images 5 MB, CSV 50 MB).
  await app.register(multipart, { limits: { files: 1, fileSize: 50 * 1024 * 1024, fields: 20 } });

  registerHealthRoutes(app, deps);
  await app.register(authPlugin, {
    jwt: deps.config.jwt,
    authService: deps.services.auth,
    auditService: deps.services.audit,
  });
  await app.register(apiRoutes, { prefix: '/api' });
  await registerPublicRoutes(app, deps);
  return app;
}

/** The Fastify instance with the service's server options; nothing registered yet. */
function createServer(deps: Deps) {
  return Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Honour a caller's X-Request-Id when it is sane; otherwise make one.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : crypto.randomUUID();
    },
    trustProxy: deps.config.trustProxy,
    // On close, keep-alive connections with no request under way are closed at once.
    forceCloseConnections: 'idle',
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors Fastify would answer with bodies of its own, echoing the request: bad URL encoding
    // and over-long parameters (frameworkErrors), malformed HTTP (clientErrorHandler) and the
    // 503 while closing (answered by registerErrorHandling instead).
    frameworkErrors: errorHandler,
    clientErrorHandler: createClientErrorHandler(deps.logger as FastifyBaseLogger),
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
}

type App = ReturnType<typeof createServer>;

/**
 * On close: `shuttingDown` aborts, responses end their connections, and requests still under
 * way after CLOSE_GRACE_MS are cut.
 */
function closeWithinGrace(app: App): void {
  const shutdown = new AbortController();
  app.decorate('shuttingDown', shutdown.signal);
  let closing = false;
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    // A response finished during shutdown ends its connection, so a keep-alive client cannot
    // hold the closing server open until the keep-alive timeout (72 s).
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('preClose', async () => {
    closing = true;
    shutdown.abort();
    const force = setTimeout(() => {
      app.log.warn(`connections still open ${CLOSE_GRACE_MS} ms after close: closing them`);
      app.server.closeAllConnections();
    }, CLOSE_GRACE_MS);
    force.unref();
    app.server.once('close', () => clearTimeout(force));
  });
}

/** The OpenAPI document (/openapi.json, compressed) and Swagger UI (/docs). */
async function registerApiDocs(app: App, appUrl: string): Promise<void> {
  registerNamedSchemas();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Location Finder API',
        description: 'Backend of an embeddable store locator. Errors follow docs/api.md.',
        version: '0.1.0',
        // Private software (package.json), all rights reserved: a custom SPDX reference.
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: appUrl }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: openApiTransform,
    transformObject: openApiTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  // Compressed once per process, on the first request: the document is complete only once the
  // app is ready, and it does not change while the process runs.
  let openApiBody: Promise<EncodedBody> | undefined;
  app.get('/openapi.json', { schema: { hide: true } }, async (request, reply) => {
    openApiBody ??= compressBody(Buffer.from(JSON.stringify(app.swagger())), 'fast');
    reply.type('application/json; charset=utf-8');
    return sendEncoded(request, reply, await openApiBody);
  });
}

/** /healthz (the process is up) and /readyz (the database answers). */
function registerHealthRoutes(app: App, deps: Deps): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        summary: 'The process is up',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'The database answers',
        response: { 200: z.object({ status: z.literal('ok') }), 503: z.object({ status: z.string() }) },
      },
    },
    async (_request, reply) => {
      // Its own short bound: a load balancer's probe must get an answer, not a hang, while the
      // database is down or unreachable.
      if (await deps.database.ping(READY_TIMEOUT_MS)) return { status: 'ok' as const };
      return reply.status(503).send({ status: 'database_unavailable' });
    },
  );
}

/** What browsers load outside /api: the local CDN, widget.js, the demo page and the dashboard. */
async function registerPublicRoutes(app: App, { config, db }: Deps): Promise<void> {
  if (config.storage.driver === 'local') await app.register(cdnRoutes, { prefix: '/cdn' });
  await app.register(dashboardRoutes, {
    cdnUrl: config.storage.cdnUrl,
    dir: config.dashboardDir,
    tileUrl: config.dashboardTileUrl,
  });
  await app.register(widgetRoutes, { cdnUrl: config.storage.cdnUrl, dir: config.widgetDir });
  const demo = createDemoRepository(db);
  await app.register(demoRoutes, {
    appUrl: config.appUrl,
    cdnUrl: config.storage.cdnUrl,
    findFinderName: (token) => demo.findFinderName(token),
  });
}
