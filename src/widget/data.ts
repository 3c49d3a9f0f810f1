// Loading a finder's payload: the published file from the CDN (config.json -> its versioned
// file) and, when the finder was never published, the API's details route. Either way the
// finder's authorized_urls decide whether the page embedding the widget may show it, by the
// rule the API applies to its requests (src/lib/origin-rules.ts): the CDN's copy is public,
// so the widget itself must refuse to render on a site the finder does not list. No cookies
// go out (credentials: omit).
import { finderAllowsOrigin } from '../lib/origin-rules.ts';
import type { Endpoints } from './endpoints.ts';
import type { FinderPayload } from './types.ts';

export type LoadResult =
  | { ok: true; payload: FinderPayload; source: 'cdn' | 'api' }
  | { ok: false; reason: 'forbidden' | 'not_found' | 'failed' };

async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { credentials: 'omit', mode: 'cors' });
  const body = response.ok ? await response.json() : undefined;
  return { status: response.status, body };
}

/** A list of strings, or undefined for anything else. */
function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string') ? value : undefined;
}

function asPayload(body: unknown, authorizedUrls: string[]): FinderPayload | undefined {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as FinderPayload).locations)) {
    return undefined;
  }
  const payload = body as FinderPayload;
  // The lists are optional in older payloads; each location keeps the shape filters rely on.
  return {
    ...payload,
    authorized_urls: authorizedUrls,
    settings: Array.isArray(payload.settings) ? payload.settings : [],
    advanced_refinements: Array.isArray(payload.advanced_refinements) ? payload.advanced_refinements : [],
    tags: Array.isArray(payload.tags) ? payload.tags : [],
    sets: Array.isArray(payload.sets) ? payload.sets : [],
    custom_fields: Array.isArray(payload.custom_fields) ? payload.custom_fields : [],
    locations: payload.locations.map((location) => ({
      ...location,
      tags: Array.isArray(location.tags) ? location.tags : [],
      sets: Array.isArray(location.sets) ? location.sets : [],
      custom_fields:
        location.custom_fields && typeof location.custom_fields === 'object' ? location.custom_fields : {},
    })),
  };
}

/**
 * The published payload, or undefined when the CDN has none usable: never published,
 * unreadable, or published before payloads carried authorized_urls (the API's copy then
 * applies the finder's current list). The pointer's `url` is read against the pointer's own
 * URL, so a relative one (`v/{sha1}.json`) follows the CDN wherever it is served from, and an
 * absolute one still works.
 */
async function fromCdn(token: string, endpoints: Endpoints): Promise<FinderPayload | undefined> {
  try {
    const pointerUrl = `${endpoints.cdnUrl}/finders/${encodeURIComponent(token)}/config.json`;
    const pointer = await getJson(pointerUrl);
    const url = (pointer.body as { url?: unknown } | undefined)?.url;
    if (typeof url !== 'string' || url === '') return undefined;
    // The versioned file is immutable, so the browser cache may answer it.
    const file = await getJson(new URL(url, pointerUrl).href);
    const authorizedUrls = stringList(
      (file.body as { authorized_urls?: unknown } | undefined)?.authorized_urls,
    );
    if (authorizedUrls === undefined) return undefined;
    return asPayload(file.body, authorizedUrls);
  } catch {
    return undefined;
  }
}

/** The payload when `pageOrigin` may show it; the refusal the API's 403 gives otherwise. */
function admit(payload: FinderPayload, source: 'cdn' | 'api', pageOrigin: string): LoadResult {
  if (!finderAllowsOrigin(payload.authorized_urls, pageOrigin)) return { ok: false, reason: 'forbidden' };
  return { ok: true, payload, source };
}

/**
 * The finder's payload for a page of `pageOrigin` (`window.location.origin` of the page
 * embedding the widget): from the CDN when published, else from the API.
 */
export async function loadFinder(
  token: string,
  endpoints: Endpoints,
  pageOrigin: string,
): Promise<LoadResult> {
  const published = await fromCdn(token, endpoints);
  if (published) return admit(published, 'cdn', pageOrigin);
  try {
    const { status, body } = await getJson(
      `${endpoints.apiUrl}/ext/finders/details/${encodeURIComponent(token)}`,
    );
    if (status === 403) return { ok: false, reason: 'forbidden' };
    if (status === 404) return { ok: false, reason: 'not_found' };
    // The API applied the list to this page's request already; it sends it all the same.
    const authorizedUrls = stringList((body as { authorized_urls?: unknown } | undefined)?.authorized_urls);
    const payload = asPayload(body, authorizedUrls ?? []);
    return payload ? admit(payload, 'api', pageOrigin) : { ok: false, reason: 'failed' };
  } catch {
    return { ok: false, reason: 'failed' };
  }
}
