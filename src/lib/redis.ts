// The Redis client and how the app lives through a Redis outage. Redis sits on the login path
// (the throttling counters), so a dead or frozen Redis must cost a login milliseconds, never a
// hung request or a 500: every command is bounded, nothing is queued while the connection is
// down, and callers that can do without Redis go through `run`, which falls back at once,
// logs one warning per outage (not one per request) and uses Redis again when it answers.
// ioredis (about 20 MB of a process's memory) is loaded only when REDIS_URL is set.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Every command of the client fails after this (ioredis's own timeout): the bound for users of
 * the client that have no fallback of their own, such as @fastify/rate-limit (skipOnError).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/**
 * `run` falls back when Redis has not answered within this. A healthy Redis answers in about a
 * millisecond; under load the event loop can be late by more than that, so a late answer
 * already waiting on the socket gets one more turn of the loop before it counts as none.
 */
export const FALLBACK_AFTER_MS = 150;
/** The start waits this long for a connection at most; ioredis goes on retrying in the background. */
const CONNECT_TIMEOUT_MS = 1000;
/**
 * After a failed command, `run` goes straight to the fallback this long: during a freeze every
 * command would otherwise wait out its deadline. The next call after it tries Redis again.
 */
const SKIP_AFTER_FAILURE_MS = 1000;
/** Reconnection backoff: quick at first, at most a second, for ever (recovery needs no restart). */
const reconnectDelay = (attempt: number) => Math.min(attempt * 100, 1000);

export interface GuardedRedis {
  /** The bounded client, for libraries that take one (@fastify/rate-limit, with skipOnError). */
  readonly client: Redis;
  /**
   * `command` on Redis, or `fallback()` when Redis is down, failed within the last second, or
   * does not answer (any error of `command` counts: Redis must not turn a request into a 500).
   */
  run<T>(command: (client: Redis) => Promise<T>, fallback: () => T): Promise<T>;
  close(): void;
}

/** Connects, waiting at most the connect timeout: an unreachable Redis must not hold up the start. */
export async function connectRedis(url: string, logger: Logger): Promise<GuardedRedis> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // Commands fail at once while disconnected instead of waiting in a queue for a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: reconnectDelay,
  });

  let down = false;
  let skipUntil = 0;
  const markDown = (error: unknown) => {
    skipUntil = Date.now() + SKIP_AFTER_FAILURE_MS;
    if (down) return;
    down = true;
    // The message only: a reply error carries the command's arguments (throttle keys hold emails).
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn({ reason }, 'Redis is unavailable; throttling falls back to in-process counters');
  };
  const markUp = () => {
    if (!down) return;
    down = false;
    logger.info('Redis answers again; throttling counters are back in Redis');
  };
  // Without a listener ioredis prints every reconnection failure; one warning per outage is enough.
  client.on('error', markDown);

  // A frozen server accepts the connection and never answers the ready check: do not wait on it.
  const connecting = client.connect().catch(markDown);
  if ((await withDeadline(connecting, CONNECT_TIMEOUT_MS)) === TIMED_OUT) {
    markDown(new Error(`not connected within ${CONNECT_TIMEOUT_MS} ms`));
  }

  return {
    client,
    async run(command, fallback) {
      if (client.status !== 'ready') {
        markDown(new Error(`connection ${client.status}`));
        return fallback();
      }
      if (Date.now() < skipUntil) return fallback();
      try {
        const result = await withDeadline(command(client), FALLBACK_AFTER_MS);
        if (result === TIMED_OUT) {
          markDown(new Error(`no answer within ${FALLBACK_AFTER_MS} ms`));
          return fallback();
        }
        markUp();
        return result;
      } catch (error) {
        markDown(error);
        return fallback();
      }
    },
    close() {
      client.disconnect();
    },
  };
}

const TIMED_OUT = Symbol('timed out');

/**
 * `pending`, or TIMED_OUT when it has not settled `ms` after the call. The timer hands over
 * through setImmediate: timers run before I/O in a turn of the event loop, so a reply that
 * arrived while the loop was busy is read (and settles `pending`) before the verdict.
 */
async function withDeadline<T>(pending: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => setImmediate(() => resolve(TIMED_OUT)), ms);
  });
  try {
    return await Promise.race([pending, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
