// The one place errors become responses (docs/api.md, Errors): AppErrors, zod validation failures,
// a database that cannot be reached (503), database errors a client can provoke (unique violations, characters PostgreSQL cannot
// store, a row removed by a concurrent request, a deadlock), Fastify's own errors (malformed JSON, bad URLs, 413, 415, 429) and everything else
// as a 500 whose stack goes to the log only. Requests Fastify never routes get the same body:
// malformed HTTP (the node server's clientError), OPTIONS that is no CORS preflight, and
// requests arriving while the server closes. No error body echoes the request.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { databaseOutageCode } from '../db/errors.ts';
import { drainBoundsFor, drainUnreadBody } from '../lib/body-drain.ts';
import {
  AppError,
  createBadRequestError,
  createConcurrentChangeError,
  createRemovedMeanwhileError,
  createServiceUnavailableError,
  createUniqueConflictError,
  createValidationError,
  type ErrorCode,
  type FieldErrors,
  pgErrorOf,
  VALIDATION_MESSAGE,
} from '../lib/errors.ts';
import { multipartClientError } from '../lib/multipart.ts';
import { errorResponseSchema } from '../lib/schemas.ts';
import { StorageError } from '../lib/storage/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Status of a validation failure on this route: 422, except 400 for map bodies (docs/api.md, Maps). */
    validationStatus?: 400 | 422;
  }
}

const codeByStatus: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'rate_limited',
  502: 'provider_unavailable',
  503: 'not_configured',
};

const messageByStatus: Record<number, string> = {
  400: 'The request could not be understood.',
  401: 'Unauthenticated.',
  403: 'You do not have permission to access this resource.',
  404: 'Not found.',
  405: 'Method not allowed.',
  406: 'Not acceptable.',
  413: 'The payload is too large.',
  414: 'The URL is too long.',
  415: 'Unsupported media type.',
  429: 'Too many requests.',
};

/** Fastify errors whose own message would echo the request (`'/api/%ff' is not a valid url component`). */
const messageByFastifyCode: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is malformed.',
  FST_ERR_MAX_PARAM_LENGTH: 'The URL is too long.',
};

/** `/answers/business_type` -> `answers.business_type`; an empty path is the body itself. */
function fieldName(instancePath: string): string {
  const name = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return name === '' ? 'body' : name;
}

export function toFieldErrors(issues: { instancePath: string; message?: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = fieldName(issue.instancePath);
    errors[field] ??= [];
    errors[field].push(issue.message ?? 'The value is invalid.');
  }
  return errors;
}

/**
 * Fastify's body parser marks its refusals `Connection: close`, which has Node reset the
 * connection while the refused body still arrives, so that a browser never reads the 413. The
 * rest of the body is drained instead, within bounds (settleUnreadBody, src/lib/body-drain.ts).
 */
function keepConnectionForDrain(reply: FastifyReply, status: number) {
  if (status === 413) reply.removeHeader('connection');
}

