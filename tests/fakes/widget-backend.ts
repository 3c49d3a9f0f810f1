// A stand-in for the service as the widget sees it, over real HTTP on one origin: GET
// /widget.js (the built file, served like the real route does), the CDN's published files
// (/cdn/finders/{token}/config.json and the versioned file), GET /api/ext/finders/details/
// {token} with an origin allow-list (403 {message, code: "forbidden"}), autocomplete and
// place lookup, and POST /api/analytics recording what arrives. CORS as the service answers it.
//
// The interface is deliberately the one a helper around the real app can offer too
// ({apiUrl, cdnUrl, scriptUrl, token, analyticsEvents(), close()}), so the browser tests can
// switch to the real service by replacing this file's start function.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contentHash, createWidgetBundle } from '../../src/modules/widget/widget.bundle.ts';
import type { FinderPayload } from '../../src/widget/types.ts';
import { PLACES } from './widget-payload.ts';

export interface FakeFinder {
  payload: FinderPayload;
  /** Published to the CDN (config.json + versioned file); otherwise only the API answers. */
  published?: boolean;
  /** Origins allowed on the details route; empty or missing allows every origin. */
  authorizedOrigins?: string[];
}

export interface ReceivedAnalytics {
  finder_token: string;
  type: string;
  location_id?: number;
  query?: string;
  session_id?: string;
  occurred_at?: string;
  /** How the request came: its Content-Type and Sec-Fetch-Mode headers. */
  contentType: string;
  fetchMode: string;
}

