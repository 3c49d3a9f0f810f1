// The widget payload of a finder (src/widget/types.ts FinderPayload) and its publish history.
// The document is built by PostgreSQL in a few set-based statements, whatever the number of
// locations (no query per location): the finder, its location ids in payload order, the
// location documents as JSON text straight from the server, a thousand joined in a row (read
// as bytes and sent on as they came: Node never parses nor decodes them, and postgres.js reads
// a few large rows instead of one per location), then the payload's tags and sets. All of
// them read one snapshot (a repeatable-read transaction); from PARALLEL_MIN_LOCATIONS
// locations the documents of the two halves of the list are built at once on two connections
// sharing that snapshot, one server process each.
// Keys are written in a fixed order, so the same content always gives the same bytes and the
// same SHA-1: alphabetical in the document, its finder and its tags and sets; a location's as
// locations.json-fields.ts lists the payload's fields (its own in the order of the API's
// lists, then its relations), which lets the build join the text PostgreSQL keeps for lists.
import { and, desc, eq, sql } from 'drizzle-orm';
import {
  type Database,
  type Executor,
  idsFromText,
  rawRows,
  rowsOn,
  type SqlClient,
} from '../../../db/client.ts';
import type { Actor } from '../../../lib/actor.ts';
import { definitionOrder } from '../../custom-fields/custom-fields.table.ts';
import {
  definitionNames,
  payloadSets,
  payloadTags,
  setsJson,
  shownCustomValues,
  tagsJson,
} from '../../locations/json/locations.json-fields.ts';
import { payloadLocationJson } from '../../locations/json/locations.listed-json.ts';
import { accessibleWorkspace } from '../../workspaces/workspaces.access.ts';
import { shownLocations } from '../finders.shown-locations.ts';
import { finderPublicationsTable, findersTable } from '../finders.table.ts';
import { type PlacedLocation, publishAreas } from './chunked/chunked.areas.ts';
import {
  type ChunkedPublish,
  chunkedFiles,
  type PayloadFrame,
  type PublishedIndex,
} from './chunked/chunked.files.ts';

export interface PayloadDependencies {
  finderId: number;
  workspaceId: number;
  mapId: number | null;
  /** Workspaces of the listed locations (a map may reach into several): the cache's keys. */
  locationWorkspaceIds: number[];
}

export interface BuiltPayload extends PayloadDependencies {
  token: string;
  authorizedUrls: string[];
  /** The document, UTF-8 JSON bytes (the location documents as PostgreSQL sent them). */
  json: Buffer;
}

/** Locations per row of a slice's answer: postgres.js parses a few large rows, not one per location. */
const CHUNK_SIZE = 1000;
/** From this many locations, two connections build the two halves of the list at once. */
const PARALLEL_MIN_LOCATIONS = 2000;
/**
 * Builds that may hold two pool connections at once. A build holding one connection waits for
 * a second: were every connection of the pool held that way, none would come free. So fewer
 * than the pool's size (none with a pool of one); builds over the number run on one connection.
 */
const MAX_PARALLEL_BUILDS = 2;
/**
 * Settings of the build's own transactions, as the items of a select list. The sorts and
 * hashes of a 100,000-location build need tens of megabytes; at the default 4 MB work_mem they
 * spill to disk. The slice's cost estimate (index lookups per location) is past jit_above_cost
 * from a few thousand locations, and compiling its expressions took a quarter of the
 * statement's time. The location ids statement names the finder and its map by parameter, and
 * its plan depends on how many rows they have (an index for one finder of many, a scan for
 * most of the table): a prepared statement is planned for its values each time, never with a
 * generic plan that guesses them.
 */
const BUILD_SETTING_ITEMS = sql.raw(
  "set_config('work_mem', '64MB', true), set_config('jit', 'off', true), set_config('plan_cache_mode', 'force_custom_plan', true)",
);
export const BUILD_SETTINGS = sql`select ${BUILD_SETTING_ITEMS}`;
const SNAPSHOT_ID = /^[0-9A-F]+-[0-9A-F]+-[0-9]+$/i;

