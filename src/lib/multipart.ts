// Upload routes take multipart/form-data only; any other body, or one whose boundary is missing
// or unusable, is a 415 before a byte is read, and one declaring more bytes than the route
// takes is a 413 before a byte is read (the multipart parser does not apply Fastify's body
// limit, and its per-file limit trips only after the bytes have streamed in). A body that breaks off or never matches its
// boundary makes the multipart parser (busboy) fail with plain errors that carry no status;
// multipartClientError names them for the error handler, which answers 400.
import type { FastifyRequest } from 'fastify';
import {
  type AppError,
  createBadRequestError,
  createPayloadTooLargeError,
  createUnsupportedMediaTypeError,
} from './errors.ts';

/** `boundary=` of a content type, quoted or not (busboy reads the same forms). */
const BOUNDARY_PARAM = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/** RFC 2046 §5.1.1: 1 to 70 characters. Longer ones also make busboy throw. */
function hasUsableBoundary(contentType: string | undefined): boolean {
  const match = BOUNDARY_PARAM.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2] ?? '';
  return boundary.length >= 1 && boundary.length <= 70;
}

const createBoundaryMissingError = () =>
  createUnsupportedMediaTypeError('The request must be multipart/form-data with a boundary.');

/** Room for the other fields and the multipart framing around the one file a route takes. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export interface MultipartLimits {
  /** The route's file limit; the whole body may declare this plus MULTIPART_OVERHEAD_BYTES. */
  fileBytes: number;
  /** The route's own 413 (the image route names its limit). */
  tooLarge?: () => AppError;
}

export function assertMultipart(request: FastifyRequest, limits: MultipartLimits): void {
  if (!request.isMultipart()) {
    throw createUnsupportedMediaTypeError('The request must be multipart/form-data.');
  }
  if (!hasUsableBoundary(request.headers['content-type'])) throw createBoundaryMissingError();
  const declared = Number(request.headers['content-length']);
  if (declared > limits.fileBytes + MULTIPART_OVERHEAD_BYTES) {
    throw (limits.tooLarge ?? createPayloadTooLargeError)();
  }
}

/**
 * The client error behind a failure of the multipart parser, or undefined for anything else.
 * Busboy's errors are plain `Error`s told apart only by their messages: "Unexpected end of
 * multipart data" (the body ended before its closing boundary, or never had one) and "Part
 * terminated early due to unexpected end of multipart data" (the same, inside a part), which
 * reach the iterator or the part's file stream; "Boundary not found" and the boundary length
 * checks when assertMultipart was not called first.
 */
export function multipartClientError(error: unknown): AppError | undefined {
  if (!(error instanceof Error) || 'statusCode' in error) return undefined;
  if (/unexpected end of multipart data/i.test(error.message)) {
    return createBadRequestError('The multipart body is malformed.');
  }
  if (/^Multipart: Boundary not found$|^The needle cannot/.test(error.message)) {
    return createBoundaryMissingError();
  }
  return undefined;
}
