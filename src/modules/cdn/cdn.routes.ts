// /cdn/* (outside /api): the local storage driver's published files and images, with the
// Content-Type and Cache-Control they were stored with, as a CDN in front of S3 would send them
// (docs/api.md, Storage and CDN); JSON and text br or gzip by Accept-Encoding, from the compressed
// forms the driver wrote beside them. Mounted by buildApp only when STORAGE_DRIVER is `local`; HEAD
// works too.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { setRepresentationHeaders } from '../../lib/content-coding.ts';
import { createNotFoundError } from '../../lib/errors.ts';
import { binaryBodySchema } from '../../lib/schemas.ts';
import { isValidStorageKey } from '../../lib/storage/storage.ts';

export const cdnRoutes: FastifyPluginAsyncZod = async (app) => {
  const { storage } = app.deps;

  app.get(
    '/*',
    {
      schema: {
        tags: ['cdn'],
        summary: 'A stored file (local storage driver only)',
        params: z.object({ '*': z.string() }),
        response: {
          200: {
            description:
              'The stored bytes, with the Content-Type and Cache-Control they were stored with; JSON and text with a Content-Encoding by Accept-Encoding',
            content: { 'application/octet-stream': { schema: binaryBodySchema } },
          },
        },
      },
    },
    async (request, reply) => {
      const key = request.params['*'];
      // A key the storage would refuse (`..`, backslashes, ...) names no file: the same 404.
      const acceptEncoding = request.headers['accept-encoding'];
      const object = isValidStorageKey(key) ? await storage.get(key, { acceptEncoding }) : undefined;
      if (!object) throw createNotFoundError('File not found.');
      reply.header('content-type', object.contentType);
      if (object.cacheControl) reply.header('cache-control', object.cacheControl);
      // Uploaded bytes are served as what they were stored as, never sniffed into HTML.
      reply.header('x-content-type-options', 'nosniff');
      const coding = object.contentEncoding ?? 'identity';
      setRepresentationHeaders(request, reply, coding, object.codings ?? ['identity']);
      return reply.send(object.body);
    },
  );
};
