// Queries over locations. Reads build the whole output (tags, sets, custom values) in one
// statement with correlated subqueries, so a list of any length costs one round trip.
import { and, asc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import { type Database, type Executor, idsFromText, rawRows } from '../../db/client.ts';
import { countWhere, fetchPage, type Page, type StreamedList, streamList } from '../../lib/pagination.ts';
import { customFieldDefinitionsTable } from '../custom-fields/custom-fields.table.ts';
import { shownLocations } from '../finders/finders.shown-locations.ts';
import { locationSetsTable, setsTable } from '../sets/sets.table.ts';
import { locationTagsTable } from '../tags/tags.table.ts';
import type { Actor } from '../workspaces/workspaces.access.ts';
import { accessibleWorkspace, listedWorkspace } from '../workspaces/workspaces.access.ts';
import {
  definitionNames,
  locationRelations,
  setJson,
  setOrder,
  tagJson,
  tagOrder,
} from './locations.json-fields.ts';
import { rewriteMarked } from './locations.json-walker.ts';
import { jsonText, listedCustomValues } from './locations.listed-json.ts';
import type { LocationPayload } from './locations.schemas.ts';
import { type LocationRow, locationsTable, type NewLocation } from './locations.table.ts';

/** postgres.js hands JSON texts built in SQL to Drizzle as text; columns of a table are decoded, these are not. */
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

const l = locationsTable;

// Drizzle renders columns inside selected fields without their table name, which would bind
// them to the innermost table of a subquery, so the relations' subqueries name the table.
const relations = locationRelations('"locations"');

const payloadSelection = {
  id: l.id,
  workspaceId: l.workspaceId,
  externalId: l.externalId,
  title: l.title,
  description: l.description,
  address: l.address,
  city: l.city,
  state: l.state,
  country: l.country,
  zip: l.zip,
  lat: l.lat,
  lng: l.lng,
  phone: l.phone,
  email: l.email,
  website: l.website,
  imageUrl: l.imageUrl,
  createdAt: l.createdAt,
  updatedAt: l.updatedAt,
  tags: relations.tags.mapWith((value) => json<LocationPayload['tags']>(value)),
  sets: relations.sets.mapWith((value) => json<LocationPayload['sets']>(value)),
  customFields: relations.custom_fields.mapWith((value) => json<Record<string, unknown>>(value)),
};

const selectPayload = (tx: Executor) => tx.select(payloadSelection).from(l);
type PayloadRow = Awaited<ReturnType<typeof selectPayload>>[number];

function toPayload(row: PayloadRow): LocationPayload {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    external_id: row.externalId,
    title: row.title,
    description: row.description,
    address: row.address,
    city: row.city,
    state: row.state,
    country: row.country,
    zip: row.zip,
    lat: row.lat,
    lng: row.lng,
    phone: row.phone,
    email: row.email,
    website: row.website,
    image_url: row.imageUrl,
    tags: row.tags,
    sets: row.sets,
    custom_fields: row.customFields,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface LocationFilter {
  actor: Actor;
  workspaceId?: number;
  /** A finder already checked to be visible to the actor. */
  finder?: { id: number; mapId: number | null };
}

function filterCondition({ actor, workspaceId, finder }: LocationFilter): SQL | undefined {
  return and(
    listedWorkspace(l.workspaceId, actor, workspaceId),
    finder === undefined
      ? undefined
      : sql`${l.id} in (select location_id from (${shownLocations(finder.id, finder.mapId)}) shown)`,
  );
}

/**
 * One location's JSON, fields in the schema's order: the row's own fields as stored in its
 * listed_json columns (locations.listed-json.ts), the rest joined here.
 */
const LOCATION_JSON = sql`${sql.raw(`'{"id":' || l.id || ',"workspace_id":' || l.workspace_id || ',"external_id":' || ${jsonText('l.external_id')}
  || ',' || l.listed_json_head
  || ',"tags":' || coalesce(tl.tags, '[]') || ',"sets":' || coalesce(sl.sets, '[]')
  || ',"custom_fields":' || `)}${listedCustomValues(sql.raw('l.custom_values'), sql.raw('d.names'))}
  || l.listed_json_tail`;

/**
 * A whole batch as texts of 100 locations, rendered by PostgreSQL; every location of the batch
 * is in `definitions`, with the names of its workspace's custom field definitions. Tags and
 * sets are written once each per batch, with their rank in tag and set order
 * (locations.json-fields.ts), so a location's list is joined in the order of an integer rather
 * than sorted by name (a collation compare) row by row.
 *
 * The lists are aggregated from input sorted once (the subqueries' ORDER BY) rather than with
 * string_agg(... order by ...): before PostgreSQL 16 an ordered aggregate sorts each group on
 * its own, a sort per location. PostgreSQL aggregates rows in the order its input gives them
 * (its documentation says a sorted subquery "will usually work", not that it must); the tests
 * compare tag and set orders with the list's unstreamed form (tests/locations-lists.test.ts).
 */
const batchJson = (ids: number[]) => sql`
  with page as (select unnest(${`{${ids.join(',')}}`}::int[]) as id),
  tag_json as (
    select t.id, ${tagJson('t')} as json, row_number() over (order by ${tagOrder('t')}) as rank
    from tags t
    where t.id in (select lt.tag_id from location_tags lt where lt.location_id = any(array(select id from page)))),
  tag_lists as (
    select location_id, '[' || string_agg(json, ',') || ']' as tags
    from (select lt.location_id, tj.json from location_tags lt join tag_json tj on tj.id = lt.tag_id
          where lt.location_id = any(array(select id from page))
          order by lt.location_id, tj.rank) sorted
    group by location_id),
  set_json as (
    select s.id, ${setJson('s')} as json, row_number() over (order by ${setOrder('s')}) as rank
    from sets s
    where s.id in (select ls.set_id from location_sets ls where ls.location_id = any(array(select id from page)))),
  set_lists as (
    select location_id, '[' || string_agg(json, ',') || ']' as sets
    from (select ls.location_id, sj.json from location_sets ls join set_json sj on sj.id = ls.set_id
          where ls.location_id = any(array(select id from page))
          order by ls.location_id, sj.rank) sorted
    group by location_id),
  definitions as (
    select w.workspace_id, ${definitionNames(sql.raw('w.workspace_id'))} as names
    from (select distinct l.workspace_id from locations l where l.id = any(array(select id from page))) w),
  rendered as (
    select l.id, ${LOCATION_JSON} as json
    from locations l
    left join tag_lists tl on tl.location_id = l.id
    left join set_lists sl on sl.location_id = l.id
    left join definitions d on d.workspace_id = l.workspace_id
    where l.id = any(array(select id from page)))
  -- In texts of 100 rows: one text per batch arrives as one message of hundreds of kilobytes,
  -- which the driver assembles from many reads (garbage that lifts a busy service's memory).
  select string_agg(json, ',' order by id) as json
  from (select json, id, (row_number() over (order by id) - 1) / 100 as part from rendered) parts
  group by part order by part`;

export function createLocationsRepository(db: Database) {
  return {
    /**
     * The list read for streaming (lib/pagination.ts streamList): ids from the
     * (workspace_id, id) index alone, then each batch's rows in one statement, with tags and
     * sets aggregated once for the batch rather than per row. The ids are passed as an array
     * (`= any(...)`), which the planner answers with index lookups.
     */
    streamList(filter: LocationFilter, page: Page): Promise<StreamedList> {
      return streamList(
        page,
        {
          ids: async ({ afterId, offset, limit }) => {
            const where = and(filterCondition(filter), afterId === undefined ? undefined : gt(l.id, afterId));
            const window = db
              .select({ id: l.id })
              .from(l)
              .where(where)
              .orderBy(asc(l.id))
              .limit(limit)
              .offset(offset);
            // One text of up to 10,000 ids rather than as many rows for Drizzle to map.
            const [row] = await rawRows(
              db,
              sql`select string_agg(id::text, ',' order by id) from (${window}) w`,
            );
            return idsFromText(row?.[0]);
          },
          rows: async (ids) => {
            if (ids.length === 0) return [];
            // Bytes, not strings: the texts are relayed to the client nearly as they come.
            const parts = await rawRows(db, batchJson(ids));
            return parts.map(([json]) => rewriteMarked(json!));
          },
        },
        () => countWhere(db, l, filterCondition(filter)),
      );
    },

    async list(filter: LocationFilter, page: Page): Promise<{ items: LocationPayload[]; total?: number }> {
      const where = filterCondition(filter);
      const query = selectPayload(db).where(where).orderBy(asc(l.id)).$dynamic();
      const { rows, total } = await fetchPage(query, page, () => countWhere(db, l, where));
      return { items: rows.map(toPayload), total };
    },

    async findPayload(id: number, tx: Executor = db): Promise<LocationPayload | undefined> {
      const [row] = await selectPayload(tx).where(eq(l.id, id));
      return row ? toPayload(row) : undefined;
    },

    /** The row, when the actor may reach it. */
    async findAccessible(actor: Actor, id: number, tx: Executor = db): Promise<LocationRow | undefined> {
      const [row] = await tx
        .select()
        .from(l)
        .where(and(eq(l.id, id), accessibleWorkspace(l.workspaceId, actor)));
      return row;
    },

    async insert(values: NewLocation, tx: Executor = db): Promise<LocationRow> {
      const [row] = await tx.insert(l).values(values).returning();
      return row!;
    },

    async update(id: number, values: Partial<NewLocation>, tx: Executor = db): Promise<void> {
      await tx.update(l).set(values).where(eq(l.id, id));
    },

    /** Its tag, set, map and finder links go with it (cascade). */
    async delete(id: number, tx: Executor = db): Promise<void> {
      await tx.delete(l).where(eq(l.id, id));
    },

    /**
     * Points the row at an image (or at none) and answers the key it pointed at before;
     * undefined when the location is gone. The row lock keeps two uploads from both keeping
     * the same previous key.
     */
    async swapImage(
      id: number,
      image: { url: string; key: string } | null,
      tx?: Executor,
    ): Promise<{ previousKey: string | null } | undefined> {
      const work = async (t: Executor) => {
        const [row] = await t.select({ imageKey: l.imageKey }).from(l).where(eq(l.id, id)).for('update');
        if (!row) return undefined;
        await t
          .update(l)
          .set({ imageUrl: image?.url ?? null, imageKey: image?.key ?? null, updatedAt: new Date() })
          .where(eq(l.id, id));
        return { previousKey: row.imageKey };
      };
      return tx ? work(tx) : db.transaction(work);
    },

    /** Replaces the location's sets. */
    async replaceSets(locationId: number, setIds: number[], tx: Executor = db): Promise<void> {
      await tx.delete(locationSetsTable).where(eq(locationSetsTable.locationId, locationId));
      if (setIds.length > 0) {
        await tx.insert(locationSetsTable).values(setIds.map((setId) => ({ setId, locationId })));
      }
    },

    /** Replaces the location's tags by ids. */
    async replaceTags(locationId: number, tagIds: number[], tx: Executor = db): Promise<void> {
      await tx.delete(locationTagsTable).where(eq(locationTagsTable.locationId, locationId));
      if (tagIds.length > 0) {
        await tx
          .insert(locationTagsTable)
          .values(tagIds.map((tagId) => ({ tagId, locationId })))
          .onConflictDoNothing();
      }
    },

    /** Which of the ids are sets of the workspace. */
    async existingSetIds(workspaceId: number, ids: number[], tx: Executor = db): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await tx
        .select({ id: setsTable.id })
        .from(setsTable)
        .where(and(eq(setsTable.workspaceId, workspaceId), inArray(setsTable.id, ids)));
      return new Set(rows.map((row) => row.id));
    },

    /** Merges values into custom_values; a null value removes its key. */
    async mergeCustomValues(
      locationId: number,
      values: Record<string, unknown>,
      tx: Executor = db,
    ): Promise<void> {
      const set = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
      const removed = Object.keys(values).filter((key) => values[key] === null);
      let merged = sql`${l.customValues} || ${JSON.stringify(set)}::jsonb`;
      if (removed.length > 0) {
        merged = sql`(${merged}) - array[${sql.join(
          removed.map((key) => sql`${key}`),
          sql`, `,
        )}]::text[]`;
      }
      await tx.update(l).set({ customValues: merged }).where(eq(l.id, locationId));
    },

    async definitions(workspaceId: number, tx: Executor = db) {
      return tx
        .select()
        .from(customFieldDefinitionsTable)
        .where(eq(customFieldDefinitionsTable.workspaceId, workspaceId));
    },
  };
}

export type LocationsRepository = ReturnType<typeof createLocationsRepository>;
