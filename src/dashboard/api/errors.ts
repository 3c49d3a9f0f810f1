// An error answer of the API as the screens use it: the body's `{message, code, errors}` (the
// service's one error shape), the status, and for 429 and 503 when to try again.

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldErrors = {},
    /** Seconds, from Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The messages of one field, by its dotted path (`settings.1.value`). */
  field(path: string): string[] | undefined {
    return this.fields[path];
  }
}

/** The connection failed or was cut: no answer at all. */
export class NetworkError extends Error {
  constructor() {
    super('network');
    this.name = 'NetworkError';
  }
}

function isErrorBody(body: unknown): body is { message: string; code: string; errors?: FieldErrors } {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { message?: unknown }).message === 'string' &&
    typeof (body as { code?: unknown }).code === 'string'
  );
}

export function apiErrorOf(response: Response, body: unknown): ApiError {
  const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
  const seconds = Number.isFinite(retryAfter) ? retryAfter : undefined;
  if (isErrorBody(body))
    return new ApiError(response.status, body.code, body.message, body.errors ?? {}, seconds);
  return new ApiError(
    response.status,
    'unknown',
    response.statusText || `HTTP ${response.status}`,
    {},
    seconds,
  );
}

/**
 * What the service would refuse, found before sending (the service's own rules run in the
 * browser): a 422 of the same shape, so the form shows it as it shows the service's.
 */
export const refusedBeforeSending = (fields: FieldErrors) =>
  new ApiError(422, 'validation_failed', 'The form has errors.', fields);

/** A 422: its errors belong beside their fields. */
export const isValidationError = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 422;

/** Worth a retry without changing anything: the service or the network was briefly unavailable. */
export const isTransient = (error: unknown) =>
  error instanceof NetworkError ||
  (error instanceof ApiError && (error.status === 503 || error.status === 502));
