// Request and response shapes of /finders and /admin/finders (docs/api.md, Finder and Finders).
// The element rules of settings, advanced_refinements, authorized_urls and locations live here,
// so every refused element is named by its dotted path (`advanced_refinements.0.conditions.1.op`).
// A list given as null means the same as [] (as on maps); an absent key leaves it unchanged.
import { z } from 'zod';
import { isCountryCode } from '../../lib/countries.ts';
import { formatOriginRule, parseOriginRule } from '../../lib/origins.ts';
import { bodyIdSchema, idSchema, nameSchema } from '../../lib/schemas.ts';
import {
  type AdvancedRefinement,
  autocompleteProviders,
  type FinderRow,
  type FinderSetting,
  refinementMatchModes,
  refinementOps,
} from './finders.table.ts';

/** Bounds of one finder, so one update stays one bounded set of statements (docs/api.md). */
export const FINDER_LIMITS = {
  settings: 500,
  settingKeyLength: 100,
  /** Characters of one setting value written as JSON. */
  settingValueLength: 10_000,
  refinements: 50,
  conditions: 50,
  inValues: 100,
  conditionTextLength: 255,
  authorizedUrls: 100,
  authorizedUrlLength: 255,
  locations: 10_000,
  /** Tag ids, set ids and countries of a rule, each. */
  ruleIds: 1000,
  ruleCountries: 250,
} as const;

const MAX_INTEGER = 2_147_483_647;

/** `null` -> `[]`; `undefined` stays (the key was absent). */
const nullAsEmpty = <T>(list: T[] | null | undefined): T[] | undefined => (list === null ? [] : list);

const listOf = <T extends z.ZodType>(element: T, field: string, max: number) =>
  z
    .array(element, { error: `The ${field} field must be an array or null.` })
    .max(max, `The ${field} field may not have more than ${max} entries.`)
    .nullable()
    .optional()
    .transform(nullAsEmpty);

// --- settings ---------------------------------------------------------------------------

const settingSchema = z
  .object(
    {
      key: z
        .string({ error: 'The key field is required and must be a string.' })
        .trim()
        .min(1, 'The key field is required.')
        .max(
          FINDER_LIMITS.settingKeyLength,
          `The key may not be greater than ${FINDER_LIMITS.settingKeyLength} characters.`,
        ),
      value: z.unknown().optional(),
    },
    { error: 'Each setting must be an object {key, value}.' },
  )
  .superRefine((setting, ctx) => {
    if (setting.value === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'The value field is required (null is allowed).',
      });
    } else if (JSON.stringify(setting.value).length > FINDER_LIMITS.settingValueLength) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `The value may not be greater than ${FINDER_LIMITS.settingValueLength} characters as JSON.`,
      });
    }
  })
  .transform((setting): FinderSetting => ({ key: setting.key, value: setting.value ?? null }));

/** Keys are unique: a second pair with the same key is refused rather than silently shadowed. */
const settingsSchema = listOf(settingSchema, 'settings', FINDER_LIMITS.settings).superRefine(
  (settings, ctx) => {
    const seen = new Set<string>();
    settings?.forEach((setting, index) => {
      if (seen.has(setting.key)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'key'],
          message: `The key "${setting.key}" appears more than once.`,
        });
      }
      seen.add(setting.key);
    });
  },
);

// --- advanced refinements -------------------------------------------------------------------

/** `tag`, `set`, `city`, `state`, `country` or `custom_field.<definition name>` (docs/api.md, Finders). */
const CONDITION_FIELD = /^(tag|set|city|state|country|custom_field\.[A-Za-z0-9_\- ]{1,64})$/;

type Scalar = string | number | boolean;