export interface WidgetBackend {
  apiUrl: string;
  cdnUrl: string;
  scriptUrl: string;
  /** The first finder's token. */
  token: string;
  analyticsEvents(): ReceivedAnalytics[];
  /** Fake only: answer autocomplete with this status (429, 502) until set back to null. */
  failAutocomplete(status: number | null): void;
  close(): Promise<void>;
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The caller's origin as the service reads it: Origin, else the Referer's origin. */
function callerOrigin(request: IncomingMessage): string | undefined {
  if (request.headers.origin) return request.headers.origin;
  try {
    return request.headers.referer ? new URL(request.headers.referer).origin : undefined;
  } catch {
    return undefined;
  }
}

export async function startWidgetBackend(options: {
  widgetDir: string;
  finders: FakeFinder[];
}): Promise<WidgetBackend> {
  // Serialized once, as a published file is: a CDN serves bytes, it does not build them.
  const finders = new Map(
    options.finders.map((finder) => {
      const json = JSON.stringify(finder.payload);
      return [finder.payload.token, { ...finder, json, hash: contentHash(json) }];
    }),
  );
  const events: ReceivedAnalytics[] = [];
  let autocompleteFailure: number | null = null;
  let widget: ReturnType<typeof createWidgetBundle> | undefined;
  let base = '';

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', base);
    const origin = request.headers.origin;
    // The service reflects any origin (its public routes check authorized_urls themselves).
    response.setHeader('access-control-allow-origin', origin ?? '*');
    response.setHeader('vary', 'Origin');
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '',
      });
      response.end();
      return;
    }
    const path = url.pathname;

    if (path === '/widget.js') {
      const served = await widget?.read();
      if (!served) return json(response, 404, { message: 'not built', code: 'not_found' });
      response.writeHead(200, {
        'content-type': 'application/javascript; charset=utf-8',
        etag: `"${served.tag}"`,
        'cache-control': 'public, max-age=300',
      });
      response.end(served.identity);
      return;
    }

    const pointer = path.match(/^\/cdn\/finders\/([^/]+)\/config\.json$/);
    if (pointer) {
      const finder = finders.get(decodeURIComponent(pointer[1] as string));
      if (!finder?.published) return json(response, 404, { message: 'File not found.', code: 'not_found' });
      const { hash } = finder;
      return json(
        response,
        200,
        {
          hash,
          url: `${base}/cdn/finders/${finder.payload.token}/v/${hash}.json`,
          published_at: new Date().toISOString(),
        },
        { 'cache-control': 'public, max-age=60' },
      );
    }

    const versioned = path.match(/^\/cdn\/finders\/([^/]+)\/v\/([0-9a-f]+)\.json$/);
    if (versioned) {
      const finder = finders.get(decodeURIComponent(versioned[1] as string));
      if (!finder?.published || finder.hash !== versioned[2]) {
        return json(response, 404, { message: 'File not found.', code: 'not_found' });
      }
      return json(response, 200, finder.json, { 'cache-control': 'public, max-age=31536000, immutable' });
    }

    const details = path.match(/^\/api\/ext\/finders\/details\/([^/]+)$/);
    if (details && request.method === 'GET') {
      const finder = finders.get(decodeURIComponent(details[1] as string));
      if (!finder) return json(response, 404, { message: 'Not found.', code: 'not_found' });
      const allowed = finder.authorizedOrigins ?? [];
      const caller = callerOrigin(request);
      if (allowed.length > 0 && (!caller || !allowed.includes(caller))) {
        return json(response, 403, {
          message: 'This origin is not allowed to load the finder.',
          code: 'forbidden',
        });
      }
      return json(response, 200, finder.json);
    }

    if (path === '/api/mapping/autocomplete') {
      if (autocompleteFailure === 429) {
        return json(
          response,
          429,
          { message: 'Too many requests.', code: 'rate_limited' },
          { 'retry-after': '30' },
        );
      }
      if (autocompleteFailure) {
        return json(response, autocompleteFailure, {
          message: 'Provider unavailable.',
          code: 'provider_unavailable',
        });
      }
      if (!finders.has(url.searchParams.get('finder_key') ?? '')) {
        return json(response, 404, { message: 'Not found.', code: 'not_found' });
      }
      const query = (url.searchParams.get('q') ?? '').toLowerCase();
      const suggestions = PLACES.filter((place) => place.description.toLowerCase().includes(query)).map(
        ({ place_id, description }) => ({ place_id, description }),
      );
      return json(response, 200, { suggestions, provider: 'photon' });
    }

    if (path === '/api/mapping/places') {
      const place = PLACES.find((candidate) => candidate.place_id === url.searchParams.get('place_id'));
      if (!place || url.searchParams.get('provider') !== 'photon') {
        return json(response, 404, { message: 'Not found.', code: 'not_found' });
      }
      return json(response, 200, { lat: place.lat, lng: place.lng, address: place.description });
    }

    if (path === '/api/analytics' && request.method === 'POST') {
      const body = JSON.parse(await readBody(request)) as {
        finder_token: string;
        events: Omit<ReceivedAnalytics, 'finder_token' | 'contentType' | 'fetchMode'>[];
      };
      if (!finders.has(body.finder_token))
        return json(response, 404, { message: 'Not found.', code: 'not_found' });
      if (!Array.isArray(body.events) || body.events.length > 100) {
        return json(response, 422, { message: 'The given data was invalid.', code: 'validation_failed' });
      }
      for (const event of body.events) {
        events.push({
          ...event,
          finder_token: body.finder_token,
          contentType: request.headers['content-type'] ?? '',
          fetchMode: String(request.headers['sec-fetch-mode'] ?? ''),
        });
      }
      return json(response, 200, { received: body.events.length });
    }

    json(response, 404, { message: 'Not found.', code: 'not_found' });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      json(response, 500, { message: String(error), code: 'internal_error' });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  widget = createWidgetBundle(options.widgetDir, `${base}/cdn`);

  const first = options.finders[0];
  if (!first) throw new Error('the fake backend needs at least one finder');
  return {
    apiUrl: `${base}/api`,
    cdnUrl: `${base}/cdn`,
    scriptUrl: `${base}/widget.js`,
    token: first.payload.token,
    analyticsEvents: () => [...events],
    failAutocomplete(status) {
      autocompleteFailure = status;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
