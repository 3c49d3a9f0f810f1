// A finder's advanced refinements (docs/api.md, Finders): whether a location meets a condition
// and a refinement. The one reading of them: the widget filters with it, and a chunked publish
// writes each refinement's result for every location into the index with it (so a visitor's
// filter over 100,000 locations needs none of their details).

export type ConditionField = 'tag' | 'set' | 'city' | 'state' | 'country' | `custom_field.${string}`;
export type ConditionOp = 'eq' | 'neq' | 'in' | 'contains' | 'exists';

export interface Condition {
  field: ConditionField;
  op: ConditionOp;
  value?: unknown;
}

export interface Refinement {
  name: string;
  match: 'all' | 'any';
  conditions: Condition[];
}

/** What a condition reads of a location (the widget payload's fields). */
export interface RefinedLocation {
  city?: string | null;
  state?: string | null;
  country?: string | null;
  /** Tag slugs. */
  tags: string[];
  /** Set ids. */
  sets: number[];
  custom_fields?: Record<string, unknown>;
}

function fieldValue(location: RefinedLocation, field: string): unknown {
  switch (field) {
    case 'tag':
      return location.tags;
    case 'set':
      return location.sets;
    case 'city':
    case 'state':
    case 'country':
      return location[field];
    default:
      return field.startsWith('custom_field.')
        ? location.custom_fields?.[field.slice('custom_field.'.length)]
        : undefined;
  }
}

function isEmpty(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

const normalized = (value: unknown) => String(value).trim().toLowerCase();

const isNumeric = (value: unknown) =>
  typeof value === 'number' ||
  (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)));

/** Numbers compare as numbers ("3" equals 3), everything else as trimmed, case-folded text. */
function same(a: unknown, b: unknown): boolean {
  if (isEmpty(a) || isEmpty(b)) return false;
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  return normalized(a) === normalized(b);
}

/** An array field (tags, sets, multiselect) holds when one of its elements does. */
function holdsFor(value: unknown, test: (element: unknown) => boolean): boolean {
  return Array.isArray(value) ? value.some(test) : test(value);
}

export function matchesCondition(location: RefinedLocation, condition: Condition): boolean {
  const value = fieldValue(location, condition.field);
  const expected = condition.value;
  switch (condition.op) {
    case 'eq':
      return holdsFor(value, (element) => same(element, expected));
    case 'neq':
      return !holdsFor(value, (element) => same(element, expected));
    case 'in': {
      const options = Array.isArray(expected) ? expected : [expected];
      return holdsFor(value, (element) => options.some((option) => same(element, option)));
    }
    case 'contains':
      if (isEmpty(expected)) return false;
      return Array.isArray(value)
        ? value.some((element) => same(element, expected))
        : !isEmpty(value) && normalized(value).includes(normalized(expected));
    case 'exists':
      return !isEmpty(value);
    default:
      return false;
  }
}

/** A refinement without conditions constrains nothing. */
export function matchesRefinement(location: RefinedLocation, refinement: Refinement): boolean {
  const conditions = refinement.conditions ?? [];
  if (conditions.length === 0) return true;
  return refinement.match === 'any'
    ? conditions.some((condition) => matchesCondition(location, condition))
    : conditions.every((condition) => matchesCondition(location, condition));
}
