// Shapes of /workspaces/{id}/geocoding (docs/api.md, Geocoding).
import { z } from 'zod';
import { geocodeStatuses } from '../locations/locations.table.ts';
import { GEOCODER_KINDS } from './geocoding.types.ts';

/** The statuses a start may look up again: every verdict, never `pending` (already waiting). */
const retryableStatuses = geocodeStatuses.filter((status) => status !== 'pending') as [
  'not_found',
  'imprecise',
  'failed',
];

export const startGeocodingBodySchema = z
  .object({
    /** Locations with these statuses are looked up again; default `["failed"]`. */
    retry: z
      .array(
        z.enum(retryableStatuses, {
          error: `Each status must be one of: ${retryableStatuses.join(', ')}.`,
        }),
        { error: 'The statuses to retry must be a list.' },
      )
      .max(retryableStatuses.length, 'Name each status at most once.')
      .default(['failed']),
  })
  .strict();

export const geocodingStateSchema = z.object({
  pending: z.number().int(),
  not_found: z.number().int(),
  imprecise: z.number().int(),
  failed: z.number().int(),
  without_coordinates: z.number().int(),
  geocoder: z.enum(GEOCODER_KINDS),
  process: z.object({ id: z.number().int(), status: z.enum(['pending', 'running']) }).nullable(),
});