/** Why `value` cannot be compared with `field`, or undefined when it can. */
function scalarProblem(field: string, value: unknown): string | undefined {
  if (field === 'set') {
    return Number.isInteger(value) && (value as number) > 0 && (value as number) <= MAX_INTEGER
      ? undefined
      : 'A set condition compares set ids: the value must be a positive integer.';
  }
  if (field === 'tag') {
    return typeof value === 'string' && value.trim() !== ''
      ? lengthProblem(value)
      : 'A tag condition compares tag slugs: the value must be a non-empty string.';
  }
  if (field.startsWith('custom_field.')) {
    if (typeof value === 'number' || typeof value === 'boolean') return undefined;
    return typeof value === 'string' && value.trim() !== ''
      ? lengthProblem(value)
      : 'The value must be a non-empty string, a number or a boolean.';
  }
  // city, state, country: text.
  return typeof value === 'string' && value.trim() !== ''
    ? lengthProblem(value)
    : 'The value must be a non-empty string.';
}

const lengthProblem = (value: string) =>
  value.length > FINDER_LIMITS.conditionTextLength
    ? `The value may not be greater than ${FINDER_LIMITS.conditionTextLength} characters.`
    : undefined;

const conditionSchema = z
  .object(
    {
      field: z
        .string({ error: 'The field field is required and must be a string.' })
        .regex(
          CONDITION_FIELD,
          'The field must be tag, set, city, state, country or custom_field.<name> (letters, digits, _, - and spaces).',
        ),
      op: z.enum(refinementOps, { error: `The op must be one of ${refinementOps.join(', ')}.` }),
      value: z.unknown().optional(),
    },
    { error: 'Each condition must be an object {field, op, value}.' },
  )
  .superRefine((condition, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', path: ['value'], message });
    const { field, op, value } = condition;
    // An unknown field is already refused; what its value should be is then unknowable.
    if (!CONDITION_FIELD.test(field)) return;
    if (op === 'exists') {
      if (value !== undefined && value !== null)
        problem('The exists operator takes no value (omit it or send null).');
      return;
    }
    if (op === 'in') {
      if (!Array.isArray(value) || value.length === 0) {
        problem('The in operator needs a non-empty array of values.');
        return;
      }
      if (value.length > FINDER_LIMITS.inValues) {
        problem(`The in operator takes at most ${FINDER_LIMITS.inValues} values.`);
        return;
      }
      value.forEach((element, index) => {
        const reason = scalarProblem(field, element);
        if (reason) ctx.addIssue({ code: 'custom', path: ['value', index], message: reason });
      });
      return;
    }
    if (value === undefined || value === null) {
      problem(`The ${op} operator needs a value.`);
      return;
    }
    if (Array.isArray(value) || typeof value === 'object') {
      problem(`The ${op} operator takes one value; use in for a list.`);
      return;
    }
    const reason = scalarProblem(field, value);
    if (reason) problem(reason);
  })
  .transform((condition) => ({
    field: condition.field,
    op: condition.op,
    // Texts are stored trimmed; exists stores null.
    value: condition.op === 'exists' ? null : trimmed(condition.value),
  }));

function trimmed(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map((element: Scalar) => trimmed(element));
  return value;
}

const refinementSchema = z
  .object(
    {
      name: nameSchema,
      match: z.enum(refinementMatchModes, { error: 'The match must be all or any.' }),
      conditions: z
        .array(conditionSchema, { error: 'The conditions field must be an array.' })
        .max(
          FINDER_LIMITS.conditions,
          `A refinement may have at most ${FINDER_LIMITS.conditions} conditions.`,
        ),
    },
    { error: 'Each refinement must be an object {name, match, conditions}.' },
  )
  .transform((refinement): AdvancedRefinement => refinement);

/** Names are unique within a finder: the widget lists refinements by name. */
const refinementsSchema = listOf(
  refinementSchema,
  'advanced_refinements',
  FINDER_LIMITS.refinements,
).superRefine((refinements, ctx) => {
  const seen = new Set<string>();
  refinements?.forEach((refinement, index) => {
    const name = refinement.name.toLowerCase();
    if (seen.has(name)) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'name'],
        message: `The name "${refinement.name}" is used by another refinement.`,
      });
    }
    seen.add(name);
  });
});

// --- authorized_urls ----------------------------------------------------------------------

const ORIGIN_RULE_MESSAGE =
  'Each entry must be an origin (https://shop.example, no path) or a host (shop.example, *.shop.example).';

