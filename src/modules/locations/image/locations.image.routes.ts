// POST /locations/{id}/image (multipart, file field `image`) and DELETE /locations/{id}/image,
// for members and, under /admin, for admins. The rules live in locations.image.service.ts.

import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createFieldError } from '../../../lib/errors.ts';
import { assertMultipart, multipartBodyLimit, multipartParts } from '../../../lib/multipart.ts';
import { bearerSecurity, idParamsSchema } from '../../../lib/schemas.ts';

import { documentMultipartForm } from '../../../plugins/openapi.ts';
import { guardScope, type RouteScope } from '../../auth/auth.scope.ts';
import { createImageTooLargeError } from '../locations.errors.ts';
import { imageFormSchema, locationSchema } from '../locations.schemas.ts';
import { IMAGE_MAX_BYTES } from './locations.image.service.ts';

/** The bytes of the `image` file field; other parts are skipped. Over 5 MB: 413. */
async function readImage(request: FastifyRequest): Promise<Buffer> {
  const tooLarge = createImageTooLargeError;
  assertMultipart(request, { tooLarge });
  let image: Buffer | undefined;
  for await (const part of multipartParts(request, { fileBytes: IMAGE_MAX_BYTES, tooLarge })) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== 'image' || image) {
      part.file.resume();
      continue;
    }
    image = await part.toBuffer();
  }
  if (!image) throw createFieldError('image', 'The image field is required.');
  return image;
}

export const locationImageRoutes: FastifyPluginAsyncZod<{ scope: RouteScope }> = async (app, { scope }) => {
  const images = app.deps.services.locationImages;
  guardScope(app, scope);
  const tags = [`${scope.tag}locations`];

  app.post(
    '/:id/image',
    {
      bodyLimit: multipartBodyLimit(IMAGE_MAX_BYTES),
      schema: {
        tags,
        summary: "Upload the location's image (multipart, file field `image`: JPEG or PNG, at most 5 MB)",
        description:
          'The type is judged by the bytes, not the name or declared type. The previous image is deleted.',
        security: bearerSecurity,
        consumes: ['multipart/form-data'],
        params: idParamsSchema,
        response: {
          200: z.object({ image_url: z.string() }),
        },
      },
      config: { swaggerTransform: documentMultipartForm(imageFormSchema) },
    },
    async (request) => {
      const bytes = await readImage(request);
      return images.upload(scope.actor(request), request.params.id, bytes);
    },
  );

  app.delete(
    '/:id/image',
    {
      schema: {
        tags,
        summary: "Remove the location's image",
        description: 'Answers the location with image_url null. Deleting the stored file is best effort.',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: locationSchema },
      },
    },
    async (request) => images.remove(scope.actor(request), request.params.id),
  );
};
