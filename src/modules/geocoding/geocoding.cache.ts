// The geocoder as the service uses it (the geocoding job and the AI import alike): answers come
// from the shared cache by normalised address (docs/api.md, Geocoding) when one is there and
// fresh; otherwise the provider is asked within the shared rate limit and its answer is kept.
// A precise point is kept for good; "no precise result" (nothing found, or a point too coarse)
// expires after NEGATIVE_ANSWER_TTL_DAYS, so an address the provider learns later is found then.
// Failures are not kept. Lookups of one address in flight in this process share one request.
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

export interface CachedGeocoder {
  readonly kind: Geocoder['kind'];
  /** The answer for an address; `fromCache` says whether the provider was spared. */
  lookup(
    fields: AddressFields,
    context?: GeocodeContext,
  ): Promise<{ answer: GeocodeAnswerValue; fromCache: boolean }>;
  /** Deletes the expired answers (the hourly maintenance job); how many. */
  purgeExpired(): Promise<number>;
}

export const isPrecise = (answer: GeocodeAnswerValue): answer is NonNullable<GeocodeAnswerValue> =>
  answer !== undefined && PRECISE_PRECISIONS.includes(answer.precision);

export function createCachedGeocoder(db: Database, geocoder: Geocoder, pacer: Pacer): CachedGeocoder {
  const inFlight = new Map<string, Promise<GeocodeAnswerValue>>();

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

  async function ask(
    fields: AddressFields,
    key: string,
    context: GeocodeContext,
  ): Promise<GeocodeAnswerValue> {
    await pacer.wait(context.signal);
    const result = await geocoder.geocode(addressQuery(fields), context);
    const answer = result && { lat: result.lat, lng: result.lng, precision: result.precision };
    await keep(key, answer);
    return answer;
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
      let pending = inFlight.get(key);
      if (!pending) {
        pending = ask(fields, key, context).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return { answer: await pending, fromCache: false };
    },
  };
}
