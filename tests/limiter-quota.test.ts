// The quota limiter of src/lib/limiter.ts (the hourly bound of widget analytics events), in the
// process and on a throwaway redis-server of its own: what is left of a window granted up to
// what was asked, bursts counted in one budget, two processes sharing it through Redis, and
// counting in the process while Redis is frozen or gone.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuotaLimiter, type QuotaLimiterOptions } from '../src/lib/limiter.ts';
import { connectRedis, type GuardedRedis } from '../src/lib/redis.ts';
import { canRunRedisServer, startThrowawayRedis, type ThrowawayRedis } from './helpers/redis.ts';

const silent = pino({ level: 'silent' });
const opened: GuardedRedis[] = [];
let server: ThrowawayRedis | undefined;
beforeAll(async () => {
  if (canRunRedisServer) server = await startThrowawayRedis();
});
afterAll(async () => {
  for (const redis of opened) redis.close();
  await server?.stop();
});

async function guardedRedis(): Promise<GuardedRedis> {
  const redis = await connectRedis(server!.url, silent);
  opened.push(redis);
  return redis;
}

const quotaOptions = (overrides: Partial<QuotaLimiterOptions> = {}): QuotaLimiterOptions => ({
  name: `test-${randomUUID()}`,
  points: 250,
  windowSeconds: 60,
  ...overrides,
});

const stores = [
  { name: 'in the process', redis: async () => undefined, skip: false },
  { name: 'on Redis', redis: guardedRedis, skip: !canRunRedisServer },
];

for (const store of stores) {
  describe.skipIf(store.skip)(`quota limiter ${store.name}`, () => {
    it('grants what is left of the window up to what is asked, then nothing', async () => {
      const quota = createQuotaLimiter(quotaOptions({ redis: await store.redis() }));
      const key = randomUUID();
      expect(await quota.take(key, 100)).toBe(100);
      expect(await quota.take(key, 100)).toBe(100);
      expect(await quota.take(key, 100)).toBe(50);
      expect(await quota.take(key, 1)).toBe(0);
      expect(await quota.take(key, 0)).toBe(0);
      // Another key has its own budget.
      expect(await quota.take(randomUUID(), 100)).toBe(100);
    });

    it('grants the budget once over a burst of 40 takes at once', async () => {
      const quota = createQuotaLimiter(quotaOptions({ redis: await store.redis() }));
      const key = randomUUID();
      const granted = await Promise.all(Array.from({ length: 40 }, () => quota.take(key, 7)));
      expect(granted.reduce((sum, n) => sum + n, 0)).toBe(250);
      expect(granted.filter((n) => n !== 0 && n !== 7)).toEqual([250 % 7]);
    });

    it('starts a new budget when the window ends', async () => {
      const quota = createQuotaLimiter(quotaOptions({ windowSeconds: 1, redis: await store.redis() }));
      const key = randomUUID();
      expect(await quota.take(key, 300)).toBe(250);
      expect(await quota.take(key, 1)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await quota.take(key, 10)).toBe(10);
    });
  });
}

describe.skipIf(!canRunRedisServer)('quota limiter shared through Redis', () => {
  it('two processes (two connections, two limiters) grant the budget once in all', async () => {
    const options = quotaOptions();
    const one = createQuotaLimiter({ ...options, redis: await guardedRedis() });
    const two = createQuotaLimiter({ ...options, redis: await guardedRedis() });
    const key = randomUUID();
    const granted = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).take(key, 10)),
    );
    expect(granted.reduce((sum, n) => sum + n, 0)).toBe(250);
    const probe = await server!.client();
    expect(Number(await probe.get(`quota:${options.name}:${key}`))).toBe(250);
    expect(await probe.pttl(`quota:${options.name}:${key}`)).toBeGreaterThan(50_000);
  });

  it('counts in the process, answering within 200 ms, while Redis is frozen, and in Redis again after', async () => {
    const quota = createQuotaLimiter(quotaOptions({ redis: await guardedRedis() }));
    const key = randomUUID();
    server!.freeze();
    try {
      for (const expected of [100, 100, 50, 0]) {
        const started = performance.now();
        expect(await quota.take(key, 100)).toBe(expected);
        expect(performance.now() - started).toBeLessThan(200);
      }
    } finally {
      server!.thaw();
    }
    // Redis answers again (after the second it is skipped for): its own count, from zero.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await quota.take(key, 100)).toBe(100);
  });
});
