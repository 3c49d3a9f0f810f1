// Queries over finders, their own locations and their provider keys. Reads by id are filtered
// through `accessibleWorkspace`, so a finder of a workspace the actor cannot reach is
// indistinguishable from a missing one. Id lists travel as one array parameter.
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor, Transaction } from '../../db/client.ts';
import { countWhere } from '../../db/lists.ts';
import type { Actor } from '../../lib/actor.ts';
import { fetchPage, type Page } from '../../lib/pagination.ts';
import { locationsTable } from '../locations/locations.table.ts';
import { mapsTable } from '../maps/maps.table.ts';
import { setsTable } from '../sets/sets.table.ts';
import { tagsTable } from '../tags/tags.table.ts';
import { accessibleWorkspace, listedWorkspace } from '../workspaces/workspaces.access.ts';
import { countryNames } from './finders.rule.ts';
import type { FinderLocationInput, FinderRuleIds, FinderRuleInput } from './finders.schemas.ts';
import {
  type AutocompleteProvider,
  type FinderRow,
  finderIntegrationsTable,
  finderLocationsTable,
  finderRuleSetsTable,
  finderRuleTagsTable,
  findersTable,
} from './finders.table.ts';

/** `column = any($1::int[])` with the whole list as one parameter. */
const anyOf = (column: AnyPgColumn, ids: readonly number[]): SQL =>
  sql`${column} = any(${sql.param(ids)}::int[])`;

export type FinderValues = Pick<
  typeof findersTable.$inferInsert,
  'name' | 'settings' | 'advancedRefinements' | 'authorizedUrls'
>;

