// Compressed answers outside the widget payload (docs/api.md, Storage and CDN; Frame): /cdn files
// of the local storage driver (JSON and text kept gzip- and br-compressed beside the file, made
// at the first request for an immutable file such as a published version, when written for
// others) and /openapi.json (compressed once per process). Each:
// the coding Accept-Encoding picks, Vary, Content-Length, HEAD, and bodies that decode to the
// identity bytes. /widget.js is in tests/widget/widget-route.test.ts, the payload route in
// tests/finder-cache.test.ts.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayloadScene } from './factories/finder-payloads.ts';
import { createCast } from './factories/workspaces.ts';
import { solidPng } from './fakes/png.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
const call = createCaller(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  ctx.app.inject({ method, url, headers });

const decode = (coding: string | undefined, bytes: Buffer) =>
  coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes;

/** A payload-like JSON document of about 300 KB. */
const bigJson = Buffer.from(
  JSON.stringify({
    locations: Array.from({ length: 2000 }, (_, i) => ({
      id: i + 1,
      title: `Store ${i + 1}`,
      address: `${(i % 200) + 1} Market Street`,
      city: `City ${i % 50}`,
      lat: 40 + (i % 1400) / 100,
      lng: -4 + (i % 2400) / 100,
      tags: ['repair', 'rental'].slice(0, 1 + (i % 2)),
    })),
  }),
);

/** The files the driver keeps for a key's folder, sidecars included. */
const filesBeside = (key: string) => {
  const dir = path.join(ctx.config.storage.dir, ...key.split('/').slice(0, -1));
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

describe('/cdn (local storage driver)', () => {
  const key = 'finders/tok123/v/abc.json';

  beforeAll(async () => {
    await ctx.deps.storage.put(key, bigJson, {
      contentType: 'application/json',
      cacheControl: 'public, max-age=31536000, immutable',
    });
  });

  it('makes the forms of an immutable file at their first request, once, and keeps them beside it', async () => {
    const first = 'finders/tok123/v/first.json';
    await ctx.deps.storage.put(first, bigJson, {
      contentType: 'application/json',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect(filesBeside(first).filter((name) => name.includes('first'))).toEqual([
      '.first.json.meta.json',
      'first.json',
    ]);
    // Requests arriving together each get the form (made once for them); later ones read it as kept.
    const together = await Promise.all(
      [1, 2, 3].map(() => get(`/cdn/${first}`, { 'accept-encoding': 'br' })),
    );
    const later = await get(`/cdn/${first}`, { 'accept-encoding': 'br' });
    for (const res of [...together, later]) {
      expect(res.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).equals(bigJson)).toBe(true);
      expect(res.rawPayload.equals(later.rawPayload)).toBe(true);
    }
    expect(filesBeside(first).filter((name) => name.includes('first'))).toEqual([
      '.first.json.br',
      '.first.json.meta.json',
      'first.json',
    ]);
    await get(`/cdn/${first}`, { 'accept-encoding': 'gzip' });
    expect(filesBeside(first).filter((name) => name.includes('first'))).toEqual([
      '.first.json.br',
      '.first.json.gz',
      '.first.json.meta.json',
      'first.json',
    ]);
  });

  it('sends a tiny immutable file as it is, keeping no form larger than it', async () => {
    const tiny = 'finders/tok123/v/tiny.json';
    await ctx.deps.storage.put(tiny, Buffer.from('{}'), {
      contentType: 'application/json',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    const res = await get(`/cdn/${tiny}`, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('{}');
    expect(filesBeside(tiny).filter((name) => name.includes('tiny'))).toEqual([
      '.tiny.json.meta.json',
      'tiny.json',
    ]);
  });

  it('sends JSON br, gzip or as it is by Accept-Encoding, decoding to the stored bytes', async () => {
    for (const [header, coding] of [
      [undefined, undefined],
      ['', undefined],
      ['identity', undefined],
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip;q=0.8', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['gzip;q=0.5, identity', undefined],
      ['*', 'br'],
    ] as const) {
      const res = await get(`/cdn/${key}`, header === undefined ? {} : { 'accept-encoding': header });
      const label = String(header);
      expect(res.statusCode, label).toBe(200);
      expect(res.headers['content-encoding'], label).toBe(coding);
      expect(res.headers.vary, label).toMatch(/\bAccept-Encoding\b/);
      expect(res.headers['content-type'], label).toBe('application/json');
      expect(res.headers['cache-control'], label).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length']), label).toBe(res.rawPayload.length);
      expect(decode(coding, res.rawPayload).equals(bigJson), label).toBe(true);
      if (coding) expect(res.rawPayload.length, label).toBeLessThan(bigJson.length / 5);
    }
  });

  it('answers HEAD with the headers of the representation and no body', async () => {
    for (const header of ['br', 'gzip', 'identity']) {
      const full = await get(`/cdn/${key}`, { 'accept-encoding': header });
      const head = await get(`/cdn/${key}`, { 'accept-encoding': header }, 'HEAD');
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      for (const name of ['content-length', 'content-encoding', 'vary', 'content-type']) {
        expect(head.headers[name], `${header} ${name}`).toBe(full.headers[name]);
      }
    }
  });

  it('sends images as they are, varying by nothing but Origin', async () => {
    const imageKey = 'workspaces/1/locations/1/photo.png';
    const png = solidPng(64, 64, [10, 20, 30]);
    await ctx.deps.storage.put(imageKey, png, { contentType: 'image/png' });
    const res = await get(`/cdn/${imageKey}`, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary ?? '').not.toMatch(/Accept-Encoding/);
    expect(res.rawPayload.equals(png)).toBe(true);
    expect(filesBeside(imageKey)).toEqual(['.photo.png.meta.json', 'photo.png']);
  });

  it('keeps a form only when it is smaller, and drops the forms of an earlier version', async () => {
    const pointerKey = 'finders/tok123/config.json';
    await ctx.deps.storage.put(pointerKey, bigJson, { contentType: 'application/json' });
    expect(filesBeside(pointerKey)).toContain('.config.json.br');
    // Two bytes: no compressed form is smaller.
    await ctx.deps.storage.put(pointerKey, Buffer.from('{}'), { contentType: 'application/json' });
    expect(filesBeside(pointerKey).filter((name) => name.startsWith('.config.json'))).toEqual([
      '.config.json.meta.json',
    ]);
    const res = await get(`/cdn/${pointerKey}`, { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary ?? '').not.toMatch(/Accept-Encoding/);
    expect(res.body).toBe('{}');
  });

  it('deletes the forms with the file', async () => {
    const doomed = 'finders/doomed/v/x.json';
    await ctx.deps.storage.put(doomed, bigJson, { contentType: 'application/json' });
    expect(filesBeside(doomed)).toHaveLength(4);
    await ctx.deps.storage.delete(doomed);
    expect(filesBeside(doomed)).toEqual([]);
    expect((await get(`/cdn/${doomed}`, { 'accept-encoding': 'br' })).statusCode).toBe(404);
  });

  it('answers 404 to the name of a compressed form or a path out of the folder, whatever the coding', async () => {
    for (const url of [
      `/cdn/finders/tok123/v/.abc.json.br`,
      `/cdn/finders/tok123/v/.abc.json.gz`,
      `/cdn/finders/tok123/v/abc.json.br`,
      '/cdn/finders/tok123/v/..%2F..%2F..%2Fetc%2Fpasswd',
      '/cdn/finders/tok123/v/',
    ]) {
      const res = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: 'File not found.', code: 'not_found' });
    }
  });

  it('serves a published payload compressed, decoding to the bytes the details route sends', async () => {
    const cast = await createCast(ctx.deps);
    const scene = await createPayloadScene(ctx.deps, call, cast.ownerToken, cast.workspaceId);
    const token = scene.finder.token;
    const publish = await call('POST', `/ext/finders/details/${token}/sync`, cast.ownerToken);
    expect(publish.statusCode).toBe(200);
    const { hash } = publish.json() as { hash: string };
    const details = await get(`/api/ext/finders/details/${token}`);
    for (const coding of ['br', 'gzip'] as const) {
      const res = await get(`/cdn/finders/${token}/v/${hash}.json`, { 'accept-encoding': coding });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(decode(coding, res.rawPayload).equals(details.rawPayload)).toBe(true);
    }
    // Another user cannot publish it: nothing more is written.
    const stranger = await call('POST', `/ext/finders/details/${token}/sync`, cast.strangerToken);
    expect(stranger.statusCode).toBe(404);
    expect(filesBeside(`finders/${token}/v/${hash}.json`)).toEqual([
      `.${hash}.json.br`,
      `.${hash}.json.gz`,
      `.${hash}.json.meta.json`,
      `${hash}.json`,
    ]);
  });
});

describe('/openapi.json', () => {
  it('sends the document br, gzip or as it is, each decoding to the same JSON', async () => {
    const plain = await get('/openapi.json');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.json()).toMatchObject({ openapi: '3.1.0' });
    for (const coding of ['br', 'gzip'] as const) {
      const res = await get('/openapi.json', { 'accept-encoding': `${coding}, identity;q=0.5` });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toMatch(/\bAccept-Encoding\b/);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(decode(coding, res.rawPayload).equals(plain.rawPayload)).toBe(true);
      // Compressed once: the next answer is the same bytes.
      const again = await get('/openapi.json', { 'accept-encoding': coding });
      expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    }
    const head = await get('/openapi.json', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-encoding']).toBe('br');
  });
});
