// The widget's loader (src/widget/data.ts) against a real HTTP server standing for the CDN and
// the API, in Node: the pointer's url read against the pointer's own URL (relative, as
// publishing writes it, and absolute, as older pointers hold it), the finder's authorized_urls
// applied to the page's origin whichever copy answered, and every odd answer (a pointer
// without a usable url, a version file of an older publish, a list that is not strings, the
// API's 403/404/500) leading where docs/api.md ("Widget: settings keys and behaviour") says.
// The browser tests (origins.test.ts) cover the same in Chromium; these pin the cases.
import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchJson, loadFinder } from '../../src/widget/data.ts';
import type { Endpoints } from '../../src/widget/endpoints.ts';
import { createFinderPayload } from '../fakes/widget-payload.ts';
import { listen, stop } from './helpers/static-servers.ts';

const TOKEN = 'tok_abcdefghijklmnop';
const HASH = 'a'.repeat(40);
const PAGE = 'https://www.shop.example';

/**
 * Path -> [status, body]; anything else 404. Every request's path is recorded. A path in
 * `stalled` never finishes: no answer at all (`'silent'`), or its headers and half a body.
 */
let answers = new Map<string, [number, unknown]>();
let stalled = new Map<string, 'silent' | 'half'>();
let requests: string[] = [];
const server = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  requests.push(path);
  const stall = stalled.get(path);
  if (stall === 'silent') return;
  if (stall === 'half') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"locations": [');
    return;
  }
  const [status, body] = answers.get(path) ?? [404, { message: 'Not found.' }];
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
});
let origin: string;

beforeAll(async () => {
  origin = `http://127.0.0.1:${await listen(server)}`;
});
afterAll(async () => {
  // The stalled answers hold their connections open.
  server.closeAllConnections();
  await stop(server);
});
beforeEach(() => {
  answers = new Map();
  stalled = new Map();
  requests = [];
});

/** The CDN under a base with a path, as a bucket behind a CDN often is. */
const endpoints = (): Endpoints => ({ apiUrl: `${origin}/api`, cdnUrl: `${origin}/static/lf` });
const pointerPath = `/static/lf/finders/${TOKEN}/config.json`;
const versionPath = `/static/lf/finders/${TOKEN}/v/${HASH}.json`;
const detailsPath = `/api/ext/finders/details/${TOKEN}`;

function payload(authorizedUrls: unknown, name = 'Published') {
  return { ...createFinderPayload({ name, token: TOKEN }), authorized_urls: authorizedUrls };
}

/** A publish: the pointer (`url` as given; absent when the pointer has none) and its file. */
function publish(authorizedUrls: unknown, pointer: { url?: unknown } = { url: `v/${HASH}.json` }) {
  answers.set(pointerPath, [200, { hash: HASH, published_at: '2026-11-26T08:00:00.000Z', ...pointer }]);
  answers.set(versionPath, [200, payload(authorizedUrls)]);
}

describe('the pointer', () => {
  it('names the version relative to itself, read against the pointer, not the CDN base', async () => {
    publish([]);
    const result = await loadFinder(TOKEN, endpoints(), PAGE);
    expect(result).toMatchObject({ ok: true, source: 'cdn', payload: { name: 'Published' } });
    expect(requests).toEqual([pointerPath, versionPath]);
  });

  it('still works with an absolute url (pointers published before)', async () => {
    publish([], { url: `${origin}${versionPath}` });
    expect(await loadFinder(TOKEN, endpoints(), PAGE)).toMatchObject({ ok: true, source: 'cdn' });
    expect(requests).toEqual([pointerPath, versionPath]);
  });

  it.each([
    ['no url', {}],
    ['a null url', { url: null }],
    ['an empty url', { url: '' }],
    ['a url that is not a string', { url: 42 }],
    ['a url naming a missing file', { url: `v/${'b'.repeat(40)}.json` }],
    ['a url the page cannot parse', { url: 'http://[' }],
  ])('with %s, falls back to the API', async (_case, pointer) => {
    publish([], pointer);
    answers.set(detailsPath, [200, payload([], 'From the API')]);
    const result = await loadFinder(TOKEN, endpoints(), PAGE);
    expect(result).toMatchObject({ ok: true, source: 'api', payload: { name: 'From the API' } });
    expect(requests.at(-1)).toBe(detailsPath);
  });

  it('falls back to the API when the pointer is not JSON', async () => {
    answers.set(pointerPath, [200, 'not json']);
    answers.set(detailsPath, [200, payload([])]);
    expect(await loadFinder(TOKEN, endpoints(), PAGE)).toMatchObject({ ok: true, source: 'api' });
  });
});

describe('a chunked manifest', () => {
  /** A version file that is a manifest: the payload's fields but its locations, and `chunked`. */
  function publishManifest(count: number) {
    const { locations: _locations, ...fields } = payload([]);
    answers.set(pointerPath, [
      200,
      { hash: HASH, published_at: '2026-11-26T08:00:00.000Z', url: `v/${HASH}.json` },
    ]);
    answers.set(versionPath, [
      200,
      {
        ...fields,
        chunked: {
          areas: [
            ['c/a.json', 3, 52.5, 13.3, 52.6, 13.5, 8.2],
            ['c/b.json', 2],
          ],
          count,
          hours: false,
          index: 'i/x.json',
        },
      },
    ]);
    answers.set(detailsPath, [200, payload([], 'From the API')]);
  }

  it('is read when its count is its areas’ together', async () => {
    publishManifest(5);
    const result = await loadFinder(TOKEN, endpoints(), PAGE);
    expect(result).toMatchObject({ ok: true, source: 'cdn', chunked: { count: 5 } });
  });

  it.each([4, 6])('counting %i locations in areas of 5, leads to the API instead', async (count) => {
    publishManifest(count);
    const result = await loadFinder(TOKEN, endpoints(), PAGE);
    expect(result).toMatchObject({ ok: true, source: 'api', payload: { name: 'From the API' } });
  });
});

