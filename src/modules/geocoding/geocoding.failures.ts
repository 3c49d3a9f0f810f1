// What a geocoder failure means for the work that asked (docs/api.md, Geocoding):
//   - `refused`: the provider refuses the key or the account (401, 403, Google REQUEST_DENIED or
//     OVER_DAILY_LIMIT). Nothing will work until a person fixes it: stop, never retry.
//   - `transient`: no answer in time, no connection, a 5xx, 429, Google OVER_QUERY_LIMIT or
//     UNKNOWN_ERROR. Worth retrying after a pause.
//   - `address`: anything else (a 4xx for this request, INVALID_REQUEST, a body of another shape):
//     this address failed; the next one may not.
//   - `aborted`: the caller cancelled.
import { UpstreamError } from '../../lib/upstream.ts';

export type GeocoderFailure = 'refused' | 'transient' | 'address' | 'aborted';

const REFUSED_BODY_STATUSES = new Set(['REQUEST_DENIED', 'OVER_DAILY_LIMIT']);
const TRANSIENT_BODY_STATUSES = new Set(['OVER_QUERY_LIMIT', 'UNKNOWN_ERROR']);

/** Google's `status` of a 200 that reported a failure. */
function bodyStatus(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const status = (body as { status?: unknown }).status;
  return typeof status === 'string' ? status : undefined;
}

export function classifyGeocoderFailure(error: unknown): GeocoderFailure {
  if (!(error instanceof UpstreamError)) {
    return error instanceof Error && error.name === 'AbortError' ? 'aborted' : 'address';
  }
  switch (error.failure) {
    case 'aborted':
      return 'aborted';
    case 'timeout':
    case 'network':
      return 'transient';
    case 'invalid_body':
      return 'address';
    case 'status': {
      const status = error.status ?? 0;
      if (status === 401 || status === 403) return 'refused';
      if (status === 429 || status >= 500) return 'transient';
      const reported = status === 200 ? bodyStatus(error.body) : undefined;
      if (reported && REFUSED_BODY_STATUSES.has(reported)) return 'refused';
      if (reported && TRANSIENT_BODY_STATUSES.has(reported)) return 'transient';
      return 'address';
    }
  }
}