/** Stored normalised (lower case, origins without a trailing slash); duplicates collapse. */
const authorizedUrlsSchema = listOf(
  z
    .string({ error: ORIGIN_RULE_MESSAGE })
    .max(
      FINDER_LIMITS.authorizedUrlLength,
      `An entry may not be greater than ${FINDER_LIMITS.authorizedUrlLength} characters.`,
    )
    .transform((entry, ctx) => {
      const rule = parseOriginRule(entry);
      if (!rule) {
        ctx.addIssue({ code: 'custom', message: ORIGIN_RULE_MESSAGE });
        return z.NEVER;
      }
      return formatOriginRule(rule);
    }),
  'authorized_urls',
  FINDER_LIMITS.authorizedUrls,
).transform((entries) => (entries === undefined ? undefined : [...new Set(entries)]));

// --- locations ------------------------------------------------------------------------------

const sortOrderMessage = 'The sort order must be an integer between 0 and 2147483647.';

const finderLocationSchema = z.object(
  {
    location_id: bodyIdSchema('location id'),
    sort_order: z
      .int({ error: sortOrderMessage })
      .min(0, sortOrderMessage)
      .max(MAX_INTEGER, sortOrderMessage)
      .optional(),
  },
  { error: 'Each location must be an object {location_id, sort_order?}.' },
);

/** A location listed twice is refused: which sort order would it keep? */
const locationsSchema = listOf(finderLocationSchema, 'locations', FINDER_LIMITS.locations)
  .superRefine((locations, ctx) => {
    const seen = new Set<number>();
    locations?.forEach((location, index) => {
      if (seen.has(location.location_id)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'location_id'],
          message: `The location ${location.location_id} is listed more than once.`,
        });
      }
      seen.add(location.location_id);
    });
  })
  .transform((locations) =>
    // Without a sort order, a location keeps its place in the array.
    locations?.map((location, index) => ({
      locationId: location.location_id,
      sortOrder: location.sort_order ?? index,
    })),
  );
export type FinderLocationInput = { locationId: number; sortOrder: number };

// --- rule -----------------------------------------------------------------------------------

const COUNTRY_MESSAGE = 'Each country must be an ISO 3166-1 alpha-2 code (DE, fr).';

const ruleListOf = <T extends z.ZodType>(element: T, field: string, max: number) =>
  z
    .array(element, { error: `The ${field} field must be an array.` })
    .max(max, `The ${field} field may not have more than ${max} entries.`)
    .optional();

/**
 * A finder's rule as sent: each list optional (absent = []). Ids are kept as sent, repeats
 * included, so that the service names a refused one by its place (`rule.tag_ids.2`); they are
 * deduplicated when stored. Countries are stored upper case, once each.
 */
export const finderRuleSchema = z
  .object(
    {
      tag_ids: ruleListOf(bodyIdSchema('tag id'), 'tag_ids', FINDER_LIMITS.ruleIds),
      set_ids: ruleListOf(bodyIdSchema('set id'), 'set_ids', FINDER_LIMITS.ruleIds),
      countries: ruleListOf(
        z
          .string({ error: COUNTRY_MESSAGE })
          .trim()
          .refine(isCountryCode, COUNTRY_MESSAGE)
          .transform((code) => code.toUpperCase()),
        'countries',
        FINDER_LIMITS.ruleCountries,
      ),
    },
    { error: 'The rule must be an object {tag_ids?, set_ids?, countries?} or null.' },
  )
  .strict()
  .transform(
    (rule): FinderRuleInput => ({
      tagIds: rule.tag_ids ?? [],
      setIds: rule.set_ids ?? [],
      countries: [...new Set(rule.countries ?? [])].sort(),
    }),
  );
export interface FinderRuleInput {
  tagIds: number[];
  setIds: number[];
  countries: string[];
}

/** A finder's rule as answered: ids ascending, once each; countries upper case, ascending. */
export const finderRuleOutputSchema = z.object({
  tag_ids: z.array(z.number().int()),
  set_ids: z.array(z.number().int()),
  countries: z.array(z.string()),
});
export type FinderRulePayload = z.infer<typeof finderRuleOutputSchema>;

