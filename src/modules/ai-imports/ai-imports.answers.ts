// The guided `answers` of an AI import (docs/api.md, Answers): their zod schema with their limits,
// and the location-count range (`N`, `N-M`, `N+`) that becomes the drafting target. Messages name
// the field; the error handler files them under `answers.<field>`.
import { z } from 'zod';
import { createFieldError } from '../../lib/errors.ts';
import type { AiImportSourceAnswers } from './ai-imports.table.ts';

/**
 * The most locations one batch drafts. The model's output and the reviewer's patience both run
 * out long before this, and `source_notes` (4,000 characters) rarely holds more than about a
 * hundred addresses; counts above it are refused rather than silently cut.
 */
export const MAX_DRAFTED_LOCATIONS = 500;

/** What the user expects: at least `min`, at most `max` (null: "N+", no upper bound given). */
export interface LocationCountRange {
  min: number;
  max: number | null;
}

export type LocationCountResult = { ok: true; range: LocationCountRange } | { ok: false; message: string };

const COUNT_FIELD = 'approximate location count';
const FORMAT_MESSAGE = `The ${COUNT_FIELD} must be a number ("15"), a range ("10-20") or a minimum ("50+").`;

// Digits only (no "1,000", no decimals, no words); spaces around the dash and en/em dashes are
// tolerated because people type them. Up to 9 digits a big number is told the cap; longer is not a count.
const COUNT_PATTERN = /^(\d{1,9})(?:\s*([-\u2013\u2014])\s*(\d{1,9})|\s*(\+))?$/;

/** Reads `N`, `N-M` or `N+`; anything else, zero, a reversed range or more than the cap is refused. */
export function parseLocationCount(value: string): LocationCountResult {
  const match = COUNT_PATTERN.exec(value.trim());
  if (!match) return { ok: false, message: FORMAT_MESSAGE };
  const min = Number(match[1]);
  const max = match[3] !== undefined ? Number(match[3]) : match[4] ? null : min;
  if (min < 1) return { ok: false, message: `The ${COUNT_FIELD} must be at least 1.` };
  if (max !== null && max < min) {
    return { ok: false, message: `The ${COUNT_FIELD} range must not end below its start (${min}-${max}).` };
  }
  if ((max ?? min) > MAX_DRAFTED_LOCATIONS) {
    return {
      ok: false,
      message: `The ${COUNT_FIELD} may not be greater than ${MAX_DRAFTED_LOCATIONS}; split a larger import into several batches.`,
    };
  }
  return { ok: true, range: { min, max } };
}

/** The drafting target of stored answers; a stored count that no longer parses is a 422 on it. */
export function locationCountTarget(answers: Pick<AiImportSourceAnswers, 'approximate_location_count'>) {
  const result = parseLocationCount(answers.approximate_location_count);
  if (!result.ok) throw createFieldError('answers.approximate_location_count', result.message);
  return result.range;
}

/** "required" for a missing value, "must be a string" for a value of another type. */
const stringError = (label: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null
    ? `The ${label} field is required.`
    : `The ${label} field must be a string.`;

const requiredText = (label: string, max: number) =>
  z
    .string({ error: stringError(label) })
    .trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} may not be greater than ${max} characters.`);

/** Optional: null, absent and blank all mean "not given" and are left out of the stored answers. */
const optionalText = (label: string, max: number) =>
  z
    .string({ error: `The ${label} field must be a string.` })
    .trim()
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .nullish()
    .transform((value) => (value ? value : undefined));

export const answersSchema = z.object(
  {
    brand_name: optionalText('brand name', 160),
    business_type: requiredText('business type', 120),
    approximate_location_count: z
      .string({ error: stringError(COUNT_FIELD) })
      .trim()
      .min(1, `The ${COUNT_FIELD} field is required.`)
      .superRefine((value, ctx) => {
        const result = parseLocationCount(value);
        if (!result.ok) ctx.addIssue({ code: 'custom', message: result.message });
      }),
    geographic_scope: requiredText('geographic scope', 1000),
    customer_description: requiredText('customer description', 2000),
    common_tags: optionalText('common tags', 1000),
    important_fields: optionalText('important fields', 1000),
    example_locations: optionalText('example locations', 2000),
    notes_to_avoid: optionalText('notes to avoid', 1000),
    source_notes: requiredText('source notes', 4000),
  },
  {
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? 'The answers field is required.'
        : 'The answers field must be an object.',
  },
);

/** The parsed answers: what the batch stores as `source_answers` (an AiImportSourceAnswers). */
export type Answers = z.infer<typeof answersSchema>;
