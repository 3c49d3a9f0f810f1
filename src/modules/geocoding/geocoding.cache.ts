// The geocoder as the service uses it (the geocoding job and the AI import alike): answers come
// from the shared cache by normalised address (docs/api.md, Geocoding) when one is there and
// fresh; otherwise the provider is asked within the shared rate limit and its answer is kept.
// A precise point is kept for good; "no precise result" (nothing found, or a point too coarse)
// expires after NEGATIVE_ANSWER_TTL_DAYS, so an address the provider learns later is found then.
// Failures are not kept. Lookups of one address in flight in this process share one request,
// which stops only when every caller waiting for it has cancelled: one caller's deadline (an AI
// import's) does not fail another's lookup (the geocoding job's).
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type AddressFields, addressKey, addressQuery } from './geocoding.address.ts';
import type { Pacer } from './geocoding.pacing.ts';
import { geocodeCacheTable } from './geocoding.table.ts';
import {
  type GeocodeContext,
  type GeocodePrecision,
  type Geocoder,
  PRECISE_PRECISIONS,
} from './geocoding.types.ts';

export const NEGATIVE_ANSWER_TTL_DAYS = 30;

/** A provider's answer as kept: its best point and how precise it is, or nothing found. */
export type GeocodeAnswerValue = { lat: number; lng: number; precision: GeocodePrecision } | undefined;

/** An address's answer; `fromCache` says whether the provider was spared. */
export interface GeocodeLookup {
  answer: GeocodeAnswerValue;
  fromCache: boolean;
}

export interface CachedGeocoder {
  readonly kind: Geocoder['kind'];
  lookup(fields: AddressFields, context?: GeocodeContext): Promise<GeocodeLookup>;
  /** Deletes the expired answers (the hourly maintenance job); how many. */
  purgeExpired(): Promise<number>;
}

/** One address's request in flight, and how many callers still wait for it. */
interface SharedLookup {
  answer: Promise<GeocodeLookup>;
  controller: AbortController;
  waiting: number;
}

/**
 * The shared answer for one caller. Its cancel rejects its own wait at once; the request is
 * cancelled only when the last caller waiting has left (a caller without a signal never leaves).
 */
function waitFor(
  shared: SharedLookup,
  signal: AbortSignal | undefined,
  abandoned: () => void,
): Promise<GeocodeLookup> {
  shared.waiting += 1;
  if (!signal) return shared.answer;
  return new Promise((resolve, reject) => {
    const leave = () => {
      reject(signal.reason);
      shared.waiting -= 1;
      if (shared.waiting === 0) {
        // Gone from the lookups in flight first: a caller arriving now asks afresh.
        abandoned();
        shared.controller.abort(signal.reason);
      }
    };
    if (signal.aborted) {
      // Handled: the request's own failure must not go unobserved once nobody waits for it.
      shared.answer.catch(() => undefined);
      leave();
      return;
    }
    signal.addEventListener('abort', leave, { once: true });
    shared.answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
  });
}

export const isPrecise = (answer: GeocodeAnswerValue): answer is NonNullable<GeocodeAnswerValue> =>
  answer !== undefined && PRECISE_PRECISIONS.includes(answer.precision);

export function createCachedGeocoder(db: Database, geocoder: Geocoder, pacer: Pacer): CachedGeocoder {
  const inFlight = new Map<string, SharedLookup>();

  async function cached(key: string): Promise<{ answer: GeocodeAnswerValue } | undefined> {
    const [row] = await db
      .select()
      .from(geocodeCacheTable)
      .where(
        and(
          eq(geocodeCacheTable.provider, geocoder.kind),
          eq(geocodeCacheTable.addressKey, key),
          or(isNull(geocodeCacheTable.expiresAt), gt(geocodeCacheTable.expiresAt, sql`now()`)),
        ),
      );
    if (!row) return undefined;
    if (row.answer === 'not_found' || row.lat === null || row.lng === null || row.precision === null) {
      return { answer: undefined };
    }
    return { answer: { lat: row.lat, lng: row.lng, precision: row.precision } };
  }

  async function keep(key: string, answer: GeocodeAnswerValue): Promise<void> {
    const values = {
      provider: geocoder.kind,
      addressKey: key,
      answer: answer ? ('found' as const) : ('not_found' as const),
      lat: answer?.lat ?? null,
      lng: answer?.lng ?? null,
      precision: answer?.precision ?? null,
      expiresAt: isPrecise(answer) ? null : sql`now() + ${NEGATIVE_ANSWER_TTL_DAYS} * interval '1 day'`,
      createdAt: sql`now()`,
    };
    await db
      .insert(geocodeCacheTable)
      .values(values)
      .onConflictDoUpdate({
        target: [geocodeCacheTable.provider, geocodeCacheTable.addressKey],
        set: values,
      });
  }

  async function ask(fields: AddressFields, key: string, context: GeocodeContext): Promise<GeocodeLookup> {
    await pacer.wait(context.signal);
    // Another process may have paid for this address while this one waited for its turn (two
    // runs over one chain's addresses keep in step): read the cache again before paying.
    const hit = await cached(key);
    if (hit) return { answer: hit.answer, fromCache: true };
    const result = await geocoder.geocode(addressQuery(fields), {
      ...context,
      streetLine: fields.address ?? undefined,
    });
    const answer = result && { lat: result.lat, lng: result.lng, precision: result.precision };
    await keep(key, answer);
    return { answer, fromCache: false };
  }

  return {
    kind: geocoder.kind,
    async purgeExpired() {
      const rows = await db
        .delete(geocodeCacheTable)
        .where(lt(geocodeCacheTable.expiresAt, sql`now()`))
        .returning({ key: geocodeCacheTable.addressKey });
      return rows.length;
    },
    async lookup(fields, context = {}) {
      if (geocoder.kind === 'none' || addressQuery(fields).trim() === '') {
        return { answer: undefined, fromCache: false };
      }
      const key = addressKey(fields);
      const hit = await cached(key);
      if (hit) return { answer: hit.answer, fromCache: true };
      let shared = inFlight.get(key);
      if (!shared) {
        const controller = new AbortController();
        const answer = ask(fields, key, {
          ...context,
          signal: controller.signal,
        }).finally(() => {
          if (inFlight.get(key)?.answer === answer) inFlight.delete(key);
        });
        shared = { answer, controller, waiting: 0 };
        inFlight.set(key, shared);
      }
      const abandoned = () => {
        if (inFlight.get(key) === shared) inFlight.delete(key);
      };
      return waitFor(shared, context.signal, abandoned);
    },
  };
}
