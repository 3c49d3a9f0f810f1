// Publishing a finder's payload (POST /ext/finders/details/{key}/sync, GET .../info, DELETE):
// files read back through /cdn (local driver) and from the S3 test server, with the SHA-1 of
// their bytes; the pointer names its file relative to itself; a republish after an
// authorized_urls edit is a new version; a pointer upload that fails leaves the previous
// pointer and its file intact; delete removes every file; built afresh, never from the cache;
// other users' finders and bad inputs answer like a missing finder.
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createDatabase, type Database, type DatabaseHandle } from '../src/db/client.ts';
import { createDeps, type Deps } from '../src/deps.ts';
import type { Storage } from '../src/lib/storage/storage.ts';
import { finderPublicationsTable } from '../src/modules/finders/finders.table.ts';
import { createPayloadCache } from '../src/modules/finders/payload/finders.payload.cache.ts';
import { createFinderPayloadRepository } from '../src/modules/finders/payload/finders.payload.repository.ts';
import {
  createFinderPayloadService,
  type FinderPayloadService,
} from '../src/modules/finders/payload/finders.payload.service.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { createPayloadScene, type PayloadScene } from './factories/finder-payloads.ts';
import { createWidgetFinder, setFinderSettings } from './factories/widget-finders.ts';
import { createCast } from './factories/workspaces.ts';
import { type FakeS3, startFakeS3 } from './fakes/s3.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

const sha1 = (bytes: Buffer | string) => createHash('sha1').update(bytes).digest('hex');

/** A payload service on `db` of its own, writing to `storage` (one the test slows or breaks). */
function payloadServiceOn(db: Database, storage: Storage): FinderPayloadService {
  const repository = createFinderPayloadRepository(db);
  const cache = createPayloadCache({
    load: (token) => repository.build(token),
    dependencies: (token) => repository.dependencies(token),
  });
  return createFinderPayloadService({ db, repository, cache, storage });
}

