// The rules of a drafted location, turning what a model produced into a normalized_payload, its
// validation errors, its warnings and its confidence
// (docs/api.md, "Items: normalisation, validation, warnings, confidence"). Errors and warnings are
// a pure function of the payload (plus, for duplicates, the other payloads of the batch), so a
// PATCH recomputes exactly what drafting computed.
import { z } from 'zod';
import { normalizeWebsite, WEBSITE_MESSAGE } from '../locations/locations.rules.ts';
import type {
  AiImportConfidence,
  AiImportLocationPayload,
  AiImportValidationError,
} from './ai-imports.table.ts';

/** Text fields of the payload and their limits (docs/api.md, AI location import routes). */
export const PAYLOAD_TEXT_LIMITS = {
  name: 255,
  address: 255,
  city: 120,
  state: 120,
  zip: 40,
  country: 120,
  phone: 120,
  website: 255,
} as const;
type TextField = keyof typeof PAYLOAD_TEXT_LIMITS;
const TEXT_FIELDS = Object.keys(PAYLOAD_TEXT_LIMITS) as TextField[];

export const TAG_MAX_LENGTH = 80;
/** Same cap as a location's tags (locations.schemas.ts). */
export const MAX_TAGS = 200;

/**
 * custom_fields has no email slot of its own in the payload, while a location does: a drafted email
 * is kept under this key and checked as an address; applying the item writes it to the location's
 * `email` (docs/api.md, "Items: normalisation, validation, warnings, confidence").
 */
export const EMAIL_CUSTOM_FIELD = 'email';

/**
 * Core fields for confidence, nine in all: name, address, city, state, zip, country, phone,
 * website, and lat+lng counting as one (a coordinate pair is one fact).
 */
export const CORE_FIELD_COUNT_FOR_HIGH = 6;

export const WARNINGS = {
  noCoordinates: 'No coordinates: the address will be geocoded on import.',
  noContact: 'No phone or website.',
  duplicate: 'Same name and address as another item in this batch.',
  /** `missing` lists the absent parts among city, zip and country. */
  incompleteAddress: (missing: string[]) => `No ${joinOr(missing)}: the address may not geocode precisely.`,
};

export interface ItemAssessment {
  warnings: string[];
  validation_errors: AiImportValidationError[];
  confidence: AiImportConfidence;
}

export interface NormalizedItem extends ItemAssessment {
  normalized_payload: AiImportLocationPayload;
}

