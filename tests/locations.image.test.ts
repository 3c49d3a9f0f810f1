// POST/DELETE /locations/{id}/image on the local driver (served at /cdn) and on S3 (the fake).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { firstWorkspaceId } from './factories/workspaces.ts';
import { type FakeS3, startFakeS3 } from './fakes/s3.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

const MAX = 5 * 1024 * 1024;
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
const jpeg = (size = 64) => Buffer.concat([JPEG_HEAD, Buffer.alloc(size - JPEG_HEAD.length, 7)]);
const png = (size = 64) => Buffer.concat([PNG_HEAD, Buffer.alloc(size - PNG_HEAD.length, 9)]);

const imageForm = (content: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg', field = 'image') =>
  multipart({ files: [{ field, filename, contentType, content }] });

interface Member {
  headers: Record<string, string>;
  workspaceId: number;
}

async function member(ctx: TestContext, role: 'user' | 'admin' = 'user'): Promise<Member> {
  const user = await createUser(ctx.deps, { role });
  return {
    headers: bearer(await tokenFor(ctx.deps, user)),
    workspaceId: await firstWorkspaceId(ctx.deps, user),
  };
}

async function createLocation(ctx: TestContext, who: Member): Promise<number> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/locations',
    headers: who.headers,
    payload: { workspace_id: who.workspaceId, title: 'Main street shop', address: '1 Main St' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

async function row(ctx: TestContext, id: number) {
  const [found] = await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.id, id));
  return found;
}

