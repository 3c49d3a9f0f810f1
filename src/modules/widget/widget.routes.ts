// GET /widget.js (outside /api): the embeddable widget, br or gzip by Accept-Encoding from files
// the build compressed. Browsers keep it five minutes, then revalidate with If-None-Match and
// get a 304 while the build is unchanged; a new build changes the ETags (one per coding). Any
// origin may load it (CORS comes from the app; CORP allows cross-origin embedding).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendEncoded } from '../../lib/content-coding.ts';
import { createNotFoundError } from '../../lib/errors.ts';
import { binaryBodySchema } from '../../lib/schemas.ts';
import { createWidgetBundle, widgetDistDir } from './widget.bundle.ts';

export interface WidgetRoutesOptions {
  /** The service's public CDN base, written into the script for the widget to read from. */
  cdnUrl: string;
  /** Where the build lives; dist/widget by default. */
  dir?: string;
}

export const WIDGET_CACHE_CONTROL = 'public, max-age=300';

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
      if (!widget) throw createNotFoundError('The widget is not built yet: run `npm run build`.');
      reply
        .header('cache-control', WIDGET_CACHE_CONTROL)
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('x-content-type-options', 'nosniff')
        .type('application/javascript; charset=utf-8');
      return sendEncoded(request, reply, widget, { tag: widget.tag });
    },
  );
};