/** `null` removes the rule; absent leaves it. */
const ruleFieldSchema = finderRuleSchema.nullable().optional();

// --- bodies and output ----------------------------------------------------------------------

export const createFinderBodySchema = z.object({
  name: nameSchema,
  workspace_id: bodyIdSchema('workspace id'),
  rule: ruleFieldSchema,
});
export type CreateFinderBody = z.infer<typeof createFinderBodySchema>;

export const updateFinderBodySchema = z.object({
  name: nameSchema.optional(),
  settings: settingsSchema,
  advanced_refinements: refinementsSchema,
  authorized_urls: authorizedUrlsSchema,
  locations: locationsSchema,
  rule: ruleFieldSchema,
});
export type UpdateFinderBody = Partial<z.infer<typeof updateFinderBodySchema>>;

export const finderTokenParamsSchema = z.object({
  token: z.string().min(1).max(200),
});

export const finderSchema = z.object({
  id: z.number().int(),
  workspace_id: z.number().int(),
  name: z.string(),
  token: z.string(),
  settings: z.array(z.object({ key: z.string(), value: z.unknown() })),
  advanced_refinements: z.array(
    z.object({
      name: z.string(),
      match: z.enum(refinementMatchModes),
      conditions: z.array(z.object({ field: z.string(), op: z.enum(refinementOps), value: z.unknown() })),
    }),
  ),
  authorized_urls: z.array(z.string()),
  locations: z.array(z.object({ location_id: z.number().int(), sort_order: z.number().int() })),
  rule: finderRuleOutputSchema.nullable(),
  maps: z.array(z.number().int()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FinderPayload = z.infer<typeof finderSchema>;

/** The rule's stored tag and set ids of one finder (ascending). */
export interface FinderRuleIds {
  tagIds: number[];
  setIds: number[];
}

/**
 * The rule as answered. A rule one of whose criteria lost every tag (set) it named, by their
 * deletion, matches no location (finders.shown-locations.ts): it is answered as null, which
 * shows exactly that, rather than as `[]`, which sent back would match every location.
 */
function ruleAnswer(row: FinderRow, ids: FinderRuleIds): FinderRulePayload | null {
  if (row.ruleCountries === null) return null;
  if ((row.ruleHasTags && ids.tagIds.length === 0) || (row.ruleHasSets && ids.setIds.length === 0))
    return null;
  return { tag_ids: ids.tagIds, set_ids: ids.setIds, countries: row.ruleCountries };
}

export const toFinderPayload = (
  row: FinderRow,
  locations: FinderLocationInput[],
  ruleIds: FinderRuleIds,
): FinderPayload => ({
  id: row.id,
  workspace_id: row.workspaceId,
  name: row.name,
  token: row.token,
  settings: row.settings,
  advanced_refinements: row.advancedRefinements,
  authorized_urls: row.authorizedUrls,
  locations: locations.map((location) => ({
    location_id: location.locationId,
    sort_order: location.sortOrder,
  })),
  rule: ruleAnswer(row, ruleIds),
  maps: row.mapId === null ? [] : [row.mapId],
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

// --- integrations ---------------------------------------------------------------------------

/** `{id}` as in every route under /finders/{id} (one name per path position in the router). */
export const integrationParamsSchema = z.object({
  id: idSchema,
  provider: z.enum(autocompleteProviders),
});

export const integrationBodySchema = z.object({
  api_key: z
    .string({ error: 'The api key field is required.' })
    .trim()
    .min(1, 'The api key field is required.')
    .max(1000, 'The api key may not be greater than 1000 characters.')
    .regex(/^[\x21-\x7e]+$/, 'The api key may only contain printable ASCII characters without spaces.'),
});

export const integrationSchema = z.object({
  provider: z.enum(autocompleteProviders),
  has_api_key: z.boolean(),
});
export type IntegrationPayload = z.infer<typeof integrationSchema>;