describe("the finder's authorized_urls", () => {
  it.each([
    ['an empty list', [], PAGE],
    ['the exact origin', ['https://www.shop.example'], PAGE],
    ['a bare host, any scheme', ['www.shop.example'], 'http://www.shop.example'],
    ['a *. rule, a subdomain at depth', ['*.shop.example'], 'https://a.b.shop.example'],
    ['an empty list, a page without an origin', [], 'null'],
  ])('%s admits the page: rendered from the CDN', async (_case, urls, page) => {
    publish(urls);
    expect(await loadFinder(TOKEN, endpoints(), page)).toMatchObject({ ok: true, source: 'cdn' });
    expect(requests).not.toContain(detailsPath);
  });

  it.each([
    ['another site', ['https://www.shop.example'], 'https://evil.example'],
    ['the same host on another scheme', ['https://www.shop.example'], 'http://www.shop.example'],
    ['the bare domain of a *. rule', ['*.shop.example'], 'https://shop.example'],
    ['a look-alike domain', ['*.shop.example'], 'https://evilshop.example'],
    ['a page without an origin', ['https://www.shop.example'], 'null'],
    ['a list of which nothing parses (fails closed)', ['https://shop.example/path'], 'https://shop.example'],
  ])('refuses %s from the CDN copy, without asking the API', async (_case, urls, page) => {
    publish(urls);
    expect(await loadFinder(TOKEN, endpoints(), page)).toEqual({ ok: false, reason: 'forbidden' });
    expect(requests).toEqual([pointerPath, versionPath]);
  });

  it.each([
    ['without authorized_urls (published before payloads carried them)', undefined],
    ['with authorized_urls that are not a list', 'https://www.shop.example'],
    ['with authorized_urls that are not strings', [42]],
  ])('a version file %s is not trusted: the API decides', async (_case, urls) => {
    publish(urls);
    answers.set(detailsPath, [
      403,
      { message: 'This website is not allowed to use this finder.', code: 'forbidden' },
    ]);
    expect(await loadFinder(TOKEN, endpoints(), 'https://evil.example')).toEqual({
      ok: false,
      reason: 'forbidden',
    });
    expect(requests).toEqual([pointerPath, versionPath, detailsPath]);
  });

  it("applies to the API's copy too, and the API's 403, 404 and other failures keep their meaning", async () => {
    answers.set(detailsPath, [200, payload(['https://www.shop.example'])]);
    expect(await loadFinder(TOKEN, endpoints(), PAGE)).toMatchObject({ ok: true, source: 'api' });
    expect(await loadFinder(TOKEN, endpoints(), 'https://evil.example')).toEqual({
      ok: false,
      reason: 'forbidden',
    });
    for (const [status, reason] of [
      [403, 'forbidden'],
      [404, 'not_found'],
      [500, 'failed'],
      [503, 'failed'],
    ] as const) {
      answers.set(detailsPath, [status, { message: 'x' }]);
      expect(await loadFinder(TOKEN, endpoints(), PAGE)).toEqual({ ok: false, reason });
    }
    answers.set(detailsPath, [200, { no: 'locations' }]);
    expect(await loadFinder(TOKEN, endpoints(), PAGE)).toEqual({ ok: false, reason: 'failed' });
  });
});

describe('a server that stalls', () => {
  const TIMEOUT_MS = 300;

  it('is given up after the timeout: a silent CDN leads to the API, a stalled API is a failure', async () => {
    stalled.set(pointerPath, 'silent');
    answers.set(detailsPath, [200, payload([])]);
    const started = performance.now();
    expect(await loadFinder(TOKEN, endpoints(), PAGE, TIMEOUT_MS)).toMatchObject({ ok: true, source: 'api' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
    expect(requests).toEqual([pointerPath, detailsPath]);

    publish([]);
    stalled.set(versionPath, 'half');
    stalled.set(detailsPath, 'silent');
    expect(await loadFinder(TOKEN, endpoints(), PAGE, TIMEOUT_MS)).toEqual({ ok: false, reason: 'failed' });
  });

  it("rejects a chunked finder's file whose body stops halfway, or that never answers", async () => {
    stalled.set('/static/lf/finders/x/v/c/half.json', 'half');
    stalled.set('/static/lf/finders/x/v/i/silent.json', 'silent');
    for (const path of ['/static/lf/finders/x/v/c/half.json', '/static/lf/finders/x/v/i/silent.json']) {
      const started = performance.now();
      await expect(fetchJson(`${origin}${path}`, TIMEOUT_MS)).rejects.toThrow();
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
      expect(waited).toBeLessThan(TIMEOUT_MS + 2000);
    }
  });
});
