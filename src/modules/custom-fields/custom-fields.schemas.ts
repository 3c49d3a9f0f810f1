// Request and response shapes of /custom-field-definitions and its admin mount.

import { z } from 'zod';
import { knownColumns } from '../../lib/location-csv-columns.ts';
import { bodyIdSchema } from '../../lib/schemas.ts';

import {
  type CustomFieldDefinitionRow,
  type CustomFieldType,
  customFieldTypes,
} from './custom-fields.table.ts';

const MAX_OPTIONS = 500;
const MAX_REORDER_IDS = 1000;

/** Types whose values must be one of the definition's `options` (docs/api.md, Custom field definitions). */
export const typeHasOptions = (type: CustomFieldType) => type === 'select' || type === 'multiselect';

/**
 * Options go with select and multiselect and with nothing else: required (non-empty) there,
 * refused elsewhere (null or absent is fine). The message, or undefined when they fit the type.
 */
export function optionsProblem(
  type: CustomFieldType,
  options: string[] | null | undefined,
): string | undefined {
  if (typeHasOptions(type) && !options)
    return 'The options field is required for select and multiselect fields.';
  if (!typeHasOptions(type) && options) return 'Options are only allowed for select and multiselect fields.';
  return undefined;
}

const distinct = (values: readonly unknown[]) => new Set(values).size === values.length;

/**
 * The key of the value on a location and the CSV column: ASCII letters, digits, underscores,
 * hyphens and spaces, 1-64 characters after trimming. `__proto__` would be a dangerous object key,
 * and a column the import reads by name (`title`, `sets`, `hours_mon`, in any case) would hide
 * the field from every CSV file.
 */
export const customFieldNameSchema = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, 'The name field is required.')
  .max(64, 'The name may not be greater than 64 characters.')
  .regex(/^[A-Za-z0-9_\- ]+$/, 'The name may only contain letters, digits, underscores, hyphens and spaces.')
  .refine((name) => name !== '__proto__', 'The name __proto__ is reserved.')
  .refine(
    (name) => !knownColumns.has(name.toLowerCase()),
    'The name is a column of the CSV import of locations (such as title, tags, sets or hours_mon), where it could not fill this field; choose another.',
  );

const labelSchema = z
  .string({ error: 'The label field is required.' })
  .trim()
  .min(1, 'The label field is required.')
  .max(255, 'The label may not be greater than 255 characters.');

const typeSchema = z.enum(customFieldTypes, {
  error: (issue) =>
    issue.input === undefined
      ? 'The type field is required.'
      : `The type must be one of: ${customFieldTypes.join(', ')}.`,
});

const optionsSchema = z
  .array(
    z
      .string({ error: 'Each option must be a string.' })
      .trim()
      .min(1, 'An option may not be empty.')
      .max(255, 'An option may not be greater than 255 characters.'),
    { error: 'The options must be an array of strings.' },
  )
  .min(1, 'The options must contain at least one value.')
  .max(MAX_OPTIONS, `The options may not have more than ${MAX_OPTIONS} values.`)
  .refine(distinct, 'The options must be distinct.')
  .nullable();

const requiredSchema = z.boolean({ error: 'The required field must be true or false.' });

export const createCustomFieldBodySchema = z
  .object({
    name: customFieldNameSchema,
    label: labelSchema,
    type: typeSchema,
    workspace_id: bodyIdSchema('workspace id'),
    options: optionsSchema.optional(),
    required: requiredSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const message = optionsProblem(body.type, body.options);
    if (message) ctx.addIssue({ code: 'custom', path: ['options'], message });
  });
export type CreateCustomFieldBody = z.infer<typeof createCustomFieldBodySchema>;

/** The name is the key of stored values, so it cannot change; options are checked against the resulting type by the service. */
export const updateCustomFieldBodySchema = z.object({
  label: labelSchema.optional(),
  type: typeSchema.optional(),
  options: optionsSchema.optional(),
  required: requiredSchema.optional(),
});
export type UpdateCustomFieldBody = z.infer<typeof updateCustomFieldBodySchema>;

export const reorderBodySchema = z.object({
  ids: z
    .array(
      z
        .number({ error: 'Each id must be an integer.' })
        .int('Each id must be an integer.')
        .positive('Each id must be a positive integer.')
        .max(2_147_483_647, 'Each id must be a positive integer.'),
      {
        error: (issue) =>
          issue.input === undefined ? 'The ids field is required.' : 'The ids must be an array.',
      },
    )
    .min(1, 'The ids field is required.')
    .max(MAX_REORDER_IDS, `The ids may not have more than ${MAX_REORDER_IDS} items.`)
    .refine(distinct, 'The ids must not repeat.'),
});

export const customFieldSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  type: z.enum(customFieldTypes),
  options: z.array(z.string()).nullable(),
  required: z.boolean(),
  sort_order: z.number().int(),
  workspace_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CustomFieldPayload = z.infer<typeof customFieldSchema>;

export const toCustomFieldPayload = (row: CustomFieldDefinitionRow): CustomFieldPayload => ({
  id: row.id,
  name: row.name,
  label: row.label,
  type: row.type,
  options: row.options ?? null,
  required: row.required,
  sort_order: row.sortOrder,
  workspace_id: row.workspaceId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
