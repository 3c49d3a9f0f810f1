// Object storage as a dependency that fails (docs/api.md, Frame: storage outage): the S3 fake
// behind a proxy that refuses connections, freezes, or answers 500 to the pointer write. Every
// route that writes or removes files (publish, unpublish, finder delete, location image) answers
// 503 naming the storage within its bound when the store does not answer, 502 when it answers an
// error, logs it as storage, writes nothing half, and works again once the store is back.
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.ts';
import { createS3Storage } from '../src/lib/storage/s3.storage.ts';
import type { Storage } from '../src/lib/storage/storage.ts';
import { finderPublicationsTable, findersTable } from '../src/modules/finders/finders.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { setOwnLocations } from './factories/finder-payloads.ts';
import { createUser, tokenFor } from './factories/users.ts';
import { createWidgetFinder, setFinderSettings } from './factories/widget-finders.ts';
import { createCast, firstWorkspaceId } from './factories/workspaces.ts';
import { type FaultProxy, startFaultProxy } from './fakes/fault-proxy.ts';
import { type FakeS3, startFakeS3 } from './fakes/s3.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

/** The deadline of one storage call in this file (S3_TIMEOUT_MS), short to keep the file quick. */
const TIMEOUT_MS = 3_000;
/** Slack for a loaded machine on top of a bound. */
const SLACK_MS = 2_000;
const CHUNKED_FROM = 5;

const UNAVAILABLE = {
  message: 'The file storage is temporarily unavailable. Try again shortly.',
  code: 'service_unavailable',
};
const FAILED = {
  message: 'The file storage answered with an error. Try again later.',
  code: 'provider_unavailable',
};

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
  Buffer.alloc(2048, 9),
]);

const logLines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
    done();
  },
});

let fake: FakeS3;
let proxy: FaultProxy;
let ctx: TestContext;
/** The bucket read without the proxy: what is really stored. */
let bucket: Storage;
let cast: Awaited<ReturnType<typeof createCast>>;
const call = createCaller(() => ctx);

beforeAll(async () => {
  fake = await startFakeS3();
  proxy = await startFaultProxy(fake.endpoint);
  ctx = await createTestContext({
    env: {
      ...fake.env,
      S3_ENDPOINT: proxy.url,
      S3_TIMEOUT_MS: String(TIMEOUT_MS),
      // A finder of this many locations is published chunked (below); the others have none.
      PUBLISH_CHUNKED_FROM: String(CHUNKED_FROM),
    },
    logger: createLogger({ logLevel: 'warn' }, sink),
  });
  bucket = createS3Storage({
    cdnUrl: ctx.config.storage.cdnUrl,
    s3: { ...ctx.config.storage.s3, endpoint: fake.endpoint },
  });
  cast = await createCast(ctx.deps);
});
afterEach(async () => {
  await proxy.heal();
});
afterAll(async () => {
  await bucket?.close();
  await ctx?.close();
  await proxy?.close();
  await fake?.close();
});

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

/** The log lines written since `from`, by message. */
const logged = (from: number, msg: string) => logLines.slice(from).filter((line) => line.msg === msg);

const publish = (token: string) => call('POST', `/ext/finders/details/${token}/sync`, cast.ownerToken);

/**
 * A publish against a frozen S3: 503 within one deadline (S3_TIMEOUT_MS), not two and not
 * minutes; the "storage unavailable" lines it logged.
 */
async function publishFrozen(token: string) {
  const from = logLines.length;
  const { result: res, ms } = await timed(() => publish(token));
  expect(res.statusCode).toBe(503);
  expect(res.json()).toEqual(UNAVAILABLE);
  expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
  expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
  return logged(from, 'storage unavailable');
}

async function publications(finderId: number) {
  return ctx.deps.db
    .select()
    .from(finderPublicationsTable)
    .where(eq(finderPublicationsTable.finderId, finderId));
}

/** The pointer as stored, and whether the file it names exists. */
async function storedPointer(token: string) {
  const pointer = await bucket.get(`finders/${token}/config.json`);
  if (!pointer) return undefined;
  const { hash } = JSON.parse(pointer.body.toString()) as { hash: string };
  return { hash, fileExists: (await bucket.get(`finders/${token}/v/${hash}.json`)) !== undefined };
}

