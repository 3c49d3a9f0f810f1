// The 60-second cache of built widget payloads (GET /ext/finders/details/{key}): per token, the
// JSON and its gzip and brotli forms, compressed once per fill, with a content-hash ETag.
//
// Invalidation is by generation counters, not by deleting entries: every write bumps the
// counter of what it touched (`finder:{id}`, `ws:{id}`, `map:{id}`), and an entry remembers
// the counters of everything its payload read, as they were BEFORE the build started. An entry
// is served only while those counters are unchanged, so a write that commits during a build
// still makes the result stale, and a request after that write starts a build of its own rather
// than take the result of the one running. With REDIS_URL the counters live in Redis (INCR on write, one
// MGET per cached request), which every web process reads: the first request after a write
// shows it on every process. Redis calls go through GuardedRedis (bounded, with fallback):
// while Redis is away, this process's own counters still catch its own writes, and other
// processes' writes are caught by the 60 s TTL at the latest. Without REDIS_URL the counters
// are in-process only (one web process).

import { compressBody } from '../../../lib/content-coding.ts';
import { sha1Hex } from '../../../lib/crypto.ts';
import type { PayloadChangeListener } from '../../../lib/payload-changes.ts';
import type { GuardedRedis } from '../../../lib/redis.ts';
import type { BuiltPayload, PayloadDependencies } from './finders.payload.repository.ts';

export const PAYLOAD_CACHE_TTL_MS = 60_000;
const DEFAULT_MAX_BYTES = 128 * 1024 * 1024;
const REDIS_PREFIX = 'lf:payload-gen:';

export interface PayloadVariants {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** SHA-1 (hex) of the JSON: also the hash a publish of the same content gets. */
  hash: string;
}

export interface CachedPayload extends PayloadVariants {
  finderId: number;
  authorizedUrls: string[];
}

/** The generation counters a build read before it started, of the keys its payload depends on. */
interface Counters {
  keys: string[];
  local: number[];
  /** Redis's counters, or undefined when Redis could not be read then. */
  remote: (string | null)[] | undefined;
}

interface Entry extends CachedPayload, Counters {
  expiresAt: number;
  bytes: number;
}

/** A build running for a token: its counters (undefined: no such finder) and its result. */
interface Filling {
  counters: Promise<Counters | undefined>;
  result: Promise<CachedPayload | undefined>;
}

/**
 * The JSON (UTF-8 bytes) and its compressed forms, computed once per fill at the `fast` effort
 * (brotli 11 takes seconds on a multi-megabyte payload, too slow for a fill on the request path).
 */
export async function precompress(identity: Buffer): Promise<PayloadVariants> {
  return { ...(await compressBody(identity, 'fast')), hash: sha1Hex(identity) };
}

/** Counter keys an entry of this payload depends on. */
function keysOf(built: PayloadDependencies) {
  const workspaces = new Set([built.workspaceId, ...[...built.locationWorkspaceIds].sort((a, b) => a - b)]);
  return [
    `finder:${built.finderId}`,
    ...[...workspaces].map((id) => `ws:${id}`),
    ...(built.mapId === null ? [] : [`map:${built.mapId}`]),
  ];
}

export interface PayloadCacheOptions {
  /** Builds the payload of a token (undefined: no such finder). */
  load(token: string): Promise<BuiltPayload | undefined>;
  /** What a token's payload reads from, without building it (undefined: no such finder). */
  dependencies(token: string): Promise<PayloadDependencies | undefined>;
  redis?: GuardedRedis | undefined;
  ttlMs?: number;
  maxBytes?: number;
  now?: () => number;
}

export interface PayloadCache extends PayloadChangeListener {
  /** The cached or freshly built payload of a token; undefined for an unknown token. */
  get(token: string): Promise<CachedPayload | undefined>;
  clear(): void;
}

