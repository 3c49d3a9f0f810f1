// Writes a finder and everything in it through the service's own HTTP routes, as a business
// would from a dashboard: custom field definitions, sets, locations (with tags, sets, custom
// values and an image), the finder with its settings, refinements, allowed origins (the
// input's `authorized_urls`) and locations, then a publish. Used by `npm run demo` and by the
// widget's browser tests, so both stand on the real service rather than on a hand-made payload.
//
// The input is the widget payload's own shape (src/widget/types.ts): what the widget should
// end up reading (its special days become each location's own special hours). Ids in it are the caller's; the service assigns its own, and the result maps
// one to the other.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { mapWithConcurrency } from '../src/lib/concurrency.ts';
import type { FinderPayload } from '../src/widget/types.ts';

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** One call of the API under /api, with the caller's bearer token; non-2xx answers throw. */
export type ApiCall = <T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
) => Promise<T>;

export class ApiCallError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly answer: ApiAnswer,
  ) {
    super(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}

/** Calls through `app.inject`: no port, no network, the same routes and checks. */
export function injectApi(app: FastifyInstance, token?: string): ApiCall {
  return async <T>(method: Parameters<ApiCall>[0], path: string, body?: unknown): Promise<T> => {
    const response = await app.inject({
      method,
      url: `/api${path}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const answer = {
      status: response.statusCode,
      body: response.body ? (JSON.parse(response.body) as unknown) : null,
    };
    if (response.statusCode >= 300) throw new ApiCallError(method, path, answer);
    return answer.body as T;
  };
}

/** A multipart upload of one file field, for the image route. */
export async function uploadImage(
  app: FastifyInstance,
  token: string,
  locationId: number,
  png: Buffer,
): Promise<string> {
  const boundary = `----seed${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="photo.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await app.inject({
    method: 'POST',
    url: `/api/locations/${locationId}/image`,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
  if (response.statusCode !== 200) {
    throw new ApiCallError('POST', `/locations/${locationId}/image`, {
      status: response.statusCode,
      body: response.body,
    });
  }
  return (JSON.parse(response.body) as { image_url: string }).image_url;
}

export interface SeedOptions {
  /** Image bytes for a location whose image_url is set in the input, by that URL. */
  images?: (url: string) => Promise<Buffer>;
  /** The app itself, needed for image uploads (multipart) and with `token`. */
  app?: FastifyInstance;
  token?: string;
  /** Locations created at once (default 1: in the payload's order, ids ascending). */
  concurrency?: number;
}

export interface SeededFinder {
  id: number;
  token: string;
  /** The input's location ids to the service's. */
  locationIds: Map<number, number>;
  setIds: Map<number, number>;
}

/**
 * Creates the finder of `content` in `workspaceId`. Location tags are given by slug in the
 * payload and created by name (the service makes its own slugs); set ids and `set` refinement
 * values are translated to the created sets.
 */
export async function seedFinder(
  api: ApiCall,
  workspaceId: number,
  content: FinderPayload,
  options: SeedOptions = {},
): Promise<SeededFinder> {
  for (const field of content.custom_fields) {
    await api('POST', '/custom-field-definitions', {
      workspace_id: workspaceId,
      name: field.name,
      label: field.label,
      type: field.type,
      ...(field.options ? { options: field.options } : {}),
    });
  }

  const setIds = new Map<number, number>();
  for (const set of content.sets) {
    const created = await api<{ id: number }>('POST', '/sets', { workspace_id: workspaceId, name: set.name });
    setIds.set(set.id, created.id);
  }

  const tagNames = new Map(content.tags.map((tag) => [tag.slug, tag.name]));
  const locationIds = new Map<number, number>();
  await mapWithConcurrency(content.locations, options.concurrency ?? 1, async (location) => {
    const { id, tags, sets, custom_fields, image_url, special_days, ...fields } = location;
    const created = await api<{ id: number }>('POST', '/locations', {
      ...fields,
      // The payload's special days are the location's own special hours, one a date.
      ...(special_days?.length
        ? { special_hours: special_days.map(([date, hours, label]) => ({ date, hours, label })) }
        : {}),
      workspace_id: workspaceId,
      tags: tags.map((slug) => tagNames.get(slug) ?? slug),
      set_ids: sets.map((set) => setIds.get(set)).filter((set) => set !== undefined),
      custom_fields,
    });
    locationIds.set(id, created.id);
    if (image_url && options.images && options.app && options.token) {
      await uploadImage(options.app, options.token, created.id, await options.images(image_url));
    }
  });

  const finder = await api<{ id: number; token: string }>('POST', '/finders', {
    workspace_id: workspaceId,
    name: content.name,
  });
  await api('PUT', `/finders/${finder.id}`, {
    name: content.name,
    settings: content.settings,
    advanced_refinements: content.advanced_refinements.map((refinement) => ({
      ...refinement,
      conditions: refinement.conditions.map((condition) =>
        condition.field === 'set'
          ? { ...condition, value: translateSetValue(condition.value, setIds) }
          : condition,
      ),
    })),
    authorized_urls: content.authorized_urls,
    locations: content.locations.map((location, index) => ({
      location_id: locationIds.get(location.id),
      sort_order: index,
    })),
  });
  return { id: finder.id, token: finder.token, locationIds, setIds };
}

function translateSetValue(value: unknown, setIds: Map<number, number>): unknown {
  if (Array.isArray(value)) return value.map((item) => translateSetValue(item, setIds));
  return typeof value === 'number' ? (setIds.get(value) ?? value) : value;
}

/** Publishes the finder to the CDN (POST .../sync); answers the published hash. */
export async function publishFinder(api: ApiCall, token: string): Promise<string> {
  const published = await api<{ hash: string }>(
    'POST',
    `/ext/finders/details/${encodeURIComponent(token)}/sync`,
  );
  return published.hash;
}