export function createFindersRepository(db: Executor) {
  const reachable = (actor: Actor, id: number): SQL =>
    and(eq(findersTable.id, id), accessibleWorkspace(findersTable.workspaceId, actor))!;

  return {
    /** The finder's id and backing map, when the actor may reach it. */
    async findAccessibleRef(
      actor: Actor,
      id: number,
      tx: Executor = db,
    ): Promise<{ id: number; mapId: number | null } | undefined> {
      const [row] = await tx
        .select({ id: findersTable.id, mapId: findersTable.mapId })
        .from(findersTable)
        .where(reachable(actor, id));
      return row;
    },

    /** The actor's finders, of one workspace when `workspaceId` is given; `total` when paged. */
    async list(
      actor: Actor,
      workspaceId: number | undefined,
      page: Page,
      tx: Executor = db,
    ): Promise<{ rows: FinderRow[]; total?: number }> {
      const where = listedWorkspace(findersTable.workspaceId, actor, workspaceId);
      const query = tx.select().from(findersTable).where(where).orderBy(asc(findersTable.id)).$dynamic();
      return fetchPage(query, page, () => countWhere(tx, findersTable, where));
    },

    /** The finder when the actor may reach it; `lock` takes its row lock so writes queue up. */
    async find(
      actor: Actor,
      id: number,
      options: { lock?: boolean } = {},
      tx: Executor = db,
    ): Promise<FinderRow | undefined> {
      const query = tx.select().from(findersTable).where(reachable(actor, id)).$dynamic();
      if (options.lock) query.for('update');
      const [row] = await query;
      return row;
    },

    /**
     * The public tokens of the workspace's finders (their published files are named by them),
     * their rows locked for `tx` (FOR UPDATE, in id order): the lock a publish, an unpublish and
     * a finder's delete take before they touch its published files.
     */
    async lockTokensInWorkspace(workspaceId: number, tx: Transaction): Promise<string[]> {
      const rows = await tx
        .select({ token: findersTable.token })
        .from(findersTable)
        .where(eq(findersTable.workspaceId, workspaceId))
        .orderBy(asc(findersTable.id))
        .for('update');
      return rows.map((row) => row.token);
    },

    async findByToken(actor: Actor, token: string, tx: Executor = db): Promise<FinderRow | undefined> {
      const [row] = await tx
        .select()
        .from(findersTable)
        .where(and(eq(findersTable.token, token), accessibleWorkspace(findersTable.workspaceId, actor)));
      return row;
    },

    async insert(
      values: { workspaceId: number; name: string; token: string; mapId: number },
      tx: Executor = db,
    ): Promise<FinderRow> {
      const [row] = await tx.insert(findersTable).values(values).returning();
      return row!;
    },

    /** Sets the given fields and always `updated_at`: a change of locations alone updates the finder too. */
    async update(id: number, values: Partial<FinderValues>, tx: Executor = db): Promise<FinderRow> {
      const [row] = await tx
        .update(findersTable)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(findersTable.id, id))
        .returning();
      return row!;
    },

    /** Deletes the finder; its locations, integrations and publications go by cascade. */
    async delete(id: number, tx: Executor = db): Promise<void> {
      await tx.delete(findersTable).where(eq(findersTable.id, id));
    },

    /** Each finder's own locations, by sort order then id. */
    async locationsOf(
      finderIds: readonly number[],
      tx: Executor = db,
    ): Promise<Map<number, FinderLocationInput[]>> {
      const byFinder = new Map<number, FinderLocationInput[]>(finderIds.map((id) => [id, []]));
      if (finderIds.length === 0) return byFinder;
      const rows = await tx
        .select()
        .from(finderLocationsTable)
        .where(anyOf(finderLocationsTable.finderId, finderIds))
        .orderBy(asc(finderLocationsTable.sortOrder), asc(finderLocationsTable.locationId));
      for (const row of rows) {
        byFinder.get(row.finderId)?.push({ locationId: row.locationId, sortOrder: row.sortOrder });
      }
      return byFinder;
    },

    /**
     * Of `ids`, the locations of the workspace, with a key-share lock so none can be deleted
     * before the transaction commits the links to them.
     */
    async locationIdsInWorkspace(
      workspaceId: number,
      ids: readonly number[],
      tx: Executor = db,
    ): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await tx
        .select({ id: locationsTable.id })
        .from(locationsTable)
        .where(and(anyOf(locationsTable.id, ids), eq(locationsTable.workspaceId, workspaceId)))
        .for('key share');
      return new Set(rows.map((row) => row.id));
    },

    /** Afterwards the finder lists exactly `locations` (distinct ids). */
    async replaceLocations(finderId: number, locations: readonly FinderLocationInput[], tx: Executor = db) {
      await tx.delete(finderLocationsTable).where(eq(finderLocationsTable.finderId, finderId));
      if (locations.length === 0) return;
      await tx
        .insert(finderLocationsTable)
        .select(
          sql`select ${finderId}::int, location_id, sort_order from unnest(${sql.param(
            locations.map((location) => location.locationId),
          )}::int[], ${sql.param(locations.map((location) => location.sortOrder))}::int[]) as input(location_id, sort_order)`,
        );
    },

    /** Each finder's rule tag and set ids, ascending. */
    async ruleIdsOf(finderIds: readonly number[], tx: Executor = db): Promise<Map<number, FinderRuleIds>> {
      const byFinder = new Map<number, FinderRuleIds>(
        finderIds.map((id) => [id, { tagIds: [], setIds: [] }]),
      );
      if (finderIds.length === 0) return byFinder;
      const tags = await tx
        .select()
        .from(finderRuleTagsTable)
        .where(anyOf(finderRuleTagsTable.finderId, finderIds))
        .orderBy(asc(finderRuleTagsTable.tagId));
      const sets = await tx
        .select()
        .from(finderRuleSetsTable)
        .where(anyOf(finderRuleSetsTable.finderId, finderIds))
        .orderBy(asc(finderRuleSetsTable.setId));
      for (const row of tags) byFinder.get(row.finderId)?.tagIds.push(row.tagId);
      for (const row of sets) byFinder.get(row.finderId)?.setIds.push(row.setId);
      return byFinder;
    },

    /**
     * Of `ids`, the tags (sets) of the workspace, key-share locked like the locations above: a
     * tag deleted meanwhile waits for the commit, then takes its rule rows with it.
     */
    async ruleIdsInWorkspace(
      kind: 'tags' | 'sets',
      workspaceId: number,
      ids: readonly number[],
      tx: Executor = db,
    ): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const table = kind === 'tags' ? tagsTable : setsTable;
      const rows = await tx
        .select({ id: table.id })
        .from(table)
        .where(and(anyOf(table.id, ids), eq(table.workspaceId, workspaceId)))
        .for('key share');
      return new Set(rows.map((row) => row.id));
    },

    /** Afterwards the finder has exactly `rule` (null: none); ids are stored once each. */
    async replaceRule(finderId: number, rule: FinderRuleInput | null, tx: Executor = db): Promise<void> {
      await tx.delete(finderRuleTagsTable).where(eq(finderRuleTagsTable.finderId, finderId));
      await tx.delete(finderRuleSetsTable).where(eq(finderRuleSetsTable.finderId, finderId));
      await tx
        .update(findersTable)
        .set({
          ruleCountries: rule?.countries ?? null,
          // Folded by PostgreSQL, as the location's side of the comparison is (finders.rule.ts).
          ruleCountryNames: sql`array(select distinct lower(n) from unnest(${sql.param(
            rule ? countryNames(rule.countries) : [],
          )}::text[]) n order by 1)`,
          ruleHasTags: (rule?.tagIds.length ?? 0) > 0,
          ruleHasSets: (rule?.setIds.length ?? 0) > 0,
        })
        .where(eq(findersTable.id, finderId));
      if (!rule) return;
      if (rule.tagIds.length > 0) {
        await tx
          .insert(finderRuleTagsTable)
          .select(
            sql`select distinct ${finderId}::int, tag_id from unnest(${sql.param(rule.tagIds)}::int[]) as input(tag_id)`,
          );
      }
      if (rule.setIds.length > 0) {
        await tx
          .insert(finderRuleSetsTable)
          .select(
            sql`select distinct ${finderId}::int, set_id from unnest(${sql.param(rule.setIds)}::int[]) as input(set_id)`,
          );
      }
    },

    /** The providers the finder holds a key for. */
    async integrationProviders(finderId: number, tx: Executor = db): Promise<Set<AutocompleteProvider>> {
      const rows = await tx
        .select({ provider: finderIntegrationsTable.provider })
        .from(finderIntegrationsTable)
        .where(eq(finderIntegrationsTable.finderId, finderId));
      return new Set(rows.map((row) => row.provider));
    },

    /** Creates or replaces the finder's key for the provider (sealed by the caller). */
    async upsertIntegration(
      finderId: number,
      provider: AutocompleteProvider,
      apiKeyEncrypted: string,
      tx: Executor = db,
    ): Promise<void> {
      const updatedAt = new Date();
      await tx
        .insert(finderIntegrationsTable)
        .values({ finderId, provider, apiKeyEncrypted, updatedAt })
        .onConflictDoUpdate({
          target: [finderIntegrationsTable.finderId, finderIntegrationsTable.provider],
          set: { apiKeyEncrypted, updatedAt },
        });
    },

    /** Whether a key was removed. */
    async deleteIntegration(
      finderId: number,
      provider: AutocompleteProvider,
      tx: Executor = db,
    ): Promise<boolean> {
      const rows = await tx
        .delete(finderIntegrationsTable)
        .where(
          and(eq(finderIntegrationsTable.finderId, finderId), eq(finderIntegrationsTable.provider, provider)),
        )
        .returning({ id: finderIntegrationsTable.id });
      return rows.length > 0;
    },

    /**
     * Deletes the maps behind the workspace's finders, with the workspace: maps belong to users,
     * not workspaces, so no cascade from the workspace reaches them.
     */
    async deleteBackingMaps(workspaceId: number, tx: Executor): Promise<void> {
      const backingMaps = tx
        .select({ id: findersTable.mapId })
        .from(findersTable)
        .where(eq(findersTable.workspaceId, workspaceId));
      await tx.delete(mapsTable).where(inArray(mapsTable.id, backingMaps));
    },
  };
}

export type FindersRepository = ReturnType<typeof createFindersRepository>;
