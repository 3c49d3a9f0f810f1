// Finders (embeddable widget configurations), their own location list, their autocomplete provider
// keys and their publish history. A finder dies with its workspace, and everything here dies with
// its finder. The backing map is referenced with set null: deleting the map leaves the finder
// without it (docs/api.md, Maps); the reverse (finder delete removes its map) is done by the
// service, since a map is not owned by a finder in the schema.
import { index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf, timestamps, timestamptz } from '../../db/columns.ts';
import { locationsTable } from '../locations/locations.table.ts';
import { mapsTable } from '../maps/maps.table.ts';
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
