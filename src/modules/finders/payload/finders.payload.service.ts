// The widget payload of a finder: served (GET /ext/finders/details/{key}, public, through the
// 60 s cache and the finder's origin rules) and published to object storage (sync, info,
// delete; members of the finder's workspace). Publishing builds afresh, never from the cache.
import type { Database } from '../../../db/client.ts';
import { holdingLocksWhile } from '../../../db/locks.ts';
import type { Actor } from '../../../lib/actor.ts';
import { mapWithConcurrency } from '../../../lib/concurrency.ts';
import { sha1Hex } from '../../../lib/crypto.ts';
import { createOriginNotAllowedError, finderAllowsOrigin } from '../../../lib/origins.ts';
import type { Storage } from '../../../lib/storage/storage.ts';
import { createFinderNotFoundError } from '../finders.errors.ts';
import { type ChunkedManifest, type PublishedIndex, readPublishedIndex } from './chunked/chunked.files.ts';
import type { CachedPayload, PayloadCache } from './finders.payload.cache.ts';
import type { FinderPayloadRepository } from './finders.payload.repository.ts';

export const VERSIONED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const POINTER_CACHE_CONTROL = 'public, max-age=60';
const JSON_TYPE = 'application/json; charset=utf-8';

export const finderFolder = (token: string) => `finders/${token}/`;
export const versionKey = (token: string, hash: string) => `finders/${token}/v/${hash}.json`;
export const pointerKey = (token: string) => `finders/${token}/config.json`;
/**
 * The pointer's `url`: the versioned file relative to the pointer (both under
 * `finders/{token}/`), so a published finder keeps working when CDN_URL, its port or its
 * domain change; the widget reads it against the URL it fetched the pointer from.
 */
export const pointerVersionUrl = (hash: string) => `v/${hash}.json`;
/** A file of a chunked publish, by its path relative to the manifest (`c/`, `i/`, `s/{sha1}.json`). */
export const chunkedFileKey = (token: string, path: string) => `finders/${token}/v/${path}`;
/**
 * A path a publish writes in `folder`, relative to the finder's or the manifest's folder: the
 * pointer's version (`v/{sha1}.json`), an index or summaries (`i/`, `s/`). Anything else read
 * from a published file names no file of ours.
 */
const isPublishedPath = (path: unknown, folder: 'v' | 'i' | 's'): path is string =>
  typeof path === 'string' && path.startsWith(`${folder}/`) && /^.\/[0-9a-f]{40}\.json$/.test(path);
/** The manifest's key as JSON.stringify writes it (chunked.files.ts). */
const CHUNKED_KEY = '"chunked":{';
/** Files of a chunked publish written at once. */
const UPLOAD_CONCURRENCY = 8;

/**
 * Every file of a finder: the pointer first, so a removal cut short never leaves it naming a
 * version already gone.
 */
export async function removePublishedFiles(storage: Storage, token: string): Promise<void> {
  await storage.delete(pointerKey(token));
  await storage.deletePrefix(finderFolder(token));
}