function send(reply: FastifyReply, status: number, body: Record<string, unknown>) {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

function sendAppError(reply: FastifyReply, error: AppError) {
  if (error.headers) reply.headers(error.headers);
  keepConnectionForDrain(reply, error.statusCode);
  const body: Record<string, unknown> = { message: error.message, code: error.code };
  if (error.errors) body.errors = error.errors;
  return send(reply, error.statusCode, body);
}

/**
 * The answer to a PostgreSQL error a request can provoke, or undefined for a server fault.
 * Unique violations are looked up by constraint (the app's table, src/unique-constraints.ts); one the table
 * gives no field is a 409, logged so the table can learn it. A foreign key violation (23503)
 * is a row deleted by another request between a service's check and its write: 409 too, as
 * is a deadlock or serialization failure (40P01, 40001; the transaction was rolled back whole).
 * 22021 (invalid byte sequence) and 22P05 (unsupported Unicode escape, a NUL in jsonb) are a
 * last resort: the validator refuses NUL characters and unpaired surrogates with the field
 * named before a query runs (src/plugins/validation.ts).
 */
function databaseClientError(error: unknown, request: FastifyRequest): AppError | undefined {
  const pg = pgErrorOf(error);
  if (pg?.code === '23505') {
    const constraint = pg.constraint_name ?? '';
    const table = request.server.uniqueConstraintErrors;
    const mapped = Object.hasOwn(table, constraint) ? table[constraint] : null;
    if (mapped) return mapped();
    request.log.warn({ constraint }, 'unique violation without a field; answered 409');
    return createUniqueConflictError();
  }
  if (pg?.code === '23503') {
    request.log.warn({ constraint: pg.constraint_name }, 'foreign key violation; answered 409');
    return createRemovedMeanwhileError();
  }
  if (pg?.code === '40P01' || pg?.code === '40001') {
    request.log.warn({ code: pg.code }, 'transaction ended by a concurrent one; answered 409');
    return createConcurrentChangeError();
  }
  if (pg?.code === '22021' || pg?.code === '22P05') {
    return createValidationError({ body: ['The request contains characters that cannot be stored.'] });
  }
  return undefined;
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof StorageError) {
    // The object store, named as such (503 no answer, 502 an error answer): the operation and
    // the store's code are logged, never a key.
    const { operation, reason } = error;
    const what = error.statusCode === 503 ? 'storage unavailable' : 'storage answered an error';
    request.log.warn({ operation, reason }, what);
    return sendAppError(reply, error);
  }
  if (error instanceof AppError) return sendAppError(reply, error);

  const outage = databaseOutageCode(error);
  if (outage) {
    // An outage, not a bug: the client may retry. Only the code is logged: the wrapped error's
    // message carries the query and its parameters, which may hold user data.
    request.log.warn({ code: outage }, 'database unavailable');
    return sendAppError(reply, createServiceUnavailableError());
  }

  const fromDatabase = databaseClientError(error, request);
  if (fromDatabase) return sendAppError(reply, fromDatabase);

  // The multipart parser's own errors carry no status (a body cut short: 400).
  const fromMultipart = multipartClientError(error);
  if (fromMultipart) return sendAppError(reply, fromMultipart);

  if (hasZodFastifySchemaValidationErrors(error)) {
    // A malformed path id names no resource: the same answer as a missing one.
    if (error.validationContext === 'params') {
      return send(reply, 404, { message: 'Not found.', code: 'not_found' });
    }
    const status = request.routeOptions.config?.validationStatus ?? 422;
    return send(reply, status, {
      message: VALIDATION_MESSAGE,
      code: 'validation_failed',
      errors: toFieldErrors(error.validation),
    });
  }

  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause?.issues }, 'response did not match its schema');
    return send(reply, 500, { message: 'Server error.', code: 'internal_error' });
  }

  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return send(reply, 400, { message: 'Malformed JSON body.', code: 'bad_request' });
  }

  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's and its plugins' own client errors (413, 415, 429, multipart limits, ...).
    const code = codeByStatus[status] ?? 'bad_request';
    keepConnectionForDrain(reply, status);
    // Never the error's own message: Fastify's and its plugins' messages may quote the request.
    const message =
      messageByFastifyCode[error.code] ??
      messageByStatus[status] ??
      `${STATUS_CODES[status] ?? 'Bad request'}.`;
    return send(reply, status, { message, code });
  }

  request.log.error({ err: error }, 'unhandled error');
  return send(reply, 500, { message: 'Server error.', code: 'internal_error' });
}

/**
 * Fastify's `clientErrorHandler`: the node server could not parse the request (garbage, an
 * unknown method, conflicting Content-Length and Transfer-Encoding, headers too large, a
 * request too slow to arrive). No request object exists, so a fixed body is written to the
 * socket, which is then closed: after a framing error nothing more on it can be trusted.
 */