describe('with the local driver', () => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let scene: PayloadScene;
  const call = createCaller(() => ctx);
  const cdn = (key: string) => ctx.app.inject({ method: 'GET', url: `/cdn/${key}` });

  beforeAll(async () => {
    ctx = await createTestContext();
    cast = await createCast(ctx.deps);
    scene = await createPayloadScene(ctx.deps, call, cast.ownerToken, cast.workspaceId);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('says never published before the first publish', async () => {
    const res = await call('GET', `/ext/finders/details/${scene.finder.token}/info`, cast.memberToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ hash: null, last_synced_at: null });
  });

  it('publishes the versioned file, then the pointer, both served by /cdn with their headers', async () => {
    const token = scene.finder.token;
    const res = await call('POST', `/ext/finders/details/${token}/sync`, cast.memberToken);
    expect(res.statusCode, res.body).toBe(200);
    const { hash } = res.json() as { hash: string };
    expect(hash).toMatch(/^[0-9a-f]{40}$/);

    const version = await cdn(`finders/${token}/v/${hash}.json`);
    expect(version.statusCode).toBe(200);
    expect(version.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(version.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(sha1(version.rawPayload)).toBe(hash);
    // The same bytes as the details route.
    const details = await ctx.app.inject({ method: 'GET', url: `/api/ext/finders/details/${token}` });
    expect(details.rawPayload.equals(version.rawPayload)).toBe(true);

    const pointer = await cdn(`finders/${token}/config.json`);
    expect(pointer.statusCode).toBe(200);
    expect(pointer.headers['cache-control']).toBe('public, max-age=60');
    const body = pointer.json() as { hash: string; url: string; published_at: string };
    expect(body).toEqual({ hash, url: `v/${hash}.json`, published_at: expect.any(String) });
    // Relative to the pointer: it names the versioned file wherever the CDN serves the folder,
    // and holds nothing of CDN_URL (its host, port or path) that a move could break.
    const pointerUrl = `${ctx.config.storage.cdnUrl}/finders/${token}/config.json`;
    expect(new URL(body.url, pointerUrl).href).toBe(
      `${ctx.config.storage.cdnUrl}/finders/${token}/v/${hash}.json`,
    );
    expect(new URL(body.url, `https://cdn.elsewhere.example:8443/x/finders/${token}/config.json`).href).toBe(
      `https://cdn.elsewhere.example:8443/x/finders/${token}/v/${hash}.json`,
    );
    expect(pointer.body).not.toContain(new URL(ctx.config.storage.cdnUrl).host);
    expect(pointer.body).toBe(
      JSON.stringify({ hash, published_at: body.published_at, url: `v/${hash}.json` }),
    );
    // The history keeps the public URL the file had when it was published.
    const [row] = await ctx.deps.db
      .select()
      .from(finderPublicationsTable)
      .where(eq(finderPublicationsTable.finderId, scene.finder.id));
    expect(row).toMatchObject({ hash, url: `${ctx.config.storage.cdnUrl}/finders/${token}/v/${hash}.json` });

    const info = await call('GET', `/ext/finders/details/${token}/info`, cast.ownerToken);
    expect(info.json()).toEqual({ hash, last_synced_at: body.published_at });
  });

  it('publishes the authorized_urls of the moment: an edit, republished, is a new version carrying it', async () => {
    const token = scene.finder.token;
    const first = (await call('POST', `/ext/finders/details/${token}/sync`, cast.ownerToken)).json() as {
      hash: string;
    };
    const urls = ['https://shop.example', '*.shop.example'];
    const edited = await call('PUT', `/finders/${scene.finder.id}`, cast.memberToken, {
      authorized_urls: urls,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // The CDN keeps serving what was published (public: the list does not guard the file) ...
    const stale = await cdn(`finders/${token}/v/${first.hash}.json`);
    expect((stale.json() as { authorized_urls: string[] }).authorized_urls).toEqual([]);
    // ... until the next publish, whose file carries the list.
    const second = (await call('POST', `/ext/finders/details/${token}/sync`, cast.ownerToken)).json() as {
      hash: string;
    };
    expect(second.hash).not.toBe(first.hash);
    const version = await cdn(`finders/${token}/v/${second.hash}.json`);
    expect((version.json() as { authorized_urls: string[] }).authorized_urls).toEqual(urls);
    expect((await cdn(`finders/${token}/config.json`)).json()).toMatchObject({
      url: `v/${second.hash}.json`,
    });
    // Put back for the tests below, which read the payload without an Origin.
    await call('PUT', `/finders/${scene.finder.id}`, cast.memberToken, { authorized_urls: [] });
  });

  it('builds afresh, never from the cache', async () => {
    const token = scene.finder.token;
    await ctx.app.inject({ method: 'GET', url: `/api/ext/finders/details/${token}` });
    // Behind the cache's back: the cache still answers the old payload...
    await ctx.deps.db
      .update(locationsTable)
      .set({ title: 'Fresh title' })
      .where(eq(locationsTable.id, scene.locations.own));
    const cached = await ctx.app.inject({ method: 'GET', url: `/api/ext/finders/details/${token}` });
    expect(cached.body).not.toContain('Fresh title');
    // ...the publish does not.
    const { hash } = (await call('POST', `/ext/finders/details/${token}/sync`, cast.ownerToken)).json() as {
      hash: string;
    };
    const version = await cdn(`finders/${token}/v/${hash}.json`);
    expect(version.body).toContain('Fresh title');
    expect((await cdn(`finders/${token}/config.json`)).json()).toMatchObject({ hash });
  });

  it('unpublishes: every file under finders/{token}/ and the history go', async () => {
    const token = scene.finder.token;
    const { hash } = (await call('POST', `/ext/finders/details/${token}/sync`, cast.ownerToken)).json() as {
      hash: string;
    };
    const res = await call('DELETE', `/ext/finders/details/${token}`, cast.ownerToken);
    expect(res.statusCode).toBe(204);
    expect((await cdn(`finders/${token}/config.json`)).statusCode).toBe(404);
    expect((await cdn(`finders/${token}/v/${hash}.json`)).statusCode).toBe(404);
    expect(await ctx.deps.storage.get(`finders/${token}/v/${hash}.json`)).toBeUndefined();
    const rows = await ctx.deps.db
      .select()
      .from(finderPublicationsTable)
      .where(eq(finderPublicationsTable.finderId, scene.finder.id));
    expect(rows).toEqual([]);
    expect((await call('GET', `/ext/finders/details/${token}/info`, cast.ownerToken)).json()).toEqual({
      hash: null,
      last_synced_at: null,
    });
    // Deleting what is not published is no error; the payload route still answers.
    expect((await call('DELETE', `/ext/finders/details/${token}`, cast.ownerToken)).statusCode).toBe(204);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/ext/finders/details/${token}` })).statusCode,
    ).toBe(200);
  });

  it("answers 404 for another user's finder, an unknown token and a malformed one; 401 without a token", async () => {
    const token = scene.finder.token;
    const routes = [
      ['POST', `/ext/finders/details/${token}/sync`],
      ['GET', `/ext/finders/details/${token}/info`],
      ['DELETE', `/ext/finders/details/${token}`],
    ] as const;
    for (const [method, url] of routes) {
      const stranger = await call(method, url, cast.strangerToken);
      expect(stranger.statusCode, `${method} ${url}`).toBe(404);
      expect(stranger.json()).toEqual({ message: 'Finder not found.', code: 'not_found' });
      const anonymous = await call(method, url);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: 'unauthenticated' });
      const unknown = await call(method, url.replace(token, 'B'.repeat(43)), cast.ownerToken);
      expect(unknown.statusCode).toBe(404);
      const malformed = await call(method, url.replace(token, 'x%20y'), cast.ownerToken);
      expect(malformed.statusCode).toBe(404);
      expect(malformed.json()).toMatchObject({ code: 'not_found' });
    }
    // Nothing was published by any of them.
    const rows = await ctx.deps.db
      .select()
      .from(finderPublicationsTable)
      .where(eq(finderPublicationsTable.finderId, scene.finder.id));
    expect(rows).toEqual([]);
    expect((await cdn(`finders/${token}/config.json`)).statusCode).toBe(404);
  });

  it('an admin may not publish a finder of a workspace they are not in (member routes only)', async () => {
    const res = await call('POST', `/ext/finders/details/${scene.finder.token}/sync`, cast.adminToken);
    expect(res.statusCode).toBe(404);
  });

  it('deleting the finder removes its published files', async () => {
    const created = await call('POST', '/finders', cast.ownerToken, {
      name: 'Short-lived',
      workspace_id: cast.workspaceId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, token } = created.json() as { id: number; token: string };
    const published = await call('POST', `/ext/finders/details/${token}/sync`, cast.ownerToken);
    const { hash } = published.json() as { hash: string };
    expect((await cdn(`finders/${token}/config.json`)).statusCode).toBe(200);

    expect((await call('DELETE', `/finders/${id}`, cast.ownerToken)).statusCode).toBe(204);
    // Removed after the commit, off the request's path: wait for it, bounded.
    await expect.poll(async () => (await cdn(`finders/${token}/config.json`)).statusCode).toBe(404);
    expect((await cdn(`finders/${token}/v/${hash}.json`)).statusCode).toBe(404);
    // Other finders' files stay.
    expect(
      (await call('GET', `/ext/finders/details/${scene.finder.token}/info`, cast.ownerToken)).statusCode,
    ).toBe(200);
  });
});

describe('a pointer upload that fails, or a publish stalled between its two writes', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let deps: Deps;
  let failPointer = false;
  /** Awaited after a version file is stored, before the publish goes on to the pointer. */
  let afterVersion: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ctx = await createTestContext();
    deps = await createDeps(ctx.config, { databaseUrl: ctx.database.url, role: 'api' });
    // The storage fails on the pointer while `failPointer` is set, after the payload was stored.
    const storage: Storage = {
      ...deps.storage,
      driver: deps.storage.driver,
      async put(key, body, options) {
        if (failPointer && key.endsWith('/config.json')) throw new Error('storage unavailable');
        await deps.storage.put(key, body, options);
        if (key.includes('/v/')) await afterVersion?.();
      },
    };
    deps.services.finderPayload = payloadServiceOn(deps.db, storage);
    app = await buildApp(deps);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await deps?.close();
    await ctx?.close();
  });

  it('leaves the previous pointer, its file and the history as they were', async () => {
    const cast = await createCast(deps);
    const finder = await createWidgetFinder(deps, cast.workspaceId);
    const publish = () =>
      app.inject({
        method: 'POST',
        url: `/api/ext/finders/details/${finder.token}/sync`,
        headers: { authorization: `Bearer ${cast.ownerToken}` },
      });
    const first = await publish();
    expect(first.statusCode).toBe(200);
    const { hash } = first.json() as { hash: string };

    await setFinderSettings(deps, finder.id, [{ key: 'units', value: 'mi' }]);
    failPointer = true;
    const failed = await publish();
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ message: 'Server error.', code: 'internal_error' });
    failPointer = false;

    const pointer = await app.inject({ method: 'GET', url: `/cdn/finders/${finder.token}/config.json` });
    expect(pointer.json()).toMatchObject({ hash });
    const version = await app.inject({ method: 'GET', url: `/cdn/finders/${finder.token}/v/${hash}.json` });
    expect(version.statusCode).toBe(200);
    expect(sha1(version.rawPayload)).toBe(hash);
    const info = await app.inject({
      method: 'GET',
      url: `/api/ext/finders/details/${finder.token}/info`,
      headers: { authorization: `Bearer ${cast.ownerToken}` },
    });
    expect(info.json()).toMatchObject({ hash });

    // The next publish that works moves the pointer.
    const retried = await publish();
    expect(retried.statusCode).toBe(200);
    expect((retried.json() as { hash: string }).hash).not.toBe(hash);
  });
  describe('while a publish is between its version file and its pointer', () => {
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    /** A publish that stops after storing its version file until `release` is called. */
    async function stalledPublish(finderToken: string, ownerToken: string) {
      let release = () => {};
      let reached = () => {};
      const atVersion = new Promise<void>((resolve) => {
        reached = resolve;
      });
      afterVersion = () =>
        new Promise<void>((resolve) => {
          release = resolve;
          reached();
        });
      const done = app.inject({
        method: 'POST',
        url: `/api/ext/finders/details/${finderToken}/sync`,
        headers: as(ownerToken),
      });
      await atVersion;
      afterVersion = undefined;
      return { done, release: () => release() };
    }
    const cdn = (path: string) => app.inject({ method: 'GET', url: `/cdn/${path}` });

    it('an unpublish waits for it, then removes everything: no pointer naming a deleted file', async () => {
      const cast = await createCast(deps);
      const finder = await createWidgetFinder(deps, cast.workspaceId);
      const publish = await stalledPublish(finder.token, cast.ownerToken);
      const unpublish = app.inject({
        method: 'DELETE',
        url: `/api/ext/finders/details/${finder.token}`,
        headers: as(cast.ownerToken),
      });
      // The unpublish cannot finish while the publish holds the finder.
      const early = await Promise.race([
        unpublish.then(() => 'finished'),
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
      ]);
      expect(early).toBe('waiting');
      publish.release();
      expect((await publish.done).statusCode).toBe(200);
      expect((await unpublish).statusCode).toBe(204);

      expect((await cdn(`finders/${finder.token}/config.json`)).statusCode).toBe(404);
      const info = await app.inject({
        method: 'GET',
        url: `/api/ext/finders/details/${finder.token}/info`,
        headers: as(cast.ownerToken),
      });
      expect(info.json()).toEqual({ hash: null, last_synced_at: null });
    });

    it("the finder's delete waits for it, then removes its files and the finder", async () => {
      const cast = await createCast(deps);
      const finder = await createWidgetFinder(deps, cast.workspaceId);
      const publish = await stalledPublish(finder.token, cast.ownerToken);
      const removal = app.inject({
        method: 'DELETE',
        url: `/api/finders/${finder.id}`,
        headers: as(cast.ownerToken),
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      publish.release();
      expect((await publish.done).statusCode).toBe(200);
      expect((await removal).statusCode).toBe(204);
      expect((await cdn(`finders/${finder.token}/config.json`)).statusCode).toBe(404);
      const { hash } = (await publish.done).json() as { hash: string };
      expect((await cdn(`finders/${finder.token}/v/${hash}.json`)).statusCode).toBe(404);
    });
  });
});

describe('storage writes that outlast the session’s idle-in-transaction limit', () => {
  // The API's sessions end a transaction idle for a minute; here for 1.5 s, and every storage
  // write takes 4 s: a publish or an unpublish holding the finder's row over slow writes keeps
  // its session (and the lock) by pinging it.
  const IDLE_LIMIT_MS = 1500;
  const WRITE_MS = 4000;
  let ctx: TestContext;
  let handle: DatabaseHandle;
  let service: FinderPayloadService;
  let cast: Awaited<ReturnType<typeof createCast>>;

  beforeAll(async () => {
    ctx = await createTestContext();
    cast = await createCast(ctx.deps);
    handle = createDatabase(ctx.database.url, {
      settings: { idle_in_transaction_session_timeout: IDLE_LIMIT_MS },
    });
    const slow = (work: () => Promise<void>) =>
      new Promise((resolve) => setTimeout(resolve, WRITE_MS)).then(work);
    const storage: Storage = {
      ...ctx.deps.storage,
      driver: ctx.deps.storage.driver,
      put: (key, body, options) => slow(() => ctx.deps.storage.put(key, body, options)),
      deletePrefix: (prefix) => slow(() => ctx.deps.storage.deletePrefix(prefix)),
    };
    service = payloadServiceOn(handle.db, storage);
  });
  afterAll(async () => {
    await handle?.close();
    await ctx?.close();
  });

  it('a publish and an unpublish keep their session and lock, and commit', async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const actor = { userId: cast.owner.id, allWorkspaces: false };
    const { hash } = await service.publish(actor, finder.token);
    expect(await service.info(actor, finder.token)).toMatchObject({ hash });
    const pointer = await ctx.deps.storage.get(`finders/${finder.token}/config.json`);
    expect(JSON.parse(pointer!.body.toString())).toMatchObject({ hash });

    await service.unpublish(actor, finder.token);
    expect(await service.info(actor, finder.token)).toEqual({ hash: null, last_synced_at: null });
    expect(await ctx.deps.storage.get(`finders/${finder.token}/config.json`)).toBeUndefined();
  }, 60_000);

  it('writes no pointer once the session holding the lock is gone mid-upload', async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    let reached = () => {};
    const atVersion = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let written = () => {};
    const versionWritten = new Promise<void>((resolve) => {
      written = resolve;
    });
    // The version file's upload waits at a gate; the others go straight through.
    const storage: Storage = {
      ...ctx.deps.storage,
      driver: ctx.deps.storage.driver,
      async put(key, body, options) {
        if (!key.includes('/v/')) return ctx.deps.storage.put(key, body, options);
        reached();
        await gate;
        await ctx.deps.storage.put(key, body, options);
        written();
      },
    };
    const gated = payloadServiceOn(handle.db, storage);
    const publish = gated.publish({ userId: cast.owner.id, allWorkspaces: false }, finder.token);
    publish.catch(() => {});
    await atVersion;
    // The session holding the finder's row ends, as when the network drops or the server
    // restarts: an unpublish could now take the row and remove the files.
    const ended = (await ctx.deps.db.execute(
      sql`select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and state = 'idle in transaction' and pid <> pg_backend_pid()`,
    )) as unknown as { ended: boolean }[];
    expect(ended).toEqual([{ ended: true }]);
    // A ping, every third of the limit, finds the session gone.
    await new Promise((resolve) => setTimeout(resolve, IDLE_LIMIT_MS));
    release();
    await versionWritten;
    await expect(publish).rejects.toThrow();
    // Time for a pointer write, were one still coming.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await ctx.deps.storage.get(`finders/${finder.token}/config.json`)).toBeUndefined();
  }, 30_000);
});

describe('deletes whose storage writes outlast the session’s idle-in-transaction limit', () => {
  // As above, through the routes: a finder's delete and a workspace's delete remove the files
  // while they hold the finders' rows, over a removal slower than the session's limit.
  const IDLE_LIMIT_MS = 1500;
  const WRITE_MS = 4000;
  let ctx: TestContext;
  let deps: Deps;
  let app: FastifyInstance;

  beforeAll(async () => {
    ctx = await createTestContext();
    deps = await createDeps(ctx.config, {
      databaseUrl: ctx.database.url,
      role: 'api',
      databaseSettings: { idle_in_transaction_session_timeout: IDLE_LIMIT_MS },
    });
    // The services hold this storage object: its removal is slowed in place.
    const removeFolder = deps.storage.deletePrefix.bind(deps.storage);
    deps.storage.deletePrefix = async (prefix) => {
      await new Promise((resolve) => setTimeout(resolve, WRITE_MS));
      await removeFolder(prefix);
    };
    app = await buildApp(deps);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await deps?.close();
    await ctx?.close();
  });

  it("a finder's delete and a workspace's delete keep their session and lock, and commit", async () => {
    const cast = await createCast(deps);
    const as = { authorization: `Bearer ${cast.ownerToken}` };
    const finders = [
      await createWidgetFinder(deps, cast.workspaceId),
      await createWidgetFinder(deps, cast.workspaceId),
    ];
    for (const finder of finders) {
      const published = await app.inject({
        method: 'POST',
        url: `/api/ext/finders/details/${finder.token}/sync`,
        headers: as,
      });
      expect(published.statusCode, published.body).toBe(200);
    }
    const pointer = (token: string) => deps.storage.get(`finders/${token}/config.json`);

    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/finders/${finders[0]!.id}`,
      headers: as,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await pointer(finders[0]!.token)).toBeUndefined();
    const gone = await app.inject({ method: 'GET', url: `/api/finders/${finders[0]!.id}`, headers: as });
    expect(gone.statusCode).toBe(404);

    const workspace = await app.inject({
      method: 'DELETE',
      url: `/api/workspaces/${cast.workspaceId}`,
      headers: as,
    });
    expect(workspace.statusCode, workspace.body).toBe(204);
    expect(await pointer(finders[1]!.token)).toBeUndefined();
    const [left] = (await deps.db.execute(
      sql`select count(*)::int as n from finders where workspace_id = ${cast.workspaceId}`,
    )) as unknown as { n: number }[];
    expect(left!.n).toBe(0);
  }, 60_000);
});

describe('with the s3 driver', () => {
  let fake: FakeS3;
  let ctx: TestContext;
  beforeAll(async () => {
    fake = await startFakeS3();
    ctx = await createTestContext({ env: fake.env });
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });

  it('publishes to the bucket and deletes every file of the finder', async () => {
    expect(ctx.deps.storage.driver).toBe('s3');
    const cast = await createCast(ctx.deps);
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const other = await createWidgetFinder(ctx.deps, cast.workspaceId);
    const call = createCaller(() => ctx);
    const hashes: string[] = [];
    for (const units of ['km', 'mi']) {
      await setFinderSettings(ctx.deps, finder.id, [{ key: 'units', value: units }]);
      const res = await call('POST', `/ext/finders/details/${finder.token}/sync`, cast.ownerToken);
      expect(res.statusCode, res.body).toBe(200);
      hashes.push((res.json() as { hash: string }).hash);
    }
    const otherHash = (
      (await call('POST', `/ext/finders/details/${other.token}/sync`, cast.ownerToken)).json() as {
        hash: string;
      }
    ).hash;
    for (const hash of hashes) {
      const object = await ctx.deps.storage.get(`finders/${finder.token}/v/${hash}.json`);
      expect(object?.cacheControl).toBe('public, max-age=31536000, immutable');
      expect(sha1(object!.body)).toBe(hash);
    }
    const pointer = await ctx.deps.storage.get(`finders/${finder.token}/config.json`);
    expect(pointer?.cacheControl).toBe('public, max-age=60');
    expect(JSON.parse(pointer!.body.toString())).toEqual({
      hash: hashes[1],
      published_at: expect.any(String),
      url: `v/${hashes[1]}.json`,
    });

    expect((await call('DELETE', `/ext/finders/details/${finder.token}`, cast.ownerToken)).statusCode).toBe(
      204,
    );
    for (const key of [
      `finders/${finder.token}/config.json`,
      ...hashes.map((h) => `finders/${finder.token}/v/${h}.json`),
    ]) {
      expect(await ctx.deps.storage.get(key)).toBeUndefined();
    }
    // Another finder's files stay.
    expect(await ctx.deps.storage.get(`finders/${other.token}/v/${otherHash}.json`)).toBeDefined();
  });
});
