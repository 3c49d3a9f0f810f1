// Counters that throttle guessing (passwords, second-factor codes): in Redis when REDIS_URL is set,
// so every process shares them, otherwise in this process (docs/api.md, Redis). When Redis is down
// or frozen the counters fall back to this process (src/lib/redis.ts) and logins go on.
//
// Reservation, not "check, verify, then count": an attempt is counted *before* anything is
// checked, in the same atomic step that decides whether it may go ahead (one Lua script in
// Redis; one synchronous block in the process). However many requests arrive at once, at most
// `points` of them per window are ever checked; the rest are refused with 429.
//
// Our own two short scripts rather than rate-limiter-flexible: its consume counts refused
// attempts too (a burst of 100 leaves 100), so giving one attempt back frees no place, and a
// reward that lands after its window has ended opens the next window below zero.
//
// The same counters also keep quotas (createQuotaLimiter): a budget per key and window that a
// request spends several points of at once, e.g. the events of a widget's analytics batch.
import type { Redis, Result } from 'ioredis';
import { createRateLimitedError } from './errors.ts';
import type { GuardedRedis } from './redis.ts';

export interface Attempt {
  /**
   * The guess was right. Until this is called the attempt counts as a failure, so a check that
   * answers "wrong" or throws half-way needs no call: forgetting one fails closed.
   */
  succeeded(): Promise<void>;
}

export interface FailureLimiter {
  /**
   * Counts one attempt for `key`, to be checked next; throws the 429 error (with Retry-After)
   * when `points` attempts are already counted in the key's window.
   */
  attempt(key: string): Promise<Attempt>;
}

export interface FailureLimiterOptions {
  /** Names the counters (`login`, `reauth`, `two-factor`); part of the Redis key. */
  name: string;
  /** Attempts that may be checked per window and key; the next ones are refused until it ends. */
  points: number;
  windowSeconds: number;
  /**
   * What a right guess does: `clear` forgets the key's failures (a right password ends the
   * throttle of a login); `release` only gives its own attempt back, so earlier failures keep
   * counting until the window ends (wrong second-factor codes).
   */
  onSuccess: 'clear' | 'release';
  /** Where the counters live; without it, in this process only. */
  redis?: GuardedRedis;
}

type Reservation =
  | { granted: true; release(): Promise<void>; clear(): Promise<void> }
  | { granted: false; retryAfterMs: number };

export function createFailureLimiter(options: FailureLimiterOptions): FailureLimiter {
  const windowMs = options.windowSeconds * 1000;
  const memory = new MemoryCounters(options.points, windowMs);
  const redisCounters = options.redis
    ? new RedisCounters(options.redis, `throttle:${options.name}:`, options.points, windowMs)
    : undefined;

  return {
    async attempt(key) {
      const reservation = redisCounters
        ? await redisCounters.reserve(key, () => memory.reserve(key))
        : memory.reserve(key);
      if (!reservation.granted) throw createRateLimitedError(reservation.retryAfterMs / 1000);
      let settled = false;
      return {
        async succeeded() {
          if (settled) return;
          settled = true;
          await (options.onSuccess === 'clear' ? reservation.clear() : reservation.release());
        },
      };
    },
  };
}

/**
 * A budget per key and window that a request spends several points of at once (a batch of
 * events): `take` counts and decides in the same atomic step as the failure limiter's
 * reservations, and grants what is left of the window up to what was asked. It never throws:
 * what a caller does with the part it did not get is its own rule.
 */
export interface QuotaLimiter {
  /** Takes up to `wanted` points of `key`'s window; resolves how many it got (0 once it is spent). */
  take(key: string, wanted: number): Promise<number>;
}

export interface QuotaLimiterOptions {
  /** Names the budget (`analytics-events`); part of the Redis key. */
  name: string;
  /** Points per window and key. */
  points: number;
  /** The window starts with the key's first point and ends this long after it. */
  windowSeconds: number;
  /** Where the counters live; without it, in this process only. */
  redis?: GuardedRedis;
}

export function createQuotaLimiter(options: QuotaLimiterOptions): QuotaLimiter {
  const memory = new MemoryCounters(options.points, options.windowSeconds * 1000);
  const redisCounters = options.redis
    ? new RedisCounters(options.redis, `quota:${options.name}:`, options.points, options.windowSeconds * 1000)
    : undefined;
  return {
    async take(key, wanted) {
      if (wanted <= 0) return 0;
      return redisCounters
        ? redisCounters.take(key, wanted, () => memory.take(key, wanted))
        : memory.take(key, wanted);
    },
  };
}

/**
 * In this process. Each call runs to its end without awaiting, so on Node's single thread the
 * read, the decision and the increment of one reservation cannot interleave with another's.
 */