interface FinderPart {
  finder_id: number;
  workspace_id: number;
  map_id: number | null;
  token: string;
  advanced_refinements: unknown;
  authorized_urls: string[];
  /** The definitions of the finder's workspace, as the document lists them. */
  custom_fields: unknown;
  name: string;
  settings: unknown;
}

interface LocationIdsRow extends Record<string, unknown> {
  /** The ids of the payload's locations, comma-separated, in no order; null when none. */
  location_ids: string | null;
  /** Each one's place in the finder's own list (its sort_order), or empty when it is not one of them. */
  places: string | null;
}

interface Slice {
  /** The slice's location documents in payload order, a thousand (or a group) joined by commas in each chunk. */
  chunks: { chunk: number; body: Buffer }[];
  workspaceIds: number[];
  tagIds: number[];
  setIds: number[];
}

/** What a payload reads from, without building it: the cache's keys before a first build. */
const dependenciesStatement = (token: string) => sql`
with f as (select id, workspace_id, map_id from finders where token = ${token}),
ids as (${shownLocations(sql`(select id from f)`, sql`(select map_id from f)`)})
select f.id as finder_id, f.workspace_id, f.map_id,
  (select array_agg(distinct l.workspace_id) from locations l join ids on ids.location_id = l.id)
    as location_workspace_ids
from f`;

/**
 * The build's first statement: its settings and the finder, with the document's parts that
 * are not locations, tags or sets. No row for an unknown token.
 */
const openStatement = (token: string) => sql`
select ${BUILD_SETTING_ITEMS},
  json_build_object(
    'finder_id', f.id,
    'workspace_id', f.workspace_id,
    'map_id', f.map_id,
    'token', f.token,
    'advanced_refinements', f.advanced_refinements,
    'authorized_urls', f.authorized_urls,
    'custom_fields', coalesce((
      select json_agg(json_build_object('label', d.label, 'name', d.name, 'options', d.options, 'type', d.type)
        order by ${definitionOrder('d')})
      from custom_field_definitions d where d.workspace_id = f.workspace_id), '[]'::json),
    'name', f.name,
    'settings', f.settings)::text as meta
from finders f where f.token = ${token}`;

/**
 * The finder's location ids with their places in its own list, in no order (payloadOrder puts
 * them in the payload's: a chunked publish needs none, and ordering 100,000 here took as long
 * as reading them). A statement of its own, after the finder's, so that the planner knows
 * which finder and map it reads (the primary keys' ranges of one finder, where a join on the
 * finder's row would scan every finder's locations). Both lists aggregate the same rows in the
 * same order. Exported for scripts/bench-widget.ts (EXPLAIN).
 */
export const locationIdsStatement = (finderId: number, mapId: number | null) => sql`
select string_agg(location_id::text, ',') as location_ids, string_agg(coalesce(pos::text, ''), ',') as places
from (${shownLocations(finderId, mapId)}) ids`;

/**
 * Ids (as locationIdsStatement lists them, with their places) in payload order: the finder's
 * own locations by place, then the others; ties and the rest by id.
 */
export function payloadOrder(ids: readonly string[], places: readonly string[]): string[] {
  const place = Float64Array.from(places, (text) => (text === '' ? Number.POSITIVE_INFINITY : Number(text)));
  const id = Float64Array.from(ids, Number);
  const order = Array.from(ids, (_, i) => i);
  // Infinity - Infinity is NaN: two of the others fall through to their ids.
  order.sort((a, b) => place[a]! - place[b]! || id[a]! - id[b]!);
  return order.map((i) => ids[i]!);
}

/**
 * The documents of some locations (ids comma-separated, in payload order), CHUNK_SIZE to a row
 * joined by commas in that order, each row with the workspaces of its locations; and one last
 * row with the ids of the tags and sets they carry (each list of ids as text, comma-separated:
 * the rows are read as bytes). With `groups` (a number per id, comma-separated, each group's ids
 * together), a row per group instead: a chunked publish's areas. Exported for scripts/bench-widget.ts.
 */
