// The failure limiter behind the throttles, in memory and on Redis. The shared-Redis half runs
// where a Redis answers (this machine and CI: 127.0.0.1:6379, or TEST_REDIS_URL) and is skipped
// on a machine with nothing but Node; the outage half runs a throwaway redis-server of its own.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors.ts';
import { type Attempt, createFailureLimiter, type FailureLimiterOptions } from '../src/lib/limiter.ts';
import { connectRedis, type GuardedRedis } from '../src/lib/redis.ts';
import { createUser, DEFAULT_PASSWORD } from './factories/users.ts';
import { createTestContext } from './helpers/app.ts';
import {
  canRunRedisServer,
  connectTestRedis,
  startThrowawayRedis,
  TEST_REDIS_URL,
  type ThrowawayRedis,
} from './helpers/redis.ts';

const silent = pino({ level: 'silent' });
const sharedRedisAnswers = await connectTestRedis().then((client) => {
  client?.disconnect();
  return client !== undefined;
});
const opened: GuardedRedis[] = [];
async function guardedRedis(url = TEST_REDIS_URL): Promise<GuardedRedis> {
  const redis = await connectRedis(url, silent);
  opened.push(redis);
  return redis;
}
afterAll(() => {
  for (const redis of opened) redis.close();
});

const limiterOptions = (overrides: Partial<FailureLimiterOptions> = {}): FailureLimiterOptions => ({
  name: `test-${randomUUID()}`,
  points: 5,
  windowSeconds: 60,
  onSuccess: 'clear',
  ...overrides,
});

/** The attempts granted, and the Retry-After (seconds) of the refused ones. */
async function settle(attempts: Promise<Attempt>[]) {
  const granted: Attempt[] = [];
  const retryAfter: number[] = [];
  for (const outcome of await Promise.allSettled(attempts)) {
    if (outcome.status === 'fulfilled') {
      granted.push(outcome.value);
    } else {
      const error = outcome.reason;
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ statusCode: 429, code: 'rate_limited' });
      retryAfter.push(Number((error as AppError).headers?.['retry-after']));
    }
  }
  return { granted, retryAfter };
}

const stores = [
  { name: 'in memory', redis: async () => undefined, skip: false },
  { name: 'on Redis', redis: () => guardedRedis(), skip: !sharedRedisAnswers },
];

for (const store of stores) {
  describe.skipIf(store.skip)(`failure limiter ${store.name}`, () => {
    it('grants 5 of 100 attempts made at once and refuses the rest with Retry-After', async () => {
      const limiter = createFailureLimiter(limiterOptions({ redis: await store.redis() }));
      const key = randomUUID();
      const { granted, retryAfter } = await settle(Array.from({ length: 100 }, () => limiter.attempt(key)));
      expect(granted).toHaveLength(5);
      expect(retryAfter).toHaveLength(95);
      for (const seconds of retryAfter) {
        expect(seconds).toBeGreaterThan(0);
        expect(seconds).toBeLessThanOrEqual(60);
      }
      // Another key has its own count.
      await expect(limiter.attempt(randomUUID())).resolves.toBeDefined();
    });

    it('an attempt never declared a success counts until its window ends, then the key is free', async () => {
      const limiter = createFailureLimiter(limiterOptions({ windowSeconds: 1, redis: await store.redis() }));
      const key = randomUUID();
      for (let i = 0; i < 5; i++) await limiter.attempt(key);
      await expect(limiter.attempt(key)).rejects.toMatchObject({ statusCode: 429 });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await settle(Array.from({ length: 8 }, () => limiter.attempt(key)))).granted).toHaveLength(5);
    });

    it('clear: a success forgets every failure of the key', async () => {
      const limiter = createFailureLimiter(
        limiterOptions({ onSuccess: 'clear', redis: await store.redis() }),
      );
      const key = randomUUID();
      for (let i = 0; i < 4; i++) await limiter.attempt(key);
      await (await limiter.attempt(key)).succeeded();
      expect((await settle(Array.from({ length: 8 }, () => limiter.attempt(key)))).granted).toHaveLength(5);
    });

    it('release: a success gives back its own attempt only, once', async () => {
      const limiter = createFailureLimiter(
        limiterOptions({ onSuccess: 'release', redis: await store.redis() }),
      );
      const key = randomUUID();
      for (let i = 0; i < 4; i++) await limiter.attempt(key);
      const right = await limiter.attempt(key);
      await right.succeeded();
      await right.succeeded();
      expect((await settle(Array.from({ length: 8 }, () => limiter.attempt(key)))).granted).toHaveLength(1);
    });
  });
}

describe.skipIf(!sharedRedisAnswers)('failure limiter shared through Redis', () => {
  it('two processes (two connections, two limiters) grant 5 in all of 100 attempts at once', async () => {
    const options = limiterOptions();
    const one = createFailureLimiter({ ...options, redis: await guardedRedis() });
    const two = createFailureLimiter({ ...options, redis: await guardedRedis() });
    const key = randomUUID();
    const { granted } = await settle(Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).attempt(key)));
    expect(granted).toHaveLength(5);
  });

  it('throttles login across two app instances sharing REDIS_URL', async () => {
    const one = await createTestContext({ env: { REDIS_URL: TEST_REDIS_URL } });
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

describe.skipIf(!canRunRedisServer)('failure limiter when Redis fails', () => {
  let server: ThrowawayRedis;
  afterAll(async () => {
    await server?.stop();
  });

  /** 5 granted of 8 attempts, each answered within 200 ms. */
  async function answersQuickly(limiter: ReturnType<typeof createFailureLimiter>) {
    const key = randomUUID();
    let granted = 0;
    for (let i = 0; i < 8; i++) {
      const started = performance.now();
      const outcome = await limiter.attempt(key).then(
        () => true,
        () => false,
      );
      expect(performance.now() - started).toBeLessThan(200);
      if (outcome) granted++;
    }
    expect(granted).toBe(5);
  }

  it('counts in the process, answering within 200 ms, while Redis is frozen or gone', async () => {
    server = await startThrowawayRedis();
    const limiter = createFailureLimiter(limiterOptions({ redis: await guardedRedis(server.url) }));
    server.freeze();
    try {
      await answersQuickly(limiter);
    } finally {
      server.thaw();
    }
    await server.kill();
    await answersQuickly(limiter);
  });

  it('starts within a second and a half on a frozen Redis, counting in the process', async () => {
    server ??= await startThrowawayRedis();
    await server.kill();
    await server.start();
    server.freeze();
    try {
      const started = performance.now();
      const redis = await guardedRedis(server.url);
      expect(performance.now() - started).toBeLessThan(1500);
      await answersQuickly(createFailureLimiter(limiterOptions({ redis })));
    } finally {
      server.thaw();
    }
  });

  it('starts without Redis, counts in the process, and uses Redis once it answers', async () => {
    server ??= await startThrowawayRedis();
    await server.kill();
    const started = performance.now();
    const redis = await guardedRedis(server.url);
    expect(performance.now() - started).toBeLessThan(1500);
    const limiter = createFailureLimiter(limiterOptions({ name: 'back', redis }));
    await answersQuickly(limiter);

    await server.start();
    const probe = await server.client();
    const deadline = Date.now() + 5000;
    while ((await probe.keys('throttle:back:*')).length === 0) {
      if (Date.now() > deadline) throw new Error('the limiter did not use Redis again within 5 s');
      await limiter.attempt(randomUUID());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
