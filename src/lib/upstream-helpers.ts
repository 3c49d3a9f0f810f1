// What every adapter of an external HTTP API (autocomplete providers, geocoders) needs on top
// of requestJson: a URL under a configurable base, and a check of a 2xx body against the shape
// the adapter reads, so a provider that changes its answer fails as an UpstreamError (a 502 for
// the caller) and not as a TypeError deep inside a mapper.
import type { z } from 'zod';
import { UpstreamError } from './upstream.ts';

export type QueryParams = Record<string, string | number | undefined>;

/**
 * `base` + `path` + the defined params. The base may carry a path prefix (a proxy, a test
 * fake), which `new URL(path, base)` would drop, so the two are joined as strings.
 */
export function upstreamUrl(base: string, path: string, params: QueryParams = {}): string {
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
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
