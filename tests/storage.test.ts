import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectImageType } from '../src/lib/images.ts';
import { createS3Storage } from '../src/lib/storage/s3.storage.ts';
import {
  createLocalStorage,
  createStorage,
  InvalidStorageKeyError,
  type Storage,
} from '../src/lib/storage/storage.ts';
import { type FakeS3, startFakeS3 } from './fakes/s3.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';
import { tempDir } from './helpers/temp.ts';

const CDN_URL = 'https://cdn.example.test';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Every byte value: a body mangled by encoding or chunk framing would not survive this. */
const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

const badKeys = [
  '',
  '../escaped.txt',
  'finders/../../escaped.txt',
  'a/../b.json',
  'a/./b.json',
  '/etc/passwd',
  'a\\..\\b.json',
  'a//b.json',
  'a/b/',
  '.hidden',
  'finders/tok/.config.json.meta.json',
  'a b.json',
  'x'.repeat(1025),
];

interface DriverUnderTest {
  storage: Storage;
  stop(): Promise<void>;
  /** The local driver's directory. */
  dir?: string;
}

const drivers: { name: string; start(): Promise<DriverUnderTest> }[] = [
  {
    name: 'local',
    async start() {
      // A directory inside a parent of its own, so an escape would land somewhere we can look.
      const dir = path.join(tempDir('local-'), 'storage');
      return { storage: createLocalStorage({ dir, cdnUrl: CDN_URL }), dir, stop: async () => {} };
    },
  },
  {
    name: 's3',
    async start() {
      const fake = await startFakeS3();
      const storage = createS3Storage(
        {
          cdnUrl: CDN_URL,
          s3: {
            bucket: fake.bucket,
            region: fake.region,
            endpoint: fake.endpoint,
            accessKeyId: fake.accessKeyId,
            secretAccessKey: fake.secretAccessKey,
            forcePathStyle: true,
            timeoutMs: 10_000,
          },
        },
        // Small pages, so deletePrefix has to follow continuation tokens.
        { pageSize: 2 },
      );
      return {
        storage,
        stop: async () => {
          await storage.close();
          await fake.close();
        },
      };
    },
  },
];

