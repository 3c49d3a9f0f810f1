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

interface PayloadRow extends Record<string, unknown> {
  finder_id: number;
  workspace_id: number;
  map_id: number | null;
  token: string;
  authorized_urls: string[];
  location_workspace_ids: number[] | null;
  body: string;
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

const buildStatement = (token: string) => sql`${finderAndLocationIds(token)},
loc as (
  select l.*, ids.pos from locations l join ids on ids.location_id = l.id
),
lt as (
  select lt.location_id, json_agg(t.slug order by t.name, t.id) as slugs
  from location_tags lt join ids on ids.location_id = lt.location_id join tags t on t.id = lt.tag_id
  group by lt.location_id
),
lset as (
  select ls.location_id, json_agg(ls.set_id order by ls.set_id) as set_ids
  from location_sets ls join ids on ids.location_id = ls.location_id
  group by ls.location_id
),
wdefs as (
  select d.workspace_id, array_agg(d.name) as names from custom_field_definitions d
  where d.workspace_id in (select distinct workspace_id from loc)
  group by d.workspace_id
),
docs as (
  select loc.id, loc.pos, json_build_object(
    'address', loc.address,
    'city', loc.city,
    'country', loc.country,
    'custom_fields', coalesce((
      select json_object_agg(kv.key, kv.value order by kv.key)
      from jsonb_each(loc.custom_values) kv
      where kv.key = any(wdefs.names)), '{}'::json),
    'description', loc.description,
    'email', loc.email,
    'id', loc.id,
    'image_url', loc.image_url,
    'lat', loc.lat,
    'lng', loc.lng,
    'phone', loc.phone,
    'sets', coalesce(lset.set_ids, '[]'::json),
    'state', loc.state,
    'tags', coalesce(lt.slugs, '[]'::json),
    'title', loc.title,
    'website', loc.website,
    'zip', loc.zip) as doc
  from loc
  left join lt on lt.location_id = loc.id
  left join lset on lset.location_id = loc.id
  left join wdefs on wdefs.workspace_id = loc.workspace_id
)
select
  f.id as finder_id,
  f.workspace_id,
  f.map_id,
  f.token,
  f.authorized_urls,
  (select array_agg(distinct workspace_id) from loc) as location_workspace_ids,
  json_build_object(
    'advanced_refinements', f.advanced_refinements,
    'custom_fields', coalesce((
      select json_agg(json_build_object('label', d.label, 'name', d.name, 'options', d.options, 'type', d.type)
        order by d.sort_order, d.id)
      from custom_field_definitions d where d.workspace_id = f.workspace_id), '[]'::json),
    'id', f.id,
    'locations', coalesce((select json_agg(docs.doc order by docs.pos nulls last, docs.id) from docs), '[]'::json),
    'name', f.name,
    'sets', coalesce((
      select json_agg(json_build_object('id', s.id, 'name', s.name) order by s.name, s.id)
      from sets s where s.id in (select ls.set_id from location_sets ls join ids on ids.location_id = ls.location_id)),
      '[]'::json),
    'settings', f.settings,
    'tags', coalesce((
      select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by t.name, t.id)
      from tags t where t.id in (select lt.tag_id from location_tags lt join ids on ids.location_id = lt.location_id)),
      '[]'::json),
    'token', f.token)::text as body
from f`;

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
      const [row] = (await tx.execute<PayloadRow>(buildStatement(token))) as unknown as PayloadRow[];
      if (!row) return undefined;
      return {
        finderId: row.finder_id,
        workspaceId: row.workspace_id,
        mapId: row.map_id,
        token: row.token,
        authorizedUrls: row.authorized_urls,
        locationWorkspaceIds: row.location_workspace_ids ?? [],
        json: row.body,
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