describe('publishing (POST /ext/finders/details/{key}/sync)', () => {
  it('S3 refusing connections: 503 naming the storage within seconds, logged as storage; then it recovers', async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const first = await publish(finder.token);
    expect(first.statusCode, first.body).toBe(200);
    const { hash } = first.json() as { hash: string };

    await setFinderSettings(ctx.deps, finder.id, [{ key: 'units', value: 'mi' }]);
    await proxy.refuse();
    const from = logLines.length;
    const { result: res, ms } = await timed(() => publish(finder.token));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual(UNAVAILABLE);
    expect(res.headers['retry-after']).toBe('5');
    // Refused connections fail at once; the SDK's two retries back off for well under a second.
    expect(ms).toBeLessThan(1_500 + SLACK_MS);
    expect(logged(from, 'storage unavailable')).toEqual([
      expect.objectContaining({ level: 40, operation: 'put', reason: 'ECONNREFUSED' }),
    ]);
    expect(logged(from, 'database unavailable')).toEqual([]);
    // No key (the finder's token) in what was logged.
    expect(JSON.stringify(logLines.slice(from))).not.toContain(finder.token);
    expect((await publications(finder.id)).map((row) => row.hash)).toEqual([hash]);

    await proxy.heal();
    const again = await publish(finder.token);
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json() as { hash: string }).hash).not.toBe(hash);
    expect(await storedPointer(finder.token)).toEqual({
      hash: (again.json() as { hash: string }).hash,
      fileExists: true,
    });
  });

  it('S3 frozen (connections accepted, never answered): 503 within the deadline (S3_TIMEOUT_MS), not minutes', async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    proxy.freeze();
    const [line] = await publishFrozen(finder.token);
    expect(line).toMatchObject({ operation: 'put' });
    // The call's deadline or the socket's idle bound, whichever fired first (both are 3 s here).
    expect(['timeout', 'TimeoutError']).toContain(line?.reason);
    expect(await publications(finder.id)).toEqual([]);

    await proxy.heal();
    expect((await publish(finder.token)).statusCode).toBe(200);
  });

  it('S3 frozen under a chunked publish: 503 after one deadline (the published index is read first), then it recovers', async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const rows = await ctx.deps.db
      .insert(locationsTable)
      .values(
        Array.from({ length: CHUNKED_FROM * 2 }, (_, i) => ({
          workspaceId: cast.workspaceId,
          title: `Store ${i}`,
          lat: 48 + i / 10,
          lng: 2 + i / 10,
        })),
      )
      .returning({ id: locationsTable.id });
    await setOwnLocations(
      ctx.deps,
      finder.id,
      rows.map((row) => row.id),
    );
    const first = await publish(finder.token);
    expect(first.statusCode, first.body).toBe(200);
    expect(await storedPointer(finder.token)).toMatchObject({ fileExists: true });

    await setFinderSettings(ctx.deps, finder.id, [{ key: 'units', value: 'mi' }]);
    proxy.freeze();
    expect(await publishFrozen(finder.token)).toEqual([expect.objectContaining({ operation: 'get' })]);
    expect((await publications(finder.id)).map((row) => row.hash)).toEqual([
      (first.json() as { hash: string }).hash,
    ]);

    await proxy.heal();
    expect((await publish(finder.token)).statusCode).toBe(200);
  });

  it('S3 answering 500 to the pointer write: 502, the previous pointer still names a file that exists, history intact', async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const first = await publish(finder.token);
    const { hash } = first.json() as { hash: string };
    await setFinderSettings(ctx.deps, finder.id, [{ key: 'units', value: 'mi' }]);

    const pointerPath = `/${fake.bucket}/finders/${finder.token}/config.json`;
    proxy.failWhen((request) => request.method === 'PUT' && request.url.startsWith(pointerPath));
    const seen = proxy.requests.length;
    const from = logLines.length;
    const res = await publish(finder.token);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual(FAILED);
    expect(res.headers['retry-after']).toBeUndefined();
    // The versioned file went up; the pointer write was tried three times (the SDK's retries).
    const puts = proxy.requests.slice(seen).filter((request) => request.method === 'PUT');
    expect(puts.filter((request) => request.url.startsWith(pointerPath))).toHaveLength(3);
    expect(puts).toHaveLength(4);
    expect(logged(from, 'storage answered an error')).toEqual([
      expect.objectContaining({ level: 40, operation: 'put', reason: 'InternalError (HTTP 500)' }),
    ]);

    expect(await storedPointer(finder.token)).toEqual({ hash, fileExists: true });
    expect((await publications(finder.id)).map((row) => row.hash)).toEqual([hash]);
    const info = await call('GET', `/ext/finders/details/${finder.token}/info`, cast.ownerToken);
    expect(info.json()).toMatchObject({ hash });

    await proxy.heal();
    const again = await publish(finder.token);
    expect(again.statusCode).toBe(200);
    const moved = (again.json() as { hash: string }).hash;
    expect(moved).not.toBe(hash);
    expect(await storedPointer(finder.token)).toEqual({ hash: moved, fileExists: true });
  });

  it("checks access and the token before the storage: another user's finder, an unknown or malformed token answer 404 with S3 down", async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    await proxy.refuse();
    for (const [token, who] of [
      [finder.token, cast.strangerToken],
      ['B'.repeat(43), cast.ownerToken],
      ['x%20y', cast.ownerToken],
    ] as const) {
      for (const [method, url] of [
        ['POST', `/ext/finders/details/${token}/sync`],
        ['DELETE', `/ext/finders/details/${token}`],
      ] as const) {
        const res = await call(method, url, who);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toMatchObject({ code: 'not_found' });
      }
    }
    const unauthenticated = await call('POST', `/ext/finders/details/${finder.token}/sync`);
    expect(unauthenticated.statusCode).toBe(401);
  });
});

