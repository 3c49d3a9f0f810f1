// Counters for throttling that must hold across processes: Redis when REDIS_URL is set,
// otherwise in-process memory (one process only, as decisions §1 allows).
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface FailureLimiter {
  /** Seconds until the key may try again, or 0 when it is not blocked. */
  blockedFor(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/** At most `points` failures per `durationSeconds` for a key; the next attempt is refused. */
export function createFailureLimiter(options: {
  prefix: string;
  points: number;
  durationSeconds: number;
  redis?: Redis;
}): FailureLimiter {
  const settings = { keyPrefix: options.prefix, points: options.points, duration: options.durationSeconds };
  const limiter = options.redis
    ? new RateLimiterRedis({ ...settings, storeClient: options.redis, useRedisPackage: false })
    : new RateLimiterMemory(settings);

  return {
    async blockedFor(key) {
      const state = await limiter.get(key);
      if (!state || state.consumedPoints < options.points) return 0;
      return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    },
    async recordFailure(key) {
      try {
        await limiter.consume(key);
      } catch (error) {
        // Rejection only means the limit is now reached; anything else is a real failure.
        if (!(error instanceof RateLimiterRes)) throw error;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}
