// The payload cache's builds under concurrent requests (finders.payload.cache.ts), with a build
// the test releases by hand: requests with no write in between share one build, and a request
// after a write never takes the result of a build that began before it (its authorized sites,
// rule and locations would be those before the write). With this process's counters and with
// counters shared through Redis (an in-memory stand-in for another process's INCR).
import { describe, expect, it } from 'vitest';
import type { GuardedRedis } from '../src/lib/redis.ts';
import {
  createPayloadCache,
  type PayloadCache,
} from '../src/modules/finders/payload/finders.payload.cache.ts';
import type { BuiltPayload } from '../src/modules/finders/payload/finders.payload.repository.ts';

const TOKEN = 'finder-token';
const FINDER_ID = 7;
const WORKSPACE_ID = 3;

interface Build {
  authorizedUrls: string[];
  release(): void;
}

/** A cache whose builds wait for the test: each load answers the sites `sites()` gives when it starts. */
function cacheWithHeldBuilds(sites: () => string[], redis?: GuardedRedis) {
  const builds: Build[] = [];
  const cache = createPayloadCache({
    redis,
    dependencies: async () => ({
      finderId: FINDER_ID,
      workspaceId: WORKSPACE_ID,
      mapId: null,
      locationWorkspaceIds: [],
    }),
    load: (token): Promise<BuiltPayload> => {
      const authorizedUrls = sites();
      return new Promise((resolve) => {
        builds.push({
          authorizedUrls,
          release: () =>
            resolve({
              token,
              finderId: FINDER_ID,
              workspaceId: WORKSPACE_ID,
              mapId: null,
              locationWorkspaceIds: [],
              authorizedUrls,
              json: Buffer.from(JSON.stringify({ authorized_urls: authorizedUrls })),
            }),
        });
      });
    },
  });
  return { cache, builds };
}

/** Waits until `count` builds have started (a request reads its counters before it builds). */
async function started(builds: Build[], count: number): Promise<void> {
  for (let i = 0; i < 100 && builds.length < count; i++) await new Promise((r) => setTimeout(r, 5));
  expect(builds).toHaveLength(count);
}

/** Redis's INCR and MGET over a map, as every process of one Redis sees them. */
function sharedCounters(): { redis: GuardedRedis; incr(key: string): void } {
  const counters = new Map<string, number>();
  const client = {
    mget: async (keys: string[]) => keys.map((key) => (counters.has(key) ? String(counters.get(key)) : null)),
    incr: async (key: string) => {
      counters.set(key, (counters.get(key) ?? 0) + 1);
      return counters.get(key);
    },
  };
  const redis = {
    run: (command: (c: typeof client) => Promise<unknown>) => command(client),
  } as unknown as GuardedRedis;
  return { redis, incr: (key) => void client.incr(`lf:payload-gen:${key}`) };
}

async function sitesOf(cache: PayloadCache): Promise<string[] | undefined> {
  return (await cache.get(TOKEN))?.authorizedUrls;
}

describe('payload cache builds', () => {
  it('shares one build between requests with no write in between', async () => {
    const { cache, builds } = cacheWithHeldBuilds(() => ['https://shop.example']);
    const first = sitesOf(cache);
    await started(builds, 1);
    const second = sitesOf(cache);
    builds[0]!.release();
    expect(await first).toEqual(['https://shop.example']);
    expect(await second).toEqual(['https://shop.example']);
    expect(builds).toHaveLength(1);
    // Kept: a third request is served without a build.
    expect(await sitesOf(cache)).toEqual(['https://shop.example']);
    expect(builds).toHaveLength(1);
  });

  it('builds again for a request after a write made while a build ran, and keeps the newer build', async () => {
    let sites = ['https://shop.example', 'https://old.example'];
    const { cache, builds } = cacheWithHeldBuilds(() => sites);
    const before = sitesOf(cache);
    await started(builds, 1);
    // The owner takes a site out while the build runs.
    sites = ['https://shop.example'];
    await cache.finderChanged(FINDER_ID);
    const after = sitesOf(cache);
    await started(builds, 2);
    // The newer build ends first, then the older one: the older must not replace it.
    builds[1]!.release();
    expect(await after).toEqual(['https://shop.example']);
    builds[0]!.release();
    expect(await before).toEqual(['https://shop.example', 'https://old.example']);
    expect(await sitesOf(cache)).toEqual(['https://shop.example']);
    expect(builds).toHaveLength(2);
  });

  it('does not keep a build that a write made stale while it ran', async () => {
    let sites = ['https://a.example'];
    const { cache, builds } = cacheWithHeldBuilds(() => sites);
    const first = sitesOf(cache);
    await started(builds, 1);
    sites = ['https://b.example'];
    await cache.workspaceChanged(WORKSPACE_ID);
    builds[0]!.release();
    expect(await first).toEqual(['https://a.example']);
    const next = sitesOf(cache);
    await started(builds, 2);
    builds[1]!.release();
    expect(await next).toEqual(['https://b.example']);
  });

  it("builds again for a request after another process's write, counted in Redis", async () => {
    const shared = sharedCounters();
    let sites = ['https://shop.example', 'https://old.example'];
    const { cache, builds } = cacheWithHeldBuilds(() => sites, shared.redis);
    const before = sitesOf(cache);
    await started(builds, 1);
    sites = ['https://shop.example'];
    // Another web process's write: only Redis's counter moves.
    shared.incr(`finder:${FINDER_ID}`);
    const after = sitesOf(cache);
    await started(builds, 2);
    builds[0]!.release();
    builds[1]!.release();
    expect(await before).toEqual(['https://shop.example', 'https://old.example']);
    expect(await after).toEqual(['https://shop.example']);
  });
});
