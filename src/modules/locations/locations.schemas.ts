// Request and response shapes of /locations (docs/api.md, Location and Locations).

import { z } from 'zod';
import {
  dateSchema,
  specialHoursOutputSchema,
  specialHoursSchema,
  timeZoneSchema,
  weeklyHoursOutputSchema,
  weeklyHoursSchema,
} from '../../lib/hours/hours.schemas.ts';
import { paginationQuerySchema } from '../../lib/pagination.ts';
import {
  binaryBodySchema,
  bodyIdSchema,
  CONTROL_CHARACTER,
  queryIdListSchema,
  queryIdSchema,
} from '../../lib/schemas.ts';
import {
  LIST_RELATIONS,
  LOCATION_FIELDS,
  type OwnField,
  type OwnFieldType,
  type Relation,
} from './json/locations.json-fields.ts';
import { LOCATION_SORTS } from './list/locations.list-order.ts';

/** An optional text field: trimmed, '' stored as null. */
const optionalText = (field: string, max: number) =>
  z
    .string({ error: `The ${field} field must be a string.` })
    .trim()
    .max(max, `The ${field} may not be greater than ${max} characters.`)
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));

const coordinate = (field: string, limit: number) =>
  z
    .number({ error: `The ${field} field must be a number.` })
    .min(-limit, `The ${field} must be between -${limit} and ${limit}.`)
    .max(limit, `The ${field} must be between -${limit} and ${limit}.`)
    .nullable()
    .optional();

/** The CSV import reads its column with the same words. */
export const TEMPORARILY_CLOSED_MESSAGE = 'The temporarily closed field must be true or false.';

const locationFields = {
  title: z
    .string({ error: 'The title field is required.' })
    .trim()
    .min(1, 'The title field is required.')
    .max(255, 'The title may not be greater than 255 characters.'),
  external_id: optionalText('external id', 255),
  description: optionalText('description', 10_000),
  address: optionalText('address', 255),
  city: optionalText('city', 120),
  state: optionalText('state', 120),
  country: optionalText('country', 120),
  zip: optionalText('zip', 40),
  lat: coordinate('lat', 90),
  lng: coordinate('lng', 180),
  phone: optionalText('phone', 120),
  email: z
    .email('The email must be a valid email address.')
    .max(255, 'The email may not be greater than 255 characters.')
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  website: optionalText('website', 2048),
  /** IANA name; null or absent with coordinates: derived from them (docs/api.md, Opening hours). */
  time_zone: timeZoneSchema.nullable().optional(),
  /** The regular week; null: unknown. */
  hours: weeklyHoursSchema.nullable().optional(),
  special_hours: specialHoursSchema.nullable().optional(),
  temporarily_closed: z.boolean({ error: TEMPORARILY_CLOSED_MESSAGE }).optional(),
  /** The local date a temporary closure ends; only with temporarily_closed. */
  reopens_on: dateSchema('reopens on date').nullable().optional(),
  /** Tag names; tags missing from the workspace are created. Replaces the location's tags. */
  tags: z
    .array(
      z
        .string({ error: 'Each tag must be a string.' })
        .trim()
        .min(1, 'A tag may not be empty.')
        .max(80, 'A tag may not be greater than 80 characters.'),
      { error: 'The tags field must be a list of names.' },
    )
    .max(200, 'A location may have at most 200 tags.')
    .optional(),
  /** Sets of the same workspace. Replaces the location's sets. */
  set_ids: z
    .array(bodyIdSchema('set id'), { error: 'The set ids field must be a list of ids.' })
    .max(1000, 'A location may be in at most 1000 sets.')
    .optional(),
  /** Keyed by definition name; null removes a value. */
  custom_fields: z
    .record(z.string(), z.unknown(), { error: 'The custom fields field must be an object.' })
    .optional(),
};

export const createLocationBodySchema = z.object({
  ...locationFields,
  workspace_id: bodyIdSchema('workspace id'),
});
export type CreateLocationBody = z.infer<typeof createLocationBodySchema>;

/** Partial; a location stays in its workspace. */
export const updateLocationBodySchema = z.object(locationFields).partial();
export type UpdateLocationBody = z.infer<typeof updateLocationBodySchema>;

/** The longest `q`: ample for what is typed into a search box (the searched fields hold at most 255). */
const MAX_SEARCH_LENGTH = 200;

