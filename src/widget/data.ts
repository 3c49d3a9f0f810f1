// Loading a finder's payload: the published file from the CDN (config.json -> its versioned
// file) and, when the finder was never published, the API's details route. Either way the
// finder's authorized_urls decide whether the page embedding the widget may show it, by the
// rule the API applies to its requests (src/lib/origin-rules.ts): the CDN's copy is public,
// so the widget itself must refuse to render on a site the finder does not list. No cookies
// go out (credentials: omit).
import { finderAllowsOrigin } from '../lib/origin-rules.ts';
import { locationsIn, readManifestAreas } from './chunked/nearest-areas.ts';
import type { Endpoints } from './endpoints.ts';
import type { ChunkedSource, FinderLocation, FinderPayload } from './types.ts';

export type LoadResult =
  | {
      ok: true;
      /** A chunked finder's payload has no locations: `chunked` says where they are. */
      payload: FinderPayload;
      source: 'cdn' | 'api';
      chunked?: ChunkedSource;
    }
  | { ok: false; reason: 'forbidden' | 'not_found' | 'failed' };

/**
 * A request for the finder's files that has not finished by then fails, body included: a
 * stalled CDN or API otherwise left the widget saying "Loading" for good, where a failure is
 * said and, for a chunked finder's files, asked again when next needed. Generous: the largest
 * file, the index of 100,000 locations (about 1 MB gzip), takes some 5 s on a phone's network.
 */
export const FETCH_TIMEOUT_MS = 30_000;

async function getJson(url: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  // AbortSignal.timeout is missing from Safari 15, which the widget supports.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, { credentials: 'omit', mode: 'cors', signal: controller.signal });
    const body = response.ok ? await response.json() : undefined;
    return { status: response.status, body };
  } finally {
    clearTimeout(timer);
  }
}

/** A file's JSON body; rejects on any failure (a chunked finder's area and index files). */
export async function fetchJson(url: string, timeoutMs = FETCH_TIMEOUT_MS): Promise<unknown> {
  const { status, body } = await getJson(url, timeoutMs);
  if (status !== 200) throw new Error(`${url} answered ${status}`);
  return body;
}

/** A list of strings, or undefined for anything else. */
function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string') ? value : undefined;
}

/** A location document with the lists filters rely on (optional in older payloads); undefined when it is not one. */
export function asLocation(body: unknown): FinderLocation | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const location = body as FinderLocation;
  if (typeof location.id !== 'number' || typeof location.title !== 'string') return undefined;
  return {
    ...location,
    tags: Array.isArray(location.tags) ? location.tags : [],
    sets: Array.isArray(location.sets) ? location.sets : [],
    custom_fields:
      location.custom_fields && typeof location.custom_fields === 'object' ? location.custom_fields : {},
  };
}

/** The manifest's `chunked` read against its URL, or undefined when it is not of its shape. */
function asChunked(value: unknown, manifestUrl: string): ChunkedSource | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { areas, count, index, hours, clusters } = value as Record<string, unknown>;
  const read = readManifestAreas(areas);
  // The count numbers the finder's locations, which are the areas' together.
  if (!read || count !== locationsIn(read) || typeof index !== 'string') {
    return undefined;
  }
  const summaries = (clusters as { path?: unknown } | undefined)?.path;
  return {
    areas: read,
    count,
    index: new URL(index, manifestUrl).href,
    // Manifests without the flag are read as having hours: the filter then finds none open.
    hours: hours !== false,
    base: manifestUrl,
    // Without them (or unreadable), the map waits for the index.
    clusters: typeof summaries === 'string' ? new URL(summaries, manifestUrl).href : undefined,
  };
}

function asPayload(body: unknown, authorizedUrls: string[]): FinderPayload | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const payload = body as FinderPayload;
  if (!Array.isArray(payload.locations) && !('chunked' in payload)) return undefined;
  // The lists are optional in older payloads; each location keeps the shape filters rely on.
  return {
    ...payload,
    authorized_urls: authorizedUrls,
    settings: Array.isArray(payload.settings) ? payload.settings : [],
    advanced_refinements: Array.isArray(payload.advanced_refinements) ? payload.advanced_refinements : [],
    tags: Array.isArray(payload.tags) ? payload.tags : [],
    sets: Array.isArray(payload.sets) ? payload.sets : [],
    custom_fields: Array.isArray(payload.custom_fields) ? payload.custom_fields : [],
    locations: Array.isArray(payload.locations)
      ? payload.locations.map(asLocation).filter((location) => location !== undefined)
      : [],
  };
}

/**
 * The published payload, or undefined when the CDN has none usable: never published,
 * unreadable, or published before payloads carried authorized_urls (the API's copy then
 * applies the finder's current list). The pointer's `url` is read against the pointer's own
 * URL, so a relative one (`v/{sha1}.json`) follows the CDN wherever it is served from, and an
 * absolute one still works.
 */
async function fromCdn(
  token: string,
  endpoints: Endpoints,
  timeoutMs: number,
): Promise<{ payload: FinderPayload; chunked?: ChunkedSource } | undefined> {
  try {
    const pointerUrl = `${endpoints.cdnUrl}/finders/${encodeURIComponent(token)}/config.json`;
    const pointer = await getJson(pointerUrl, timeoutMs);
    const url = (pointer.body as { url?: unknown } | undefined)?.url;
    if (typeof url !== 'string' || url === '') return undefined;
    // The versioned file is immutable, so the browser cache may answer it.
    const fileUrl = new URL(url, pointerUrl).href;
    const file = await getJson(fileUrl, timeoutMs);
    const fields = file.body as { authorized_urls?: unknown; chunked?: unknown } | undefined;
    const authorizedUrls = stringList(fields?.authorized_urls);
    if (authorizedUrls === undefined) return undefined;
    const payload = asPayload(file.body, authorizedUrls);
    if (!payload) return undefined;
    if (fields?.chunked === undefined) return { payload };
    // A manifest this widget cannot read: the API's full payload serves instead.
    const chunked = asChunked(fields.chunked, fileUrl);
    return chunked ? { payload, chunked } : undefined;
  } catch {
    return undefined;
  }
}

/** The payload when `pageOrigin` may show it; the refusal the API's 403 gives otherwise. */
function admit(
  payload: FinderPayload,
  source: 'cdn' | 'api',
  pageOrigin: string,
  chunked?: ChunkedSource,
): LoadResult {
  if (!finderAllowsOrigin(payload.authorized_urls, pageOrigin)) return { ok: false, reason: 'forbidden' };
  return chunked ? { ok: true, payload, source, chunked } : { ok: true, payload, source };
}

/**
 * The finder's payload for a page of `pageOrigin` (`window.location.origin` of the page
 * embedding the widget): from the CDN when published, else from the API (also when the CDN
 * does not answer within `timeoutMs`).
 */
export async function loadFinder(
  token: string,
  endpoints: Endpoints,
  pageOrigin: string,
  timeoutMs = FETCH_TIMEOUT_MS,
): Promise<LoadResult> {
  const published = await fromCdn(token, endpoints, timeoutMs);
  if (published) return admit(published.payload, 'cdn', pageOrigin, published.chunked);
  try {
    const { status, body } = await getJson(
      `${endpoints.apiUrl}/ext/finders/details/${encodeURIComponent(token)}`,
      timeoutMs,
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