export function createClientErrorHandler(logger: FastifyBaseLogger) {
  return (error: Error & { code?: string }, socket: Socket) => {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, body]: [number, { message: string; code: ErrorCode }] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, { message: 'The request took too long to arrive.', code: 'request_timeout' }]
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, { message: 'The request headers are too large.', code: 'headers_too_large' }]
          : [400, { message: 'The request could not be understood.', code: 'bad_request' }];
    // Scanners send these all day: worth a debug line, not an error.
    logger.debug({ code: error.code, status }, 'malformed request refused');
    const json = JSON.stringify(body);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(json)}\r\n` +
          'X-Content-Type-Options: nosniff\r\n' +
          'Cache-Control: no-store\r\n' +
          'Connection: close\r\n\r\n' +
          json,
      );
    }
    socket.destroy();
  };
}

/**
 * An answer sent while its request body is still arriving (a refusal by size, type or token):
 * the rest is read and discarded within bounds (src/lib/body-drain.ts) so the client can read
 * the answer, or, when its declared length is already past the bound, the connection closes
 * after the answer. Without this, Node would read the rest however long it is.
 */
function settleUnreadBody(request: FastifyRequest, reply: FastifyReply) {
  // Node ends a `Connection: close` answer's connection itself (shutdown).
  if (reply.getHeader('connection') === 'close') return;
  const bounds = drainBoundsFor(request.routeOptions.bodyLimit ?? 0);
  const start = drainUnreadBody(request.raw, bounds, (settled) => {
    if (settled.outcome === 'cut') {
      request.log.info(settled, 'unread request body past its bound: connection closed');
    } else {
      request.log.debug(settled, 'unread request body drained');
    }
  });
  if (start === 'too-long') reply.header('connection', 'close');
}

/**
 * What a unique violation means to a client, by constraint name: an error naming the request
 * field the index guards, or null for values the service makes itself (a 409 `conflict`).
 */
export type UniqueConstraintErrors = Record<string, (() => AppError) | null>;

declare module 'fastify' {
  interface FastifyInstance {
    uniqueConstraintErrors: UniqueConstraintErrors;
  }
}

export function registerErrorHandling(app: FastifyInstance, uniqueConstraintErrors: UniqueConstraintErrors) {
  app.decorate('uniqueConstraintErrors', uniqueConstraintErrors);
  app.setErrorHandler(errorHandler);
  app.addHook('onSend', async (request, reply, payload) => {
    settleUnreadBody(request, reply);
    return payload;
  });
  app.setNotFoundHandler((_request, reply) => send(reply, 404, { message: 'Not found.', code: 'not_found' }));

  // Fastify's own 503 while closing (return503OnClosing, off in app.ts) has its body; this is
  // ours. Requests still reach a closing server on open keep-alive connections; the connection
  // is closed after the answer so the client retries elsewhere.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw createServiceUnavailableError('The service is shutting down. Try again.');
  });

  // OPTIONS exists here only for CORS preflights (answered by @fastify/cors, registered after
  // this hook). Anything else would get the plugin's plain-text 400.
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'OPTIONS') return;
    if (request.headers.origin && request.headers['access-control-request-method']) return;
    throw createBadRequestError(
      'An OPTIONS request must be a CORS preflight (Origin and Access-Control-Request-Method).',
    );
  });
  // A JSON route called without a body validates as `{}`, so each missing field is named.
  app.addHook('preValidation', async (request) => {
    if ((request.body === undefined || request.body === null) && request.routeOptions.schema?.body) {
      request.body = {};
    }
  });
}

/** Statuses any route may answer with the error body (docs/api.md, Errors). */
const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503] as const;

/**
 * Declares the error responses once, for every route registered after it: each route's
 * schema gets the error body under the statuses it does not describe itself, so route files
 * list only their successes and the OpenAPI document still shows every error shape.
 */
export function declareErrorResponses(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    route.schema ??= {};
    route.schema.response ??= {};
    const response = route.schema.response as Record<number, unknown>;
    for (const status of ERROR_STATUSES) response[status] ??= errorResponseSchema;
  });
}
