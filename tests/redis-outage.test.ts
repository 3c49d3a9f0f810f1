// A bad day for Redis: the app runs with REDIS_URL pointing at a throwaway redis-server of its
// own (never the shared one), which the tests kill, restart, freeze (SIGSTOP) and thaw. Logins
// must keep answering within a second, throttled by the in-process fallback, with one warning
// per outage; once Redis answers again it is used again without a restart.
import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/lib/crypto.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createUser, DEFAULT_PASSWORD } from './factories/users.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { canRunRedisServer, startThrowawayRedis, type ThrowawayRedis } from './helpers/redis.ts';

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});
const outageWarnings = () => logLines.filter((line) => line.includes('Redis is unavailable')).length;

let redis: ThrowawayRedis;
let probe: Redis;
let ctx: TestContext;

// A test logs in a dozen times and times as many argon2 verifications: seconds apiece on a busy
// two-CPU machine.
const ARGON2_BOUND_TIMEOUT_MS = 60_000;

describe.skipIf(!canRunRedisServer)('with Redis down', { timeout: ARGON2_BOUND_TIMEOUT_MS }, () => {
  beforeAll(async () => {
    redis = await startThrowawayRedis();
    probe = await redis.client();
    ctx = await createTestContext({
      env: { REDIS_URL: redis.url },
      logger: createLogger({ logLevel: 'info' }, sink),
      extend: (app) => {
        app.get(
          '/api/__probe/limited',
          { config: { rateLimit: { max: 100, timeWindow: '1 minute' } } },
          async () => ({
            ok: true,
          }),
        );
      },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await redis?.stop();
  });

  /**
   * The response and how long it took. A request still pending after 10 s (a wait on Redis with
   * no bound; an argon2 verification alone can take seconds on a busy machine) fails at once.
   */
  async function timed(request: () => Promise<LightMyRequestResponse>) {
    const started = performance.now();
    const res = await Promise.race([
      request(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 10 s')), 10_000)),
    ]);
    return { res, ms: performance.now() - started };
  }

  let address = 0;
  const login = (email: string, password: string, ip = `10.77.0.${++address}`) =>
    timed(() =>
      ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: ip }),
    );

  /** How long one argon2 verification takes right now (seconds on a busy two-CPU machine). */
  let passwordHash: string | undefined;
  async function verificationMs(): Promise<number> {
    passwordHash ??= await hashPassword(DEFAULT_PASSWORD);
    const started = performance.now();
    await verifyPassword(passwordHash, 'wrong-password');
    return performance.now() - started;
  }

  /**
   * Five wrong passwords then the right one, from one IP: 401 × 5 then 429, each within 10 s and
   * within a second beyond its own argon2 verification. The verification's time is measured
   * beside each login, and the least excess of the five is taken: on a busy machine one
   * measurement can be seconds off, while a wait on Redis would delay every login.
   */
  async function throttledWithinASecond() {
    const user = await createUser(ctx.deps);
    const ip = `10.78.0.${++address}`;
    const excess: number[] = [];
    for (let i = 0; i < 5; i++) {
      const verifying = await verificationMs();
      const { res, ms } = await login(user.email, 'wrong-password', ip);
      expect(res.statusCode).toBe(401);
      excess.push(ms - verifying);
    }
    expect(Math.min(...excess)).toBeLessThan(1000);
    const { res, ms } = await login(user.email, DEFAULT_PASSWORD, ip);
    expect(res.statusCode).toBe(429);
    expect(ms).toBeLessThan(1000);

    const limited = await timed(() => ctx.app.inject({ method: 'GET', url: '/api/__probe/limited' }));
    expect(limited.res.statusCode).toBe(200);
    expect(limited.ms).toBeLessThan(1000);
  }

  /** Redis holds the app's counters again: a failed login leaves a key there (polled up to 5 s). */
  async function usedAgain() {
    const deadline = Date.now() + 5000;
    const user = await createUser(ctx.deps);
    for (;;) {
      await probe.flushall().catch(() => {});
      expect((await login(user.email, 'wrong-password')).res.statusCode).toBe(401);
      if ((await probe.dbsize().catch(() => 0)) > 0) return;
      if (Date.now() > deadline) throw new Error('the app did not use Redis again within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('keeps its counters in Redis while Redis answers', async () => {
    await usedAgain();
    expect(outageWarnings()).toBe(0);
  });

  it('killed: logins answer within a second, throttled in the process, with one warning', async () => {
    await redis.kill();
    await throttledWithinASecond();
    await throttledWithinASecond();
    expect(outageWarnings()).toBe(1);
  });

  it('restarted: Redis is used again by itself', async () => {
    await redis.start();
    await usedAgain();
  });

  it('frozen: logins answer within a second, throttled in the process, with one warning more', async () => {
    redis.freeze();
    try {
      await throttledWithinASecond();
      await throttledWithinASecond();
      expect(outageWarnings()).toBe(2);
    } finally {
      redis.thaw();
    }
    await usedAgain();
  });

  it('never logs a password or a token', () => {
    const log = logLines.join('');
    expect(log).not.toContain('wrong-password');
    expect(log).not.toContain(DEFAULT_PASSWORD);
  });
});