describe('unpublishing (DELETE /ext/finders/details/{key})', () => {
  it('503 with S3 refused or frozen, the files and history kept; 502 when S3 answers 500; then it works', async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const { hash } = (await publish(finder.token)).json() as { hash: string };
    const unpublish = () => call('DELETE', `/ext/finders/details/${finder.token}`, cast.ownerToken);

    await proxy.refuse();
    const refused = await unpublish();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual(UNAVAILABLE);

    await proxy.heal();
    proxy.freeze();
    const { result: frozen, ms } = await timed(unpublish);
    expect(frozen.statusCode).toBe(503);
    expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);

    await proxy.heal();
    proxy.failWhen((request) => request.method === 'DELETE');
    const failed = await unpublish();
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual(FAILED);

    expect(await storedPointer(finder.token)).toEqual({ hash, fileExists: true });
    expect(await publications(finder.id)).toHaveLength(1);

    await proxy.heal();
    expect((await unpublish()).statusCode).toBe(204);
    expect(await storedPointer(finder.token)).toBeUndefined();
    expect(await bucket.get(`finders/${finder.token}/v/${hash}.json`)).toBeUndefined();
    expect(await publications(finder.id)).toEqual([]);
  });
});

describe('deleting a finder (DELETE /finders/{id})', () => {
  const finderRow = async (id: number) =>
    (await ctx.deps.db.select().from(findersTable).where(eq(findersTable.id, id)))[0];

  it('removes the published files before the finder: with S3 down, 503 and the finder stays; with S3 back, 204 and no file is left', async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const { hash } = (await publish(finder.token)).json() as { hash: string };

    await proxy.refuse();
    const refused = await call('DELETE', `/finders/${finder.id}`, cast.ownerToken);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual(UNAVAILABLE);
    expect(await finderRow(finder.id)).toBeDefined();
    expect((await call('GET', `/finders/${finder.id}`, cast.ownerToken)).statusCode).toBe(200);

    await proxy.heal();
    proxy.failWhen((request) => request.method === 'DELETE');
    const failed = await call('DELETE', `/finders/${finder.id}`, cast.ownerToken);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual(FAILED);
    expect(await finderRow(finder.id)).toBeDefined();
    expect(await storedPointer(finder.token)).toEqual({ hash, fileExists: true });

    await proxy.heal();
    const deleted = await call('DELETE', `/finders/${finder.id}`, cast.ownerToken);
    expect(deleted.statusCode).toBe(204);
    expect(await finderRow(finder.id)).toBeUndefined();
    // Gone when the answer comes, not some time after.
    expect(await storedPointer(finder.token)).toBeUndefined();
    expect(await bucket.get(`finders/${finder.token}/v/${hash}.json`)).toBeUndefined();
  });

  it("another user's finder and an unknown id answer 404 without touching the storage", async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    await publish(finder.token);
    const seen = proxy.requests.length;
    await proxy.refuse();
    expect((await call('DELETE', `/finders/${finder.id}`, cast.strangerToken)).statusCode).toBe(404);
    expect((await call('DELETE', '/finders/2147483647', cast.ownerToken)).statusCode).toBe(404);
    expect((await call('DELETE', '/finders/abc', cast.ownerToken)).statusCode).toBe(404);
    expect(proxy.requests.length).toBe(seen);
    expect(await finderRow(finder.id)).toBeDefined();
  });
});

