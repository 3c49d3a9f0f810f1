// Upload routes take multipart/form-data only; any other body, or one whose boundary is missing
// or unusable, is a 415 before a byte is read, and one declaring more bytes than the route
// takes (its `bodyLimit`: the file limit plus room for the rest, multipartBodyLimit) is a 413
// before a byte is read (the multipart parser does not apply Fastify's body limit). A file that
// passes the route's limit as it streams in (no declared length, or a declared one that lied)
// is refused the moment it does (multipartParts). Either way the rest of the body is drained
// within bounds after the answer (src/lib/body-drain.ts). A body that breaks off or never
// matches its boundary makes the multipart parser (busboy) fail with plain errors that carry no
// status; multipartClientError names them for the error handler, which answers 400.
import type { Multipart } from '@fastify/multipart';
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

/**
 * The `bodyLimit` of a route taking one file of at most `fileBytes`. Declared on the route, it
 * is the one figure the Content-Length check below and the drain of a refused body read
 * (src/lib/body-drain.ts); busboy's per-file limit stays the route's own.
 */
export const multipartBodyLimit = (fileBytes: number) => fileBytes + MULTIPART_OVERHEAD_BYTES;

export interface MultipartOptions {
  /** The route's own 413 (the image route names its limit). */
  tooLarge?: () => AppError;
}

export function assertMultipart(request: FastifyRequest, options: MultipartOptions = {}): void {
  if (!request.isMultipart()) {
    throw createUnsupportedMediaTypeError('The request must be multipart/form-data.');
  }
  if (!hasUsableBoundary(request.headers['content-type'])) throw createBoundaryMissingError();
  const declared = Number(request.headers['content-length']);
  if (declared > request.routeOptions.bodyLimit) {
    throw (options.tooLarge ?? createPayloadTooLargeError)();
  }
}

export interface MultipartPartsOptions extends MultipartOptions {
  /** The route's limit for one file. */
  fileBytes: number;
}

/**
 * The parts of the request, a file's stream failing with the route's 413 the moment it passes
 * `fileBytes`. Left to itself, busboy stops handing a file's bytes on at the limit but reads and
 * discards the rest of the part, however long, and reports the limit only when the part ends:
 * the refusal would come after the whole upload.
 */
export async function* multipartParts(
  request: FastifyRequest,
  { fileBytes, tooLarge = createPayloadTooLargeError }: MultipartPartsOptions,
): AsyncGenerator<Multipart> {
  try {
    for await (const part of request.parts({ limits: { fileSize: fileBytes } })) {
      if (part.type === 'file') {
        const refuse = () => part.file.destroy(tooLarge());
        // The limit may have passed before the part is handed on (its bytes came in one read).
        if (part.file.truncated) refuse();
        else part.file.once('limit', refuse);
      }
      yield part;
    }
  } catch (error) {
    // A file the route skipped (resumed unread) that passed the limit ends the iteration.
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
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
