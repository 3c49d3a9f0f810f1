// The rules of applying a batch (docs/api.md, AI import item status and
// "AI import: routes and lifecycle"), with no I/O: which items are applied, which fail, how an item
// becomes a row of the CSV import's staging table (so the writes are the CSV import's set-based
// statements), how its custom fields meet the workspace's definitions, and which geocoder answers
// are kept.

import { storedSpecialHours } from '../../lib/hours/hours.rules.ts';
import { readTimeZone } from '../../lib/hours/hours.zone-name.ts';
import type { CustomFieldDefinitionRow } from '../custom-fields/custom-fields.table.ts';
import { checkCustomValues, valueFromText } from '../custom-fields/custom-fields.values.ts';
import { addressQuery } from '../geocoding/geocoding.address.ts';
import {
  type GeocodePrecision,
  type GeocodeResult,
  PRECISE_PRECISIONS,
} from '../geocoding/geocoding.geocoder.ts';
import { openingLayoutOf } from '../locations/import/locations.import.opening.ts';
import type { Layout, ParsedRow } from '../locations/import/locations.import.rows.ts';
import { EMAIL_CUSTOM_FIELD, validatePayload } from './ai-imports.normalize.ts';
import { effectivePayload } from './ai-imports.schemas.ts';
import type {
  AiImportItemRow,
  AiImportLocationPayload,
  AiImportValidationError,
} from './ai-imports.table.ts';

/**
 * Only these geocoder precisions set a location's coordinates (docs/api.md, Geocoding), as in
 * the geocoding job.
 */
export const ACCEPTED_PRECISIONS = PRECISE_PRECISIONS;

/**
 * The staging layout of an AI item: the location columns a drafted payload has. external_id and
 * description are absent, so a matched location keeps them (applyStaged writes present columns).
 * The opening fields are said only when an item gives them: a matched location keeps its time
 * zone, hours, special hours and closure unless the item gives them, and its zone follows the
 * item's coordinates by the API's rule (a derived zone is derived again, a given one kept); a
 * new location without a time zone gets one derived from the coordinates (the geocoded ones too).
 */
const AI_ITEM_INDEX: Layout['index'] = {
  title: 0,
  address: 1,
  city: 2,
  state: 3,
  country: 4,
  zip: 5,
  phone: 6,
  email: 7,
  website: 8,
  lat: 9,
  lng: 10,
  tags: 11,
};
export const AI_ITEM_LAYOUT: Layout = {
  index: AI_ITEM_INDEX,
  custom: [],
  width: 12,
  opening: {
    ...openingLayoutOf(AI_ITEM_INDEX),
    timeZone: 'unless null',
    hours: 'unless null',
    specialHours: 'unless null',
    // An item without coordinates was not placed (no geocoder, no match, an approximate one):
    // the location it updates keeps a pin a person may have set.
    lat: 'unless null',
    lng: 'unless null',
  },
};

export const GEOCODE_WARNINGS = {
  imprecise: (precision: GeocodePrecision) =>
    `Geocoding found only an approximate position (${precision}); the location was created without coordinates.`,
  notFound: 'Geocoding found no match for the address; the location was created without coordinates.',
  failed: (reason: string) => `Geocoding failed (${reason}); the location was created without coordinates.`,
  disabled: 'No geocoder is configured (GEOCODER=none); the location was created without coordinates.',
  outOfTime:
    "Geocoding did not finish within the import's time budget; the location was created without coordinates.",
};

export const unknownCustomFieldWarning = (name: string) =>
  `The custom field "${name}" is not defined in this workspace; its value was not imported.`;

/** An item to write, with the location row it becomes. */
export interface PlannedItem {
  itemId: number;
  /** Whether the item was pending_review and is approved by the import. */
  autoApproved: boolean;
  payload: AiImportLocationPayload;
  row: ParsedRow;
  warnings: string[];
}

export interface ApplyPlan {
  /** Items whose locations are written (those the write itself refuses move to `failed`). */
  apply: PlannedItem[];
  /** Items that cannot become locations: approved ones with errors, custom values the workspace refuses. */
  failed: { itemId: number; errors: AiImportValidationError[] }[];
}

/** The workspace's definition for a drafted custom field name (by name, else label; any case). */
function definitionFor(name: string, definitions: readonly CustomFieldDefinitionRow[]) {
  const wanted = name.trim().toLowerCase();
  return (
    definitions.find((definition) => definition.name.toLowerCase() === wanted) ??
    definitions.find((definition) => definition.label.toLowerCase() === wanted)
  );
}