export const sliceStatement = (locationIds: string, finderWorkspaceId: number, groups?: string) => sql`
-- The planner knows how many ids there are, and at thousands it would pick hash joins over
-- whole tables (every workspace's locations, tags and sets). Correlated subqueries and a
-- lateral subquery it may not flatten ("offset 0") keep the reads to index lookups of these
-- locations, whatever the size of the tables.
with ord as (
  select u.location_id, u.rn, ${groups === undefined ? sql.raw(`((u.rn - 1) / ${CHUNK_SIZE})::int`) : sql.raw('u.grp')} as grp
  from unnest(string_to_array(${locationIds}, ',')::int[], ${groups === undefined ? sql`null::int[]` : sql`string_to_array(${groups}, ',')::int[]`})
    with ordinality as u(location_id, grp, rn)
),
-- Each location's tag and set ids as stored (index order, no sort).
memberships as (
  select ord.rn, ord.grp, ord.location_id,
    array(select lt.tag_id from location_tags lt where lt.location_id = ord.location_id) as tag_ids,
    array(select ls.set_id from location_sets ls where ls.location_id = ord.location_id) as set_ids
  from ord offset 0
),
-- Of these locations, those a calendar names, and of their sets, those that bring one: read
-- for these ids and sets only, so that other workspaces' calendars cost nothing here.
named_locations as materialized (
  select distinct hcl.location_id from holiday_calendar_locations hcl
  where hcl.location_id = any(array(select location_id from ord))
),
calendar_sets as materialized (
  select coalesce(array_agg(distinct hcs.set_id), '{}') as set_ids from holiday_calendar_sets hcs
  where hcs.set_id = any(array(select distinct unnest(m.set_ids) from memberships m))
),
-- And its holiday calendars, directly and through its sets, in calendar order (the first wins a
-- date). Looked up only for a location that has one: the lookup per location was a third of
-- the statement's time where, as in most workspaces, none has.
ids as materialized (
  select m.*,
    case when m.location_id in (select location_id from named_locations)
        or m.set_ids && cs.set_ids then
      array(select hcl.calendar_id from holiday_calendar_locations hcl where hcl.location_id = m.location_id
        union
        select hcs.calendar_id from holiday_calendar_sets hcs where hcs.set_id = any(m.set_ids)
        order by 1)
    else '{}' end as calendar_ids
  from memberships m cross join calendar_sets cs
),
-- The special days' window: from two days before today in UTC (a status reads a location's
-- previous local day, which in a zone far west of UTC in its evening is two UTC days back)
-- for 400 days.
special_window as materialized (
  select (now() at time zone 'UTC')::date - 2 as first, (now() at time zone 'UTC')::date + 400 as last
),
-- Calendars, like tags and sets, come in a few combinations, each expanded once.
calendar_combos as materialized (
  select c.calendar_ids, case when cardinality(c.calendar_ids) = 0 then '[]'
    else lf_special_days(null, c.calendar_ids, w.first, w.last) end as days
  from (select distinct calendar_ids from ids) c cross join special_window w
),
-- A location's own special hours are merged with its calendars' days (lf_special_days, about
-- 60 µs a call): a chain's stores share theirs, so each combination is expanded once, like the
-- calendars' above. Most locations have none, and their lookup finds nothing.
own_combos as materialized (
  select c.own, c.calendar_ids, lf_special_days(c.own::json, c.calendar_ids, w.first, w.last) as days
  from (select distinct l.own, ids.calendar_ids from ids
    cross join lateral (select l.special_hours::text as own from locations l
      where l.id = ids.location_id and l.special_hours is not null offset 0) l) c
  cross join special_window w
),
-- Locations share a few combinations of tags and of sets: each distinct combination is put in
-- the document's order (locations.json-fields.ts payloadTags, payloadSets) and written as JSON
-- once here, not once per location, which was half of the statement's time. Materialized so
-- that it stays once.
tag_combos as materialized (
  select c.tag_ids, ${payloadTags(sql.raw('c.tag_ids'))} as tags
  from (select distinct tag_ids from ids) c
),
set_combos as materialized (
  select c.set_ids, ${payloadSets(sql.raw('c.set_ids'))} as sets
  from (select distinct set_ids from ids) c
),
-- Definitions of the finder's workspace, read once (materialized: a row joined once, not a
-- subquery the planner copies into each use of the names below); a location of another
-- workspace (through a map) reads its own workspace's in the subquery below.
fdefs as materialized (select ${definitionNames(sql`${finderWorkspaceId}::int`)} as names),
-- A location's document (locations.listed-json.ts payloadLocationJson): its stored fields as
-- PostgreSQL keeps them for lists, without the marks lists use, then the custom values its
-- workspace's definitions name, its sets and its tags. Joining stored text costs a third less
-- than rendering every field per build.
docs as (
  select ids.rn, ids.grp, loc.workspace_id,
    ${payloadLocationJson('loc', {
      custom_fields: sql`${shownCustomValues(sql.raw('loc.custom_values'), sql.raw('w.names'))}::text`,
      sets: sql.raw('sc.sets'),
      // A location's own special hours merged with its calendars' days (own_combos); most have none.
      special_days: sql.raw('case when loc.special_hours is null then cc.days else oc.days end'),
      tags: sql.raw('tc.tags'),
    })} as doc
  from ids
  join tag_combos tc on tc.tag_ids = ids.tag_ids
  join set_combos sc on sc.set_ids = ids.set_ids
  join calendar_combos cc on cc.calendar_ids = ids.calendar_ids
  cross join lateral (select l.id, l.workspace_id, l.custom_values, l.special_hours, l.listed_json_head
    from locations l where l.id = ids.location_id offset 0) loc
  left join own_combos oc on oc.own = loc.special_hours::text and oc.calendar_ids = ids.calendar_ids
  cross join fdefs
  cross join lateral (select case when loc.workspace_id = ${finderWorkspaceId} then fdefs.names
    else ${definitionNames(sql.raw('loc.workspace_id'))} end as names) w
)
select grp as chunk, string_agg(doc, ',' order by rn) as body,
  array_to_string(array_agg(distinct workspace_id), ',') as workspace_ids, null as tag_ids, null as set_ids
from docs group by 1
union all
select null, null, null,
  (select string_agg(distinct x::text, ',') from tag_combos, unnest(tag_combos.tag_ids) x),
  (select string_agg(distinct x::text, ',') from set_combos, unnest(set_combos.set_ids) x)`;

