// The answers an AI import starts from (docs/api.md, "Answers"), in the form's order: each
// field's name in the API's `answers`, whether it is required, its longest length, and whether
// it takes several lines. The service is the judge; the limits are shown so nobody meets them
// only as an error. tests/dashboard/ai-import.test.ts checks them against the OpenAPI document.
import type { MessageKey } from '../i18n/en.ts';

export interface AnswerField {
  name:
    | 'brand_name'
    | 'business_type'
    | 'approximate_location_count'
    | 'geographic_scope'
    | 'customer_description'
    | 'common_tags'
    | 'important_fields'
    | 'example_locations'
    | 'notes_to_avoid'
    | 'source_notes';
  label: MessageKey;
  hint: MessageKey;
  required: boolean;
  /** Characters; the location count has its own rule instead. */
  max?: number;
  multiline?: boolean;
}

/** The most locations one batch drafts (`approximate_location_count` at most this). */
export const MAX_DRAFTED_LOCATIONS = 500;

export const ANSWER_FIELDS: readonly AnswerField[] = [
  {
    name: 'brand_name',
    label: 'ai_import.answer.brand_name',
    hint: 'ai_import.hint.brand_name',
    required: false,
    max: 160,
  },
  {
    name: 'business_type',
    label: 'ai_import.answer.business_type',
    hint: 'ai_import.hint.business_type',
    required: true,
    max: 120,
  },
  {
    name: 'approximate_location_count',
    label: 'ai_import.answer.approximate_location_count',
    hint: 'ai_import.hint.approximate_location_count',
    required: true,
  },
  {
    name: 'geographic_scope',
    label: 'ai_import.answer.geographic_scope',
    hint: 'ai_import.hint.geographic_scope',
    required: true,
    max: 1000,
  },
  {
    name: 'customer_description',
    label: 'ai_import.answer.customer_description',
    hint: 'ai_import.hint.customer_description',
    required: true,
    max: 2000,
    multiline: true,
  },
  {
    name: 'source_notes',
    label: 'ai_import.answer.source_notes',
    hint: 'ai_import.hint.source_notes',
    required: true,
    max: 4000,
    multiline: true,
  },
  {
    name: 'common_tags',
    label: 'ai_import.answer.common_tags',
    hint: 'ai_import.hint.common_tags',
    required: false,
    max: 1000,
  },
  {
    name: 'important_fields',
    label: 'ai_import.answer.important_fields',
    hint: 'ai_import.hint.important_fields',
    required: false,
    max: 1000,
  },
  {
    name: 'example_locations',
    label: 'ai_import.answer.example_locations',
    hint: 'ai_import.hint.example_locations',
    required: false,
    max: 2000,
    multiline: true,
  },
  {
    name: 'notes_to_avoid',
    label: 'ai_import.answer.notes_to_avoid',
    hint: 'ai_import.hint.notes_to_avoid',
    required: false,
    max: 1000,
    multiline: true,
  },
];
