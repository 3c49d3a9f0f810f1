// Retrying work that failed for a reason that passes by itself: a deadlock, a serialization
// failure, a database that is starting or restarting, a connection that was reset. Bounded:
// a few attempts with growing, jittered delays; anything else fails at once.
import { setTimeout as sleep } from 'node:timers/promises';

/** SQLSTATEs worth another try: the statement lost a race or the server was briefly away. */
const TRANSIENT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available (lock_timeout)
  '57P01', // admin_shutdown (server restarting)
  '57P03', // cannot_connect_now (server starting)
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
]);

/** Socket-level failures of node:net, and postgres.js's own connection codes. */
const TRANSIENT_NODE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

/** Whether an error (or its cause, a few levels down) is one of the passing kinds above. */
export function isTransientDatabaseError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_NODE_CODES.has(code))) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export interface RetryOptions {
  /** Tries in all, the first included. */
  attempts: number;
  /** Delay before the second try; doubled after each failure, with up to 50 % jitter added. */
  baseDelayMs: number;
  isTransient?: (error: unknown) => boolean;
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

export async function retryTransient<T>(
  work: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const isTransient = options.isTransient ?? isTransientDatabaseError;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (attempt >= options.attempts || !isTransient(error)) throw error;
      const base = options.baseDelayMs * 2 ** (attempt - 1);
      const delayMs = Math.round(base + base * 0.5 * Math.random());
      options.onRetry?.(error, attempt, delayMs);
      await sleep(delayMs);
    }
  }
}