/** The tags and sets of the payload (after "locations"), as a location's are written. */
const tailStatement = (tagIds: number[], setIds: number[]) => sql`
select '{"sets":' || ${setsJson(sql`from sets s where s.id = any(string_to_array(${setIds.join(',')}, ',')::int[])`)}
  || ',"tags":' || ${tagsJson(sql`from tags t where t.id = any(string_to_array(${tagIds.join(',')}, ',')::int[])`)}
  || '}' as body`;

/** postgres.js's BEGIN for the build's transactions: one snapshot for every statement, no writes. */
const READ_ONLY_SNAPSHOT = 'isolation level repeatable read read only';

const COMMA = Buffer.from(',');

/**
 * The document around its locations: every top-level key of the payload is written here, in
 * alphabetical order, compactly (src/widget/types.ts FinderPayload; docs/api.md, Widget
 * payload). `before` ends with the opening of the locations' array, `after` closes it.
 */
function documentFrame(finder: FinderPart, lists: { sets: unknown; tags: unknown }) {
  const before = JSON.stringify({
    advanced_refinements: finder.advanced_refinements,
    authorized_urls: finder.authorized_urls,
    custom_fields: finder.custom_fields,
    id: finder.finder_id,
  });
  const after = JSON.stringify({
    name: finder.name,
    sets: lists.sets,
    settings: finder.settings,
    tags: lists.tags,
    token: finder.token,
  });
  return { before: `${before.slice(0, -1)},"locations":[`, after: `],${after.slice(1)}` };
}

/**
 * One slice's documents, read as bytes: the service sends them on as they came (to the cache's
 * compression or to storage), never decoding megabytes into strings to encode them again.
 */
