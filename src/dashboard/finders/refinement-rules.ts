// What the filter builder offers and sends for a finder's advanced_refinements (docs/api.md,
// Finders and "Refinement conditions"): the fields a condition can test (tags, categories, the
// address's city, state and country, the workspace's custom fields by their definitions), the
// tests that mean something for each kind of field, the value each expects, and how a 422's
// dotted paths land on the builder's controls.
import type { FieldErrors } from '../api/errors.ts';
import type { MessageKey } from '../i18n/en.ts';
import { t } from '../i18n/i18n.ts';
import type { CustomFieldDefinition, LocationSet, Tag } from '../workspaces/use-workspace-content.ts';
import type { Finder } from './use-finders.ts';

/** The service's FINDER_LIMITS for refinements (a browser test checks they are the same). */
export const RULE_LIMITS = { refinements: 50, conditions: 50, inValues: 100 } as const;

type StoredRefinement = Finder['advanced_refinements'][number];
type StoredCondition = StoredRefinement['conditions'][number];
export type Op = StoredCondition['op'];
export type Match = StoredRefinement['match'];

/**
 * tag and set compare slugs and ids from a list; `choice` is a select or multiselect field's
 * options; `text` the address parts and the text kinds of custom fields.
 */
export type Kind = 'tag' | 'set' | 'text' | 'number' | 'boolean' | 'choice' | 'date';

export interface FieldChoice {
  /** The condition's `field`: `tag`, `set`, `city`, ... or `custom_field.<name>`. */
  id: string;
  label: string;
  kind: Kind;
  /** Array fields (tags, sets, multiselect) hold when one element does. */
  many: boolean;
  options: readonly { value: string; label: string }[];
}

/**
 * The tests offered per kind. `contains` is a substring only on text (on an array it would
 * repeat `eq`), and `in` of yes or no would repeat `eq`.
 */
const OPS: Record<Kind, readonly Op[]> = {
  tag: ['eq', 'neq', 'in', 'exists'],
  set: ['eq', 'neq', 'in', 'exists'],
  text: ['eq', 'neq', 'contains', 'in', 'exists'],
  number: ['eq', 'neq', 'in', 'exists'],
  date: ['eq', 'neq', 'in', 'exists'],
  boolean: ['eq', 'neq', 'exists'],
  choice: ['eq', 'neq', 'in', 'exists'],
};

const KIND_OF_TYPE: Record<CustomFieldDefinition['type'], Kind> = {
  text: 'text',
  textarea: 'text',
  url: 'text',
  email: 'text',
  phone: 'text',
  number: 'number',
  boolean: 'boolean',
  select: 'choice',
  multiselect: 'choice',
  date: 'date',
};

const CUSTOM = 'custom_field.';

/** Every field a condition can test, and any a stored condition names that is gone now. */
export function fieldChoices(
  tags: readonly Tag[],
  sets: readonly LocationSet[],
  definitions: readonly CustomFieldDefinition[],
  stored: readonly StoredRefinement[],
): FieldChoice[] {
  const place = (id: string, label: MessageKey): FieldChoice => ({
    id,
    label: t(label),
    kind: 'text',
    many: false,
    options: [],
  });
  const choices: FieldChoice[] = [
    {
      id: 'tag',
      label: t('rules.field.tag'),
      kind: 'tag',
      many: true,
      options: tags.map((tag) => ({ value: tag.slug, label: tag.name })),
    },
    {
      id: 'set',
      label: t('rules.field.set'),
      kind: 'set',
      many: true,
      options: sets.map((set) => ({ value: String(set.id), label: set.name })),
    },
    place('city', 'rules.field.city'),
    place('state', 'rules.field.state'),
    place('country', 'rules.field.country'),
    ...definitions.map(
      (definition): FieldChoice => ({
        id: `${CUSTOM}${definition.name}`,
        label: definition.label,
        kind: KIND_OF_TYPE[definition.type],
        many: definition.type === 'multiselect',
        options: (definition.options ?? []).map((option) => ({ value: option, label: option })),
      }),
    ),
  ];
  const used = new Set(stored.flatMap((refinement) => refinement.conditions.map((c) => c.field)));
  // Tags or categories with none to pick from are offered only where a stored condition uses them.
  const offered = choices.filter(
    (choice) =>
      (choice.kind !== 'tag' && choice.kind !== 'set') || choice.options.length > 0 || used.has(choice.id),
  );
  const known = new Set(choices.map((choice) => choice.id));
  for (const refinement of stored)
    for (const condition of refinement.conditions)
      if (!known.has(condition.field)) {
        known.add(condition.field);
        offered.push({
          id: condition.field,
          label: t('rules.field.gone', { name: condition.field.replace(CUSTOM, '') }),
          kind: 'text',
          many: false,
          options: [],
        });
      }
  return offered;
}