describe.each(drivers)('$name storage', ({ start }) => {
  let driver: DriverUnderTest;
  let storage: Storage;
  beforeAll(async () => {
    driver = await start();
    storage = driver.storage;
  });
  afterAll(async () => {
    await driver?.stop();
  });

  it('keeps the bytes, the content type and the cache control', async () => {
    await storage.put('finders/tok/v/abc.json', allBytes, {
      contentType: 'application/json',
      cacheControl: IMMUTABLE,
    });
    const object = await storage.get('finders/tok/v/abc.json');
    expect(object).toBeDefined();
    expect(object!.body.equals(allBytes)).toBe(true);
    expect(object!.contentType).toBe('application/json');
    expect(object!.cacheControl).toBe(IMMUTABLE);
  });

  it('leaves cache control unset when none is given', async () => {
    const body = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await storage.put('workspaces/3/locations/4/a.png', body, { contentType: 'image/png' });
    const object = await storage.get('workspaces/3/locations/4/a.png');
    expect(object).toMatchObject({ contentType: 'image/png', cacheControl: undefined });
    expect(object!.body.equals(body)).toBe(true);
  });

  it('replaces an object written again under the same key', async () => {
    await storage.put('finders/tok/config.json', Buffer.from('{"hash":"one"}'), {
      contentType: 'application/json',
      cacheControl: 'public, max-age=60',
    });
    await storage.put('finders/tok/config.json', Buffer.from('second'), {
      contentType: 'text/plain; charset=utf-8',
      cacheControl: 'no-store',
    });
    const object = await storage.get('finders/tok/config.json');
    expect(object!.body.toString()).toBe('second');
    expect(object!.contentType).toBe('text/plain; charset=utf-8');
    expect(object!.cacheControl).toBe('no-store');
  });

  it('answers undefined for a missing key, and for a folder', async () => {
    expect(await storage.get('finders/nothing-here.json')).toBeUndefined();
    await storage.put('folder/inside/file.json', Buffer.from('{}'), { contentType: 'application/json' });
    expect(await storage.get('folder/inside')).toBeUndefined();
  });

  it('deletes one object; a missing one is not an error', async () => {
    await storage.put('del/one.json', Buffer.from('1'), { contentType: 'application/json' });
    await storage.put('del/two.json', Buffer.from('2'), { contentType: 'application/json' });
    await storage.delete('del/one.json');
    expect(await storage.get('del/one.json')).toBeUndefined();
    expect((await storage.get('del/two.json'))?.body.toString()).toBe('2');
    await expect(storage.delete('del/one.json')).resolves.toBeUndefined();
    await expect(storage.delete('never/was/here.png')).resolves.toBeUndefined();
  });

  it('deletes every object under a folder prefix, and nothing beside it', async () => {
    const inside = [
      'workspaces/1/locations/1/a.jpg',
      'workspaces/1/locations/1/b.jpg',
      'workspaces/1/locations/2/c.png',
      'workspaces/1/locations/2/d.png',
      'workspaces/1/e.json',
    ];
    // `workspaces/1/` must not touch `workspaces/12/` or `workspaces/1.json`.
    const outside = ['workspaces/12/locations/1/a.jpg', 'workspaces/1.json', 'workspaces/2/x.png'];
    for (const key of [...inside, ...outside]) {
      await storage.put(key, Buffer.from(key), { contentType: 'application/octet-stream' });
    }

    await storage.deletePrefix('workspaces/1/');

    for (const key of inside) expect(await storage.get(key), key).toBeUndefined();
    for (const key of outside) expect((await storage.get(key))?.body.toString(), key).toBe(key);
    // An empty or missing folder is nothing to do.
    await expect(storage.deletePrefix('workspaces/1/')).resolves.toBeUndefined();
    await expect(storage.deletePrefix('never/')).resolves.toBeUndefined();
  });

  it('refuses a prefix that is not a folder, and deletes nothing', async () => {
    await storage.put('pre/12/a.json', Buffer.from('a'), { contentType: 'application/json' });
    for (const prefix of ['pre/1', '', '/', 'pre//', '../', 'pre/../']) {
      await expect(storage.deletePrefix(prefix), prefix).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    expect(await storage.get('pre/12/a.json')).toBeDefined();
  });

  it('builds public URLs under CDN_URL', () => {
    expect(storage.publicUrl('finders/tok/config.json')).toBe(`${CDN_URL}/finders/tok/config.json`);
    expect(storage.publicUrl('workspaces/7/locations/9/x_y-z.1.png')).toBe(
      `${CDN_URL}/workspaces/7/locations/9/x_y-z.1.png`,
    );
  });

  it.each(badKeys.map((key) => [key.slice(0, 40), key]))('refuses the key %j', async (_label, key) => {
    const options = { contentType: 'text/plain' };
    await expect(storage.put(key, Buffer.from('x'), options)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    expect(() => storage.publicUrl(key)).toThrow(InvalidStorageKeyError);
    if (driver.dir) {
      const parent = path.dirname(driver.dir);
      expect(existsSync(path.join(parent, 'escaped.txt'))).toBe(false);
      expect(existsSync(path.join(driver.dir, 'escaped.txt'))).toBe(false);
    }
  });
});

describe('local storage on disk', () => {
  it('writes plain files at the key path, with a sidecar and no temporary files left', async () => {
    const dir = tempDir('local-disk-');
    const storage = createLocalStorage({ dir, cdnUrl: CDN_URL });
    await storage.put('finders/tok/v/abc.json', Buffer.from('{"a":1}'), {
      contentType: 'application/json',
      cacheControl: IMMUTABLE,
    });
    await storage.put('finders/tok/v/abc.json', Buffer.from('{"a":2}'), { contentType: 'application/json' });
    expect(readFileSync(path.join(dir, 'finders/tok/v/abc.json'), 'utf8')).toBe('{"a":2}');
    expect(readdirSync(path.join(dir, 'finders/tok/v')).sort()).toEqual(['.abc.json.meta.json', 'abc.json']);

    await storage.delete('finders/tok/v/abc.json');
    expect(readdirSync(path.join(dir, 'finders/tok/v'))).toEqual([]);
  });

  it('derives the content type of a file without a sidecar from its extension', async () => {
    const dir = tempDir('local-bare-');
    const storage = createLocalStorage({ dir, cdnUrl: CDN_URL });
    writeFileSync(path.join(dir, 'photo.png'), 'png');
    writeFileSync(path.join(dir, 'blob.bin'), 'bin');
    expect(await storage.get('photo.png')).toMatchObject({
      contentType: 'image/png',
      cacheControl: undefined,
    });
    expect(await storage.get('blob.bin')).toMatchObject({ contentType: 'application/octet-stream' });
  });
});

describe('createStorage', () => {
  it('picks the driver named by the config', async () => {
    const s3 = {
      bucket: 'b',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
      timeoutMs: 10_000,
    };
    const local = await createStorage({ driver: 'local', dir: tempDir('pick-'), cdnUrl: CDN_URL, s3 });
    const remote = await createStorage({ driver: 's3', dir: tempDir('pick-'), cdnUrl: CDN_URL, s3 });
    expect(local.driver).toBe('local');
    expect(remote.driver).toBe('s3');
    await local.close();
    await remote.close();
  });
});

describe('/cdn with the local driver', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      extend: (app) => {
        // Probes for the multipart limits registered by buildApp.
        app.post('/probe/upload-small', async (request) => {
          const file = await request.file({ limits: { fileSize: 1024 } });
          return { size: (await file!.toBuffer()).length };
        });
        app.post('/probe/upload', async (request) => {
          const file = await request.file();
          return { size: (await file!.toBuffer()).length };
        });
      },
    });
    await ctx.deps.storage.put('finders/tok/v/abc.json', Buffer.from('{"ok":true}'), {
      contentType: 'application/json',
      cacheControl: IMMUTABLE,
    });
    await ctx.deps.storage.put('finders/tok/config.json', Buffer.from('{"hash":"abc"}'), {
      contentType: 'application/json',
      cacheControl: 'public, max-age=60',
    });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('serves a stored file with its content type and cache control', async () => {
    expect(ctx.deps.storage.driver).toBe('local');
    expect(ctx.deps.storage.publicUrl('finders/tok/v/abc.json')).toBe(
      'http://app.test/cdn/finders/tok/v/abc.json',
    );
    const res = await ctx.app.inject({ method: 'GET', url: '/cdn/finders/tok/v/abc.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe('{"ok":true}');

    const pointer = await ctx.app.inject({ method: 'GET', url: '/cdn/finders/tok/config.json' });
    expect(pointer.headers['cache-control']).toBe('public, max-age=60');
    expect(pointer.json()).toEqual({ hash: 'abc' });
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await ctx.app.inject({ method: 'HEAD', url: '/cdn/finders/tok/v/abc.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.body).toBe('');
  });

  it('answers 404 JSON for a missing file and for a folder', async () => {
    for (const url of [
      '/cdn/finders/tok/v/missing.json',
      '/cdn/finders/tok/v',
      '/cdn/finders/tok/',
      '/cdn/',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'not_found' });
      expect(typeof res.json().message).toBe('string');
    }
    const head = await ctx.app.inject({ method: 'HEAD', url: '/cdn/finders/tok/v/missing.json' });
    expect(head.statusCode).toBe(404);
  });

  it('never leaves the storage directory or shows its sidecars', async () => {
    // A file right outside the storage directory that a traversal would reach.
    writeFileSync(path.join(ctx.config.storage.dir, '..', 'secret.txt'), 'secret');
    for (const url of [
      '/cdn/..%2F..%2Fetc%2Fpasswd',
      '/cdn/..%2Fsecret.txt',
      '/cdn/%2E%2E/secret.txt',
      '/cdn/finders/..%2F..%2Fsecret.txt',
      '/cdn/..%5Csecret.txt',
      '/cdn/%2Fetc%2Fpasswd',
      '/cdn/finders/tok/.config.json.meta.json',
      '/cdn/finders/tok/config.json%00.png',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'not_found' });
      expect(res.body).not.toContain('secret');
      expect(res.body).not.toContain('root:');
    }
  });

  it('maps a file over the route limit to 413 payload_too_large', async () => {
    const small = multipart({ files: [{ field: 'file', filename: 'a.bin', content: Buffer.alloc(1000) }] });
    const ok = await ctx.app.inject({ method: 'POST', url: '/probe/upload-small', ...small });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ size: 1000 });

    const big = multipart({ files: [{ field: 'file', filename: 'a.bin', content: Buffer.alloc(1025) }] });
    const res = await ctx.app.inject({ method: 'POST', url: '/probe/upload-small', ...big });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'The payload is too large.', code: 'payload_too_large' });
  });

  it('keeps a global ceiling of 50 MiB per file', async () => {
    const limit = 50 * 1024 * 1024;
    const atLimit = multipart({
      files: [{ field: 'file', filename: 'a.bin', content: Buffer.alloc(limit) }],
    });
    const ok = await ctx.app.inject({ method: 'POST', url: '/probe/upload', ...atLimit });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ size: limit });

    const over = multipart({
      files: [{ field: 'file', filename: 'a.bin', content: Buffer.alloc(limit + 1) }],
    });
    const res = await ctx.app.inject({ method: 'POST', url: '/probe/upload', ...over });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });
});

