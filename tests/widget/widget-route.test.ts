// Building and serving widget.js: the esbuild build and its manifest, the staleness check of
// `npm start`, and GET /widget.js (ETag from the served bytes, 304 on If-None-Match, cache and
// content headers, the service's CDN_URL written in, CORS open), both on its own and in the app.
import { readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildWidget,
  bundledSourceFiles,
  ensureWidgetBuilt,
  widgetSourceFiles,
} from '../../scripts/build-widget.ts';
import { contentHash, type WidgetManifest } from '../../src/modules/widget/widget.bundle.ts';
import { WIDGET_CACHE_CONTROL, widgetRoutes } from '../../src/modules/widget/widget.routes.ts';
import { registerErrorHandling } from '../../src/plugins/error-handler.ts';
import { SERVED_CDN_URL_PLACEHOLDER } from '../../src/widget/served.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { tempDir } from '../helpers/temp.ts';

const CDN_URL = 'https://cdn.shop.example/files';

async function serve(dir: string): Promise<FastifyInstance> {
  const app = Fastify();
  // The route declares zod schemas, as every route of the app does.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await app.register(widgetRoutes, { dir, cdnUrl: CDN_URL });
  return app;
}

describe('the widget build', () => {
  let dir: string;
  let manifest: WidgetManifest;

  beforeAll(async () => {
    dir = tempDir('widget-');
    manifest = await buildWidget(dir);
  });

  it('writes one minified script and a manifest with its content hash and sizes', async () => {
    const code = await readFile(path.join(dir, 'widget.js'), 'utf8');
    expect(JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'))).toEqual(manifest);
    expect(manifest).toMatchObject({
      file: 'widget.js',
      hash: contentHash(code),
      bytes: Buffer.byteLength(code),
    });
    expect(manifest.gzip_bytes).toBeLessThan(manifest.bytes / 2);
    // One IIFE, no module syntax, Leaflet's license kept.
    expect(code).toMatch(/^"use strict";\(\(\)=>\{/);
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    expect(code).toContain('Leaflet 1.9.4');
    expect(code.split('\n').length).toBeLessThan(20);
  });

  it('is rebuilt by ensureWidgetBuilt only when missing or older than its sources', async () => {
    const other = tempDir('widget-ensure-');
    expect(await ensureWidgetBuilt(other)).toBe('built');
    expect(await ensureWidgetBuilt(other)).toBe('fresh');
    const old = new Date('2020-01-01T00:00:00Z');
    await utimes(path.join(other, 'manifest.json'), old, old);
    expect(await ensureWidgetBuilt(other)).toBe('built');
    await rm(path.join(other, 'widget.js'));
    expect(await ensureWidgetBuilt(other)).toBe('built');
  });

  it('watches every file of the project the bundle reads, those it shares with the service too', async () => {
    const bundled = await bundledSourceFiles();
    expect(bundled).toContain(path.resolve('src/lib/origin-rules.ts'));
    expect(bundled).toContain(path.resolve('src/widget/index.ts'));
    const watched = new Set(await widgetSourceFiles());
    expect(bundled.filter((file) => !watched.has(file))).toEqual([]);
  });

  describe('GET /widget.js', () => {
    let app: FastifyInstance;
    let etag: string;

    beforeAll(async () => {
      app = await serve(dir);
    });
    afterAll(async () => {
      await app.close();
    });

    it('serves the build with the CDN URL written in, an ETag of those bytes and cache headers', async () => {
      const response = await app.inject({ method: 'GET', url: '/widget.js' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe(WIDGET_CACHE_CONTROL);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(response.body).toContain(JSON.stringify(CDN_URL));
      expect(response.body).not.toContain(SERVED_CDN_URL_PLACEHOLDER);
      etag = response.headers.etag as string;
      expect(etag).toBe(`"${contentHash(response.rawPayload)}"`);
    });

    it.each([
      ['the same tag', (tag: string) => tag],
      ['the weak form', (tag: string) => `W/${tag}`],
      ['a list holding it', (tag: string) => `"older", ${tag}`],
      ['*', () => '*'],
    ])('answers 304 without a body to If-None-Match with %s', async (_name, header) => {
      const response = await app.inject({
        method: 'GET',
        url: '/widget.js',
        headers: { 'if-none-match': header(etag) },
      });
      expect(response.statusCode).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe(WIDGET_CACHE_CONTROL);
    });

    it('answers 200 to a stale tag, and HEAD without a body', async () => {
      const stale = await app.inject({
        method: 'GET',
        url: '/widget.js',
        headers: { 'if-none-match': '"older"' },
      });
      expect(stale.statusCode).toBe(200);
      expect(stale.body.length).toBeGreaterThan(1000);
      const head = await app.inject({ method: 'HEAD', url: '/widget.js' });
      expect(head.statusCode).toBe(200);
      expect(head.headers.etag).toBe(etag);
      expect(head.body).toBe('');
    });

    it('serves a new build under a new ETag without a restart', async () => {
      const rebuilt = tempDir('widget-rebuilt-');
      const first = await serve(rebuilt);
      try {
        await buildWidget(rebuilt);
        const before = await first.inject({ method: 'GET', url: '/widget.js' });
        const script = path.join(rebuilt, 'widget.js');
        await writeFile(script, `${await readFile(script, 'utf8')}\n// rebuilt`);
        const later = new Date(Date.now() + 5000);
        await utimes(path.join(rebuilt, 'manifest.json'), later, later);
        const after = await first.inject({ method: 'GET', url: '/widget.js' });
        expect(after.statusCode).toBe(200);
        expect(after.body.endsWith('// rebuilt')).toBe(true);
        expect(after.headers.etag).not.toBe(before.headers.etag);
      } finally {
        await first.close();
      }
    });

    it('says so when the widget is not built', async () => {
      const empty = await serve(tempDir('widget-empty-'));
      try {
        const response = await empty.inject({ method: 'GET', url: '/widget.js' });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          message: 'The widget is not built yet: run `npm run build`.',
          code: 'not_found',
        });
      } finally {
        await empty.close();
      }
    });
  });
});

describe('GET /widget.js in the app', () => {
  let context: TestContext;

  beforeAll(async () => {
    // The app serves dist/widget, as `npm start` leaves it.
    await ensureWidgetBuilt();
    context = await createTestContext({ env: { CDN_URL } });
  });
  afterAll(async () => {
    await context?.close();
  });

  it('is served outside /api with the configured CDN_URL and CORS open to any origin', async () => {
    const response = await context.app.inject({
      method: 'GET',
      url: '/widget.js',
      headers: { origin: 'https://customer.example' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('https://customer.example');
    expect(response.body).toContain(JSON.stringify(CDN_URL));
    expect((await context.app.inject({ method: 'GET', url: '/api/widget.js' })).statusCode).toBe(404);
  });
});
