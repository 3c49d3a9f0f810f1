// The failure limiter behind login throttling, in memory and on Redis. The Redis half runs
// where a Redis answers (this machine and CI: 127.0.0.1:6379, or TEST_REDIS_URL) and is
// skipped on a machine with nothing but Node.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createFailureLimiter, type FailureLimiter } from '../src/lib/limiter.ts';
import { createUser, DEFAULT_PASSWORD } from './factories/users.ts';
import { createTestContext } from './helpers/app.ts';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function connectRedis(): Promise<Redis | undefined> {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch {
    client.disconnect();
    return undefined;
  }
}

const redis = await connectRedis();
afterAll(() => redis?.disconnect());

async function exercise(limiter: FailureLimiter) {
  const key = randomUUID();
  for (let i = 0; i < 4; i++) await limiter.recordFailure(key);
  expect(await limiter.blockedFor(key)).toBe(0);
  await limiter.recordFailure(key);
  const blocked = await limiter.blockedFor(key);
  expect(blocked).toBeGreaterThan(0);
  expect(blocked).toBeLessThanOrEqual(60);
  // Further failures while blocked do not throw.
  await limiter.recordFailure(key);
  await limiter.reset(key);
  expect(await limiter.blockedFor(key)).toBe(0);
}

describe('failure limiter', () => {
  it('blocks after the fifth failure in memory', async () => {
    await exercise(createFailureLimiter({ prefix: 'test', points: 5, durationSeconds: 60 }));
  });

  it.skipIf(!redis)('blocks after the fifth failure on Redis, shared by two limiters', async () => {
    const first = createFailureLimiter({
      prefix: `t-${randomUUID()}`,
      points: 5,
      durationSeconds: 60,
      redis,
    });
    await exercise(first);
    // Two processes (two limiters on one Redis) see the same count.
    const prefix = `t-${randomUUID()}`;
    const a = createFailureLimiter({ prefix, points: 5, durationSeconds: 60, redis });
    const b = createFailureLimiter({ prefix, points: 5, durationSeconds: 60, redis });
    for (let i = 0; i < 5; i++) await (i % 2 ? a : b).recordFailure('shared');
    expect(await a.blockedFor('shared')).toBeGreaterThan(0);
    expect(await b.blockedFor('shared')).toBeGreaterThan(0);
  });

  it.skipIf(!redis)('throttles login across two app instances sharing REDIS_URL', async () => {
    const one = await createTestContext({ env: { REDIS_URL: redisUrl } });
    try {
      const user = await createUser(one.deps);
      const attempt = (password: string) =>
        one.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: user.email, password },
          remoteAddress: '10.2.3.4',
        });
      for (let i = 0; i < 5; i++) expect((await attempt('wrong-password')).statusCode).toBe(401);
      // A rebuilt app (a new process, in effect) still sees the failures kept in Redis.
      await one.rebuild();
      expect((await attempt(DEFAULT_PASSWORD)).statusCode).toBe(429);
    } finally {
      await one.close();
    }
  });
});