const joinOr = (parts: string[]) =>
  parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}`;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A model may answer a zip or phone as a number; anything else that is not text is dropped. */
function toText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

function toCoordinate(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

/** Trimmed, non-empty, each name once (compared case-insensitively, the first spelling kept). */
function toTags(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const entry of list) {
    const tag = toText(entry);
    if (tag === null || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

function toCustomFields(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) return {};
  const fields: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const name = key.trim();
    if (name === '' || entry === undefined || entry === null || entry === '') continue;
    fields[name] = typeof entry === 'string' ? entry.trim() : entry;
  }
  return fields;
}

/**
 * What a model produced, coerced into the payload's shape: text trimmed and blank -> null, a
 * website without scheme given `https://`, numeric strings accepted as coordinates. Values of
 * the wrong kind are dropped (the item's raw_model_output keeps them); values of the right kind
 * but invalid (too long, out of range, a bad URL) are kept so that validation names them.
 */
export function toPayload(raw: unknown): AiImportLocationPayload {
  const source = isPlainObject(raw) ? raw : {};
  const text = (field: TextField) => toText(source[field]);
  const website = text('website');
  return {
    // Models trained on location APIs sometimes say "title" for the name.
    name: text('name') ?? toText(source.title),
    address: text('address'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    country: text('country'),
    phone: text('phone'),
    website: website === null ? null : (normalizeWebsite(website) ?? website),
    lat: toCoordinate(source.lat),
    lng: toCoordinate(source.lng),
    tags: toTags(source.tags),
    custom_fields: toCustomFields(source.custom_fields),
  };
}

const emailSchema = z.email();

function coordinateError(field: 'lat' | 'lng', value: number | null): AiImportValidationError | undefined {
  if (value === null) return undefined;
  const limit = field === 'lat' ? 90 : 180;
  if (!Number.isFinite(value) || value < -limit || value > limit) {
    return { field, message: `The ${field} must be between -${limit} and ${limit}.` };
  }
  return undefined;
}

/**
 * Why this payload cannot become a location: a location needs a name and an address; text within
 * the payload's limits; a website that is an http(s) URL; coordinates in range and in pairs; tags
 * of 1-80 characters; custom_fields an object with a valid `email` if it has one
 * (docs/api.md, "Items: normalisation, validation, warnings, confidence").
 */
export function validatePayload(payload: AiImportLocationPayload): AiImportValidationError[] {
  const errors: AiImportValidationError[] = [];
  for (const field of ['name', 'address'] as const) {
    if (payload[field] === null || payload[field].trim() === '') {
      errors.push({ field, message: `The ${field} field is required.` });
    }
  }
  for (const field of TEXT_FIELDS) {
    const value = payload[field];
    if (value !== null && value.length > PAYLOAD_TEXT_LIMITS[field]) {
      errors.push({
        field,
        message: `The ${field} may not be greater than ${PAYLOAD_TEXT_LIMITS[field]} characters.`,
      });
    }
  }
  if (payload.website !== null && normalizeWebsite(payload.website) === undefined) {
    errors.push({ field: 'website', message: WEBSITE_MESSAGE });
  }
  for (const field of ['lat', 'lng'] as const) {
    const error = coordinateError(field, payload[field]);
    if (error) errors.push(error);
  }
  if ((payload.lat === null) !== (payload.lng === null)) {
    const missing = payload.lat === null ? 'lat' : 'lng';
    const given = missing === 'lat' ? 'lng' : 'lat';
    errors.push({ field: missing, message: `The ${missing} field is required when ${given} is given.` });
  }
  if (!Array.isArray(payload.tags)) {
    errors.push({ field: 'tags', message: 'The tags field must be a list of names.' });
  } else {
    if (payload.tags.length > MAX_TAGS) {
      errors.push({ field: 'tags', message: `A location may have at most ${MAX_TAGS} tags.` });
    }
    if (payload.tags.some((tag) => typeof tag !== 'string' || tag.trim() === '')) {
      errors.push({ field: 'tags', message: 'A tag may not be empty.' });
    }
    if (payload.tags.some((tag) => typeof tag === 'string' && tag.length > TAG_MAX_LENGTH)) {
      errors.push({ field: 'tags', message: `A tag may not be greater than ${TAG_MAX_LENGTH} characters.` });
    }
  }
  if (!isPlainObject(payload.custom_fields)) {
    errors.push({ field: 'custom_fields', message: 'The custom fields field must be an object.' });
  } else {
    const email = payload.custom_fields[EMAIL_CUSTOM_FIELD];
    if (
      email !== undefined &&
      email !== null &&
      !(typeof email === 'string' && emailSchema.safeParse(email).success)
    ) {
      errors.push({
        field: `custom_fields.${EMAIL_CUSTOM_FIELD}`,
        message: 'The email must be a valid email address.',
      });
    }
  }
  return errors;
}

/** How many of the nine core fields are filled (lat+lng count once, and only as a pair). */
export function countCoreFields(payload: AiImportLocationPayload): number {
  const filled = TEXT_FIELDS.filter((field) => payload[field] !== null).length;
  return filled + (payload.lat !== null && payload.lng !== null ? 1 : 0);
}

/** Gaps worth a reviewer's attention; none of them blocks an import. */
export function payloadWarnings(payload: AiImportLocationPayload): string[] {
  const warnings: string[] = [];
  if (payload.lat === null || payload.lng === null) warnings.push(WARNINGS.noCoordinates);
  if (payload.address !== null) {
    const missing = (['city', 'zip', 'country'] as const).filter((field) => payload[field] === null);
    if (missing.length > 0) warnings.push(WARNINGS.incompleteAddress(missing));
  }
  if (payload.phone === null && payload.website === null) warnings.push(WARNINGS.noContact);
  return warnings;
}

/**
 * Low with validation errors; high with 6+ core fields and at most 1 warning; else medium
 * (docs/api.md, AI import item).
 */
export function confidenceOf(
  payload: AiImportLocationPayload,
  warnings: readonly string[],
  errors: readonly AiImportValidationError[],
): AiImportConfidence {
  if (errors.length > 0) return 'low';
  if (countCoreFields(payload) >= CORE_FIELD_COUNT_FOR_HIGH && warnings.length <= 1) return 'high';
  return 'medium';
}

export function assessPayload(
  payload: AiImportLocationPayload,
  options: { duplicate?: boolean } = {},
): ItemAssessment {
  const validation_errors = validatePayload(payload);
  const warnings = payloadWarnings(payload);
  if (options.duplicate) warnings.push(WARNINGS.duplicate);
  return { warnings, validation_errors, confidence: confidenceOf(payload, warnings, validation_errors) };
}

/** Name + address compared without case, spacing or punctuation; null when either is missing. */
export function duplicateKey(payload: Pick<AiImportLocationPayload, 'name' | 'address'>): string | null {
  if (!payload.name || !payload.address) return null;
  const squash = (value: string) => value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const name = squash(payload.name);
  const address = squash(payload.address);
  return name === '' || address === '' ? null : `${name}|${address}`;
}

/**
 * Assessments of a batch's payloads in order; an item repeating the name and address of an
 * earlier one is warned as a duplicate (the first one is not, so the copy is the one flagged).
 */
export function assessPayloads(payloads: readonly AiImportLocationPayload[]): ItemAssessment[] {
  const seen = new Set<string>();
  return payloads.map((payload) => {
    const key = duplicateKey(payload);
    const duplicate = key !== null && seen.has(key);
    if (key !== null) seen.add(key);
    return assessPayload(payload, { duplicate });
  });
}

/** One drafted location on its own (no duplicate check: that needs the batch). */
export function normalizeItem(raw: unknown): NormalizedItem {
  const normalized_payload = toPayload(raw);
  return { normalized_payload, ...assessPayload(normalized_payload) };
}

/** A whole draft, in order, with duplicates within it warned. */
export function normalizeItems(raws: readonly unknown[]): NormalizedItem[] {
  const payloads = raws.map(toPayload);
  return assessPayloads(payloads).map((assessment, index) => ({
    normalized_payload: payloads[index]!,
    ...assessment,
  }));
}

const patchText = (field: TextField) =>
  z
    .string({ error: `The ${field} field must be a string.` })
    .trim()
    .max(
      PAYLOAD_TEXT_LIMITS[field],
      `The ${field} may not be greater than ${PAYLOAD_TEXT_LIMITS[field]} characters.`,
    )
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));

