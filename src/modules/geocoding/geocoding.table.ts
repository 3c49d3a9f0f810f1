// What geocoding keeps between calls, shared by every workspace and process (docs/api.md,
// Geocoding): the answers by normalised address (so one address is never paid for twice), and
// the pacing of requests to the provider (one row per provider: the earliest time the next
// request may go).

import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { oneOf, timestamptz } from '../../db/columns.ts';
import { GEOCODE_PRECISIONS } from './geocoding.types.ts';

/** `found`: the provider's best point with its precision (precise or not); `not_found`: nothing. */
export const geocodeAnswers = ['found', 'not_found'] as const;
export type GeocodeAnswer = (typeof geocodeAnswers)[number];

export const geocodeCacheTable = pgTable(
  'geocode_cache',
  {
    /** The geocoder that answered (`google`, `photon`): providers differ in what they find. */
    provider: text().notNull(),
    /** The normalised address (geocoding.address.ts). */
    addressKey: text().notNull(),
    answer: text({ enum: geocodeAnswers }).notNull(),
    lat: doublePrecision(),
    lng: doublePrecision(),
    precision: text({ enum: GEOCODE_PRECISIONS }),
    /** Null for a precise answer (kept for good); answers without a precise point expire. */
    expiresAt: timestamptz(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.addressKey] }),
    oneOf('geocode_cache_answer_check', t.answer, geocodeAnswers),
    oneOf('geocode_cache_precision_check', t.precision, GEOCODE_PRECISIONS),
    check(
      'geocode_cache_found_check',
      sql`(${t.answer} = 'found') = (${t.lat} is not null and ${t.lng} is not null and ${t.precision} is not null)`,
    ),
    index('geocode_cache_expires_at_idx').on(t.expiresAt),
  ],
);

export const geocoderPacingTable = pgTable('geocoder_pacing', {
  provider: text().primaryKey(),
  /** The earliest start of the next request to this provider. */
  nextAt: timestamptz().notNull(),
});

export type GeocodeCacheRow = typeof geocodeCacheTable.$inferSelect;
