// Finders (embeddable widget configurations), their own location list, their autocomplete provider
// keys and their publish history. A finder dies with its workspace, and everything here dies with
// its finder. The backing map is referenced with set null: deleting the map leaves the finder
// without it (docs/api.md, Maps); the reverse (finder delete removes its map) is done by the
// service, since a map is not owned by a finder in the schema.
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { oneOf, timestamps, timestamptz } from '../../db/columns.ts';
import { locationsTable } from '../locations/locations.table.ts';
import { mapsTable } from '../maps/maps.table.ts';
import { setsTable } from '../sets/sets.table.ts';
import { tagsTable } from '../tags/tags.table.ts';
import { workspaceIdColumn } from '../workspaces/workspaces.table.ts';

/** One flat key-value pair of the design configuration (docs/api.md, Finders). */
export interface FinderSetting {
  key: string;
  value: unknown;
}

export const refinementMatchModes = ['all', 'any'] as const;
export type RefinementMatchMode = (typeof refinementMatchModes)[number];

export const refinementOps = ['eq', 'neq', 'in', 'contains', 'exists'] as const;
export type RefinementOp = (typeof refinementOps)[number];

export interface RefinementCondition {
  /** `tag`, `set`, `custom_field.<name>`, `city`, `state` or `country` (docs/api.md, Finders). */
  field: string;
  op: RefinementOp;
  value: unknown;
}

export interface AdvancedRefinement {
  name: string;
  match: RefinementMatchMode;
  conditions: RefinementCondition[];
}

export const findersTable = pgTable(
  'finders',
  {
    id: serial().primaryKey(),
    workspaceId: workspaceIdColumn(),
    /** The backing map, created with the finder; null once that map is deleted. */
    mapId: integer().references(() => mapsTable.id, { onDelete: 'set null' }),
    name: text().notNull(),
    /** The public widget token: 32 random bytes, base64url. */
    token: text().notNull(),
    settings: jsonb().$type<FinderSetting[]>().notNull().default([]),
    advancedRefinements: jsonb().$type<AdvancedRefinement[]>().notNull().default([]),
    /** Origins or bare hosts (optionally `*.`-prefixed) allowed to load the widget; empty allows all. */
    authorizedUrls: jsonb().$type<string[]>().notNull().default([]),
    /**
     * The rule (docs/api.md, Finders): null when the finder has none; else its countries as
     * ISO 3166-1 alpha-2 codes, upper case, ascending ([] = any country). Its tags and sets are
     * the rows of finder_rule_tags and finder_rule_sets.
     */
    ruleCountries: text().array(),
    /**
     * What a location's `country` is compared with: every spelling of the rule's countries
     * (the code, the English and German names), lower case; written with rule_countries.
     */
    ruleCountryNames: text().array().notNull().default(sql`'{}'::text[]`),
    /**
     * Whether the rule names tags (sets): set when it is saved with some. Deleting its tags
     * (sets) removes their rows but leaves this: the criterion then matches no location, where
     * an empty list would match every one (a deletion never widens what a finder shows), and
     * the rule is answered as null (finders.schemas.ts).
     */
    ruleHasTags: boolean().notNull().default(false),
    ruleHasSets: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('finders_token_unique').on(t.token),
    index('finders_workspace_id_idx').on(t.workspaceId),
    index('finders_map_id_idx').on(t.mapId),
  ],
);

/** The finder's own locations, replaced wholesale on each update. */
export const finderLocationsTable = pgTable(
  'finder_locations',
  {
    finderId: integer()
      .notNull()
      .references(() => findersTable.id, { onDelete: 'cascade' }),
    locationId: integer()
      .notNull()
      .references(() => locationsTable.id, { onDelete: 'cascade' }),
    sortOrder: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.finderId, t.locationId] }),
    index('finder_locations_location_id_idx').on(t.locationId),
  ],
);

/** The tags of a finder's rule (a location matches with any of them); they go with the tag. */
export const finderRuleTagsTable = pgTable(
  'finder_rule_tags',
  {
    finderId: integer()
      .notNull()
      .references(() => findersTable.id, { onDelete: 'cascade' }),
    tagId: integer()
      .notNull()
      .references(() => tagsTable.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.finderId, t.tagId] }), index('finder_rule_tags_tag_id_idx').on(t.tagId)],
);

/** The sets of a finder's rule (a location matches in any of them); they go with the set. */
export const finderRuleSetsTable = pgTable(
  'finder_rule_sets',
  {
    finderId: integer()
      .notNull()
      .references(() => findersTable.id, { onDelete: 'cascade' }),
    setId: integer()
      .notNull()
      .references(() => setsTable.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.finderId, t.setId] }), index('finder_rule_sets_set_id_idx').on(t.setId)],
);

export const autocompleteProviders = ['google', 'mapbox', 'here', 'tomtom', 'geoapify'] as const;
export type AutocompleteProvider = (typeof autocompleteProviders)[number];

export const finderIntegrationsTable = pgTable(
  'finder_integrations',
  {
    id: serial().primaryKey(),
    finderId: integer()
      .notNull()
      .references(() => findersTable.id, { onDelete: 'cascade' }),
    provider: text({ enum: autocompleteProviders }).notNull(),
    /** AES-256-CBC with APP_KEY; never returned (docs/api.md, Secrets at rest). */
    apiKeyEncrypted: text().notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('finder_integrations_finder_id_provider_unique').on(t.finderId, t.provider),
    oneOf('finder_integrations_provider_check', t.provider, autocompleteProviders),
  ],
);

/** One row per publish; the latest answers GET /ext/finders/details/{key}/info. */
export const finderPublicationsTable = pgTable(
  'finder_publications',
  {
    id: serial().primaryKey(),
    finderId: integer()
      .notNull()
      .references(() => findersTable.id, { onDelete: 'cascade' }),
    /** SHA-1 (hex) of the published payload. */
    hash: text().notNull(),
    /** Storage key of the versioned file, `finders/{token}/v/{hash}.json`. */
    objectKey: text().notNull(),
    url: text().notNull(),
    publishedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [index('finder_publications_finder_id_published_at_idx').on(t.finderId, t.publishedAt)],
);

export type FinderRow = typeof findersTable.$inferSelect;
export type FinderLocationRow = typeof finderLocationsTable.$inferSelect;
export type FinderIntegrationRow = typeof finderIntegrationsTable.$inferSelect;
export type FinderPublicationRow = typeof finderPublicationsTable.$inferSelect;
