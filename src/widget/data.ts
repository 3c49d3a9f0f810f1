// Loading a finder's payload: the published file from the CDN (config.json -> its versioned
// file) and, when the finder was never published, the API's details route, which checks the
// page's origin against the finder's authorized_urls. No cookies go out (credentials: omit).
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

function asPayload(body: unknown): FinderPayload | undefined {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as FinderPayload).locations)) {
    return undefined;
  }
  const payload = body as FinderPayload;
  // The lists are optional in older payloads; each location keeps the shape filters rely on.
  return {
    ...payload,
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

/** The published payload, or undefined when the CDN has none (never published, or unreadable). */
async function fromCdn(token: string, endpoints: Endpoints): Promise<FinderPayload | undefined> {
  try {
    const pointer = await getJson(`${endpoints.cdnUrl}/finders/${encodeURIComponent(token)}/config.json`);
    const url = (pointer.body as { url?: unknown } | undefined)?.url;
    if (typeof url !== 'string') return undefined;
    // The versioned file is immutable, so the browser cache may answer it.
    const file = await getJson(new URL(url, endpoints.cdnUrl).href);
    return asPayload(file.body);
  } catch {
    return undefined;
  }
}

export async function loadFinder(token: string, endpoints: Endpoints): Promise<LoadResult> {
  const published = await fromCdn(token, endpoints);
  if (published) return { ok: true, payload: published, source: 'cdn' };
  try {
    const { status, body } = await getJson(
      `${endpoints.apiUrl}/ext/finders/details/${encodeURIComponent(token)}`,
    );
    if (status === 403) return { ok: false, reason: 'forbidden' };
    if (status === 404) return { ok: false, reason: 'not_found' };
    const payload = asPayload(body);
    return payload ? { ok: true, payload, source: 'api' } : { ok: false, reason: 'failed' };
  } catch {
    return { ok: false, reason: 'failed' };
  }
}