/** The tests offered for a field; a stored one outside them stays offered so it is not lost. */
export function opsFor(field: FieldChoice, current?: Op): Op[] {
  const ops = [...OPS[field.kind]];
  return current && !ops.includes(current) ? [...ops, current] : ops;
}

/** A test's words: on an array field `eq` means "has", not "is". */
export function opLabel(op: Op, field: FieldChoice): string {
  return t(field.many ? (`rules.op_many.${op}` as MessageKey) : (`rules.op.${op}` as MessageKey));
}

/** Values picked from a list (a select or checkboxes) rather than typed. */
export const picksFromList = (field: FieldChoice) =>
  field.kind === 'tag' || field.kind === 'set' || field.kind === 'choice' || field.kind === 'boolean';

/**
 * A condition as the builder edits it: one value as text (a number or a set id too), several
 * as the chosen list entries, or as typed lines where values are typed.
 */
export interface DraftCondition {
  key: number;
  field: string;
  op: Op;
  value: string | string[];
}

export interface DraftRefinement {
  key: number;
  name: string;
  match: Match;
  conditions: DraftCondition[];
}

/** The value a new condition (or one whose field or test changed) starts with. */
export function startValue(field: FieldChoice, op: Op): string | string[] {
  if (op === 'in') return picksFromList(field) ? [] : '';
  if (field.kind === 'boolean') return 'true';
  return picksFromList(field) ? (field.options[0]?.value ?? '') : '';
}

export function draftValue(field: FieldChoice, op: Op, value: unknown): string | string[] {
  if (op === 'exists') return '';
  if (op === 'in') {
    const list = Array.isArray(value) ? value.map(String) : value == null ? [] : [String(value)];
    return picksFromList(field) ? list : list.join('\n');
  }
  return value == null ? '' : String(value);
}

/**
 * The value the API takes. Nothing is refused here: what the service refuses comes back beside
 * the control (a set id that is no number, an empty text), so the rules live in one place.
 */
export function apiValue(field: FieldChoice, op: Op, value: string | string[]): unknown {
  if (op === 'exists') return null;
  const one = (text: string): unknown => {
    const trimmed = text.trim();
    if (
      (field.kind === 'set' || field.kind === 'number') &&
      trimmed !== '' &&
      Number.isFinite(Number(trimmed))
    )
      return Number(trimmed);
    if (field.kind === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
    return text;
  };
  if (op === 'in') {
    const list = Array.isArray(value)
      ? value
      : value
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean);
    return list.map(one);
  }
  return one(Array.isArray(value) ? (value[0] ?? '') : value);
}

/** How many values a test takes: none, one, or a list. */
const arity = (op: Op) => (op === 'exists' ? 0 : op === 'in' ? 2 : 1);

/** A condition after its field or test changed: the value kept where it still fits. */
export function changed(
  condition: DraftCondition,
  next: { field: FieldChoice; op?: Op },
  before: FieldChoice | undefined,
): DraftCondition {
  const ops = opsFor(next.field);
  const op = next.op ?? (ops.includes(condition.op) ? condition.op : 'eq');
  const keep = before?.id === next.field.id && arity(op) === arity(condition.op);
  return {
    ...condition,
    field: next.field.id,
    op,
    value: keep ? condition.value : startValue(next.field, op),
  };
}

const CONTROL = /^advanced_refinements\.\d+\.(name|match|conditions\.\d+\.(field|op|value))$/;
const ELEMENT = /^(advanced_refinements\.\d+\.conditions\.\d+\.value)\.(\d+)$/;
const REFINEMENT = /^(advanced_refinements\.\d+)(\..*)?$/;

/**
 * A 422's messages by the control that shows them: a control's own path as it is, an element of
 * an `in` list's under the list's control (saying which value), and the rest under the list of
 * refinements (`advanced_refinements`) or one refinement (`advanced_refinements.2`), whose
 * limits and shapes have no control of their own.
 */
export function foldErrors(fields: FieldErrors): { controls: FieldErrors; lists: FieldErrors } {
  const controls: FieldErrors = {};
  const lists: FieldErrors = {};
  const add = (into: FieldErrors, key: string, messages: string[]) => {
    into[key] = [...(into[key] ?? []), ...messages];
  };
  for (const [path, messages] of Object.entries(fields)) {
    const element = ELEMENT.exec(path);
    if (CONTROL.test(path)) add(controls, path, messages);
    else if (element)
      add(
        controls,
        element[1] as string,
        messages.map((message) => t('rules.value_n', { n: Number(element[2]) + 1, message })),
      );
    else add(lists, REFINEMENT.exec(path)?.[1] ?? 'advanced_refinements', messages);
  }
  return { controls, lists };
}
