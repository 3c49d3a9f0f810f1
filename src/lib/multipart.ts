// Upload routes take multipart/form-data only; any other body is a 415 before a byte is read.
import type { FastifyRequest } from 'fastify';
import { createUnsupportedMediaTypeError } from './errors.ts';

export function assertMultipart(request: FastifyRequest): void {
  if (!request.isMultipart()) {
    throw createUnsupportedMediaTypeError('The request must be multipart/form-data.');
  }
}