async function readSlice(
  tx: SqlClient,
  locationIds: string[],
  finderWorkspaceId: number,
  groups?: number[],
): Promise<Slice> {
  if (locationIds.length === 0) return { chunks: [], workspaceIds: [], tagIds: [], setIds: [] };
  // Columns: chunk, body, workspace_ids, tag_ids, set_ids (see sliceStatement).
  const rows = await rawRows(tx, sliceStatement(locationIds.join(','), finderWorkspaceId, groups?.join(',')));
  const chunks = rows
    .filter((row) => row[0] !== null)
    .map((row) => ({ chunk: Number(row[0]!.toString('latin1')), body: row[1]!, workspaceIds: row[2] }))
    .sort((a, b) => a.chunk - b.chunk);
  const ids = rows.find((row) => row[0] === null);
  return {
    chunks: chunks.map(({ chunk, body }) => ({ chunk, body })),
    workspaceIds: chunks.flatMap((chunk) => idsFromText(chunk.workspaceIds)),
    tagIds: idsFromText(ids?.[3]),
    setIds: idsFromText(ids?.[4]),
  };
}

/**
 * The positions of `ids` (a chunked publish cuts its areas by them): one row of three
 * comma-separated lists, where a row per location cost postgres.js a tenth of a publish at
 * 100,000 locations.
 */
async function readPositions(
  tx: SqlClient,
  ids: string[],
): Promise<{ placed: PlacedLocation[]; unplaced: number[] }> {
  const [row] = await rowsOn<{ ids: string | null; lats: string | null; lngs: string | null }>(
    tx,
    sql`select string_agg(id::text, ',') as ids, string_agg(coalesce(lat::text, ''), ',') as lats,
      string_agg(coalesce(lng::text, ''), ',') as lngs
    from locations where id = any(string_to_array(${ids.join(',')}, ',')::int[])`,
  );
  const placed: PlacedLocation[] = [];
  const unplaced: number[] = [];
  if (!row?.ids) return { placed, unplaced };
  const lats = row.lats!.split(',');
  const lngs = row.lngs!.split(',');
  row.ids.split(',').forEach((text, i) => {
    const id = Number(text);
    if (lats[i] === '' || lngs[i] === '') unplaced.push(id);
    else placed.push({ id, lat: Number(lats[i]), lng: Number(lngs[i]) });
  });
  return { placed, unplaced };
}

/** The payload's tags and sets: those the slices' locations carry. */
async function tailLists(tx: SqlClient, slices: Slice[]): Promise<{ sets: unknown; tags: unknown }> {
  const tagIds = [...new Set(slices.flatMap((slice) => slice.tagIds))];
  const setIds = [...new Set(slices.flatMap((slice) => slice.setIds))];
  const [tailRow] = await rowsOn<{ body: string }>(tx, tailStatement(tagIds, setIds));
  return JSON.parse(tailRow!.body) as { sets: unknown; tags: unknown };
}

function builtParts(
  finder: FinderPart,
  slices: Slice[],
): PayloadDependencies & { token: string; authorizedUrls: string[] } {
  return {
    finderId: finder.finder_id,
    workspaceId: finder.workspace_id,
    mapId: finder.map_id,
    token: finder.token,
    authorizedUrls: finder.authorized_urls,
    locationWorkspaceIds: [...new Set(slices.flatMap((slice) => slice.workspaceIds))],
  };
}

/** What a publish writes (buildForPublish). */
export type PublishedBuild =
  | ({ kind: 'single' } & BuiltPayload)
  | ({ kind: 'chunked' } & PayloadDependencies & {
        token: string;
        authorizedUrls: string[];
      } & ChunkedPublish);

