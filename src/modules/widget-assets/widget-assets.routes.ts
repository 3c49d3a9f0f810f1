// GET /widget.js (outside /api): the embeddable widget, br or gzip by Accept-Encoding from files
// the build compressed. Browsers keep it five minutes, then revalidate with If-None-Match and
// get a 304 while the build is unchanged; a new build changes the ETags (one per coding). Any
// origin may load it (CORS comes from the app; CORP allows cross-origin embedding).
// GET /widget-map.{hash}.js: the map file widget.js imports (an ES module, so fetched with
// CORS) when a finder shows its map, the same way but cached for good: its name changes with
// its content. Only the current build's hash is served.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendEncoded } from '../../lib/content-coding.ts';
import { createNotFoundError } from '../../lib/errors.ts';
import { binaryBodySchema } from '../../lib/schemas.ts';
import { createWidgetBundle, widgetDistDir } from './widget-assets.bundle.ts';

export interface WidgetRoutesOptions {
  /** The service's public CDN base, written into the script for the widget to read from. */
  cdnUrl: string;
  /** Where the build lives; dist/widget by default. */
  dir?: string;
}

export const WIDGET_CACHE_CONTROL = 'public, max-age=300';
/** A year, the most caches keep anything; `immutable` spares even a reload's revalidation. */
export const WIDGET_MAP_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const notBuilt = () => createNotFoundError('The widget is not built yet: run `npm run build`.');

export const widgetRoutes: FastifyPluginAsyncZod<WidgetRoutesOptions> = async (app, options) => {
  const bundle = createWidgetBundle(options.dir ?? widgetDistDir, options.cdnUrl);

  app.get(
    '/widget.js',
    {
      schema: {
        tags: ['widget'],
        summary: 'The embeddable store locator widget (JavaScript)',
        response: {
          200: {
            description: 'The script (Content-Encoding by Accept-Encoding), with an ETag',
            content: { 'application/javascript': { schema: binaryBodySchema } },
          },
          304: z.null().describe('Not modified: If-None-Match holds the current ETag'),
        },
      },
    },
    async (request, reply) => {
      const widget = await bundle.read();
      if (!widget) throw notBuilt();
      reply
        .header('cache-control', WIDGET_CACHE_CONTROL)
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('x-content-type-options', 'nosniff')
        .type('application/javascript; charset=utf-8');
      return sendEncoded(request, reply, widget, { tag: widget.tag });
    },
  );

  app.get(
    '/widget-map.:hash.js',
    {
      schema: {
        tags: ['widget'],
        summary: 'The widget’s map code (Leaflet), loaded by widget.js when a finder shows its map',
        params: z.object({
          hash: z.string().describe('The content hash widget.js names: 16 hex digits'),
        }),
        response: {
          200: {
            description: 'An ES module (Content-Encoding by Accept-Encoding), with an ETag',
            content: { 'application/javascript': { schema: binaryBodySchema } },
          },
          304: z.null().describe('Not modified: If-None-Match holds the current ETag'),
        },
      },
    },
    async (request, reply) => {
      const map = await bundle.readMap(request.params.hash);
      if (!map) {
        if (!(await bundle.read())) throw notBuilt();
        throw createNotFoundError('No map file of the current widget build has this hash.');
      }
      reply
        .header('cache-control', WIDGET_MAP_CACHE_CONTROL)
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('x-content-type-options', 'nosniff')
        .type('application/javascript; charset=utf-8');
      return sendEncoded(request, reply, map, { tag: map.tag });
    },
  );
};
