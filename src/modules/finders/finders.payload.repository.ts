// The widget payload of a finder (src/widget/types.ts FinderPayload) and its publish history.
// The whole document is built by PostgreSQL in ONE statement, whatever the number of locations:
// set-based aggregation (no query per location), JSON text straight from the server (Node
// never parses or re-serialises it). Keys are written in alphabetical order at every level the
// builder controls, so the same content always gives the same bytes and the same SHA-1.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type Actor, accessibleWorkspace } from '../workspaces/workspaces.access.ts';
import { finderPublicationsTable, findersTable } from './finders.table.ts';

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
  /** The document, UTF-8 JSON. */
  json: string;
}

interface PartRow extends Record<string, unknown> {
  part: number;
  pos: number | null;
  id: number | null;
  workspace_id: number | null;
  body: string;
}

/** Own locations in their sort_order first, then the others; ties and the rest by id. */
const byPayloadOrder = (a: PartRow, b: PartRow) => {
  if (a.pos !== b.pos) {
    if (a.pos === null) return 1;
    if (b.pos === null) return -1;
    return a.pos - b.pos;
  }
  return a.id! - b.id!;
};

interface FinderPart {
  finder_id: number;
  workspace_id: number;
  map_id: number | null;
  token: string;
  authorized_urls: string[];
  head: Record<string, unknown>;
  tail: Record<string, unknown>;
}

/**
 * Locations (decisions §6): the finder's own (in their sort_order, first), its backing map's
 * direct ones and those of the map's sets, each once; then by id. Tags and sets of the payload
 * are those its locations carry; custom field definitions are the finder's workspace's, in
 * sort_order. A location's custom values are those named by a definition of its own
 * workspace (orphaned values stay hidden, as in the location output).
 */
const finderAndLocationIds = (token: string) => sql`
with f as (
  select id, workspace_id, map_id, name, token, settings, advanced_refinements, authorized_urls
  from finders where token = ${token}
),
ids as (
  select location_id, min(pos) as pos from (
    select fl.location_id, fl.sort_order as pos from finder_locations fl join f on fl.finder_id = f.id
    union all
    select ml.location_id, null from map_locations ml join f on ml.map_id = f.map_id
    union all
    select ls.location_id, null from location_sets ls
      join map_sets ms on ms.set_id = ls.set_id join f on ms.map_id = f.map_id
  ) u group by location_id
)`;

/** What a payload reads from, without building it: the cache's keys before a first build. */
const dependenciesStatement = (token: string) => sql`${finderAndLocationIds(token)}
select f.id as finder_id, f.workspace_id, f.map_id,
  (select array_agg(distinct l.workspace_id) from locations l join ids on ids.location_id = l.id)
    as location_workspace_ids
from f`;

