// One real HTTP server (node:http, a free port of 127.0.0.1) speaking the protocol of every
// autocomplete provider and geocoder the service calls: Google Places (New), Mapbox Search Box,
// HERE Geocoding & Search v7, TomTom Search v2, Geoapify, Photon, Nominatim and the Google
// Geocoding API.
// Each lives under its own path prefix (`/google`, `/here`, ...), so the code under test only
// sees other base URLs (PROVIDER_BASE_URLS, PHOTON_URL, GEOCODER_BASE_URL). Handlers in
// providers/ answer from a shared gazetteer in each provider's real response shape and check
// keys where the real API does, with the provider's real error shape. Every request is
// recorded, and each provider can be switched to fail: a 500, no answer at all, an error
// status inside a 200 (where the provider does that), or a 200 of another shape.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GEOAPIFY_KEY, geoapify } from './providers/geoapify.ts';
import { GOOGLE_KEY, googlePlaces, googleServerError } from './providers/google.ts';
import { GEOCODING_KEY, googleGeocoding, overQueryLimit } from './providers/google-geocoding.ts';
import { HERE_KEY, here } from './providers/here.ts';
import { MAPBOX_TOKEN, mapbox } from './providers/mapbox.ts';
import { nominatim } from './providers/nominatim.ts';
import { photon } from './providers/photon.ts';
import { answer, type FakeAnswer, type FakeHandler } from './providers/protocol.ts';
import { TOMTOM_KEY, tomtom } from './providers/tomtom.ts';

export { GAZETTEER, placeByKey } from './providers/gazetteer.ts';

export const FAKE_PROVIDERS = [
  'google',
  'mapbox',
  'here',
  'tomtom',
  'geoapify',
  'photon',
  'google-geocoding',
  'nominatim',
] as const;
export type FakeProvider = (typeof FAKE_PROVIDERS)[number];

/** The keys each fake accepts; any other key gets the provider's "invalid key" answer. */
export const FAKE_KEYS = {
  google: GOOGLE_KEY,
  mapbox: MAPBOX_TOKEN,
  here: HERE_KEY,
  tomtom: TOMTOM_KEY,
  geoapify: GEOAPIFY_KEY,
  'google-geocoding': GEOCODING_KEY,
} as const;

/**
 * `status_500`: a 500 in the provider's error shape. `status_503`: 503 Service Unavailable (an
 * outage). `status_429`: 429 Too Many Requests. `hang`: the request is read and never answered
 * (until close). `error_in_body`: a 200 whose body reports a failure, only where the provider
 * does that (Google Geocoding: OVER_QUERY_LIMIT). `malformed_body`: a 200 whose JSON is not the
 * provider's shape (an array). `key_refused`: the provider refuses the key as it really does
 * (Google Geocoding: REQUEST_DENIED in a 200; the others: 403).
 */
export type FailureMode =
  | 'status_500'
  | 'status_503'
  | 'status_429'
  | 'hang'
  | 'error_in_body'
  | 'malformed_body'
  | 'key_refused';

export interface RecordedRequest {
  provider: FakeProvider;
  method: string;
  /** Under the provider's prefix: `/v1/places:autocomplete`. */
  path: string;
  /** The path exactly as the request line carried it, prefix included (`/google/v1/places/a%20b`). */
  rawPath: string;
  /** Every query parameter (the last value of a repeated one). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, when there is one. */
  body: unknown;
  /** When the request arrived (performance.now(), milliseconds). */
  at: number;
}

export interface FakeProviders {
  url: string;
  requests: RecordedRequest[];
  /** The requests one provider received, in order. */
  requestsOf(provider: FakeProvider): RecordedRequest[];
  /** The last request of a provider; throws when it has none. */
  lastRequest(provider: FakeProvider): RecordedRequest;
  /** Switch a provider to fail in that way; no mode: answer normally again. */
  fail(provider: FakeProvider, mode?: FailureMode): void;
  /**
   * After `skip` more requests answered normally (default 0), the provider's next `count`
   * requests fail in that way; then it answers normally again: an outage in the middle of a run.
   */
  failNext(provider: FakeProvider, mode: Exclude<FailureMode, 'hang'>, count: number, skip?: number): void;
  /** Forget the requests and every failure. */
  reset(): void;
  /** The base URL of one provider on this server. */
  baseUrl(provider: FakeProvider): string;
  /** For PROVIDER_BASE_URLS (the object; JSON.stringify it for the variable). */
  providerBaseUrls: Record<'google' | 'mapbox' | 'here' | 'tomtom' | 'geoapify', string>;
  /** For PHOTON_URL. */
  photonUrl: string;
  /** For GEOCODER_BASE_URL with GEOCODER=google, photon or nominatim. */
  geocoderBaseUrl(kind: 'google' | 'photon' | 'nominatim'): string;
  close(): Promise<void>;
}

