// Checking custom-field values of a location against the workspace's definitions
// (docs/api.md, Locations): an unknown name or a value of the wrong type is refused, `required` is
// enforced on create, select/multiselect values must be among the options. JSON input (the location
// API) and text input (CSV cells) share the same rules; text is converted first.
import { z } from 'zod';
import type { CustomFieldDefinitionRow } from './custom-fields.table.ts';

type Definition = Pick<CustomFieldDefinitionRow, 'name' | 'label' | 'type' | 'options' | 'required'>;

const emailSchema = z.email();
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const MAX_TEXT = 10_000;

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const isValidDate = (value: string) =>
  DATE_PATTERN.test(value) &&
  !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
  new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** The message for a bad value, or undefined when the value fits the definition. */
function problemWith(definition: Definition, value: unknown): string | undefined {
  const { label, type } = definition;
  const options = definition.options ?? [];
  switch (type) {
    case 'text':
    case 'textarea':
    case 'phone':
      if (typeof value !== 'string') return `The ${label} field must be a string.`;
      if (value.length > MAX_TEXT)
        return `The ${label} field may not be greater than ${MAX_TEXT} characters.`;
      return undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? undefined
        : `The ${label} field must be a number.`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `The ${label} field must be true or false.`;
    case 'select':
      return typeof value === 'string' && options.includes(value)
        ? undefined
        : `The ${label} field must be one of: ${options.join(', ')}.`;
    case 'multiselect':
      return Array.isArray(value) && value.every((item) => typeof item === 'string' && options.includes(item))
        ? undefined
        : `The ${label} field must be a list of: ${options.join(', ')}.`;
    case 'url':
      return typeof value === 'string' && isHttpUrl(value)
        ? undefined
        : `The ${label} field must be a valid URL.`;
    case 'email':
      return typeof value === 'string' && emailSchema.safeParse(value).success
        ? undefined
        : `The ${label} field must be a valid email address.`;
    case 'date':
      return typeof value === 'string' && isValidDate(value)
        ? undefined
        : `The ${label} field must be a date (YYYY-MM-DD).`;
  }
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n']);

/** A CSV cell's yes or no (true/false, 1/0, yes/no, y/n in any case), or undefined when it is neither. */
export function booleanFromText(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/**
 * A CSV cell as the JSON value the definition expects. Values that cannot be converted are
 * returned as the text, so the common check reports them with the usual message.
 */
export function valueFromText(definition: Definition, text: string): unknown {
  const trimmed = text.trim();
  switch (definition.type) {
    case 'number': {
      const number = Number(trimmed);
      return trimmed !== '' && Number.isFinite(number) ? number : trimmed;
    }
    case 'boolean':
      return booleanFromText(trimmed) ?? trimmed;
    case 'multiselect':
      return trimmed
        .split('|')
        .map((item) => item.trim())
        .filter((item) => item !== '');
    case 'text':
    case 'textarea':
      return text;
    default:
      return trimmed;
  }
}

export interface CheckedValues {
  /** Values to merge into locations.custom_values; null removes a key. */
  values: Record<string, unknown>;
  /** Field -> messages, keyed `custom_fields.<name>`. */
  errors: Record<string, string[]>;
}

/**
 * Checks the given values. With `enforceRequired` (creating a location), every required
 * definition must be given a value; a partial update only checks what it names.
 */
export function checkCustomValues(
  definitions: readonly Definition[],
  input: Record<string, unknown>,
  options: { enforceRequired: boolean },
): CheckedValues {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const values: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  const fail = (name: string, message: string) => {
    errors[`custom_fields.${name}`] = [message];
  };

  for (const [name, value] of Object.entries(input)) {
    const definition = byName.get(name);
    if (!definition) {
      fail(name, `There is no custom field named "${name}" in this workspace.`);
      continue;
    }
    const empty = value === null || value === '' || (Array.isArray(value) && value.length === 0);
    if (empty) {
      if (definition.required) fail(name, `The ${definition.label} field is required.`);
      else values[name] = null;
      continue;
    }
    const problem = problemWith(definition, value);
    if (problem) fail(name, problem);
    else values[name] = value;
  }

  if (options.enforceRequired) {
    for (const definition of definitions) {
      if (definition.required && !(definition.name in input)) {
        fail(definition.name, `The ${definition.label} field is required.`);
      }
    }
  }
  return { values, errors };
}
