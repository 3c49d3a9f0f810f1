// What every response says about itself to browsers: CORS (any origin, the methods and headers
// the API uses), security headers (@fastify/helmet: nosniff, no framing, a CSP that loads
// nothing on the API and only Swagger UI's own files under /docs, HSTS over https) and
// `Cache-Control: no-store` on the API. Registered before every route, so each one gets it.
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Under /api, answers are per-caller (a bearer token) or carry a token; nothing may keep them. */
const API_PREFIX = '/api/';

/** Swagger UI's routes (@fastify/swagger-ui, registered with prefix /docs). */
const isDocsRoute = (url: string) => url === '/docs' || url.startsWith('/docs/');

export interface HttpPolicyOptions {
  /** APP_URL: HSTS when it is https; the origin Swagger UI's "Try it out" calls. */
  appUrl: string;
}

export async function registerHttpPolicy(app: FastifyInstance, { appUrl }: HttpPolicyOptions) {
  await app.register(cors, {
    // Bearer tokens, no cookies: any origin may call the API (a dashboard, the widget); the
    // widget routes check their own allow-lists (authorized_urls).
    origin: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'X-Request-Id',
      'If-None-Match',
      'If-Modified-Since',
      // EventSource sends it when it reconnects to a process's event stream.
      'Last-Event-ID',
    ],
    exposedHeaders: ['X-Total-Count', 'X-Request-Id', 'Retry-After', 'ETag'],
    // Two hours: the most Chromium honours; browsers then skip the preflight of each call.
    maxAge: 7200,
  });

  const appOrigin = new URL(appUrl).origin;
  // Swagger UI (index.html) loads its own scripts and styles from /docs/static, sets inline
  // style attributes while rendering, shows data: images (the logo), fetches ./json and, in
  // "Try it out", calls the API at APP_URL (`servers` of the document). It has no inline script.
  const docsCsp = {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", appOrigin],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  };
  // Before helmet registers: its own onRoute hook reads the `helmet` route option.
  app.addHook('onRoute', (route) => {
    if (isDocsRoute(route.url)) route.helmet = { contentSecurityPolicy: docsCsp };
  });

  await app.register(helmet, {
    // The API answers JSON (and /cdn stored files): no document of ours loads anything, and
    // nothing of ours is framed.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    // HSTS only means something over https (browsers ignore it on http), and on a development
    // host it would pin the name to https for months: sent when APP_URL is https.
    strictTransportSecurity: appOrigin.startsWith('https:')
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    // The product is embedded on other sites: /cdn files (images, published finders) and the
    // widget routes are read from other origins. Nothing here rides on ambient credentials
    // (bearer tokens, no cookies), so cross-origin reads expose nothing a same-origin policy
    // would protect.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });

  // A route that sets its own Cache-Control (public widget payloads, /cdn) keeps it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith(API_PREFIX) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}