export function createFinderPayloadRepository(db: Database) {
  // The pool's size bounds the builds that may use two connections.
  const poolSize = db.$client.options.max;
  const maxParallelBuilds = Math.max(0, Math.min(MAX_PARALLEL_BUILDS, poolSize - 1));
  /** Builds holding two connections now. */
  let parallelBuilds = 0;

  /**
   * Runs `build` on the finder of `token`, every read of one snapshot (a repeatable-read
   * transaction); undefined for an unknown token.
   */
  function withSnapshot<T>(
    token: string,
    build: (tx: SqlClient, finder: FinderPart) => Promise<T | undefined>,
  ): Promise<T | undefined> {
    // postgres.js's own transactions rather than Drizzle's: the slices are read as bytes.
    return db.$client.begin(READ_ONLY_SNAPSHOT, async (tx) => {
      const [open] = await rowsOn<{ meta: string }>(tx, openStatement(token));
      if (!open) return undefined;
      return build(tx, JSON.parse(open.meta) as FinderPart);
    }) as Promise<T | undefined>;
  }

  /**
   * The documents of `ids`, in their order, a thousand to a chunk or, with `groups` (a number
   * per id, each group's ids together), a chunk per group. From PARALLEL_MIN_LOCATIONS on, the
   * two halves (cut between groups) are read at once on this connection and a second one that
   * imports this transaction's snapshot: the document reads one state of the database.
   */
  async function readDocuments(
    tx: SqlClient,
    finder: FinderPart,
    ids: string[],
    groups?: number[],
  ): Promise<Slice[]> {
    if (ids.length < PARALLEL_MIN_LOCATIONS || parallelBuilds >= maxParallelBuilds) {
      return [await readSlice(tx, ids, finder.workspace_id, groups)];
    }
    parallelBuilds++;
    try {
      const [row] = await rowsOn<{ id: string }>(tx, sql`select pg_export_snapshot() as id`);
      const snapshot = row!.id;
      if (!SNAPSHOT_ID.test(snapshot)) throw new Error(`unexpected snapshot id ${snapshot}`);
      let half = Math.ceil(ids.length / 2);
      while (groups && half < ids.length && groups[half] === groups[half - 1]) half++;
      return await Promise.all([
        readSlice(tx, ids.slice(0, half), finder.workspace_id, groups?.slice(0, half)),
        db.$client.begin(READ_ONLY_SNAPSHOT, async (second) => {
          await second.unsafe(`set transaction snapshot '${snapshot}'`);
          await rowsOn(second, BUILD_SETTINGS);
          return readSlice(second, ids.slice(half), finder.workspace_id, groups?.slice(half));
        }),
      ]);
    } finally {
      parallelBuilds--;
    }
  }

  /** The finder's location ids with their places in its own list, in no order (payloadOrder). */
  async function shownIds(tx: SqlClient, finder: FinderPart): Promise<{ ids: string[]; places: string[] }> {
    const [listed] = await rowsOn<LocationIdsRow>(tx, locationIdsStatement(finder.finder_id, finder.map_id));
    if (!listed?.location_ids) return { ids: [], places: [] };
    return { ids: listed.location_ids.split(','), places: listed.places!.split(',') };
  }

  /** The finder's location ids in payload order. */
  async function payloadIds(tx: SqlClient, finder: FinderPart): Promise<string[]> {
    const { ids, places } = await shownIds(tx, finder);
    return payloadOrder(ids, places);
  }

  /** The single payload document of the locations of `ids`. */
  async function singleBuild(tx: SqlClient, finder: FinderPart, ids: string[]): Promise<BuiltPayload> {
    const slices = await readDocuments(tx, finder, ids);
    const frame = documentFrame(finder, await tailLists(tx, slices));
    // Every chunk of every slice, in payload order, commas between them.
    const locations = slices
      .flatMap((slice) => slice.chunks.map((chunk) => chunk.body))
      .flatMap((chunk, i) => (i === 0 ? [chunk] : [COMMA, chunk]));
    return {
      ...builtParts(finder, slices),
      json: Buffer.concat([Buffer.from(frame.before), ...locations, Buffer.from(frame.after)]),
    };
  }

  return {
    /** What the finder's payload reads from; undefined for an unknown token. One statement. */
    async dependencies(token: string, tx: Executor = db): Promise<PayloadDependencies | undefined> {
      const rows = (await tx.execute(dependenciesStatement(token))) as unknown as Array<{
        finder_id: number;
        workspace_id: number;
        map_id: number | null;
        location_workspace_ids: number[] | null;
      }>;
      const row = rows[0];
      if (!row) return undefined;
      return {
        finderId: row.finder_id,
        workspaceId: row.workspace_id,
        mapId: row.map_id,
        locationWorkspaceIds: row.location_workspace_ids ?? [],
      };
    },

    /**
     * The payload of the finder with this token; undefined for an unknown token. All reads see
     * one snapshot (a repeatable-read transaction, shared with the second connection through
     * an exported snapshot), so the document is as consistent as one statement's.
     */
    async build(token: string): Promise<BuiltPayload | undefined> {
      return withSnapshot(token, async (tx, finder) => singleBuild(tx, finder, await payloadIds(tx, finder)));
    },

    /**
     * What a publish writes: the single payload (as build), or from `chunkedFrom` locations on
     * (null: never) the files of a chunked publish (chunked/chunked.files.ts), the locations
     * split into areas (chunked/chunked.areas.ts), taking what it can from the index
     * `published` reads (asked for by a chunked build only). Undefined for an unknown token.
     */
    async buildForPublish(
      token: string,
      chunkedFrom: number | null,
      published?: () => Promise<PublishedIndex | undefined>,
    ): Promise<PublishedBuild | undefined> {
      return withSnapshot(token, async (tx, finder) => {
        // A chunked build orders its locations by area: the payload's order only for a single file.
        const { ids, places } = await shownIds(tx, finder);
        if (chunkedFrom === null || ids.length < chunkedFrom) {
          return { kind: 'single', ...(await singleBuild(tx, finder, payloadOrder(ids, places))) };
        }
        const { placed, unplaced } = await readPositions(tx, ids);
        const areas = publishAreas(placed, unplaced);
        // The published index is read from storage while the documents are built; a failure
        // (handled here so that it is not unhandled meanwhile) fails the build where it is awaited.
        const previous = published?.();
        previous?.catch(() => {});
        const areaIds = areas.flatMap((area) => area.ids.map(String));
        const groups = areas.flatMap((area, group) => area.ids.map(() => group));
        const slices = await readDocuments(tx, finder, areaIds, groups);
        const lists = await tailLists(tx, slices);
        const bodies = new Map(
          slices.flatMap((slice) => slice.chunks.map(({ chunk, body }) => [chunk, body])),
        );
        const files = chunkedFiles(
          {
            advanced_refinements: finder.advanced_refinements as PayloadFrame['advanced_refinements'],
            authorized_urls: finder.authorized_urls,
            custom_fields: finder.custom_fields,
            id: finder.finder_id,
            name: finder.name,
            sets: lists.sets as PayloadFrame['sets'],
            settings: finder.settings,
            tags: lists.tags as PayloadFrame['tags'],
            token: finder.token,
          },
          areas.map((area, group) => ({
            documents: bodies.get(group)!,
            bounds: area.bounds,
            radiusKm: area.radiusKm,
          })),
          await previous,
        );
        return { kind: 'chunked', ...builtParts(finder, slices), ...files };
      });
    },

    /**
     * The finder of a token the actor may publish. With `lock`, its row is locked for the
     * transaction `tx`: the row is the lock of the finder's published files (see publish).
     */
    async findAccessibleByToken(
      actor: Actor,
      token: string,
      { lock = false }: { lock?: boolean } = {},
      tx: Executor = db,
    ): Promise<{ id: number; token: string } | undefined> {
      const query = tx
        .select({ id: findersTable.id, token: findersTable.token })
        .from(findersTable)
        .where(and(eq(findersTable.token, token), accessibleWorkspace(findersTable.workspaceId, actor)));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    async recordPublication(
      values: { finderId: number; hash: string; objectKey: string; url: string; publishedAt: Date },
      tx: Executor = db,
    ): Promise<void> {
      await tx.insert(finderPublicationsTable).values(values);
    },

    async latestPublication(
      finderId: number,
      tx: Executor = db,
    ): Promise<{ hash: string; publishedAt: Date } | undefined> {
      const [row] = await tx
        .select({ hash: finderPublicationsTable.hash, publishedAt: finderPublicationsTable.publishedAt })
        .from(finderPublicationsTable)
        .where(eq(finderPublicationsTable.finderId, finderId))
        .orderBy(desc(finderPublicationsTable.publishedAt), desc(finderPublicationsTable.id))
        .limit(1);
      return row;
    },

    async deletePublications(finderId: number, tx: Executor = db): Promise<void> {
      await tx.delete(finderPublicationsTable).where(eq(finderPublicationsTable.finderId, finderId));
    },
  };
}

export type FinderPayloadRepository = ReturnType<typeof createFinderPayloadRepository>;
