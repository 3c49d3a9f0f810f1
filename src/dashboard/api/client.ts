// The one way the dashboard calls the API: openapi-fetch over the types generated from the
// service's OpenAPI document (schema.gen.ts), with the session's bearer token added, every
// error answer turned into an ApiError, and a 401 on a signed-in call ending the session (the
// router then asks to sign in and comes back to the same page).
import createClient, { type Middleware } from 'openapi-fetch';
import { apiBaseUrl } from '../config.ts';
import { ApiError, apiErrorOf, NetworkError } from './errors.ts';
import type { paths } from './schema.gen.ts';
import { endSession, getSession } from './session.ts';

const auth: Middleware = {
  onRequest({ request }) {
    const session = getSession();
    if (session) request.headers.set('Authorization', `Bearer ${session.token}`);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && request.headers.has('Authorization')) endSession();
    return response;
  },
};

export const api = createClient<paths>({
  baseUrl: apiBaseUrl,
  async fetch(request) {
    try {
      return await fetch(request);
    } catch (error) {
      if (request.signal.aborted) throw error;
      throw new NetworkError();
    }
  },
});
api.use(auth);

/** An answer's data, or its error thrown as an ApiError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.error === undefined) return result.data as T;
  throw apiErrorOf(result.response, result.error);
}

/** The total of a paged list (X-Total-Count), with its rows. */
export function withTotal<T>(result: { data?: T; error?: unknown; response: Response }): {
  rows: T;
  total: number;
} {
  const rows = unwrap(result);
  const total = Number.parseInt(result.response.headers.get('x-total-count') ?? '', 10);
  if (!Number.isFinite(total)) throw new ApiError(result.response.status, 'unknown', 'X-Total-Count missing');
  return { rows, total };
}
