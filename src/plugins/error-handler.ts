// The one place errors become responses (decisions §2): AppErrors, zod validation failures,
// a database that cannot be reached (503), Fastify's own errors (malformed JSON, 413, 415, 429)
// and everything else as a 500 whose stack goes to the log only.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { databaseOutageCode } from '../db/errors.ts';
import {
  AppError,
  createServiceUnavailableError,
  type ErrorCode,
  type FieldErrors,
  VALIDATION_MESSAGE,
} from '../lib/errors.ts';
import { errorResponseSchema } from '../lib/schemas.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Status of a validation failure on this route: 422 unless the spec says otherwise (maps: 400). */
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
  415: 'Unsupported media type.',
  429: 'Too many requests.',
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

function send(reply: FastifyReply, status: number, body: Record<string, unknown>) {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

function sendAppError(reply: FastifyReply, error: AppError) {
  if (error.headers) reply.headers(error.headers);
  const body: Record<string, unknown> = { message: error.message, code: error.code };
  if (error.errors) body.errors = error.errors;
  return send(reply, error.statusCode, body);
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) return sendAppError(reply, error);

  const outage = databaseOutageCode(error);
  if (outage) {
    // An outage, not a bug: the client may retry. Only the code is logged: the wrapped error's
    // message carries the query and its parameters, which may hold user data.
    request.log.warn({ code: outage }, 'database unavailable');
    return sendAppError(reply, createServiceUnavailableError());
  }

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
    const message = messageByStatus[status] ?? error.message;
    return send(reply, status, { message, code });
  }

  request.log.error({ err: error }, 'unhandled error');
  return send(reply, 500, { message: 'Server error.', code: 'internal_error' });
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((_request, reply) => send(reply, 404, { message: 'Not found.', code: 'not_found' }));
  // A JSON route called without a body validates as `{}`, so each missing field is named.
  app.addHook('preValidation', async (request) => {
    if ((request.body === undefined || request.body === null) && request.routeOptions.schema?.body) {
      request.body = {};
    }
  });
}

/** Statuses any route may answer with the error body of decisions §2. */
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
