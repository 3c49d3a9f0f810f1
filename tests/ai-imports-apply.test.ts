// The apply rules of an AI batch without I/O (src/modules/ai-imports/ai-imports.apply.ts): which
// items are written, which fail, how custom fields meet the workspace's definitions, what the
// geocoder is asked and which answers are kept.
import { describe, expect, it } from 'vitest';
import {
  customValuesOf,
  GEOCODE_WARNINGS,
  geocodeQuery,
  locationRowOf,
  outcomeOf,
  planApply,
  unknownCustomFieldWarning,
  withWarnings,
} from '../src/modules/ai-imports/ai-imports.apply.ts';
import { normalizeItem } from '../src/modules/ai-imports/ai-imports.normalize.ts';
import type { AiImportItemRow, AiImportItemStatus } from '../src/modules/ai-imports/ai-imports.table.ts';
import type { CustomFieldDefinitionRow } from '../src/modules/custom-fields/custom-fields.table.ts';

const definitions = [
  {
    id: 1,
    workspaceId: 1,
    name: 'opening_hours',
    label: 'Opening hours',
    type: 'text',
    options: null,
    required: false,
    sortOrder: 0,
  },
  {
    id: 2,
    workspaceId: 1,
    name: 'seats',
    label: 'Seats',
    type: 'number',
    options: null,
    required: true,
    sortOrder: 1,
  },
  {
    id: 3,
    workspaceId: 1,
    name: 'kind',
    label: 'Kind',
    type: 'select',
    options: ['shop', 'depot'],
    required: false,
    sortOrder: 2,
  },
] as unknown as CustomFieldDefinitionRow[];

let nextId = 1;
function item(
  raw: Record<string, unknown>,
  status: AiImportItemStatus = 'pending_review',
  edited?: Record<string, unknown>,
): AiImportItemRow {
  const normalized = normalizeItem(raw);
  return {
    id: nextId++,
    batchId: 1,
    status,
    confidence: normalized.confidence,
    warnings: normalized.warnings,
    validationErrors: normalized.validation_errors,
    normalizedPayload: normalized.normalized_payload,
    userPayload: edited ? { ...normalized.normalized_payload, ...edited } : null,
    rawModelOutput: raw,
    locationId: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
}

const shop = {
  name: 'Shop',
  address: '1 High Street',
  city: 'Leeds',
  zip: 'LS1 1AA',
  country: 'United Kingdom',
};

describe('planApply', () => {
  it('applies valid pending and approved items, fails approved ones with errors, leaves the rest', () => {
    const pending = item(shop);
    const approved = item({ ...shop, name: 'Approved' }, 'approved');
    const rejected = item({ ...shop, name: 'Rejected' }, 'rejected');
    const invalidPending = item({ address: '2 High Street' });
    const invalidApproved = item({ address: '3 High Street' }, 'approved');
    const badCustom = item({ ...shop, name: 'Bad', custom_fields: { seats: 'lots' } });
    const imported = item(shop, 'imported');
    const plan = planApply(
      [pending, approved, rejected, invalidPending, invalidApproved, badCustom, imported],
      definitions,
    );
    expect(plan.apply.map((planned) => [planned.itemId, planned.autoApproved])).toEqual([
      [pending.id, true],
      [approved.id, false],
    ]);
    expect(plan.failed).toEqual([
      { itemId: invalidApproved.id, errors: [{ field: 'name', message: 'The name field is required.' }] },
      {
        itemId: badCustom.id,
        errors: [{ field: 'custom_fields.seats', message: 'The Seats field must be a number.' }],
      },
    ]);
  });

  it('uses the reviewer’s payload over the drafted one', () => {
    const edited = item({ address: '4 High Street' }, 'pending_review', { name: 'Named by the reviewer' });
    const [planned] = planApply([edited], definitions).apply;
    expect(planned!.row.values.title).toBe('Named by the reviewer');
  });
});

describe('customValuesOf', () => {
  it('matches definitions by name or label in any case, converts text, and drops unknown names with a warning', () => {
    const result = customValuesOf(
      {
        'OPENING HOURS': 'Mo-Fr 9-17',
        Seats: '12',
        kind: 'shop',
        Parking: 'yes',
        email: 'a@b.example',
        empty: null,
      },
      definitions,
    );
    expect(result).toEqual({
      values: { opening_hours: 'Mo-Fr 9-17', seats: 12, kind: 'shop' },
      errors: [],
      warnings: [unknownCustomFieldWarning('Parking')],
    });
  });

  it('names a value the definition refuses; a required field left out is not enforced', () => {
    expect(customValuesOf({ kind: 'warehouse' }, definitions).errors).toEqual([
      { field: 'custom_fields.kind', message: 'The Kind field must be one of: shop, depot.' },
    ]);
    expect(customValuesOf({}, definitions)).toEqual({ values: {}, errors: [], warnings: [] });
  });
});

describe('locationRowOf', () => {
  it('writes the drafted email to the location’s email column, not as a custom field', () => {
    const payload = normalizeItem({
      ...shop,
      custom_fields: { email: ' shop@leeds.example ' },
      tags: ['a', 'b'],
    }).normalized_payload;
    const row = locationRowOf(payload, { seats: 3 });
    expect(row.values).toMatchObject({ title: 'Shop', email: 'shop@leeds.example', lat: null });
    expect(row.customSet).toEqual({ seats: 3 });
    expect(row.tags).toEqual(['a', 'b']);
  });
});

describe('geocoding', () => {
  it('asks for street, zip and city, state, country', () => {
    const payload = normalizeItem({ ...shop, state: 'West Yorkshire' }).normalized_payload;
    expect(geocodeQuery(payload)).toBe('1 High Street, LS1 1AA Leeds, West Yorkshire, United Kingdom');
    expect(geocodeQuery(normalizeItem({ address: 'Somewhere 5' }).normalized_payload)).toBe('Somewhere 5');
  });

  it('keeps ROOFTOP and RANGE_INTERPOLATED only', () => {
    const at = { lat: 1, lng: 2, formatted_address: 'x' };
    expect(outcomeOf({ ...at, precision: 'ROOFTOP' })).toEqual({ lat: 1, lng: 2, precision: 'ROOFTOP' });
    expect(outcomeOf({ ...at, precision: 'RANGE_INTERPOLATED' })).toEqual({
      lat: 1,
      lng: 2,
      precision: 'RANGE_INTERPOLATED',
    });
    expect(outcomeOf({ ...at, precision: 'GEOMETRIC_CENTER' })).toEqual({
      warning: GEOCODE_WARNINGS.imprecise('GEOMETRIC_CENTER'),
    });
    expect(outcomeOf({ ...at, precision: 'APPROXIMATE' })).toEqual({
      warning: GEOCODE_WARNINGS.imprecise('APPROXIMATE'),
    });
    expect(outcomeOf(undefined)).toEqual({ warning: GEOCODE_WARNINGS.notFound });
  });

  it('adds warnings without repeating one', () => {
    expect(withWarnings(['a'], ['a', 'b', 'b'])).toEqual(['a', 'b']);
  });
});
