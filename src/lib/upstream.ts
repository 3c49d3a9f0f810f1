// Calls to external HTTP services (Paddle, the model, geocoders, autocomplete providers): one
// fetch wrapper so every call is bounded by a timeout, can be aborted by the caller (a client
// that left, a cancelled job), and fails with one error type the services map to 502/503.
// Never put a URL with its query string into an error message: query strings carry API keys.

/** Why an upstream call failed: no answer in time, no connection, a non-2xx answer, or a body that was not JSON. */
export type UpstreamFailure = 'timeout' | 'network' | 'status' | 'invalid_body' | 'aborted';

export class UpstreamError extends Error {
  constructor(
    /** A short name of the service ("paddle", "photon"), for logs. */
    readonly service: string,
    readonly failure: UpstreamFailure,
    message: string,
    /** The HTTP status when the service answered. */
    readonly status?: number,
    /** The parsed (or raw text) body of a non-2xx answer, for the caller to read provider error codes. */
    readonly body?: unknown,
  ) {
    super(`${service}: ${message}`);
    this.name = 'UpstreamError';
  }
}

export interface UpstreamRequest {
  service: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as JSON when an object, as is when a string. */
  body?: unknown;
  /** The whole call, connection to last byte. */
  timeoutMs: number;
  /** The caller's own cancellation (the request closed, the job was cancelled). */
  signal?: AbortSignal;
}

export interface UpstreamResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** The path of a URL without its query string, safe to log. */
export const redactUrl = (url: string | URL) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};

/** Sends a request and parses a JSON answer; any failure is an UpstreamError. */
export async function requestJson<T = unknown>(
  url: string | URL,
  request: UpstreamRequest,
): Promise<UpstreamResponse<T>> {
  const { service, method = 'GET', timeoutMs, signal } = request;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }

  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method, headers, body, signal: combined, redirect: 'error' });
    text = await response.text();
  } catch (error) {
    if (timeout.aborted) {
      throw new UpstreamError(service, 'timeout', `no answer within ${timeoutMs} ms (${redactUrl(url)})`);
    }
    if (signal?.aborted) throw new UpstreamError(service, 'aborted', 'the call was cancelled');
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new UpstreamError(service, 'network', `could not reach ${redactUrl(url)} (${reason})`);
  }

  let parsed: unknown = text;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      if (response.ok) {
        throw new UpstreamError(
          service,
          'invalid_body',
          `answered ${response.status} with a body that is not JSON`,
        );
      }
    }
  } else {
    parsed = undefined;
  }
  if (!response.ok) {
    throw new UpstreamError(service, 'status', `answered ${response.status}`, response.status, parsed);
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}