describe('local driver', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** The objects stored for a location, by file name (the local driver's folder). */
  const storedFiles = (workspaceId: number, id: number) => {
    const dir = path.join(ctx.config.storage.dir, 'workspaces', String(workspaceId), 'locations', String(id));
    return existsSync(dir) ? readdirSync(dir).filter((name) => !name.startsWith('.')) : [];
  };

  const upload = (who: Member, id: number, form: ReturnType<typeof multipart>, prefix = '') =>
    ctx.app.inject({
      method: 'POST',
      url: `/api${prefix}/locations/${id}/image`,
      headers: { ...who.headers, ...form.headers },
      payload: form.payload,
    });

  it('stores a JPEG under the workspace and location, saves its URL and serves it from /cdn', async () => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    const bytes = jpeg(2048);

    const res = await upload(alice, id, imageForm(bytes));
    expect(res.statusCode).toBe(200);
    const { image_url } = res.json();
    expect(Object.keys(res.json())).toEqual(['image_url']);
    const pattern = new RegExp(
      `^http://app\\.test/cdn/workspaces/${alice.workspaceId}/locations/${id}/[0-9a-f-]{36}\\.jpg$`,
    );
    expect(image_url).toMatch(pattern);

    const saved = await row(ctx, id);
    expect(saved!.imageUrl).toBe(image_url);
    expect(image_url).toBe(`http://app.test/cdn/${saved!.imageKey}`);

    const served = await ctx.app.inject({ method: 'GET', url: new URL(image_url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(bytes)).toBe(true);

    const got = await ctx.app.inject({ method: 'GET', url: `/api/locations/${id}`, headers: alice.headers });
    expect(got.json().image_url).toBe(image_url);
  });

  it('judges the type by the bytes: a PNG named .jpg is stored as a PNG', async () => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    const res = await upload(alice, id, imageForm(png(), 'photo.jpg', 'image/jpeg'));
    expect(res.statusCode).toBe(200);
    expect(res.json().image_url).toMatch(/\.png$/);
    const object = await ctx.deps.storage.get((await row(ctx, id))!.imageKey!);
    expect(object!.contentType).toBe('image/png');
  });

  it('replaces the previous image and deletes its file', async () => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    const first = (await upload(alice, id, imageForm(jpeg()))).json().image_url as string;
    const firstKey = (await row(ctx, id))!.imageKey!;
    const second = await upload(alice, id, imageForm(png(), 'b.png', 'image/png'));
    expect(second.statusCode).toBe(200);
    expect(second.json().image_url).not.toBe(first);
    expect(await ctx.deps.storage.get(firstKey)).toBeUndefined();
    expect(storedFiles(alice.workspaceId, id)).toEqual([path.basename(second.json().image_url)]);
  });

  it.each([
    ['a GIF named .png', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1'), 'x.png', 'image/png'],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'x.svg', 'image/svg+xml'],
    ['an empty file', Buffer.alloc(0), 'x.jpg', 'image/jpeg'],
    ['text named .jpg', Buffer.from('hello world'), 'x.jpg', 'image/jpeg'],
  ])('answers 415 for %s and writes nothing', async (_name, content, filename, type) => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    const res = await upload(alice, id, imageForm(content, filename, type));
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      message: 'The image must be a JPEG or PNG file.',
      code: 'unsupported_media_type',
    });
    expect((await row(ctx, id))!).toMatchObject({ imageUrl: null, imageKey: null });
    expect(storedFiles(alice.workspaceId, id)).toEqual([]);
  });

  it('takes 5 MB and answers 413 one byte over, keeping the current image', async () => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    const atLimit = await upload(alice, id, imageForm(jpeg(MAX)));
    expect(atLimit.statusCode).toBe(200);
    const before = await row(ctx, id);

    const res = await upload(alice, id, imageForm(jpeg(MAX + 1)));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'The image may not be larger than 5 MB.',
      code: 'payload_too_large',
    });
    expect((await row(ctx, id))!.imageKey).toBe(before!.imageKey);
    expect(storedFiles(alice.workspaceId, id)).toEqual([path.basename(before!.imageKey!)]);
  });

  it('answers 422 when the image field is missing', async () => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    for (const form of [
      imageForm(jpeg(), 'a.jpg', 'image/jpeg', 'photo'),
      multipart({ fields: { image: 'not a file' } }),
    ]) {
      const res = await upload(alice, id, form);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', errors: { image: expect.any(Array) } });
    }
    expect(storedFiles(alice.workspaceId, id)).toEqual([]);
  });

  it('answers 415 for a body that is not multipart', async () => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    const json = await ctx.app.inject({
      method: 'POST',
      url: `/api/locations/${id}/image`,
      headers: alice.headers,
      payload: { image: 'data' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('unsupported_media_type');
    const raw = await ctx.app.inject({
      method: 'POST',
      url: `/api/locations/${id}/image`,
      headers: { ...alice.headers, 'content-type': 'image/jpeg' },
      payload: jpeg(),
    });
    expect(raw.statusCode).toBe(415);
    expect(raw.json().code).toBe('unsupported_media_type');
    expect((await row(ctx, id))!.imageKey).toBeNull();
  });

  it("answers 404 for another workspace's location, a missing id and a malformed id", async () => {
    const alice = await member(ctx);
    const mallory = await member(ctx);
    const id = await createLocation(ctx, alice);
    for (const url of [
      `/api/locations/${id}/image`,
      '/api/locations/2147483647/image',
      '/api/locations/abc/image',
    ]) {
      const form = imageForm(jpeg());
      const res = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { ...mallory.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code, url).toBe('not_found');
      const removed = await ctx.app.inject({ method: 'DELETE', url, headers: mallory.headers });
      expect(removed.statusCode, url).toBe(404);
    }
    expect((await row(ctx, id))!.imageKey).toBeNull();
    expect(storedFiles(alice.workspaceId, id)).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    const form = imageForm(jpeg());
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/locations/${id}/image`,
      ...form,
    });
    expect(res.statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/locations/${id}/image` })).statusCode).toBe(
      401,
    );
  });

  it('lets an admin set the image of any location under /admin', async () => {
    const alice = await member(ctx);
    const admin = await member(ctx, 'admin');
    const id = await createLocation(ctx, alice);
    const res = await upload(admin, id, imageForm(jpeg()), '/admin');
    expect(res.statusCode).toBe(200);
    expect(res.json().image_url).toContain(`/workspaces/${alice.workspaceId}/locations/${id}/`);
  });

  it('deleting the location deletes its image, and deleting the workspace deletes its folder', async () => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    expect((await upload(alice, id, imageForm(jpeg()))).statusCode).toBe(200);
    expect(storedFiles(alice.workspaceId, id)).toHaveLength(1);
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/locations/${id}`,
      headers: alice.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(storedFiles(alice.workspaceId, id)).toHaveLength(0);

    const other = await createLocation(ctx, alice);
    expect((await upload(alice, other, imageForm(png()))).statusCode).toBe(200);
    const folder = path.join(ctx.config.storage.dir, 'workspaces', String(alice.workspaceId));
    expect(existsSync(folder)).toBe(true);
    const gone = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/workspaces/${alice.workspaceId}`,
      headers: alice.headers,
    });
    expect(gone.statusCode).toBe(204);
    expect(storedFiles(alice.workspaceId, other)).toHaveLength(0);
  });

  it('removes the image: the location with image_url null, the file gone', async () => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    await upload(alice, id, imageForm(jpeg()));
    const key = (await row(ctx, id))!.imageKey!;

    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/locations/${id}/image`,
      headers: alice.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id,
      workspace_id: alice.workspaceId,
      title: 'Main street shop',
      image_url: null,
    });
    expect((await row(ctx, id))!).toMatchObject({ imageUrl: null, imageKey: null });
    expect(await ctx.deps.storage.get(key)).toBeUndefined();
    expect(storedFiles(alice.workspaceId, id)).toEqual([]);

    // Again, with nothing to remove.
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/locations/${id}/image`,
      headers: alice.headers,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().image_url).toBeNull();
  });
});

describe('s3 driver', () => {
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  let fake: FakeS3;
  let ctx: TestContext;
  beforeAll(async () => {
    fake = await startFakeS3();
    ctx = await createTestContext({
      env: { ...fake.env, CDN_URL: 'https://cdn.example.test' },
      logger: createLogger({ logLevel: 'warn' }, sink),
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });

  it('uploads to the bucket, and a failing delete still removes the image from the location', async () => {
    const alice = await member(ctx);
    const id = await createLocation(ctx, alice);
    const bytes = png(4096);
    const form = imageForm(bytes, 'a.png', 'image/png');
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/locations/${id}/image`,
      headers: { ...alice.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(200);
    const key = (await row(ctx, id))!.imageKey!;
    expect(res.json().image_url).toBe(`https://cdn.example.test/${key}`);
    const object = await ctx.deps.storage.get(key);
    expect(object!.body.equals(bytes)).toBe(true);
    expect(object!.contentType).toBe('image/png');

    // The store goes away: removing the image still succeeds, and the failure is logged.
    await fake.close();
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/locations/${id}/image`,
      headers: alice.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().image_url).toBeNull();
    expect((await row(ctx, id))!.imageKey).toBeNull();
    const warning = logLines.map((line) => JSON.parse(line)).find((line) => line.key === key);
    expect(warning).toMatchObject({
      level: 40,
      locationId: id,
      msg: 'could not delete a location image from storage',
    });
  });
});
