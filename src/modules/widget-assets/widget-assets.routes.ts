// GET /widget.js (outside /api): the embeddable widget, br or gzip by Accept-Encoding from files
// the build compressed. Browsers keep it five minutes, then revalidate with If-None-Match and
// get a 304 while the build is unchanged; a new build changes the ETags (one per coding). Any
// origin may load it (CORS comes from the app; CORP allows cross-origin embedding).
// GET /widget-view.{hash}.js and GET /widget-map.{hash}.js: the files widget.js imports (ES
// modules, so fetched with CORS), the view's code on every page and the map's when a finder
// shows its map, the same way but cached for good: their names change with their content.
// Only the current build's hashes are served.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendEncoded } from '../../lib/content-coding.ts';
import { createNotFoundError } from '../../lib/errors.ts';
import { binaryBodySchema } from '../../lib/schemas.ts';
import { createWidgetBundle, type ServedModuleFile, widgetDistDir } from './widget-assets.bundle.ts';

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

  const moduleFileRoute = (
    name: 'view' | 'map',
    summary: string,
    read: (hash: string) => Promise<ServedModuleFile | undefined>,
  ) =>
    app.get(
      `/widget-${name}.:hash.js`,
      {
        schema: {
          tags: ['widget'],
          summary,
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
        const file = await read(request.params.hash);
        if (!file) {
          if (!(await bundle.read())) throw notBuilt();
          throw createNotFoundError(`No ${name} file of the current widget build has this hash.`);
        }
        reply
          .header('cache-control', WIDGET_MAP_CACHE_CONTROL)
          .header('cross-origin-resource-policy', 'cross-origin')
          .header('x-content-type-options', 'nosniff')
          .type('application/javascript; charset=utf-8');
        return sendEncoded(request, reply, file, { tag: file.tag });
      },
    );

  moduleFileRoute(
    'view',
    'The widget’s view code (search, list, filters, details), loaded by widget.js on every page',
    bundle.readView,
  );
  moduleFileRoute(
    'map',
    'The widget’s map code (Leaflet), loaded by widget.js when a finder shows its map',
    bundle.readMap,
  );
};