/**
 * The item's custom fields as the location's custom values: email aside (it is the location's
 * own column), each name matched to a definition; text converted as a CSV cell would be; values
 * checked against the definition. Unknown names are dropped with a warning.
 */
export function customValuesOf(
  fields: Record<string, unknown>,
  definitions: readonly CustomFieldDefinitionRow[],
): { values: Record<string, unknown>; errors: AiImportValidationError[]; warnings: string[] } {
  const input: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (name === EMAIL_CUSTOM_FIELD || value === null || value === undefined) continue;
    const definition = definitionFor(name, definitions);
    if (!definition) {
      warnings.push(unknownCustomFieldWarning(name));
      continue;
    }
    input[definition.name] = typeof value === 'string' ? valueFromText(definition, value) : value;
  }
  const checked = checkCustomValues(definitions, input, { enforceRequired: false });
  const errors = Object.entries(checked.errors).map(([field, messages]) => ({
    field,
    message: messages[0]!,
  }));
  const values = Object.fromEntries(Object.entries(checked.values).filter(([, value]) => value !== null));
  return { values, errors, warnings };
}

/** The location row of a payload, in the CSV import's staging shape. */
export function locationRowOf(
  payload: AiImportLocationPayload,
  customSet: Record<string, unknown>,
): ParsedRow {
  const email = payload.custom_fields[EMAIL_CUSTOM_FIELD];
  return {
    values: {
      title: payload.name,
      address: payload.address,
      city: payload.city,
      state: payload.state,
      country: payload.country,
      zip: payload.zip,
      phone: payload.phone,
      email: typeof email === 'string' && email.trim() !== '' ? email.trim() : null,
      website: payload.website,
      lat: payload.lat,
      lng: payload.lng,
    },
    tags: payload.tags,
    sets: undefined,
    customSet,
    customRemoved: [],
    opening: {
      timeZone: payload.time_zone === null ? null : (readTimeZone(payload.time_zone) ?? payload.time_zone),
      hours: payload.hours,
      specialHours: payload.special_hours === null ? null : storedSpecialHours(payload.special_hours),
    },
  };
}

/**
 * What an import does with each item (docs/api.md, AI import item status): pending_review and
 * approved items that pass validation are applied (the pending ones approved on the way); an
 * approved item that does not pass, or whose custom values the workspace refuses, fails;
 * pending_review items with errors stay as they are, and rejected ones are left out.
 */
export function planApply(
  items: readonly AiImportItemRow[],
  definitions: readonly CustomFieldDefinitionRow[],
): ApplyPlan {
  const plan: ApplyPlan = { apply: [], failed: [] };
  for (const item of items) {
    if (item.status !== 'pending_review' && item.status !== 'approved') continue;
    const payload = effectivePayload(item);
    const errors = validatePayload(payload);
    if (errors.length > 0) {
      if (item.status === 'approved') plan.failed.push({ itemId: item.id, errors });
      continue;
    }
    const custom = customValuesOf(payload.custom_fields, definitions);
    if (custom.errors.length > 0) {
      plan.failed.push({ itemId: item.id, errors: custom.errors });
      continue;
    }
    plan.apply.push({
      itemId: item.id,
      autoApproved: item.status === 'pending_review',
      payload,
      row: locationRowOf(payload, custom.values),
      warnings: custom.warnings,
    });
  }
  return plan;
}

/** The one-line address a geocoder is asked for (geocoding.address.ts). */
export const geocodeQuery = (payload: AiImportLocationPayload): string => addressQuery(payload);

/** What geocoding an item gave: coordinates to set, or the warning saying why there are none. */
export type GeocodeOutcome = { lat: number; lng: number; precision: GeocodePrecision } | { warning: string };

export function outcomeOf(
  result: Pick<GeocodeResult, 'lat' | 'lng' | 'precision'> | undefined,
): GeocodeOutcome {
  if (!result) return { warning: GEOCODE_WARNINGS.notFound };
  if (!ACCEPTED_PRECISIONS.includes(result.precision)) {
    return { warning: GEOCODE_WARNINGS.imprecise(result.precision) };
  }
  return { lat: result.lat, lng: result.lng, precision: result.precision };
}

/** Adds warnings to a list without repeating one. */
export const withWarnings = (current: readonly string[], added: readonly string[]) => [
  ...current,
  ...added.filter((warning, index) => !current.includes(warning) && added.indexOf(warning) === index),
];
