// The rules of a drafted location, turning what a model produced into a normalized_payload, its
// validation errors, its warnings and its confidence
// (docs/api.md, "Items: normalisation, validation, warnings, confidence"). Errors and warnings are
// a pure function of the payload (plus, for duplicates, the other payloads of the batch), so a
// PATCH recomputes exactly what drafting computed.
import { z } from 'zod';
import {
  type SpecialHours,
  type StoredSpecialHours,
  WEEKDAYS,
  type Weekday,
  type WeeklyHours,
} from '../../lib/hours/hours.model.ts';
import {
  checkSpecialHours,
  checkWeeklyHours,
  type HoursProblem,
  storedSpecialHours,
} from '../../lib/hours/hours.rules.ts';
import {
  specialHoursSchema,
  TIME_ZONE_MESSAGE,
  timeZoneSchema,
  weeklyHoursSchema,
} from '../../lib/hours/hours.schemas.ts';
import { readTimeZone } from '../../lib/hours/hours.zone-name.ts';
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

/**
 * A drafted location that says nothing: every field null, no tags, no custom fields. The one
 * empty payload of the models, the parser and the tests; frozen, so fill a copy
 * (structuredClone). It also completes items drafted before a field existed (storedPayload).
 */
export const EMPTY_LOCATION_PAYLOAD: Readonly<AiImportLocationPayload> = Object.freeze({
  name: null,
  address: null,
  city: null,
  state: null,
  zip: null,
  country: null,
  phone: null,
  website: null,
  lat: null,
  lng: null,
  tags: Object.freeze([]) as unknown as string[],
  custom_fields: Object.freeze({}) as Record<string, unknown>,
  time_zone: null,
  hours: null,
  special_hours: null,
});

/** A payload as stored, completed with the fields added since it was drafted (null). */
export const storedPayload = (payload: Partial<AiImportLocationPayload>): AiImportLocationPayload => ({
  ...EMPTY_LOCATION_PAYLOAD,
  ...payload,
});

/** The opening fields a model drafts; `unreadable` names them in a warning. */
type OpeningField = 'time_zone' | 'hours' | 'special_hours';

export const WARNINGS = {
  noCoordinates: 'No coordinates: the address will be geocoded on import.',
  /** A drafted opening field whose shape could not be read; the payload holds null instead. */
  unreadable: (field: OpeningField) =>
    `The drafted ${field.replace('_', ' ')} could not be read (${OPENING_SHAPES[field]}) and were left out; the model's answer is in raw_model_output.`,
  hoursWithoutTimeZone:
    'Opening hours need a time zone: without one or coordinates, they are imported only if the address geocodes (the zone is derived from the coordinates).',
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

const OPENING_SHAPES: Record<OpeningField, string> = {
  time_zone: 'not a text',
  hours: 'not an object of days mon ... sun, each a list of intervals or null',
  special_hours: 'not a list of {date, end_date, hours, label}',
};

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

/** What a drafted opening field reads as: its value (null for none) or UNREADABLE. */
const UNREADABLE = Symbol('unreadable');

function toTimeZone(value: unknown): string | null | typeof UNREADABLE {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return UNREADABLE;
  const name = value.trim();
  return name === '' ? null : (readTimeZone(name) ?? name);
}

const toIntervals = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((interval) => typeof interval === 'string')
    ? value.map((interval) => interval.trim())
    : undefined;

/** A week of days mon ... sun (a null day: not known); anything else, another key included, is unreadable. */
function toWeek(value: unknown): WeeklyHours | null | typeof UNREADABLE {
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) return UNREADABLE;
  const week: WeeklyHours = {};
  for (const [key, day] of Object.entries(value)) {
    if (!(WEEKDAYS as readonly string[]).includes(key)) return UNREADABLE;
    if (day === null || day === undefined) continue;
    const intervals = toIntervals(day);
    if (!intervals) return UNREADABLE;
    week[key as Weekday] = intervals;
  }
  // Days in week order, as a location keeps them.
  const ordered: WeeklyHours = {};
  for (const day of WEEKDAYS) if (week[day]) ordered[day] = week[day];
  return Object.keys(ordered).length === 0 ? null : ordered;
}

const optionalText = (value: unknown): string | null | undefined =>
  value === null || value === undefined ? null : typeof value === 'string' ? value.trim() || null : undefined;

function toSpecialHours(value: unknown): StoredSpecialHours[] | null | typeof UNREADABLE {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) return UNREADABLE;
  const entries: SpecialHours[] = [];
  for (const entry of value) {
    if (!isPlainObject(entry) || typeof entry.date !== 'string') return UNREADABLE;
    const hours = toIntervals(entry.hours);
    const endDate = optionalText(entry.end_date);
    const label = optionalText(entry.label);
    if (!hours || endDate === undefined || label === undefined) return UNREADABLE;
    entries.push({ date: entry.date.trim(), end_date: endDate, hours, label });
  }
  return entries.length === 0 ? null : storedSpecialHours(entries);
}

