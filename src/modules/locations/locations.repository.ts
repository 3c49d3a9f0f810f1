// Queries over locations. Reads build the whole output (tags, sets, custom values) in one
// statement, so a list of any length costs one round trip; what a location's JSON holds is
// locations.json-fields.ts, the single read maps it onto the table's columns and a streamed
// list has PostgreSQL write it as text (locations.listed-json.ts).
import { and, asc, eq, getTableColumns, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { toCamelCase } from 'drizzle-orm/casing';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  type Database,
  type Executor,
  idArray,
  idsFromText,
  rawRows,
  type Transaction,
} from '../../db/client.ts';
import { countWhere } from '../../db/lists.ts';
import type { Actor } from '../../lib/actor.ts';
import { type IdRange, type Page, type StreamedList, streamList } from '../../lib/pagination.ts';
import { customFieldDefinitionsTable } from '../custom-fields/custom-fields.table.ts';
import { setsTable } from '../sets/sets.table.ts';
import { accessibleWorkspace, listedWorkspace } from '../workspaces/workspaces.access.ts';
import {
  definitionNames,
  LIST_RELATIONS,
  LOCATION_FIELDS,
  locationRelations,
  OWN_FIELDS,
  type OwnField,
  setJson,
  setOrder,
  tagJson,
  tagOrder,
} from './json/locations.json-fields.ts';
import { rewriteMarked } from './json/locations.json-walker.ts';
import { listedCustomValues, listedLocationJson } from './json/locations.listed-json.ts';
import { type ListOrder, type LocationSort, listOrder } from './list/locations.list-order.ts';
import { searchCondition } from './list/locations.list-search.ts';
import { locationSetsTable, locationTagsTable } from './locations.relations.table.ts';
import type { LocationPayload } from './locations.schemas.ts';
import { type LocationRow, locationsTable, type NewLocation } from './locations.table.ts';

const l = locationsTable;
const columns = getTableColumns(l) as Record<string, AnyPgColumn>;

/** A column of `locations` by its name, which Drizzle writes snake_case. */
const columnNamed = (name: string): AnyPgColumn => {
  const column = columns[toCamelCase(name)];
  if (!column) throw new Error(`locations has no column ${name}`);
  return column;
};

/** The column of an own field: its key is the column's name. */
const columnOf = (field: OwnField): AnyPgColumn => columnNamed(field.key);

// Drizzle renders columns inside selected fields without their table name, which would bind
// them to the innermost table of a subquery, so the relations' subqueries name the table.
const readRelations = locationRelations('"locations"');

/** The single read's selection: each own field's column, each relation's JSON text. */
const readSelection: Record<string, AnyPgColumn | SQL> = Object.fromEntries([
  ...OWN_FIELDS.map((field) => [field.key, columnOf(field)]),
  ...LIST_RELATIONS.map((key) => [key, readRelations[key].mapWith((text: string) => JSON.parse(text))]),
]);

const selectLocations = (tx: Executor) => tx.select(readSelection).from(l);

/** A row of readSelection as the API writes it, in the API's order (timestamps in ISO 8601). */
function toLocation(row: Record<string, unknown>): LocationPayload {
  const own = (fields: readonly OwnField[]) =>
    fields.map((field) => {
      const value = row[field.key];
      return [field.key, field.type === 'time' ? (value as Date).toISOString() : value];
    });
  return Object.fromEntries([
    ...own(LOCATION_FIELDS.lead),
    ...own(LOCATION_FIELDS.head),
    ...LIST_RELATIONS.map((key) => [key, row[key]]),
    ...own(LOCATION_FIELDS.tail),
  ]) as LocationPayload;
}

export interface LocationFilter {
  actor: Actor;
  workspaceId?: number;
  /** Only these locations: a statement of `location_id` rows, such as those a finder shows. */
  among?: SQL;
  /** Only locations with these ids. */
  ids?: number[];
  /** Only locations with this text in a searched field (list/locations.list-search.ts). */
  q?: string;
  /** Only locations without coordinates (either of lat and lng missing). */
  withoutCoordinates?: boolean;
}

/** The locations a list with this filter holds (and a bulk change's filter selects). */
export function filterCondition({
  actor,
  workspaceId,
  among,
  ids,
  q,
  withoutCoordinates,
}: LocationFilter): SQL | undefined {
  return and(
    listedWorkspace(l.workspaceId, actor, workspaceId),
    withoutCoordinates ? or(isNull(l.lat), isNull(l.lng)) : undefined,
    among === undefined ? undefined : sql`${l.id} in (select location_id from (${among}) among)`,
    ids === undefined ? undefined : inArray(l.id, ids),
    searchCondition(l.searchedText, q),
  );
}

/**
 * The statement of a window of a list: one row of its ids (and, as lib/pagination.ts IdWindow
 * says, the last key and maybe the total; ListOrder.window).
 *
 * Without a search the rows are read in the order of an index until the window is full. With
 * one, every match is found first (the trigram index) and then ordered: the planner cannot know
 * where in an order the matches of a text lie, and reading an order's index until enough of
 * them turn up scans nearly every row when they lie at its end. Having found them all, the first
 * window counts them on the way (`total`), so a page of a search reads its matches once.
 */