/** A stored file's JSON; undefined when it is missing or not JSON. */
function jsonOf(file: { body: Buffer } | undefined): unknown {
  if (!file) return undefined;
  try {
    return JSON.parse(file.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

interface FinderPayloadServiceDeps {
  db: Database;
  repository: FinderPayloadRepository;
  cache: PayloadCache;
  storage: Storage;
  /** From this many locations a publish is chunked; null: never. */
  chunkedFrom?: number | null;
  now?: () => Date;
}

/** What a publish wrote: its hash, and the files and bytes it uploaded (the pointer not counted). */
export interface PublishResult {
  hash: string;
  uploaded: { files: number; bytes: number };
}

export function createFinderPayloadService({
  db,
  repository,
  cache,
  storage,
  chunkedFrom = null,
  now = () => new Date(),
}: FinderPayloadServiceDeps) {
  /**
   * The published version's manifest, when it is chunked and of its shape; undefined when
   * there is none, or a file is missing or not JSON. A storage failure is not swallowed: the
   * publish would meet it again at its first write, after another wait.
   */
  async function publishedManifest(
    token: string,
  ): Promise<({ chunked: ChunkedManifest } & Record<string, unknown>) | undefined> {
    const pointer = jsonOf(await storage.get(pointerKey(token))) as { url?: unknown } | undefined;
    const url = pointer?.url;
    if (!isPublishedPath(url, 'v')) return undefined;
    const version = await storage.get(`${finderFolder(token)}${url}`);
    // A single file (47 MB at 100,000 locations, half a second to parse) has no `chunked` key:
    // the manifest's, written without spaces, is looked for in the bytes first.
    if (!version?.body.includes(CHUNKED_KEY)) return undefined;
    const manifest = jsonOf(version) as Record<string, unknown> | undefined;
    const chunked = manifest?.chunked as ChunkedManifest | undefined;
    if (!chunked || typeof chunked.index !== 'string' || !Array.isArray(chunked.areas)) return undefined;
    return manifest as { chunked: ChunkedManifest } & Record<string, unknown>;
  }

  /**
   * The files the published version names, when it is chunked (paths relative to it); none
   * when it is not, or cannot be read (then every file is written again).
   */
  async function publishedChunkedFiles(token: string): Promise<Set<string>> {
    const chunked = (await publishedManifest(token))?.chunked;
    if (!chunked) return new Set();
    const named = [chunked.index, ...chunked.areas.map((area) => area[0])];
    if (chunked.clusters) named.push(chunked.clusters.path);
    return new Set(named);
  }

  /**
   * The published version's index, for a chunked build to take unchanged areas' entries from;
   * undefined when there is none that can be read (the build then reads every area). Read
   * without the finder's lock: entries are taken only for an area file of the same bytes, so
   * an index that is no longer the published one is still right for them.
   */
  async function publishedIndex(token: string): Promise<PublishedIndex | undefined> {
    const manifest = await publishedManifest(token);
    if (!manifest) return undefined;
    const { index: indexPath, clusters } = manifest.chunked;
    if (!isPublishedPath(indexPath, 'i')) return undefined;
    const [index, summaries] = await Promise.all([
      storage.get(chunkedFileKey(token, indexPath)).then(jsonOf),
      isPublishedPath(clusters?.path, 's') ? storage.get(chunkedFileKey(token, clusters.path)) : undefined,
    ]);
    return index === undefined ? undefined : readPublishedIndex(manifest, index, summaries?.body);
  }

  async function accessibleFinder(actor: Actor, token: string) {
    const finder = await repository.findAccessibleByToken(actor, token);
    if (!finder) throw createFinderNotFoundError();
    return finder;
  }

  return {
    /** 404 for an unknown token, 403 for a site the finder does not list (docs/api.md, Widget payload). */
    async details(token: string, origin: string | undefined): Promise<CachedPayload> {
      const payload = await cache.get(token);
      if (!payload) throw createFinderNotFoundError();
      if (!finderAllowsOrigin(payload.authorizedUrls, origin)) throw createOriginNotAllowedError();
      return payload;
    },

    /**
     * The versioned file first, the pointer after it, the history row last: a failure at any
     * step leaves the previous pointer naming a file that exists. The build reads without a
     * lock; the writes hold the finder's row (FOR UPDATE) until the history row commits, as an
     * unpublish and the finder's delete do while they remove the files: otherwise a removal
     * running between this publish's two writes would leave the pointer naming a deleted file
     * (or, on the local driver, fail on a folder that filled while it was emptied), and a
     * publish after a delete would leave files of a finder that no longer exists.
     */
    async publish(actor: Actor, token: string): Promise<PublishResult> {
      const finder = await accessibleFinder(actor, token);
      // Read only by a chunked build: a single file's publish touches storage only to write.
      const built = await repository.buildForPublish(finder.token, chunkedFrom, () =>
        publishedIndex(finder.token),
      );
      if (!built) throw createFinderNotFoundError();
      const body = built.kind === 'single' ? built.json : built.manifest;
      const hash = sha1Hex(body);
      const objectKey = versionKey(finder.token, hash);
      return db.transaction(async (tx) => {
        if (!(await repository.findAccessibleByToken(actor, token, { lock: true }, tx))) {
          throw createFinderNotFoundError();
        }
        const uploaded = { files: 1, bytes: body.length };
        // With the finder's lock lost (signal aborted), nothing more is written: above all not
        // the pointer, which an unpublish running meanwhile may have removed.
        const publishedAt = await holdingLocksWhile(tx, async (signal) => {
          if (built.kind === 'chunked') {
            // Files the published version already names exist under the same name, same bytes.
            const published = await publishedChunkedFiles(finder.token);
            const files = built.files.filter((file) => !published.has(file.path));
            await mapWithConcurrency(files, UPLOAD_CONCURRENCY, (file) => {
              signal.throwIfAborted();
              return storage.put(chunkedFileKey(finder.token, file.path), file.body, {
                contentType: JSON_TYPE,
                cacheControl: VERSIONED_CACHE_CONTROL,
              });
            });
            uploaded.files += files.length;
            uploaded.bytes += files.reduce((sum, file) => sum + file.body.length, 0);
          }
          // The manifest after the files it names.
          signal.throwIfAborted();
          await storage.put(objectKey, body, {
            contentType: JSON_TYPE,
            cacheControl: VERSIONED_CACHE_CONTROL,
          });
          const publishedAt = now();
          // Keys in alphabetical order, like the payload: the same publish gives the same bytes.
          const pointer = JSON.stringify({
            hash,
            published_at: publishedAt.toISOString(),
            url: pointerVersionUrl(hash),
          });
          signal.throwIfAborted();
          await storage.put(pointerKey(finder.token), Buffer.from(pointer), {
            contentType: JSON_TYPE,
            cacheControl: POINTER_CACHE_CONTROL,
          });
          return publishedAt;
        });
        // The history keeps the file's public URL at the time of the publish.
        const url = storage.publicUrl(objectKey);
        await repository.recordPublication({ finderId: finder.id, hash, objectKey, url, publishedAt }, tx);
        return { hash, uploaded };
      });
    },

    /**
     * The payload `details` serves, for a member of the finder's workspace and whatever
     * websites the finder lists: the dashboard's preview shows the current data from there.
     */
    async current(actor: Actor, token: string): Promise<CachedPayload> {
      await accessibleFinder(actor, token);
      const payload = await cache.get(token);
      if (!payload) throw createFinderNotFoundError();
      return payload;
    },

    /** The last publish; both null when the finder was never published (or was unpublished). */
    async info(actor: Actor, token: string): Promise<{ hash: string | null; last_synced_at: string | null }> {
      const finder = await accessibleFinder(actor, token);
      const latest = await repository.latestPublication(finder.id);
      return { hash: latest?.hash ?? null, last_synced_at: latest?.publishedAt.toISOString() ?? null };
    },

    /** Every file under `finders/{token}/`, then the history (so info says "never published"). */
    async unpublish(actor: Actor, token: string): Promise<void> {
      await db.transaction(async (tx) => {
        // The finder's row held while its files go (see publish).
        const finder = await repository.findAccessibleByToken(actor, token, { lock: true }, tx);
        if (!finder) throw createFinderNotFoundError();
        await holdingLocksWhile(tx, () => removePublishedFiles(storage, finder.token));
        await repository.deletePublications(finder.id, tx);
      });
    },
  };
}

export type FinderPayloadService = ReturnType<typeof createFinderPayloadService>;
