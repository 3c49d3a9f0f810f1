// Building and serving widget.js: the esbuild build, its precompressed forms and its manifest,
// the staleness check of `npm start`, and GET /widget.js (br, gzip or identity by
// Accept-Encoding from the build's files, an ETag per representation from the served bytes, 304
// on If-None-Match, cache and content headers, the service's CDN_URL written in, CORS open),
// both on its own and in the app (there also through Node's fetch and curl, which decode it);
// and the map file beside it (Leaflet: in it, not in widget.js) and GET /widget-map.{hash}.js.
import { execFile } from 'node:child_process';
import { readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildWidget,
  bundledSourceFiles,
  ensureWidgetBuilt,
  widgetSourceFiles,
} from '../../scripts/build-widget.ts';
import { contentHash, type WidgetManifest } from '../../src/modules/widget-assets/widget-assets.bundle.ts';
import {
  WIDGET_CACHE_CONTROL,
  WIDGET_MAP_CACHE_CONTROL,
  widgetRoutes,
} from '../../src/modules/widget-assets/widget-assets.routes.ts';
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
  registerErrorHandling(app, {});
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
    // The little that must run first: the view and the map are files of their own.
    expect(manifest.gzip_bytes).toBeLessThan(5 * 1024);
    expect(code.includes('lf-root')).toBe(false);
    // One IIFE, no module syntax, and none of Leaflet: the map file holds it.
    expect(code).toMatch(/^"use strict";\(\(\)=>\{/);
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    expect(
      ['Leaflet 1.9.4', 'leafletjs.com', '.leaflet-pane{'].filter((text) => code.includes(text)),
    ).toEqual([]);
    expect(code.split('\n').length).toBeLessThan(20);
    // It imports the view and map files of its own build, by URLs read against its own.
    expect(code).toContain(JSON.stringify(manifest.view.file));
    expect(code).toContain(JSON.stringify(manifest.map.file));
    expect(code).toMatch(/import\([\w$]+\)/);
    expect(code).toMatch(/new URL\([\w$]+\(\),[\w$]+\)\.href/);
  });

  it('writes the map file beside it: an ES module with Leaflet and its CSS, named by its hash, compressed whole', async () => {
    const { map } = manifest;
    expect(map.file).toBe(`widget-map.${map.hash}.js`);
    const code = await readFile(path.join(dir, map.file));
    expect(map).toEqual({
      file: map.file,
      hash: contentHash(code),
      bytes: code.length,
      precompressed: {
        gzip: { file: `${map.file}.gz`, bytes: expect.any(Number) },
        br: { file: `${map.file}.br`, bytes: expect.any(Number) },
      },
    });
    const text = code.toString();
    expect(text).toContain('Leaflet 1.9.4');
    expect(text).toContain('.leaflet-pane{');
    expect(text).toMatch(
      /export\{[^}]*\bas (MAP_CSS|createMapView)\b[^}]*\bas (MAP_CSS|createMapView)\b[^}]*\};/,
    );
    const gz = await readFile(path.join(dir, `${map.file}.gz`));
    const br = await readFile(path.join(dir, `${map.file}.br`));
    expect(gunzipSync(gz).equals(code)).toBe(true);
    expect(brotliDecompressSync(br).equals(code)).toBe(true);
    expect([gz.length, br.length]).toEqual([map.precompressed.gzip.bytes, map.precompressed.br.bytes]);
    expect(br.length).toBeLessThan(gz.length * 0.9);
    // The map file is most of the code: a page without the map is spared it.
    expect(manifest.bytes + manifest.view.bytes).toBeLessThan(map.bytes / 2);
  });

  it('writes the view file beside it: an ES module with the view and its CSS and none of Leaflet, compressed whole', async () => {
    const { view } = manifest;
    expect(view.file).toBe(`widget-view.${view.hash}.js`);
    const code = await readFile(path.join(dir, view.file));
    expect(view).toEqual({
      file: view.file,
      hash: contentHash(code),
      bytes: code.length,
      precompressed: {
        gzip: { file: `${view.file}.gz`, bytes: expect.any(Number) },
        br: { file: `${view.file}.br`, bytes: expect.any(Number) },
      },
    });
    const text = code.toString();
    expect(text.includes('lf-root')).toBe(true);
    expect(text.includes('Leaflet 1.9.4') || text.includes('.leaflet-pane{')).toBe(false);
    expect(text).toMatch(/export\{[^}]*\bas mountFinder\b[^}]*\};/);
    const gz = await readFile(path.join(dir, `${view.file}.gz`));
    const br = await readFile(path.join(dir, `${view.file}.br`));
    expect(gunzipSync(gz).equals(code)).toBe(true);
    expect(brotliDecompressSync(br).equals(code)).toBe(true);
    expect([gz.length, br.length]).toEqual([view.precompressed.gzip.bytes, view.precompressed.br.bytes]);
  });

  it('removes map and view files of earlier builds from the folder, and nothing else', async () => {
    const other = tempDir('widget-old-map-');
    const stale = [
      'widget-map.0123456789abcdef.js',
      'widget-map.0123456789abcdef.js.br',
      'widget-view.0123456789abcdef.js',
      'widget-view.0123456789abcdef.js.gz',
    ];
    for (const file of [...stale, 'widget-map.notes.txt']) await writeFile(path.join(other, file), 'old');
    const built = await buildWidget(other);
    const files = (await readdir(other)).sort();
    expect(files).toEqual(
      [
        'manifest.json',
        'widget-map.notes.txt',
        'widget.js',
        'widget.js.br',
        'widget.js.gz',
        built.map.file,
        `${built.map.file}.br`,
        `${built.map.file}.gz`,
        built.view.file,
        `${built.view.file}.br`,
        `${built.view.file}.gz`,
      ].sort(),
    );
  });

  it('writes widget.js.gz and widget.js.br holding the same script, the CDN placeholder in the stored tail', async () => {
    const code = await readFile(path.join(dir, 'widget.js'));
    const gz = await readFile(path.join(dir, 'widget.js.gz'));
    const br = await readFile(path.join(dir, 'widget.js.br'));
    expect(gunzipSync(gz).equals(code)).toBe(true);
    expect(brotliDecompressSync(br).equals(code)).toBe(true);
    expect(manifest.precompressed).toEqual({
      gzip: { file: 'widget.js.gz', bytes: gz.length, head_bytes: expect.any(Number) },
      br: { file: 'widget.js.br', bytes: br.length, head_bytes: expect.any(Number) },
    });
    expect(manifest.gzip_bytes).toBe(gz.length);
    expect(br.length).toBeLessThan(gz.length);
    // The placeholder starts the tail, a few hundred bytes before the end.
    expect(code.subarray(manifest.tail_offset).toString()).toMatch(/^"__LF_SERVED_CDN_URL__"/);
    expect(code.length - manifest.tail_offset).toBeLessThan(4096);
    expect(manifest.head_hash).toBe(contentHash(code.subarray(0, manifest.tail_offset)));
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
    // A manifest without its map file (or without one at all, from an older build): built.
    const { map } = JSON.parse(await readFile(path.join(other, 'manifest.json'), 'utf8')) as WidgetManifest;
    await rm(path.join(other, map.file));
    expect(await ensureWidgetBuilt(other)).toBe('built');
    expect(await ensureWidgetBuilt(other)).toBe('fresh');
  });

  it('watches every file of the project the bundle reads, those it shares with the service too', async () => {
    const bundled = await bundledSourceFiles();
    expect(bundled).toContain(path.resolve('src/lib/origin-rules.ts'));
    expect(bundled).toContain(path.resolve('src/widget/index.ts'));
    expect(bundled).toContain(path.resolve('src/widget/map.ts'));
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

    it('sends br or gzip by Accept-Encoding from the build, decoding to the identity bytes', async () => {
      const identity = await app.inject({ method: 'GET', url: '/widget.js' });
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.headers.vary).toBe('Accept-Encoding');
      expect(Number(identity.headers['content-length'])).toBe(identity.rawPayload.length);
      const files = {
        gzip: await readFile(path.join(dir, 'widget.js.gz')),
        br: await readFile(path.join(dir, 'widget.js.br')),
      };
      for (const [header, coding] of [
        ['gzip, deflate, br', 'br'],
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0.5, gzip', 'gzip'],
        ['*', 'br'],
      ] as const) {
        const response = await app.inject({
          method: 'GET',
          url: '/widget.js',
          headers: { 'accept-encoding': header },
        });
        expect(response.statusCode, header).toBe(200);
        expect(response.headers['content-encoding'], header).toBe(coding);
        expect(response.headers.vary, header).toBe('Accept-Encoding');
        expect(response.headers['content-type'], header).toBe('application/javascript; charset=utf-8');
        expect(response.headers['cache-control'], header).toBe(WIDGET_CACHE_CONTROL);
        expect(Number(response.headers['content-length']), header).toBe(response.rawPayload.length);
        expect(response.headers.etag, header).toBe(`"${contentHash(identity.rawPayload)}-${coding}"`);
        const decoded =
          coding === 'br' ? brotliDecompressSync(response.rawPayload) : gunzipSync(response.rawPayload);
        expect(decoded.equals(identity.rawPayload), header).toBe(true);
        // The build's compressed head, as it is: nothing was compressed to answer.
        const { head_bytes } = manifest.precompressed[coding];
        expect(
          response.rawPayload.subarray(0, head_bytes).equals(files[coding].subarray(0, head_bytes)),
        ).toBe(true);
        // A third of so small a script is its stored tail (the CDN URL and the code after it).
        expect(response.rawPayload.length, header).toBeLessThan(identity.rawPayload.length * 0.6);
      }
      for (const header of [
        'identity',
        'br;q=0, gzip;q=0',
        'deflate',
        'gzip;q=0.4, br;q=0.4, identity;q=1',
      ]) {
        const response = await app.inject({
          method: 'GET',
          url: '/widget.js',
          headers: { 'accept-encoding': header },
        });
        expect(response.headers['content-encoding'], header).toBeUndefined();
        expect(response.rawPayload.equals(identity.rawPayload), header).toBe(true);
        expect(response.headers.etag, header).toBe(etag);
      }
    });

    it('answers 304 to the tag of any representation, with the tag of the one asked for', async () => {
      for (const [coding, header] of [
        ['identity', undefined],
        ['gzip', 'gzip'],
        ['br', 'br'],
      ] as const) {
        for (const held of [etag, `"${etag.slice(1, -1)}-gzip"`, `W/"${etag.slice(1, -1)}-br"`]) {
          const response = await app.inject({
            method: 'GET',
            url: '/widget.js',
            headers: { 'if-none-match': held, ...(header ? { 'accept-encoding': header } : {}) },
          });
          expect(response.statusCode, `${coding} ${held}`).toBe(304);
          expect(response.body).toBe('');
          expect(response.headers.etag).toBe(
            coding === 'identity' ? etag : `"${etag.slice(1, -1)}-${coding}"`,
          );
          expect(response.headers['content-encoding']).toBeUndefined();
          expect(response.headers.vary).toBe('Accept-Encoding');
        }
      }
    });

    it('answers HEAD with the headers of each representation and no body', async () => {
      for (const header of ['br', 'gzip', 'identity']) {
        const get = await app.inject({
          method: 'GET',
          url: '/widget.js',
          headers: { 'accept-encoding': header },
        });
        const head = await app.inject({
          method: 'HEAD',
          url: '/widget.js',
          headers: { 'accept-encoding': header },
        });
        expect(head.statusCode, header).toBe(200);
        expect(head.body, header).toBe('');
        for (const name of ['content-length', 'content-encoding', 'etag', 'vary', 'content-type']) {
          expect(head.headers[name], `${header} ${name}`).toBe(get.headers[name]);
        }
      }
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
        // The change is in the stored tail: the compressed forms carry it too.
        const br = await first.inject({
          method: 'GET',
          url: '/widget.js',
          headers: { 'accept-encoding': 'br' },
        });
        expect(br.headers['content-encoding']).toBe('br');
        expect(brotliDecompressSync(br.rawPayload).equals(after.rawPayload)).toBe(true);
        // A script changed before the tail no longer matches its compressed files: sent as it is.
        await writeFile(script, `// edited\n${await readFile(script, 'utf8')}`);
        const later2 = new Date(Date.now() + 10_000);
        await utimes(path.join(rebuilt, 'manifest.json'), later2, later2);
        const edited = await first.inject({
          method: 'GET',
          url: '/widget.js',
          headers: { 'accept-encoding': 'br' },
        });
        expect(edited.headers['content-encoding']).toBeUndefined();
        expect(edited.body.startsWith('// edited')).toBe(true);
        expect(edited.headers.vary).toBeUndefined();
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

  describe.each(['map', 'view'] as const)('GET /widget-%s.{hash}.js', (name) => {
    let app: FastifyInstance;
    let url: string;

    beforeAll(async () => {
      app = await serve(dir);
      url = `/${manifest[name].file}`;
    });
    afterAll(async () => {
      await app.close();
    });

    it('sends the build’s file, br or gzip by Accept-Encoding from its compressed files, cached for good', async () => {
      const built = await readFile(path.join(dir, manifest[name].file));
      const files = {
        gzip: await readFile(path.join(dir, `${manifest[name].file}.gz`)),
        br: await readFile(path.join(dir, `${manifest[name].file}.br`)),
      };
      for (const [header, coding] of [
        [undefined, 'identity'],
        ['identity', 'identity'],
        ['gzip, deflate, br', 'br'],
        ['br;q=0.5, gzip', 'gzip'],
        ['gzip', 'gzip'],
      ] as const) {
        const response = await app.inject({
          method: 'GET',
          url,
          headers: header ? { 'accept-encoding': header } : {},
        });
        expect(response.statusCode, header).toBe(200);
        expect(response.headers['content-type'], header).toBe('application/javascript; charset=utf-8');
        expect(response.headers['cache-control'], header).toBe(WIDGET_MAP_CACHE_CONTROL);
        expect(response.headers['cache-control'], header).toBe('public, max-age=31536000, immutable');
        expect(response.headers['cross-origin-resource-policy'], header).toBe('cross-origin');
        expect(response.headers['x-content-type-options'], header).toBe('nosniff');
        expect(response.headers.vary, header).toBe('Accept-Encoding');
        expect(response.headers['content-encoding'], header).toBe(coding === 'identity' ? undefined : coding);
        expect(response.headers.etag, header).toBe(
          coding === 'identity' ? `"${manifest[name].hash}"` : `"${manifest[name].hash}-${coding}"`,
        );
        expect(Number(response.headers['content-length']), header).toBe(response.rawPayload.length);
        // As built: nothing is compressed to answer.
        expect(response.rawPayload.equals(coding === 'identity' ? built : files[coding]), header).toBe(true);
      }
    });

    it('answers 304 to If-None-Match and HEAD without a body', async () => {
      const tag = `"${manifest[name].hash}-br"`;
      const revalidated = await app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': 'br', 'if-none-match': tag },
      });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe('');
      expect(revalidated.headers.etag).toBe(tag);
      const head = await app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'gzip' } });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-encoding']).toBe('gzip');
      expect(Number(head.headers['content-length'])).toBe(manifest[name].precompressed.gzip.bytes);
    });

    it('answers 404 to any other hash, and says so when the widget is not built', async () => {
      for (const other of ['0123456789abcdef', manifest.hash, 'x', '']) {
        const response = await app.inject({ method: 'GET', url: `/widget-${name}.${other}.js` });
        expect(response.statusCode, other).toBe(404);
        expect(response.json(), other).toEqual({
          message: `No ${name} file of the current widget build has this hash.`,
          code: 'not_found',
        });
      }
      const empty = await serve(tempDir('widget-map-empty-'));
      try {
        const response = await empty.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          message: 'The widget is not built yet: run `npm run build`.',
          code: 'not_found',
        });
      } finally {
        await empty.close();
      }
    });

    it('serves a new build’s file without a restart, and no longer the old one', async () => {
      const rebuilt = tempDir('widget-map-rebuilt-');
      const first = await serve(rebuilt);
      try {
        const before = await buildWidget(rebuilt);
        expect((await first.inject({ method: 'GET', url: `/${before[name].file}` })).statusCode).toBe(200);
        // Another build's file: a new name in the manifest, its own compressed files.
        const changed = Buffer.from(`${await readFile(path.join(rebuilt, before[name].file), 'utf8')}\n`);
        const hash = contentHash(changed);
        const file = `widget-${name}.${hash}.js`;
        await writeFile(path.join(rebuilt, file), changed);
        await writeFile(path.join(rebuilt, `${file}.gz`), gzipSync(changed));
        await writeFile(path.join(rebuilt, `${file}.br`), brotliCompressSync(changed));
        const precompressed = {
          gzip: { file: `${file}.gz`, bytes: 0 },
          br: { file: `${file}.br`, bytes: 0 },
        };
        await rewriteManifest(rebuilt, {
          ...before,
          [name]: { file, hash, bytes: changed.length, precompressed },
        });
        const response = await first.inject({
          method: 'GET',
          url: `/${file}`,
          headers: { 'accept-encoding': 'br' },
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding']).toBe('br');
        expect(brotliDecompressSync(response.rawPayload).equals(changed)).toBe(true);
        expect((await first.inject({ method: 'GET', url: `/${before[name].file}` })).statusCode).toBe(404);

        // Edited by hand since: its compressed files no longer belong to it, so it goes as it is.
        await writeFile(path.join(rebuilt, file), Buffer.concat([changed, Buffer.from('// edited\n')]));
        await rewriteManifest(
          rebuilt,
          JSON.parse(await readFile(path.join(rebuilt, 'manifest.json'), 'utf8')),
        );
        const edited = await first.inject({
          method: 'GET',
          url: `/${file}`,
          headers: { 'accept-encoding': 'br' },
        });
        expect(edited.statusCode).toBe(200);
        expect(edited.headers['content-encoding']).toBeUndefined();
        expect(edited.body.endsWith('// edited\n')).toBe(true);
      } finally {
        await first.close();
      }
    });
  });
});