describe('with the s3 driver', () => {
  let fake: FakeS3;
  let ctx: TestContext;
  beforeAll(async () => {
    fake = await startFakeS3();
    ctx = await createTestContext({ env: fake.env });
  });
  afterAll(async () => {
    // deps.close() releases the S3 client; otherwise the fake's close would hang.
    await ctx?.close();
    await fake?.close();
  });

  it('stores through S3 and mounts no /cdn route', async () => {
    expect(ctx.deps.storage.driver).toBe('s3');
    await ctx.deps.storage.put('finders/tok/config.json', Buffer.from('{}'), {
      contentType: 'application/json',
      cacheControl: 'public, max-age=60',
    });
    expect(await ctx.deps.storage.get('finders/tok/config.json')).toMatchObject({
      contentType: 'application/json',
      cacheControl: 'public, max-age=60',
    });
    expect(ctx.deps.storage.publicUrl('finders/tok/config.json')).toBe(
      'http://app.test/cdn/finders/tok/config.json',
    );
    const res = await ctx.app.inject({ method: 'GET', url: '/cdn/finders/tok/config.json' });
    expect(res.statusCode).toBe(404);
  });
});

describe('detectImageType', () => {
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);

  it('knows JPEG and PNG by their first bytes', () => {
    expect(detectImageType(jpeg)).toEqual({ ext: 'jpg', contentType: 'image/jpeg' });
    expect(detectImageType(png)).toEqual({ ext: 'png', contentType: 'image/png' });
    expect(detectImageType(Buffer.from([0xff, 0xd8, 0xff]))).toEqual({
      ext: 'jpg',
      contentType: 'image/jpeg',
    });
  });

  it.each([
    ['empty', Buffer.alloc(0)],
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ['WebP', Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1')],
    ['text', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['truncated PNG signature', png.subarray(0, 7)],
    ['truncated JPEG signature', jpeg.subarray(0, 2)],
    ['PNG signature not at the start', Buffer.concat([Buffer.from([0]), png])],
    ['PNG signature with a wrong byte', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b])],
  ])('refuses %s', (_name, bytes) => {
    expect(detectImageType(bytes)).toBeUndefined();
  });
});