describe('deleting a workspace (DELETE /workspaces/{id})', () => {
  it("removes its finders' published files first: with S3 down, 503 and the workspace stays; with S3 back, 204 and the files are gone", async () => {
    const owner = await createUser(ctx.deps);
    const ownerToken = await tokenFor(ctx.deps, owner);
    const workspaceId = await firstWorkspaceId(ctx.deps, owner);
    const finders = [
      await createWidgetFinder(ctx.deps, workspaceId),
      await createWidgetFinder(ctx.deps, workspaceId),
    ];
    const hashes: string[] = [];
    for (const finder of finders) {
      const res = await call('POST', `/ext/finders/details/${finder.token}/sync`, ownerToken);
      hashes.push((res.json() as { hash: string }).hash);
    }

    await proxy.refuse();
    const refused = await call('DELETE', `/workspaces/${workspaceId}`, ownerToken);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual(UNAVAILABLE);
    expect((await call('GET', `/workspaces/${workspaceId}`, ownerToken)).statusCode).toBe(200);
    // A stranger and a plain member are answered before the storage is asked.
    const seen = proxy.requests.length;
    expect((await call('DELETE', `/workspaces/${workspaceId}`, cast.strangerToken)).statusCode).toBe(404);
    expect(proxy.requests.length).toBe(seen);

    await proxy.heal();
    expect((await call('DELETE', `/workspaces/${workspaceId}`, ownerToken)).statusCode).toBe(204);
    for (const [index, finder] of finders.entries()) {
      expect(await storedPointer(finder.token)).toBeUndefined();
      expect(await bucket.get(`finders/${finder.token}/v/${hashes[index]}.json`)).toBeUndefined();
    }
  });
});

describe('location images (POST /locations/{id}/image)', () => {
  async function createLocation(): Promise<number> {
    const res = await call('POST', '/locations', cast.ownerToken, {
      workspace_id: cast.workspaceId,
      title: 'Harbour shop',
      address: '2 Quay St',
    });
    expect(res.statusCode).toBe(201);
    return (res.json() as { id: number }).id;
  }
  const upload = (id: number, content = PNG, token = cast.ownerToken) => {
    const form = multipart({
      files: [{ field: 'image', filename: 'a.png', contentType: 'image/png', content }],
    });
    return ctx.app.inject({
      method: 'POST',
      url: `/api/locations/${id}/image`,
      headers: { authorization: `Bearer ${token}`, ...form.headers },
      payload: form.payload,
    });
  };
  const imageOf = async (id: number) =>
    (await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.id, id)))[0]?.imageKey ?? null;

  it('503 when S3 refuses or is frozen, 502 when it answers 500; the location keeps no image; then it works', async () => {
    const id = await createLocation();

    await proxy.refuse();
    const from = logLines.length;
    const refused = await upload(id);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual(UNAVAILABLE);
    expect(logged(from, 'storage unavailable')).toEqual([
      expect.objectContaining({ operation: 'put', reason: 'ECONNREFUSED' }),
    ]);

    await proxy.heal();
    proxy.freeze();
    const { result: frozen, ms } = await timed(() => upload(id));
    expect(frozen.statusCode).toBe(503);
    expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);

    await proxy.heal();
    proxy.failWhen((request) => request.method === 'PUT');
    const failed = await upload(id);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual(FAILED);
    expect(await imageOf(id)).toBeNull();

    await proxy.heal();
    const stored = await upload(id);
    expect(stored.statusCode, stored.body).toBe(200);
    const key = await imageOf(id);
    expect(key).not.toBeNull();
    expect((await bucket.get(key!))?.body.equals(PNG)).toBe(true);
  });

  it("bad input and another user's location are answered before the storage is asked", async () => {
    const id = await createLocation();
    await proxy.refuse();
    const seen = proxy.requests.length;
    const notImage = await upload(id, Buffer.from('plain text, not an image'));
    expect(notImage.statusCode).toBe(415);
    expect(notImage.json()).toMatchObject({ code: 'unsupported_media_type' });
    expect((await upload(id, PNG, cast.strangerToken)).statusCode).toBe(404);
    expect((await upload(2147483647)).statusCode).toBe(404);
    const fieldsOnly = multipart({ fields: { x: '1' } });
    const noFile = await ctx.app.inject({
      method: 'POST',
      url: `/api/locations/${id}/image`,
      headers: { authorization: `Bearer ${cast.ownerToken}`, ...fieldsOnly.headers },
      payload: fieldsOnly.payload,
    });
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json()).toMatchObject({ errors: { image: expect.any(Array) } });
    expect(proxy.requests.length).toBe(seen);
    expect(await imageOf(id)).toBeNull();
  });
});