const HANDLERS: Record<FakeProvider, FakeHandler> = {
  google: googlePlaces,
  mapbox,
  here,
  tomtom,
  geoapify,
  photon,
  'google-geocoding': googleGeocoding,
  nominatim,
};

function failureAnswer(provider: FakeProvider, mode: Exclude<FailureMode, 'hang'>): FakeAnswer {
  // An array: no provider answers one, and Google's `{}` is a real (empty) answer.
  if (mode === 'malformed_body') return answer(200, ['not', 'this', 'provider', 'shape']);
  // fail() allows it only for Google Geocoding.
  if (mode === 'error_in_body') return overQueryLimit();
  if (mode === 'status_503') return answer(503, 'Service Unavailable');
  if (mode === 'status_429') return answer(429, 'Too Many Requests');
  if (mode === 'key_refused') {
    return provider === 'google-geocoding'
      ? answer(200, {
          error_message: 'The provided API key is invalid. ',
          results: [],
          status: 'REQUEST_DENIED',
        })
      : answer(403, { message: 'Forbidden' });
  }
  switch (provider) {
    case 'google':
      return googleServerError();
    case 'google-geocoding':
      return answer(500, 'Internal Server Error');
    case 'here':
      return answer(500, {
        status: 500,
        title: 'Internal server error',
        correlationId: 'fake',
        requestId: 'fake',
      });
    case 'tomtom':
      return answer(500, {
        errorText: 'Internal Server Error',
        detailedError: { code: 'InternalServerError', message: 'Internal Server Error' },
        httpStatusCode: 500,
      });
    case 'geoapify':
      return answer(500, {
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'An internal server error occurred',
      });
    default:
      return answer(500, { message: 'Internal Server Error' });
  }
}

function send(res: ServerResponse, { status, body }: FakeAnswer) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain' : 'application/json; charset=utf-8',
  });
  res.end(text);
}

export async function startFakeProviders(): Promise<FakeProviders> {
  const requests: RecordedRequest[] = [];
  const failures = new Map<FakeProvider, FailureMode>();
  const countedFailures = new Map<
    FakeProvider,
    { mode: Exclude<FailureMode, 'hang'>; skip: number; left: number }
  >();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      // The longest prefix first: `/google-geocoding` before `/google`.
      const provider = [...FAKE_PROVIDERS]
        .sort((a, b) => b.length - a.length)
        .find((name) => url.pathname === `/${name}` || url.pathname.startsWith(`/${name}/`));
      if (!provider) return send(res, answer(404, { message: `no fake provider at ${url.pathname}` }));
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        body = raw;
      }
      const request = {
        method: req.method ?? 'GET',
        path: url.pathname.slice(provider.length + 1) || '/',
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      requests.push({
        ...request,
        provider,
        rawPath: (req.url ?? '/').replace(/[?#].*$/s, ''),
        query: Object.fromEntries(url.searchParams),
        at: performance.now(),
      });
      const counted = countedFailures.get(provider);
      if (counted && counted.skip > 0) counted.skip -= 1;
      else if (counted && counted.left > 0) {
        counted.left -= 1;
        return send(res, failureAnswer(provider, counted.mode));
      }
      const mode = failures.get(provider);
      if (mode === 'hang') return;
      send(res, mode ? failureAnswer(provider, mode) : HANDLERS[provider](request));
    });
  });

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = (provider: FakeProvider) => `${url}/${provider}`;

  return {
    url,
    requests,
    requestsOf: (provider) => requests.filter((request) => request.provider === provider),
    lastRequest(provider) {
      const last = requests.filter((request) => request.provider === provider).at(-1);
      if (!last) throw new Error(`the ${provider} fake received no request`);
      return last;
    },
    fail(provider, mode) {
      if (mode === 'error_in_body' && provider !== 'google-geocoding') {
        throw new Error(`${provider} reports failures through HTTP statuses, not in a 200 body`);
      }
      if (mode) failures.set(provider, mode);
      else failures.delete(provider);
    },
    failNext(provider, mode, count, skip = 0) {
      countedFailures.set(provider, { mode, skip, left: count });
    },
    reset() {
      requests.length = 0;
      failures.clear();
      countedFailures.clear();
    },
    baseUrl,
    providerBaseUrls: {
      google: baseUrl('google'),
      mapbox: baseUrl('mapbox'),
      here: baseUrl('here'),
      tomtom: baseUrl('tomtom'),
      geoapify: baseUrl('geoapify'),
    },
    photonUrl: baseUrl('photon'),
    geocoderBaseUrl: (kind) => baseUrl(kind === 'google' ? 'google-geocoding' : kind),
    async close() {
      // Hanging requests keep their sockets open; close() would wait for them.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