/** Writes the manifest with a later mtime, as a build does: the service reads the build again. */
async function rewriteManifest(dir: string, manifest: WidgetManifest): Promise<void> {
  const file = path.join(dir, 'manifest.json');
  const before = (await stat(file)).mtimeMs;
  await writeFile(file, JSON.stringify(manifest));
  const later = new Date(before + 5000);
  await utimes(file, later, later);
}

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
    expect(response.headers.vary).toBe('Origin, Accept-Encoding');
    expect((await context.app.inject({ method: 'GET', url: '/api/widget.js' })).statusCode).toBe(404);
  });

  it.each(['map', 'view'] as const)(
    'serves the %s file outside /api with CORS open to any origin (module scripts need it)',
    async (name) => {
      const manifest = JSON.parse(await readFile(path.join('dist', 'widget', 'manifest.json'), 'utf8'));
      const response = await context.app.inject({
        method: 'GET',
        url: `/${(manifest as WidgetManifest)[name].file}`,
        headers: { origin: 'https://customer.example', 'accept-encoding': 'br' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('https://customer.example');
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers.vary).toBe('Origin, Accept-Encoding');
    },
  );

  it("is decoded by Node's fetch and by curl, br and gzip alike", async () => {
    const identity = await context.app.inject({ method: 'GET', url: '/widget.js' });
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}/widget.js`;
    for (const coding of ['br', 'gzip']) {
      // fetch decodes what it is sent; the raw bytes are checked above.
      const fetched = await fetch(url, { headers: { 'accept-encoding': coding } });
      expect(fetched.headers.get('content-encoding')).toBe(coding);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(identity.rawPayload)).toBe(true);
      const { stdout } = await promisify(execFile)(
        'curl',
        ['--silent', '--show-error', '--compressed', '--header', `Accept-Encoding: ${coding}`, url],
        { encoding: 'buffer', maxBuffer: 4 * 1024 * 1024 },
      );
      expect(stdout.equals(identity.rawPayload), coding).toBe(true);
    }
  });
});