const patchCoordinate = (field: 'lat' | 'lng', limit: number) =>
  z
    .number({ error: `The ${field} field must be a number.` })
    .min(-limit, `The ${field} must be between -${limit} and ${limit}.`)
    .max(limit, `The ${field} must be between -${limit} and ${limit}.`)
    .nullable()
    .optional();

/**
 * The `payload` of PATCH /ai-location-imports/{batchId}/items/{itemId}: every field optional, null
 * (or "") clears it (docs/api.md, "Items: normalisation, validation, warnings, confidence"). A
 * value that breaks a limit is a 422 on the request; the merged payload is then judged by
 * validatePayload (a missing name or address is an item error, not a 422, so a reviewer can save
 * work in progress).
 */
export const payloadPatchSchema = z.strictObject(
  {
    name: patchText('name'),
    address: patchText('address'),
    city: patchText('city'),
    state: patchText('state'),
    zip: patchText('zip'),
    country: patchText('country'),
    phone: patchText('phone'),
    website: patchText('website').transform((value, ctx) => {
      if (value === null || value === undefined) return value;
      const website = normalizeWebsite(value);
      if (website === undefined || website.length > PAYLOAD_TEXT_LIMITS.website) {
        ctx.addIssue({ code: 'custom', message: WEBSITE_MESSAGE });
        return z.NEVER;
      }
      return website;
    }),
    lat: patchCoordinate('lat', 90),
    lng: patchCoordinate('lng', 180),
    tags: z
      .array(
        z
          .string({ error: 'Each tag must be a string.' })
          .trim()
          .min(1, 'A tag may not be empty.')
          .max(TAG_MAX_LENGTH, `A tag may not be greater than ${TAG_MAX_LENGTH} characters.`),
        { error: 'The tags field must be a list of names.' },
      )
      .max(MAX_TAGS, `A location may have at most ${MAX_TAGS} tags.`)
      .optional(),
    custom_fields: z
      .record(z.string(), z.unknown(), { error: 'The custom fields field must be an object.' })
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `The payload may only hold ${[...TEXT_FIELDS, 'lat', 'lng', 'tags', 'custom_fields'].join(', ')}; unknown: ${issue.keys.join(', ')}.`
        : 'The payload field must be an object.',
  },
);
export type PayloadPatch = z.infer<typeof payloadPatchSchema>;

/**
 * A reviewer's edits merged over the drafted payload: each given key replaces the drafted value,
 * except custom_fields, merged key by key with null removing a key (as a location's custom fields
 * are updated). The result is what validation, confidence and the import see
 * (docs/api.md, "Items: normalisation, validation, warnings, confidence").
 */
export function mergePayload(
  base: AiImportLocationPayload,
  patch: Partial<AiImportLocationPayload> | null | undefined,
): AiImportLocationPayload {
  if (!patch) return base;
  const merged: AiImportLocationPayload = { ...base };
  for (const field of TEXT_FIELDS) {
    if (patch[field] !== undefined) merged[field] = patch[field];
  }
  if (patch.lat !== undefined) merged.lat = patch.lat;
  if (patch.lng !== undefined) merged.lng = patch.lng;
  if (patch.tags !== undefined) merged.tags = patch.tags;
  if (patch.custom_fields !== undefined) {
    const fields = { ...base.custom_fields };
    for (const [key, value] of Object.entries(patch.custom_fields)) {
      if (value === null) delete fields[key];
      else fields[key] = value;
    }
    merged.custom_fields = fields;
  }
  return merged;
}
