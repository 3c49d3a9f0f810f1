// The geocoder's rate limit, shared by every process and workspace (docs/api.md, Geocoding): each
// request first reserves the next free slot of its provider in ONE statement (an upsert of the
// provider's row, which PostgreSQL serialises by its row lock), then waits for that slot. Slots
// are 1/rate seconds apart plus a little headroom, so a request that reaches the provider a few
// milliseconds late never lands within one interval of the next. Nothing is checked and then
// acted on, so any number of workers together stay within the limit.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/**
 * Requests per second when GEOCODER_RATE_LIMIT is unset: Photon's public server (komoot) and
 * Nominatim's (OpenStreetMap's usage policy: an absolute maximum of one a second) allow about
 * one a second; Google's Geocoding API allows 50.
 */
export const DEFAULT_GEOCODER_RATES = { google: 50, photon: 1, nominatim: 1 } as const;

/** Slots are 5% further apart than the rate alone would set. */
const HEADROOM = 1.05;

export interface Pacer {
  /** Resolves when this caller may send its request; rejects when `signal` aborts first. */
  wait(signal?: AbortSignal): Promise<void>;
}

export function createPacer(db: Database, provider: string, ratePerSecond: number): Pacer {
  const intervalMs = (1000 * HEADROOM) / ratePerSecond;
  const interval = sql`(${intervalMs}::float8 * interval '1 millisecond')`;
  return {
    async wait(signal) {
      signal?.throwIfAborted();
      // The reserved slot is next_at minus one interval: the old next_at, or now when it passed.
      const [row] = await db.execute<{ wait_ms: number }>(sql`
        insert into geocoder_pacing (provider, next_at) values (${provider}, clock_timestamp() + ${interval})
        on conflict (provider) do update
          set next_at = greatest(geocoder_pacing.next_at, clock_timestamp()) + ${interval}
        returning greatest(0, extract(epoch from next_at - ${interval} - clock_timestamp()) * 1000)::float8 as wait_ms`);
      const waitMs = Number(row?.wait_ms ?? 0);
      if (waitMs > 0) await sleep(waitMs, undefined, { signal });
    },
  };
}
