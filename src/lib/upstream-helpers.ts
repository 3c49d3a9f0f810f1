// What every adapter of an external HTTP API (autocomplete providers, geocoders) needs on top
// of requestJson: a URL under a configurable base whose path no value can change, and a check of
// a 2xx body against the shape the adapter reads, so a provider that changes its answer fails as
// an UpstreamError (a 502 for the caller) and not as a TypeError deep inside a mapper.
import type { z } from 'zod';
import { UpstreamError } from './upstream.ts';

export type QueryParams = Record<string, string | number | undefined>;

/**
 * A URL path with values in it: `` urlPath`/v1/places/${placeId}` ``. Each value is
 * percent-encoded whole (encodeURIComponent: `/`, `\`, `?`, `#` and `%` included), so it can
 * neither add a segment nor end the path. A value that leaves a segment `.` or `..` (which
 * encoding does not touch, and which the URL parser would resolve, climbing out of the
 * provider's path with the customer's key), or an empty one, throws: the callers' schemas refuse
 * such input first, so this is a programming error, never a request sent elsewhere.
 */
export function urlPath(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let path = strings[0]!;
  values.forEach((value, index) => {
    const text = String(value);
    if (text === '') throw new TypeError('an empty value in an upstream URL path');
    path += encodeURIComponent(text) + strings[index + 1]!;
  });
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new TypeError('a dot segment in an upstream URL path');
  }
  return path;
}

/**
 * `base` + `path` + the defined params. The base may carry a path prefix (a proxy, a test
 * fake), which `new URL(path, base)` would drop, so the two are joined as strings. The path
 * must reach the provider as written: one the URL parser would rewrite (a dot segment, a
 * backslash, characters it encodes) throws, so a value put in a path without `urlPath` fails
 * loudly instead of leaving the provider's path.
 */
export function upstreamUrl(base: string, path: string, params: QueryParams = {}): string {
  const prefix = base.replace(/\/+$/, '');
  const url = new URL(`${prefix}${path}`);
  if (url.pathname !== new URL(prefix).pathname.replace(/\/$/, '') + path) {
    throw new TypeError('an upstream URL path the URL parser would rewrite');
  }
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/** The body as the schema reads it, or an UpstreamError `invalid_body`. */
export function parseUpstreamBody<S extends z.ZodType>(
  service: string,
  schema: S,
  body: unknown,
): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new UpstreamError(service, 'invalid_body', 'answered with a body of an unexpected shape');
  }
  return parsed.data;
}

/**
 * A provider that answers 200 and reports its failure in the body (Google's `status`): failure
 * `status` with the HTTP status 200, the provider's status in the message and the whole body
 * for the caller. The provider's own error_message stays out of the message: it is free text.
 */
export const createBodyStatusError = (service: string, providerStatus: string, body: unknown) =>
  new UpstreamError(service, 'status', `answered ${providerStatus}`, 200, body);