function windowStatement(db: Executor, filter: LocationFilter, order: ListOrder, range: IdRange): SQL {
  const where = and(
    filterCondition(filter),
    range.after === undefined ? undefined : order.after(range.after),
  );
  const selected: Record<string, AnyPgColumn | SQL.Aliased> = { id: l.id };
  if (order.key !== undefined) selected.k = order.key.as('k');
  const matching = db.select(selected).from(l).where(where);
  if (searchCondition(l.searchedText, filter.q) === undefined) {
    const rows = matching
      .orderBy(...order.orderBy)
      .limit(range.limit)
      .offset(range.offset);
    return order.window(rows.getSQL(), false);
  }
  // OFFSET 0 keeps PostgreSQL from merging the subquery into the outer query, and with it
  // from reading the order's index.
  const counted = range.after === undefined;
  const matches = counted
    ? sql`select *, count(*) over () as total from (${matching} offset 0) found`
    : sql`${matching} offset 0`;
  return order.window(
    sql`select * from (${matches}) matched
      order by ${order.bySelected} limit ${range.limit} offset ${range.offset}`,
    counted,
  );
}

/**
 * A whole batch as texts of 100 locations in the order of `ids` (the list's), rendered by
 * PostgreSQL (locations.listed-json.ts listedLocationJson); every location of the batch is in
 * `definitions`, with the names of its workspace's custom field definitions. The rows are read
 * by joining the ids (`page`, with their places in the list) to them, which keeps the planner's
 * estimate of a batch at its real size. Tags and sets are written once each per batch, with
 * their rank in tag and set order (locations.json-fields.ts), so a location's list is joined in
 * the order of an integer rather than sorted by name (a collation compare) row by row.
 *
 * The lists are aggregated from input sorted once (the subqueries' ORDER BY) rather than with
 * string_agg(... order by ...): before PostgreSQL 16 an ordered aggregate sorts each group on
 * its own, a sort per location. PostgreSQL aggregates rows in the order its input gives them
 * (its documentation says a sorted subquery "will usually work", not that it must); the tests
 * compare tag and set orders with the list's unstreamed form (tests/locations-lists.test.ts).
 */
const batchJson = (ids: number[]) => sql`
  with page as (select id, n from unnest(${idArray(ids)}) with ordinality as given(id, n)),
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
    select l.id, p.n, ${listedLocationJson('l', {
      tags: sql.raw(`coalesce(tl.tags, '[]')`),
      sets: sql.raw(`coalesce(sl.sets, '[]')`),
      custom_fields: listedCustomValues(sql.raw('l.custom_values'), sql.raw('d.names')),
    })} as json
    from page p join locations l on l.id = p.id
    left join tag_lists tl on tl.location_id = l.id
    left join set_lists sl on sl.location_id = l.id
    left join definitions d on d.workspace_id = l.workspace_id)
  -- In texts of 100 rows: one text per batch arrives as one message of hundreds of kilobytes,
  -- which the driver assembles from many reads (garbage that lifts a busy service's memory).
  select string_agg(json, ',' order by n) as json
  from (select json, n, (row_number() over (order by n) - 1) / 100 as part from rendered) parts
  group by part order by part`;

export function createLocationsRepository(db: Database) {
  /** The single read of each of `ids` that exists, by id. */
  async function findPayloads(ids: readonly number[], tx: Executor = db): Promise<LocationPayload[]> {
    const rows = await selectLocations(tx)
      .where(inArray(l.id, [...ids]))
      .orderBy(asc(l.id));
    return rows.map(toLocation);
  }

  return {
    /**
     * The list read for streaming (lib/pagination.ts streamList): ids from an index alone
     * ((workspace_id, id), or the one of the sort's key), in the list's order by keyset, then
     * each batch's rows in one statement, with tags and sets aggregated once for the batch
     * rather than per row. The ids are passed as an array (`= any(...)`), which the planner
     * answers with index lookups.
     */
    streamList(filter: LocationFilter, sort: LocationSort, page: Page): Promise<StreamedList> {
      const order = listOrder(sort, columnNamed);
      return streamList(
        page,
        {
          ids: async (range) => {
            // One text of up to 10,000 ids rather than as many rows for Drizzle to map.
            const [row] = await rawRows(db, windowStatement(db, filter, order, range));
            const total = row?.[2];
            return {
              ids: idsFromText(row?.[0]),
              lastKey: row?.[1]?.toString(),
              total: total ? Number(total.toString()) : undefined,
            };
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

    async findPayload(id: number, tx: Executor = db): Promise<LocationPayload | undefined> {
      const [found] = await findPayloads([id], tx);
      return found;
    },

    findPayloads,

    /** The row, when the actor may reach it. */
    async findAccessible(actor: Actor, id: number, tx: Executor = db): Promise<LocationRow | undefined> {
      const [row] = await tx
        .select()
        .from(l)
        .where(and(eq(l.id, id), accessibleWorkspace(l.workspaceId, actor)));
      return row;
    },

    /**
     * The row, when the actor may reach it, locked until the transaction ends: a write that
     * judges its values against the row (the opening's rules between fields) reads what no other
     * write can change before it commits.
     */
    async lockAccessible(actor: Actor, id: number, tx: Transaction): Promise<LocationRow | undefined> {
      const [row] = await tx
        .select()
        .from(l)
        .where(and(eq(l.id, id), accessibleWorkspace(l.workspaceId, actor)))
        .for('update', { of: l });
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