class MemoryCounters {
  private readonly windows = new Map<string, { count: number; endsAt: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly points: number,
    private readonly windowMs: number,
  ) {}

  reserve(key: string): Reservation {
    const now = Date.now();
    const window = this.current(key, now);
    if (window.count >= this.points) return { granted: false, retryAfterMs: window.endsAt - now };
    window.count += 1;
    const reserved = window;
    return {
      granted: true,
      release: async () => {
        // Only into the window it was taken from: a new window does not owe this attempt.
        if (this.windows.get(key) === reserved && reserved.count > 0) reserved.count -= 1;
      },
      clear: async () => this.forget(key),
    };
  }

  /** Up to `wanted` points of the key's window, counted in the same synchronous block as `reserve`. */
  take(key: string, wanted: number): number {
    const window = this.current(key, Date.now());
    const granted = Math.max(0, Math.min(wanted, this.points - window.count));
    window.count += granted;
    return granted;
  }

  /** The key's window, a new one when it has none or its window has ended. */
  private current(key: string, now: number) {
    let window = this.windows.get(key);
    if (window && window.endsAt <= now) {
      this.forget(key);
      window = undefined;
    }
    if (!window) {
      // The timer only frees memory (expiry is judged by endsAt); unref'd, it keeps no process alive.
      const timer = setTimeout(() => this.forget(key), this.windowMs);
      timer.unref();
      window = { count: 0, endsAt: now + this.windowMs, timer };
      this.windows.set(key, window);
    }
    return window;
  }

  private forget(key: string): void {
    const window = this.windows.get(key);
    if (!window) return;
    clearTimeout(window.timer);
    this.windows.delete(key);
  }
}

// Read, decide and increment in one script: Redis runs a script alone, so two processes (or
// two requests) cannot both see 4 and both go ahead. The counter never passes `points`, so a
// released attempt frees exactly one place. The expiry is set with the first attempt (and
// repaired if a key ever lacks one), so a window ends `windowMs` after it began.
const RESERVE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then
  return {0, redis.call('PTTL', KEYS[1])}
end
redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return {1, redis.call('PTTL', KEYS[1])}
`;

// The quota's step: what is left of the window, up to what was asked, counted in one script.
const TAKE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local granted = math.min(tonumber(ARGV[1]) - count, tonumber(ARGV[3]))
if granted <= 0 then
  return 0
end
redis.call('INCRBY', KEYS[1], granted)
if redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return granted
`;

const RELEASE_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    throttleReserve(key: string, points: number, windowMs: number): Result<[number, number], Context>;
    throttleRelease(key: string): Result<number, Context>;
    quotaTake(key: string, points: number, windowMs: number, wanted: number): Result<number, Context>;
  }
}

function defineScripts(client: Redis): void {
  // Sent by SHA after the first use; ioredis sends the script again when Redis lost it (a restart).
  if (typeof client.throttleReserve !== 'function') {
    client.defineCommand('throttleReserve', { numberOfKeys: 1, lua: RESERVE_SCRIPT });
  }
  if (typeof client.throttleRelease !== 'function') {
    client.defineCommand('throttleRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  }
  if (typeof client.quotaTake !== 'function') {
    client.defineCommand('quotaTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }
}

/** In Redis, shared by every process; `fallback` reserves in the process when Redis cannot answer. */
class RedisCounters {
  constructor(
    private readonly redis: GuardedRedis,
    private readonly prefix: string,
    private readonly points: number,
    private readonly windowMs: number,
  ) {
    defineScripts(redis.client);
  }

  async reserve(key: string, fallback: () => Reservation): Promise<Reservation> {
    const redisKey = this.prefix + key;
    const sentAt = Date.now();
    return this.redis.run(async (client): Promise<Reservation> => {
      const [granted, ttlMs] = await client.throttleReserve(redisKey, this.points, this.windowMs);
      const remainingMs = ttlMs > 0 ? ttlMs : this.windowMs;
      if (granted !== 1) return { granted: false, retryAfterMs: remainingMs };
      // Measured from before the request, so this end is never later than the window's own.
      const windowEndsAt = sentAt + remainingMs;
      return {
        granted: true,
        // Settling where the attempt was counted; when Redis is gone by then, the attempt
        // simply keeps counting until its window ends.
        release: async () => {
          if (Date.now() >= windowEndsAt) return;
          await this.redis.run(
            (c) => c.throttleRelease(redisKey),
            () => 0,
          );
        },
        clear: async () => {
          await this.redis.run(
            (c) => c.del(redisKey),
            () => 0,
          );
        },
      };
    }, fallback);
  }

  take(key: string, wanted: number, fallback: () => number): Promise<number> {
    return this.redis.run(
      (client) => client.quotaTake(this.prefix + key, this.points, this.windowMs, wanted),
      fallback,
    );
  }
}
