// A multipart upload with its progress: fetch cannot report an upload's progress, so this one
// request of the dashboard goes through XMLHttpRequest, with the same bearer token, the same
// error shape (ApiError) and the same 401 rule as the typed client.
import { apiBaseUrl } from '../config.ts';
import { apiErrorOf, NetworkError } from './errors.ts';
import type { paths } from './schema.gen.ts';
import { endSession, getSession } from './session.ts';

type PostPath = { [P in keyof paths]: paths[P] extends { post: unknown } ? P : never }[keyof paths];
type Answer<P extends PostPath> = paths[P] extends {
  post: { responses: { 200: { content: { 'application/json': infer T } } } };
}
  ? T
  : never;

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** `path` with its `{name}` segments filled from `params`. */
function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

export function uploadForm<P extends PostPath>(
  path: P,
  form: FormData,
  onProgress: (progress: UploadProgress) => void,
  options: { params?: Record<string, string | number>; signal?: AbortSignal } = {},
): Promise<Answer<P>> {
  const { params = {}, signal } = options;
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${apiBaseUrl}${fillPath(path, params)}`);
    const session = getSession();
    if (session) request.setRequestHeader('Authorization', `Bearer ${session.token}`);
    request.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.total });
    request.onerror = () => reject(new NetworkError());
    request.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status >= 200 && request.status < 300) return resolve(body as Answer<P>);
      if (request.status === 401 && session) endSession();
      const headers = new Headers();
      const retryAfter = request.getResponseHeader('retry-after');
      if (retryAfter) headers.set('retry-after', retryAfter);
      reject(apiErrorOf(new Response(null, { status: request.status, headers }), body));
    };
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(form);
  });
}
