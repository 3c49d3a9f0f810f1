// The guided answers of an AI import (docs/api.md, Answers): the required fields and limits with
// messages that name the field, and the location-count forms (`N`, `N-M`, `N+`).
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AppError } from '../src/lib/errors.ts';
import {
  answersSchema,
  locationCountTarget,
  MAX_DRAFTED_LOCATIONS,
  parseLocationCount,
} from '../src/modules/ai-imports/ai-imports.answers.ts';

const valid = {
  brand_name: 'Daily Grind',
  business_type: 'Coffee shops',
  approximate_location_count: '10-20',
  geographic_scope: 'Central Illinois, USA',
  customer_description: 'Commuters and students',
  common_tags: 'drive-thru, wifi',
  important_fields: 'opening hours',
  example_locations: 'Daily Grind Downtown - 123 Main St, Springfield, IL 62704',
  notes_to_avoid: 'Closed stores',
  source_notes: '1. Daily Grind Downtown - 123 Main St, Springfield, IL 62704',
};

/** Field -> messages, as the error handler files zod issues (nested under `answers.` by the route). */
function errorsOf(result: z.ZodSafeParseResult<unknown>): Record<string, string[]> {
  expect(result.success).toBe(false);
  const errors: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path.join('.') || 'answers';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

describe('parseLocationCount', () => {
  it.each([
    ['15', { min: 15, max: 15 }],
    ['10-20', { min: 10, max: 20 }],
    [' 10 - 20 ', { min: 10, max: 20 }],
    ['10–20', { min: 10, max: 20 }],
    ['50+', { min: 50, max: null }],
    ['50 +', { min: 50, max: null }],
    ['7-7', { min: 7, max: 7 }],
    [`1-${MAX_DRAFTED_LOCATIONS}`, { min: 1, max: MAX_DRAFTED_LOCATIONS }],
  ])('reads %j', (value, range) => {
    expect(parseLocationCount(value)).toEqual({ ok: true, range });
  });

  it.each([
    ['', 'must be a number'],
    ['about ten', 'must be a number'],
    ['10-', 'must be a number'],
    ['-5', 'must be a number'],
    ['1,000', 'must be a number'],
    ['10.5', 'must be a number'],
    ['10-20+', 'must be a number'],
    ['0', 'at least 1'],
    ['0-5', 'at least 1'],
    ['20-10', 'must not end below its start'],
    [`${MAX_DRAFTED_LOCATIONS + 1}`, `may not be greater than ${MAX_DRAFTED_LOCATIONS}`],
    [`10-${MAX_DRAFTED_LOCATIONS + 1}`, `may not be greater than ${MAX_DRAFTED_LOCATIONS}`],
    ['100000000', `may not be greater than ${MAX_DRAFTED_LOCATIONS}`],
    ['12345678901234567890', 'must be a number'],
    [`${MAX_DRAFTED_LOCATIONS + 1}+`, `may not be greater than ${MAX_DRAFTED_LOCATIONS}`],
  ])('refuses %j', (value, message) => {
    const result = parseLocationCount(value);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toContain(message);
  });

  it('gives the stored target, or a 422 on answers.approximate_location_count', () => {
    expect(locationCountTarget({ approximate_location_count: '5+' })).toEqual({ min: 5, max: null });
    let thrown: unknown;
    try {
      locationCountTarget({ approximate_location_count: 'lots' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      statusCode: 422,
      errors: { 'answers.approximate_location_count': [expect.stringContaining('must be a number')] },
    });
  });
});

describe('answersSchema', () => {
  it('accepts full answers, trimmed', () => {
    const result = answersSchema.safeParse({ ...valid, business_type: '  Coffee shops  ' });
    expect(result.success).toBe(true);
    expect(result.data).toEqual(valid);
  });

  it('accepts only the required fields, and drops blank or null optional ones', () => {
    const result = answersSchema.safeParse({
      business_type: 'Bakeries',
      approximate_location_count: '5',
      geographic_scope: 'Berlin',
      customer_description: 'Neighbours',
      source_notes: 'Torstraße 112, 10119 Berlin',
      brand_name: '   ',
      common_tags: null,
    });
    expect(result.success).toBe(true);
    expect(result.data).toEqual({
      business_type: 'Bakeries',
      approximate_location_count: '5',
      geographic_scope: 'Berlin',
      customer_description: 'Neighbours',
      source_notes: 'Torstraße 112, 10119 Berlin',
    });
  });

  it('names every missing required field', () => {
    expect(errorsOf(answersSchema.safeParse({}))).toEqual({
      business_type: ['The business type field is required.'],
      approximate_location_count: ['The approximate location count field is required.'],
      geographic_scope: ['The geographic scope field is required.'],
      customer_description: ['The customer description field is required.'],
      source_notes: ['The source notes field is required.'],
    });
  });

  it('treats blank required text as missing', () => {
    expect(errorsOf(answersSchema.safeParse({ ...valid, business_type: '   ', source_notes: '' }))).toEqual({
      business_type: ['The business type field is required.'],
      source_notes: ['The source notes field is required.'],
    });
  });

  it.each([
    ['brand_name', 160, 'brand name'],
    ['business_type', 120, 'business type'],
    ['geographic_scope', 1000, 'geographic scope'],
    ['customer_description', 2000, 'customer description'],
    ['common_tags', 1000, 'common tags'],
    ['important_fields', 1000, 'important fields'],
    ['example_locations', 2000, 'example locations'],
    ['notes_to_avoid', 1000, 'notes to avoid'],
    ['source_notes', 4000, 'source notes'],
  ])('limits %s to %i characters', (field, max, label) => {
    expect(answersSchema.safeParse({ ...valid, [field]: 'x'.repeat(max) }).success).toBe(true);
    expect(errorsOf(answersSchema.safeParse({ ...valid, [field]: 'x'.repeat(max + 1) }))).toEqual({
      [field]: [`The ${label} may not be greater than ${max} characters.`],
    });
  });

  it('refuses a count in another form, with the accepted forms in the message', () => {
    expect(errorsOf(answersSchema.safeParse({ ...valid, approximate_location_count: 'a dozen' }))).toEqual({
      approximate_location_count: [
        'The approximate location count must be a number ("15"), a range ("10-20") or a minimum ("50+").',
      ],
    });
  });

  it('refuses values of the wrong type, naming the field', () => {
    expect(errorsOf(answersSchema.safeParse({ ...valid, business_type: 12, brand_name: ['x'] }))).toEqual({
      business_type: ['The business type field must be a string.'],
      brand_name: ['The brand name field must be a string.'],
    });
  });

  it('names the answers object itself when it is missing or not an object', () => {
    expect(errorsOf(answersSchema.safeParse(undefined))).toEqual({
      answers: ['The answers field is required.'],
    });
    expect(errorsOf(answersSchema.safeParse('notes'))).toEqual({
      answers: ['The answers field must be an object.'],
    });
  });

  it('leaves out keys the answers do not have', () => {
    const result = answersSchema.safeParse({ ...valid, workspace_id: 3 });
    expect(result.success).toBe(true);
    expect(result.data).not.toHaveProperty('workspace_id');
  });
});
