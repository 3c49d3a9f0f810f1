// GET /app, /app/* and /app/assets/{name} over HTTP, on a build made for the test (a manifest
// and its files in a folder of its own): the page for any path under /app with a fresh style
// nonce in both the CSP and the page, never stored; the assets by their hashed names, cached
// for good, br or gzip as asked, 304 on their ETag; anything else 404 with the API's error body.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardManifest } from '../../src/modules/dashboard-assets/dashboard-assets.manifest.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { tempDir } from '../helpers/temp.ts';

let ctx: TestContext;
let unbuilt: TestContext;
const SCRIPT = 'main.ABCD1234.js';
const STYLESHEET = 'main.EFGH5678.css';
const script = 'console.log("dashboard");'.repeat(50);

beforeAll(async () => {
  const dir = tempDir('dashboard-build-');
  mkdirSync(path.join(dir, 'assets'));
  const files = {
    [SCRIPT]: script,
    [STYLESHEET]: 'body{margin:0}',
    'favicon.0123456789abcdef.svg': '<svg/>',
  };
  const manifest: DashboardManifest = {
    built_at: new Date().toISOString(),
    entry: { script: SCRIPT, stylesheet: STYLESHEET, preload: [], icon: 'favicon.0123456789abcdef.svg' },
    assets: {},
  };
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, 'assets', name);
    writeFileSync(file, text);
    writeFileSync(`${file}.gz`, gzipSync(text));
    writeFileSync(`${file}.br`, brotliCompressSync(text));
    manifest.assets[name] = { bytes: text.length, gzip_bytes: 0, br_bytes: 0 };
  }
  // A file in the folder that the manifest does not name is never served.
  writeFileSync(path.join(dir, 'assets', 'secret.txt'), 'not an asset');
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  ctx = await createTestContext({ env: { DASHBOARD_DIR: dir, APP_URL: 'http://app.test' } });
  unbuilt = await createTestContext({ env: { DASHBOARD_DIR: tempDir('dashboard-none-') } });
});

afterAll(async () => {
  await ctx?.close();
  await unbuilt?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

describe('the page', () => {
  it.each([
    '/app',
    '/app/',
    '/app/locations',
    '/app/finders/12?tab=settings',
    '/app/sign-in?redirect=%2Flocations',
  ])('%s answers the page naming the build’s files', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain(`<script type="module" src="/app/assets/${SCRIPT}"></script>`);
    expect(res.body).toContain(`<link rel="stylesheet" href="/app/assets/${STYLESHEET}">`);
    expect(res.body).toContain('<meta name="lf-api-url" content="">');
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it('has a strict policy whose style nonce is the page’s and new on every answer', async () => {
    const nonces = [];
    for (let i = 0; i < 2; i++) {
      const res = await get('/app/locations');
      const csp = String(res.headers['content-security-policy']);
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce).toBeDefined();
      expect(res.body).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('answers 404 naming the build when nothing is built', async () => {
    const res = await unbuilt.app.inject({ method: 'GET', url: '/app/locations' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      message: 'The dashboard is not built yet: run `npm run build`.',
      code: 'not_found',
    });
  });
});

describe('the assets', () => {
  it('serves each by its hashed name, cached for good, compressed as asked, 304 on its ETag', async () => {
    const plain = await get(`/app/assets/${SCRIPT}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(script);
    expect(plain.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const br = await get(`/app/assets/${SCRIPT}`, { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(brotliCompressSync(script))).toBe(true);
    const gz = await get(`/app/assets/${SCRIPT}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');

    const again = await get(`/app/assets/${SCRIPT}`, { 'if-none-match': String(plain.headers.etag) });
    expect(again.statusCode).toBe(304);
    const css = await get(`/app/assets/${STYLESHEET}`);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it.each([
    '/app/assets/main.0000.js',
    '/app/assets/secret.txt',
    '/app/assets/..%2Fmanifest.json',
    '/app/assets/%2E%2E%2Fmanifest.json',
    `/app/assets/${SCRIPT}.br`,
  ])('answers 404 for %s, a file the manifest does not name', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});
