// GET /demo/{token} (outside /api): a page embedding the finder's widget, as `npm run demo`
// prints it. Public like the widget itself: a finder token is already on every page that
// embeds it. Unknown or malformed tokens answer 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createNotFoundError } from '../../lib/errors.ts';
import { binaryBodySchema } from '../../lib/schemas.ts';
import { demoPageHtml, FINDER_TOKEN_PATTERN } from './demo.page.ts';

export interface DemoRoutesOptions {
  appUrl: string;
  /** Where the widget reads published files, for the page's connect-src. */
  cdnUrl: string;
  findFinderName(token: string): Promise<string | undefined>;
}

export const demoRoutes: FastifyPluginAsyncZod<DemoRoutesOptions> = async (app, options) => {
  const self = new URL(options.appUrl).origin;
  const cdn = new URL(options.cdnUrl).origin;
  // The widget loads from this origin, reads the CDN and the API, draws map tiles and
  // location images from wherever the finder's settings point (any https or http host),
  // and styles its shadow root.
  const contentSecurityPolicy = {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'https:', 'http:'],
      connectSrc: [...new Set(["'self'", self, cdn])],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'self'"],
    },
  };

  app.get(
    '/demo/:token',
    {
      helmet: { contentSecurityPolicy, frameguard: { action: 'sameorigin' } },
      schema: {
        tags: ['widget'],
        summary: 'A demo page embedding the finder’s widget, as a customer’s site would',
        params: z.object({ token: z.string() }),
        response: {
          200: { description: 'The HTML page', content: { 'text/html': { schema: binaryBodySchema } } },
        },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const name = FINDER_TOKEN_PATTERN.test(token) ? await options.findFinderName(token) : undefined;
      if (name === undefined) throw createNotFoundError('No finder has this token.');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(demoPageHtml({ appUrl: options.appUrl, token, finderName: name }));
    },
  );
};