const readable = <T>(value: T | typeof UNREADABLE): T | null => (value === UNREADABLE ? null : value);

/**
 * What a model produced, coerced into the payload's shape: text trimmed and blank -> null, a
 * website without scheme given `https://`, numeric strings accepted as coordinates, a known time
 * zone in its proper case, hours with days in week order and special hours sorted. Values of
 * the wrong kind are dropped (the item's raw_model_output keeps them; a dropped opening field is
 * warned, see unreadableWarnings); values of the right kind but invalid (too long, out of range,
 * a bad URL, an interval such as 9-18) are kept so that validation names them.
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
    time_zone: readable(toTimeZone(source.time_zone)),
    hours: readable(toWeek(source.hours)),
    special_hours: readable(toSpecialHours(source.special_hours)),
  };
}

/**
 * Drafted opening fields that could not be read and were left out, while the payload still
 * has none (an edit that gives them ends the warning): a function of the payload and the
 * model's answer for the item (raw_model_output), so a PATCH recomputes it.
 */
export function unreadableWarnings(payload: AiImportLocationPayload, raw: unknown): string[] {
  if (!isPlainObject(raw)) return [];
  const readers = { time_zone: toTimeZone, hours: toWeek, special_hours: toSpecialHours };
  return (Object.keys(readers) as OpeningField[])
    .filter((field) => payload[field] === null && readers[field](raw[field]) === UNREADABLE)
    .map(WARNINGS.unreadable);
}

/** Problems of an opening field as item errors, `field.path` as the API names them (`hours.mon.0`). */
const openingErrors = (field: string, problems: HoursProblem[]): AiImportValidationError[] =>
  problems.map((problem) => ({ field: [field, ...problem.path].join('.'), message: problem.message }));

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
 * of 1-80 characters; a known time zone, and hours and special hours as the API's rules
 * (hours.rules.ts) accept them; custom_fields an object with a valid `email` if it has one
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
  if (payload.time_zone !== null && readTimeZone(payload.time_zone) === undefined) {
    errors.push({ field: 'time_zone', message: TIME_ZONE_MESSAGE });
  }
  if (payload.hours !== null) errors.push(...openingErrors('hours', checkWeeklyHours(payload.hours)));
  if (payload.special_hours !== null) {
    errors.push(...openingErrors('special_hours', checkSpecialHours(payload.special_hours)));
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
  const hasHours = payload.hours !== null || payload.special_hours !== null;
  if (hasHours && payload.time_zone === null && (payload.lat === null || payload.lng === null)) {
    warnings.push(WARNINGS.hoursWithoutTimeZone);
  }
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
  options: { duplicate?: boolean; raw?: unknown } = {},
): ItemAssessment {
  const validation_errors = validatePayload(payload);
  const warnings = [...unreadableWarnings(payload, options.raw), ...payloadWarnings(payload)];
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
 * `raws` are the model's answers for the items, in the same order (raw_model_output).
 */
export function assessPayloads(
  payloads: readonly AiImportLocationPayload[],
  raws: readonly unknown[] = [],
): ItemAssessment[] {
  const seen = new Set<string>();
  return payloads.map((payload, index) => {
    const key = duplicateKey(payload);
    const duplicate = key !== null && seen.has(key);
    if (key !== null) seen.add(key);
    return assessPayload(payload, { duplicate, raw: raws[index] });
  });
}

/** One drafted location on its own (no duplicate check: that needs the batch). */
export function normalizeItem(raw: unknown): NormalizedItem {
  const normalized_payload = toPayload(raw);
  return { normalized_payload, ...assessPayload(normalized_payload, { raw }) };
}

/** A whole draft, in order, with duplicates within it warned. */
export function normalizeItems(raws: readonly unknown[]): NormalizedItem[] {
  const payloads = raws.map(toPayload);
  return assessPayloads(payloads, raws).map((assessment, index) => ({
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
    // The API's own schemas, so an edit is checked as a location's write is.
    time_zone: timeZoneSchema.nullable().optional(),
    hours: weeklyHoursSchema.nullable().optional(),
    special_hours: specialHoursSchema.nullable().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `The payload may only hold ${Object.keys(EMPTY_LOCATION_PAYLOAD).join(', ')}; unknown: ${issue.keys.join(', ')}.`
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
  if (patch.time_zone !== undefined) merged.time_zone = patch.time_zone;
  if (patch.hours !== undefined) merged.hours = patch.hours;
  if (patch.special_hours !== undefined) merged.special_hours = patch.special_hours;
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