export function createPayloadCache(options: PayloadCacheOptions): PayloadCache {
  const {
    load,
    dependencies,
    redis,
    ttlMs = PAYLOAD_CACHE_TTL_MS,
    maxBytes = DEFAULT_MAX_BYTES,
    now = Date.now,
  } = options;
  const entries = new Map<string, Entry>();
  const filling = new Map<string, Filling>();
  const localGenerations = new Map<string, number>();
  /** The counter keys of each token's payload at its last build (kept after an entry expires). */
  const knownKeys = new Map<string, string[]>();
  let totalBytes = 0;

  const localOf = (keys: string[]) => keys.map((key) => localGenerations.get(key) ?? 0);

  /** Redis's counters, or undefined when Redis is not configured or not answering. */
  const remoteOf = async (keys: string[]): Promise<(string | null)[] | undefined> => {
    if (!redis) return undefined;
    return redis.run(
      (client) => client.mget(keys.map((key) => REDIS_PREFIX + key)),
      () => undefined,
    );
  };

  const sameValues = <T>(a: readonly T[], b: readonly T[]) =>
    a.length === b.length && a.every((value, i) => value === b[i]);

  const remove = (token: string) => {
    const entry = entries.get(token);
    if (!entry) return;
    entries.delete(token);
    totalBytes -= entry.bytes;
  };

  const store = (token: string, entry: Entry) => {
    remove(token);
    if (entry.bytes > maxBytes) return;
    // Oldest fills go first (Map keeps insertion order).
    for (const [oldest] of entries) {
      if (totalBytes + entry.bytes <= maxBytes) break;
      remove(oldest);
    }
    entries.set(token, entry);
    knownKeys.set(token, entry.keys);
    totalBytes += entry.bytes;
  };

  /** Whether the counters read for a build or an entry are still those of now. */
  async function isCurrent(counters: Counters): Promise<boolean> {
    if (!sameValues(localOf(counters.keys), counters.local)) return false;
    if (!redis) return true;
    const remote = await remoteOf(counters.keys);
    // Redis away: our own writes are still caught (local counters), others' within the TTL.
    if (remote === undefined) return true;
    return counters.remote !== undefined && sameValues(remote, counters.remote);
  }

  async function isFresh(entry: Entry): Promise<boolean> {
    return entry.expiresAt > now() && (await isCurrent(entry));
  }

  /**
   * The counters of everything the token's payload read at its last build, read BEFORE a build,
   * so that a write committing during the build leaves its entry stale. The keys come from the
   * previous entry, else from a light query; undefined for an unknown token.
   */
  async function countersOf(token: string): Promise<Counters | undefined> {
    let keys = knownKeys.get(token);
    if (!keys) {
      const found = await dependencies(token);
      if (!found) return undefined;
      keys = keysOf(found);
    }
    return { keys, local: localOf(keys), remote: await remoteOf(keys) };
  }

  async function fill(token: string, counters: Counters | undefined): Promise<CachedPayload | undefined> {
    if (!counters) return undefined;
    const { keys, local, remote } = counters;
    const built = await load(token);
    if (!built) {
      remove(token);
      knownKeys.delete(token);
      return undefined;
    }
    const variants = await precompress(built.json);
    const result = { ...variants, finderId: built.finderId, authorizedUrls: built.authorizedUrls };
    const builtKeys = keysOf(built);
    if (!sameValues(builtKeys, keys)) {
      // The payload now reads from elsewhere (a map link or location moved between the two
      // reads): answer it, but do not keep it; the next fill starts from the right keys.
      remove(token);
      knownKeys.set(token, builtKeys);
      return result;
    }
    // Written to since the build began: the requests before the write take it, but it is not
    // kept, nor put in the place of a later build's entry.
    if (!sameValues(localOf(keys), local)) return result;
    store(token, {
      ...result,
      keys,
      local,
      remote,
      expiresAt: now() + ttlMs,
      bytes: variants.identity.length + variants.gzip.length + variants.br.length,
    });
    return result;
  }

  /**
   * Whether a request may take the result of a build already running: only when nothing it
   * reads was written since the build read its counters. A request after a write (a site taken
   * out of authorized_urls, say) must see the write, so it starts a build of its own.
   */
  async function mayJoin(running: Filling): Promise<boolean> {
    const counters = await running.counters;
    if (!counters) return true;
    return isCurrent(counters);
  }

  /** A build of the token's payload that later requests may join (mayJoin). */
  function startFill(token: string): Promise<CachedPayload | undefined> {
    const counters = countersOf(token);
    const result = counters.then((read) => fill(token, read));
    const running: Filling = { counters, result };
    filling.set(token, running);
    // A later build may have taken the token's place meanwhile (mayJoin): it stays.
    const settled = () => {
      if (filling.get(token) === running) filling.delete(token);
    };
    result.then(settled, settled);
    return result;
  }

  async function bump(key: string): Promise<void> {
    localGenerations.set(key, (localGenerations.get(key) ?? 0) + 1);
    if (!redis) return;
    await redis.run(
      (client) => client.incr(REDIS_PREFIX + key),
      () => 0,
    );
  }

  return {
    async get(token) {
      const entry = entries.get(token);
      if (entry && (await isFresh(entry))) return entry;
      const running = filling.get(token);
      if (running && (await mayJoin(running))) return running.result;
      return startFill(token);
    },
    clear() {
      entries.clear();
      knownKeys.clear();
      totalBytes = 0;
    },
    finderChanged: (finderId) => bump(`finder:${finderId}`),
    async finderDeleted(finderId, token) {
      remove(token);
      knownKeys.delete(token);
      await bump(`finder:${finderId}`);
    },
    workspaceChanged: (workspaceId) => bump(`ws:${workspaceId}`),
    mapChanged: (mapId) => bump(`map:${mapId}`),
  };
}
