// The dashboard, outside /api: GET /app and every path under it answer the page (the app's
// router reads the path, so a deep link such as /app/locations?q=berlin survives a reload),
// and GET /app/assets/{name} the build's files, cached for good (their names change with their
// content). The page has a strict Content-Security-Policy: scripts and styles from this origin
// only, no inline script, nothing fetched from any other host but the map tiles' one origin
// (DASHBOARD_TILE_URL; fonts are the system's, icons are in the bundle), it frames only this
// origin (the finder preview, GET /app/preview: dashboard-preview.page.ts) and it is never framed.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendEncoded } from '../../lib/content-coding.ts';
import { createNotFoundError } from '../../lib/errors.ts';
import { binaryBodySchema } from '../../lib/schemas.ts';
import { createDashboardBundle } from './dashboard-assets.bundle.ts';
import { ASSETS_FOLDER, dashboardDistDir } from './dashboard-assets.manifest.ts';
import { PREVIEW_PATH, previewCsp, previewPageHtml } from './dashboard-preview.page.ts';

export const DASHBOARD_PATH = '/app';

export interface DashboardRoutesOptions {
  /** Where the build lives; dist/dashboard by default. */
  dir?: string;
  /** Where stored files are served from (CDN_URL): location images are shown from there. */
  cdnUrl: string;
  /** The dashboard's map tiles (DASHBOARD_TILE_URL): the one other origin the page loads images from. */
  tileUrl: string;
}

/** A year, the most caches keep anything; `immutable` spares even a reload's revalidation. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The page carries a nonce of its own response: never stored, so never reused. */
const PAGE_CACHE_CONTROL = 'no-store';

/**
 * The page's policy; `nonce` admits the one <style> React Aria adds (the page's meta names it).
 * Map tiles come from the tile template's origin only; the finder preview is a page of this
 * origin in a frame.
 */
export function dashboardCsp(cdnUrl: string, tileUrl: string, nonce: string): string {
  const cdnOrigin = new URL(cdnUrl).origin;
  // The template's braces are no part of its origin: {s} subdomains are not supported here.
  const tileOrigin = new URL(tileUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src ${[...new Set(["'self'", 'data:', 'blob:', cdnOrigin, tileOrigin])].join(' ')}`,
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * `http(s)://host[:port]` and nothing else: the page's policy names it as it is, so a host the
 * URL parser lets through but a policy reads otherwise (`*`, `;`, `,`) is refused.
 */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      url.origin === value &&
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      /^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname)
    );
  } catch {
    return false;
  }
}

const notBuilt = () => createNotFoundError('The dashboard is not built yet: run `npm run build`.');

const pageSchema = {
  tags: ['dashboard'],
  response: {
    200: {
      description: 'The dashboard page (HTML); the app reads the path',
      content: { 'text/html': { schema: binaryBodySchema } },
    },
  },
};

export const dashboardRoutes: FastifyPluginAsyncZod<DashboardRoutesOptions> = async (app, options) => {
  const bundle = createDashboardBundle(options.dir ?? dashboardDistDir, DASHBOARD_PATH, options.tileUrl);

  const sendPage = async (_request: FastifyRequest, reply: FastifyReply) => {
    const nonce = randomBytes(16).toString('base64');
    const page = await bundle.page(nonce);
    if (page === undefined) throw notBuilt();
    return reply
      .header('cache-control', PAGE_CACHE_CONTROL)
      .header('content-security-policy', dashboardCsp(options.cdnUrl, options.tileUrl, nonce))
      .header('cross-origin-resource-policy', 'same-origin')
      .type('text/html; charset=utf-8')
      .send(page);
  };

  app.get(DASHBOARD_PATH, { schema: { ...pageSchema, summary: 'The dashboard' } }, sendPage);
  app.get(
    `${DASHBOARD_PATH}/*`,
    { schema: { ...pageSchema, summary: 'The dashboard at one of its pages (a deep link)' } },
    sendPage,
  );

  app.get(
    PREVIEW_PATH,
    {
      // The policy is the answer's own (its frame-ancestors names the parent); X-Frame-Options
      // cannot name another origin, and frame-ancestors supersedes it.
      helmet: { contentSecurityPolicy: false, frameguard: false },
      schema: {
        tags: ['dashboard'],
        summary: 'The finder preview: widget.js drawing what the dashboard sends it',
        description:
          "A page the dashboard's finder editor frames. It holds no data and no token: the parent sends the finder's current payload and unsaved settings by postMessage (docs/api.md, Dashboard).",
        querystring: z.object({
          parent: z
            .url({ protocol: /^https?$/ })
            .refine(isOrigin, 'must be an origin (scheme://host:port)')
            .optional()
            .describe('The origin of the dashboard framing the page, when not this one'),
        }),
        response: {
          200: {
            description: 'The preview page (HTML)',
            content: { 'text/html': { schema: binaryBodySchema } },
          },
        },
      },
    },
    async (request, reply) => {
      const script = await bundle.previewScript();
      if (script === undefined) throw notBuilt();
      return reply
        .header('cache-control', PAGE_CACHE_CONTROL)
        .header('content-security-policy', previewCsp(request.query.parent))
        .type('text/html; charset=utf-8')
        .send(previewPageHtml({ script: `${DASHBOARD_PATH}/${ASSETS_FOLDER}/${script}` }));
    },
  );

  app.get(
    `${DASHBOARD_PATH}/assets/:name`,
    {
      schema: {
        tags: ['dashboard'],
        summary: 'A file of the dashboard’s build (script, stylesheet), by its hashed name',
        params: z.object({ name: z.string().describe('The name the page gives, with its content hash') }),
        response: {
          200: {
            description: 'The file (Content-Encoding by Accept-Encoding)',
            content: { 'application/octet-stream': { schema: binaryBodySchema } },
          },
          304: z.null().describe('Not modified: If-None-Match holds the current ETag'),
        },
      },
    },
    async (request, reply) => {
      const asset = await bundle.asset(request.params.name);
      if (!asset) {
        if (!(await bundle.isBuilt())) throw notBuilt();
        throw createNotFoundError('No file of the current dashboard build has this name.');
      }
      const name = request.params.name;
      const type = name.endsWith('.js')
        ? 'application/javascript; charset=utf-8'
        : name.endsWith('.css')
          ? 'text/css; charset=utf-8'
          : name.endsWith('.svg')
            ? 'image/svg+xml'
            : 'text/plain; charset=utf-8';
      reply
        .header('cache-control', ASSET_CACHE_CONTROL)
        .header('x-content-type-options', 'nosniff')
        .type(type);
      return sendEncoded(request, reply, asset, { tag: asset.tag });
    },
  );
};
