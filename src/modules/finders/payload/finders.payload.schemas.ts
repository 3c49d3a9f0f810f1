// Request and response shapes of the widget payload and publishing routes.
import { z } from 'zod';
import { customFieldTypes } from '../../custom-fields/custom-fields.table.ts';
import {
  PAYLOAD_FIELDS,
  PAYLOAD_RELATIONS,
  type PayloadFieldKey,
  type PayloadRelation,
} from '../../locations/json/locations.json-fields.ts';
import { locationSchema } from '../../locations/locations.schemas.ts';
import { refinementMatchModes, refinementOps } from '../finders.table.ts';

/** A finder token: 32 random bytes in base64url (43 characters); anything else names no finder. */
export const finderKeyParamsSchema = z.object({
  key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,128}$/, 'Must be a finder token (base64url).')
    .describe('The finder token'),
});

export const publishResultSchema = z.object({
  hash: z.string().describe('SHA-1 (hex) of the published payload'),
});

export const publicationInfoSchema = z.object({
  hash: z.string().nullable().describe('SHA-1 of the last published payload; null when never published'),
  last_synced_at: z.string().nullable().describe('When it was published (ISO 8601); null when never'),
});

// --- the payload (docs/api.md, Widget payload) ------------------------------------------------
// What the built bytes hold (finders.payload.repository.ts), for the OpenAPI document: the route
// sends the bytes as built and never serializes through this schema. Objects are strict, so a
// test parsing real payloads with it fails on any key the bytes gain or lose; a new key of the
// payload is one more line here.

const payloadRelationSchemas = {
  custom_fields: z
    .record(z.string(), z.unknown())
    .describe("Values named by a custom field definition of the location's workspace"),
  sets: z.array(z.int()).describe('Set ids, ascending'),
  special_days: z
    .array(z.tuple([z.string(), z.array(z.string())], z.string()))
    .describe(
      'Special days of the next 400 days by date: [date, intervals] or [date, intervals, label]; the location’s own special hours win over its holiday calendars',
    ),
  tags: z.array(z.string()).describe('Tag slugs, by tag name then id'),
} satisfies Record<PayloadRelation, z.ZodType>;

/**
 * A location as the payload writes it: the API's own fields the payload shows (one list of them,
 * locations.json-fields.ts), then its values, sets and tags.
 */
export const payloadLocationSchema = locationSchema
  .pick(Object.fromEntries(PAYLOAD_FIELDS.map((field) => [field.key, true])) as Record<PayloadFieldKey, true>)
  .extend(
    Object.fromEntries(
      PAYLOAD_RELATIONS.map((key) => [key, payloadRelationSchemas[key]]),
    ) as typeof payloadRelationSchemas,
  )
  .strict();

export const finderWidgetPayloadSchema = z.strictObject({
  advanced_refinements: z.array(
    z.strictObject({
      name: z.string(),
      match: z.enum(refinementMatchModes),
      conditions: z.array(
        z.strictObject({ field: z.string(), op: z.enum(refinementOps), value: z.unknown() }),
      ),
    }),
  ),
  authorized_urls: z
    .array(z.string())
    .describe('Where the widget may be embedded: origins or hosts (`*.` for subdomains); empty: anywhere'),
  custom_fields: z
    .array(
      z.strictObject({
        label: z.string(),
        name: z.string(),
        options: z.array(z.string()).nullable(),
        type: z.enum(customFieldTypes),
      }),
    )
    .describe("The custom field definitions of the finder's workspace, in sort order"),
  id: z.int(),
  locations: z.array(payloadLocationSchema),
  name: z.string(),
  sets: z
    .array(z.strictObject({ id: z.int(), name: z.string() }))
    .describe('The sets its locations carry, by name then id'),
  settings: z.array(z.strictObject({ key: z.string(), value: z.unknown() })),
  tags: z
    .array(z.strictObject({ id: z.int(), name: z.string(), slug: z.string() }))
    .describe('The tags its locations carry, by name then id'),
  token: z.string(),
});
export type FinderWidgetPayload = z.infer<typeof finderWidgetPayloadSchema>;
