// The error vocabulary (docs/api.md, Conventions and Errors). Services throw AppErrors made by
// module factories; the one error handler (src/plugins/error-handler.ts) turns them into response
// bodies.
export type ErrorCode =
  | 'bad_request'
  | 'validation_failed'
  | 'unauthenticated'
  | 'forbidden'
  | 'tier_required'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'provider_unavailable'
  | 'not_configured'
  | 'service_unavailable'
  | 'request_timeout'
  | 'time_budget_exceeded'
  | 'headers_too_large'
  | 'internal_error';

/** Field -> messages, with nested fields as dotted paths (`answers.business_type`). */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: ErrorCode,
    message: string,
    public readonly errors?: FieldErrors,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const VALIDATION_MESSAGE = 'The given data was invalid.';

export const createValidationError = (errors: FieldErrors, statusCode = 422) =>
  new AppError(statusCode, 'validation_failed', VALIDATION_MESSAGE, errors);

/** Throws the 422 of the errors gathered, all at once; nothing when there are none. */
export function throwFieldErrors(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw createValidationError(errors);
}

/** A single-field validation failure, the common case in services. */
export const createFieldError = (field: string, message: string) =>
  createValidationError({ [field]: [message] });

export const createBadRequestError = (message = 'The request could not be understood.') =>
  new AppError(400, 'bad_request', message);

export const createNotFoundError = (message = 'Not found.') => new AppError(404, 'not_found', message);

export const createUnauthenticatedError = (message = 'Unauthenticated.') =>
  new AppError(401, 'unauthenticated', message);

export const createForbiddenError = (message = 'You do not have permission to access this resource.') =>
  new AppError(403, 'forbidden', message);

export const createTierRequiredError = (message = 'This feature requires a qualifying subscription.') =>
  new AppError(403, 'tier_required', message);

export const createConflictError = (message: string) => new AppError(409, 'conflict', message);

/** A unique violation that names no request field (src/unique-constraints.ts). */
export const createUniqueConflictError = () =>
  createConflictError('The request conflicts with data that already exists.');

/**
 * A foreign key violation on a write: a row the request refers to was deleted between the
 * service's check and the write (every foreign key cascades or sets null on delete, so nothing
 * else raises one).
 */
export const createRemovedMeanwhileError = () =>
  createConflictError('The request refers to something that was removed meanwhile.');

/**
 * A deadlock (40P01) or serialization failure (40001): PostgreSQL ended the transaction because
 * another one, made at the same time, held what it needed. It was rolled back whole.
 */
export const createConcurrentChangeError = () =>
  createConflictError(
    'The request collided with another one made at the same time; nothing was changed. Try again.',
  );

export const createRateLimitedError = (retryAfterSeconds: number) =>
  new AppError(429, 'rate_limited', 'Too many requests.', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

export const createUnsupportedMediaTypeError = (message = 'Unsupported media type.') =>
  new AppError(415, 'unsupported_media_type', message);

export const createPayloadTooLargeError = (message = 'The payload is too large.') =>
  new AppError(413, 'payload_too_large', message);

export const createNotConfiguredError = (message: string) => new AppError(503, 'not_configured', message);

/** A dependency of ours (the database) is down or overloaded, or we are shutting down: the request may succeed later. */
export const createServiceUnavailableError = (
  message = 'The service is temporarily unavailable. Try again shortly.',
) => new AppError(503, 'service_unavailable', message, undefined, { 'retry-after': '5' });

export const createProviderUnavailableError = (message = 'The upstream provider is unavailable.') =>
  new AppError(502, 'provider_unavailable', message);

/** The fields of a PostgreSQL error (postgres.js) that the error handler reads. */
export interface PgErrorFields {
  code: string;
  constraint_name?: string;
}

/** The PostgreSQL error inside an error: Drizzle wraps it (`DrizzleQueryError.cause`). */
export function pgErrorOf(error: unknown): PgErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return current as PgErrorFields;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** PostgreSQL error code of a Drizzle-wrapped error (Drizzle puts it on `cause`). */
export const pgErrorCode = (error: unknown): string | undefined => pgErrorOf(error)?.code;