/**
 * `q` of the list and of a bulk change's filter: a part of a location's title, address, city,
 * zip, state, country or external id, in any case; trimmed, and empty means no filter. Control
 * characters are refused: a search box's text has none, and the searched fields are joined by
 * one, so a `q` without them never matches across two fields (list/locations.list-search.ts).
 */
export const searchSchema = z
  .string({ error: 'The q field must be a string.' })
  .trim()
  .max(MAX_SEARCH_LENGTH, `The q may not be greater than ${MAX_SEARCH_LENGTH} characters.`)
  .refine((q) => !CONTROL_CHARACTER.test(q), 'The q may not contain control characters.');

/** The most ids one list asks for: a page's worth of a client's own list, in a URL of a few hundred bytes. */
export const MAX_LISTED_IDS = 100;

export const listLocationsQuerySchema = paginationQuerySchema.extend({
  workspace_id: queryIdSchema('workspace id').optional(),
  finder_id: queryIdSchema('finder id').optional(),
  ids: queryIdListSchema('ids', MAX_LISTED_IDS).optional(),
  q: searchSchema.optional(),
  /** `true`: only locations without coordinates (waiting for geocoding or a pin; docs/api.md, Geocoding). */
  without_coordinates: z
    .enum(['true', 'false'], { error: 'The without coordinates field must be true or false.' })
    .transform((value) => value === 'true')
    .optional(),
  sort: z
    .enum(LOCATION_SORTS, { error: `The sort must be one of: ${LOCATION_SORTS.join(', ')}.` })
    .optional(),
});

/** What an own field's type is in JSON; a new schema object for each field, as zod would turn one shared between fields into a reference in the OpenAPI document. */
const ownFieldSchemas = {
  integer: () => z.number().int(),
  text: () => z.string(),
  float: () => z.number(),
  time: () => z.string(),
  boolean: () => z.boolean(),
  weekly_hours: () => weeklyHoursOutputSchema,
  special_hours: () => specialHoursOutputSchema,
} satisfies Record<OwnFieldType, () => z.ZodType>;

type OwnFieldSchema<F extends OwnField> = F extends { nullable: true }
  ? z.ZodNullable<ReturnType<(typeof ownFieldSchemas)[F['type']]>>
  : ReturnType<(typeof ownFieldSchemas)[F['type']]>;
type OwnFieldsShape<Fields extends readonly OwnField[]> = {
  [F in Fields[number] as F['key']]: OwnFieldSchema<F>;
};

const relationSchemas = {
  tags: z.array(z.object({ id: z.number().int(), name: z.string(), slug: z.string() })),
  sets: z.array(z.object({ id: z.number().int(), name: z.string() })),
  custom_fields: z.record(z.string(), z.unknown()),
} satisfies Record<Relation, z.ZodType>;

/** The schema of some own fields, keyed and ordered as the list gives them. */
function ownFieldsShape<const Fields extends readonly OwnField[]>(fields: Fields): OwnFieldsShape<Fields> {
  return Object.fromEntries(
    fields.map((field) => {
      const schema = ownFieldSchemas[field.type]();
      return [field.key, field.nullable ? schema.nullable() : schema];
    }),
  ) as OwnFieldsShape<Fields>;
}

/** A location as the API writes it: its fields as locations.json-fields.ts lists them, in their order. */
export const locationSchema = z.object({
  ...ownFieldsShape(LOCATION_FIELDS.lead),
  ...ownFieldsShape(LOCATION_FIELDS.head),
  ...(Object.fromEntries(LIST_RELATIONS.map((key) => [key, relationSchemas[key]])) as typeof relationSchemas),
  ...ownFieldsShape(LOCATION_FIELDS.tail),
});
export type LocationPayload = z.infer<typeof locationSchema>;

/** The answer of POST /locations/import. */
export const importResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), field: z.string(), message: z.string() })),
  process_id: z.number().int(),
});

/** The multipart form of POST /locations/import (read part by part by its route). */
export const importFormSchema = z.object({
  file: binaryBodySchema.describe('The CSV file (at most 50 MB)'),
  workspace_id: queryIdSchema('workspace id'),
});

/** The multipart form of POST /locations/{id}/image (read part by part by its route). */
export const imageFormSchema = z.object({
  image: binaryBodySchema.describe('A JPEG or PNG image (at most 5 MB)'),
});