/** Exported for scripts/bench-widget.ts (EXPLAIN). */
export const buildStatement = (token: string) => sql`${finderAndLocationIds(token)},
loc as not materialized (
  select l.*, ids.pos from locations l join ids on ids.location_id = l.id
),
lt as (
  -- "+ 0": the CTE's row count is a guess (200), which would pick one index probe per
  -- location; a hash join over location_tags is several times faster at thousands.
  select lt.location_id, array_agg(t.slug order by t.name, t.id) as slugs, array_agg(t.id) as tag_ids
  from location_tags lt join ids on ids.location_id + 0 = lt.location_id join tags t on t.id = lt.tag_id
  group by lt.location_id
),
lset as (
  select ls.location_id, array_agg(ls.set_id order by ls.set_id) as set_ids
  from location_sets ls join ids on ids.location_id = ls.location_id
  group by ls.location_id
),
wdefs as (
  select d.workspace_id, array_agg(d.name) as names from custom_field_definitions d
  where d.workspace_id in (select distinct workspace_id from loc)
  group by d.workspace_id
),
-- row_to_json of a row whose columns are named in alphabetical order: compact JSON, and far
-- cheaper per row than json_build_object. Custom values named by no definition are removed
-- (usually there are none, and the value goes through as stored).
docs as (
  select loc.id, loc.pos, loc.workspace_id, row_to_json(d) as doc
  from loc
  left join lt on lt.location_id = loc.id
  left join lset on lset.location_id = loc.id
  left join wdefs on wdefs.workspace_id = loc.workspace_id
  cross join lateral (select
    loc.address,
    loc.city,
    loc.country,
    case
      when loc.custom_values - coalesce(wdefs.names, '{}') = '{}'::jsonb then loc.custom_values
      else loc.custom_values - array(select jsonb_object_keys(loc.custom_values - coalesce(wdefs.names, '{}')))
    end as custom_fields,
    loc.description,
    loc.email,
    loc.id,
    loc.image_url,
    loc.lat,
    loc.lng,
    loc.phone,
    coalesce(lset.set_ids, '{}') as sets,
    loc.state,
    coalesce(lt.slugs, '{}') as tags,
    loc.title,
    loc.website,
    loc.zip) d
)
-- One row for the finder, with the document's keys before and after "locations" as two JSON
-- objects, and one row per location with its sort keys. Node orders and joins them: no
-- json_agg of megabytes in one datum, and no sort of wide rows in PostgreSQL's work_mem.
select 0 as part, null::int as pos, null::int as id, null::int as workspace_id, json_build_object(
    'finder_id', f.id,
    'workspace_id', f.workspace_id,
    'map_id', f.map_id,
    'token', f.token,
    'authorized_urls', f.authorized_urls,
    'head', json_build_object(
      'advanced_refinements', f.advanced_refinements,
      'custom_fields', coalesce((
        select json_agg(json_build_object('label', d.label, 'name', d.name, 'options', d.options, 'type', d.type)
          order by d.sort_order, d.id)
        from custom_field_definitions d where d.workspace_id = f.workspace_id), '[]'::json),
      'id', f.id),
    'tail', json_build_object(
      'name', f.name,
      'sets', coalesce((
        select json_agg(json_build_object('id', s.id, 'name', s.name) order by s.name, s.id)
        from sets s where s.id in (select unnest(lset.set_ids) from lset)),
        '[]'::json),
      'settings', f.settings,
      'tags', coalesce((
        select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by t.name, t.id)
        from tags t where t.id in (select unnest(lt.tag_ids) from lt)),
        '[]'::json),
      'token', f.token))::text as body
from f
union all
select 1, docs.pos, docs.id, docs.workspace_id, docs.doc::text from docs`;

export function createFinderPayloadRepository(db: Executor) {
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

    /** The payload of the finder with this token; undefined for an unknown token. One statement. */
    async build(token: string, tx: Executor = db): Promise<BuiltPayload | undefined> {
      const rows = (await tx.execute<PartRow>(buildStatement(token))) as unknown as PartRow[];
      const first = rows.find((row) => row.part === 0);
      if (!first) return undefined;
      const docs = rows.filter((row) => row.part === 1).sort(byPayloadOrder);
      const finder = JSON.parse(first.body) as FinderPart;
      // The head and tail objects are re-serialised compactly, in their (alphabetical) key order.
      const head = JSON.stringify(finder.head).slice(0, -1);
      const tail = JSON.stringify(finder.tail).slice(1);
      const locations = docs.map((row) => row.body).join(',');
      return {
        finderId: finder.finder_id,
        workspaceId: finder.workspace_id,
        mapId: finder.map_id,
        token: finder.token,
        authorizedUrls: finder.authorized_urls,
        locationWorkspaceIds: [...new Set(docs.map((row) => row.workspace_id!))],
        json: `${head},"locations":[${locations}],${tail}`,
      };
    },

    /** The finder with this token, when the actor may reach it. */
    async findAccessibleByToken(
      actor: Actor,
      token: string,
      tx: Executor = db,
    ): Promise<{ id: number; token: string } | undefined> {
      const [row] = await tx
        .select({ id: findersTable.id, token: findersTable.token })
        .from(findersTable)
        .where(and(eq(findersTable.token, token), accessibleWorkspace(findersTable.workspaceId, actor)));
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
