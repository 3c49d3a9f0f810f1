// The widget payload of a finder (src/widget/types.ts FinderPayload) and its publish history.
// The document is built from two set-based statements, whatever the number of locations (no
// query per location), sent together: the finder with the tags and sets its locations carry,
// and the locations' plain columns with their tag and set ids. Node writes the JSON text with
// every object's keys in alphabetical order, so the same content always gives the same bytes
// and the same SHA-1 (no generic sort, no parse and re-serialise of the big part).
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
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

interface FinderRow extends Record<string, unknown> {
  id: number;
  workspace_id: number;
  map_id: number | null;
  name: string;
  token: string;
  authorized_urls: string[];
  /** JSON text of the document's `settings`, `advanced_refinements` and `custom_fields`. */
  settings: string;
  advanced_refinements: string;
  custom_fields: string;
  /** JSON text: the tags `{id, name, slug}` and sets `{id, name}` the locations carry, by name, id. */
  tags: string;
  sets: string;
}

/**
 * The finder, its workspace's custom field definitions `{label, name, options, type}`, and the
 * tags and sets its locations carry, ordered by the server (its collation decides).
 */
export const finderStatement = (token: string) => sql`${finderAndLocationIds(token)}
select f.id, f.workspace_id, f.map_id, f.name, f.token, f.authorized_urls,
  f.settings::text as settings, f.advanced_refinements::text as advanced_refinements,
  coalesce((
    select json_agg(json_build_object('label', d.label, 'name', d.name, 'options', d.options, 'type', d.type)
      order by d.sort_order, d.id)
    from custom_field_definitions d where d.workspace_id = f.workspace_id), '[]'::json)::text as custom_fields,
  coalesce((
    select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by t.name, t.id)
    from tags t where t.id in (
      select lt.tag_id from location_tags lt join ids on ids.location_id = lt.location_id)),
    '[]'::json)::text as tags,
  coalesce((
    select json_agg(json_build_object('id', s.id, 'name', s.name) order by s.name, s.id)
    from sets s where s.id in (
      select ls.set_id from location_sets ls join ids on ids.location_id = ls.location_id)),
    '[]'::json)::text as sets
from f`;

interface LocationRow extends Record<string, unknown> {
  id: number;
  pos: number | null;
  workspace_id: number;
  address: string | null;
  city: string | null;
  country: string | null;
  /** jsonb text as PostgreSQL writes it (kept byte for byte). */
  custom_fields: string;
  description: string | null;
  email: string | null;
  image_url: string | null;
  /** float8 text as PostgreSQL writes it (shortest exact form, e.g. `5e-05`). */
  lat: string | null;
  lng: string | null;
  phone: string | null;
  state: string | null;
  title: string | null;
  website: string | null;
  zip: string | null;
  /** Comma-separated ids of the location's tags and sets, or null for none. */
  tag_ids: string | null;
  set_ids: string | null;
}

/** Exported for scripts/bench-widget.ts (EXPLAIN). */
export const locationsStatement = (token: string) => sql`${finderAndLocationIds(token)},
loc as materialized (
  select l.id, ids.pos, l.workspace_id, l.address, l.city, l.country, l.custom_values, l.description,
    l.email, l.image_url, l.lat, l.lng, l.phone, l.state, l.title, l.website, l.zip
  from ids join locations l on l.id = ids.location_id
),
wdefs as (
  select d.workspace_id, array_agg(d.name) as names from custom_field_definitions d
  where d.workspace_id in (select distinct workspace_id from loc)
  group by d.workspace_id
)
-- Custom values named by no definition are removed (usually there are none, and the value
-- goes through as stored).
select loc.id, loc.pos, loc.workspace_id, loc.address, loc.city, loc.country,
  case
    when loc.custom_values - coalesce(wdefs.names, '{}') = '{}'::jsonb then loc.custom_values
    else loc.custom_values - array(select jsonb_object_keys(loc.custom_values - coalesce(wdefs.names, '{}')))
  end::text as custom_fields,
  loc.description, loc.email, loc.image_url, loc.lat::text as lat, loc.lng::text as lng, loc.phone,
  loc.state, loc.title, loc.website, loc.zip,
  (select string_agg(lt.tag_id::text, ',') from location_tags lt where lt.location_id = loc.id) as tag_ids,
  (select string_agg(ls.set_id::text, ',') from location_sets ls where ls.location_id = loc.id) as set_ids
from loc left join wdefs on wdefs.workspace_id = loc.workspace_id`;

/** Own locations in their sort_order first, then the others; ties and the rest by id. */
const byPayloadOrder = (a: LocationRow, b: LocationRow) => {
  if (a.pos !== b.pos) {
    if (a.pos === null) return 1;
    if (b.pos === null) return -1;
    return a.pos - b.pos;
  }
  return a.id - b.id;
};

const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));

/**
 * Whether JSON.stringify writes this float8 text's number as PostgreSQL wrote it: plain
 * decimals between 1e-4 and 1e15 (both write the shortest exact digits). Not: exponents
 * (`5e-05`), `-0`, NaN and the infinities, which row_to_json wrote as strings.
 */
const plainFloat = (value: string) =>
  value !== '-0' && !value.includes('e') && !value.includes('N') && !value.includes('I');

/** A float8's text as row_to_json writes it: a JSON number, or a string for NaN and infinities. */
const float = (value: string | null) => {
  if (value === null) return 'null';
  return value === 'NaN' || value.endsWith('Infinity') ? JSON.stringify(value) : value;
};

/** JSON text of a jsonb value, compact (PostgreSQL writes `{"a": 1}`), through JSON.parse. */
const compact = (value: string | null) => (value === null ? 'null' : JSON.stringify(JSON.parse(value)));

/** Stands for a location's custom values in the serialised list, until the stored text replaces it. */
const CUSTOM_MARK = '"custom_fields":0';
/** Stands for coordinates JSON.stringify would write differently (see plainFloat). */
const COORDINATES_MARK = '"lat":0,"lng":0,';
const NO_IDS: number[] = [];
const NO_SLUGS: string[] = [];

const byNumber = (a: number, b: number) => a - b;

const run = <T>(tx: Executor, statement: SQL) => tx.execute(statement) as unknown as Promise<T[]>;

const ids = (list: string | null) => (list === null ? NO_IDS : list.split(',').map(Number));

/** The payload document from the two statements' rows. */
function assemble(finder: FinderRow, locations: LocationRow[]): string {
  const tags = JSON.parse(finder.tags) as Array<{ id: number; name: string; slug: string }>;
  const sets = JSON.parse(finder.sets) as Array<{ id: number; name: string }>;
  /** Place of each tag in the name, id order; its slug. */
  const tagRank = new Map(tags.map((tag, i) => [tag.id, i]));
  const usedTags = new Set<number>();
  const usedSets = new Set<number>();
  const byRank = (a: number, b: number) => tagRank.get(a)! - tagRank.get(b)!;
  locations.sort(byPayloadOrder);
  // One JSON.stringify of objects whose keys are written in alphabetical order; custom values
  // (jsonb text, kept byte for byte) go in afterwards in place of a mark. A mark cannot occur
  // inside a string value: JSON.stringify escapes every quote there.
  const objects = new Array<object>(locations.length);
  const unusual: number[] = [];
  for (let i = 0; i < locations.length; i++) {
    const l = locations[i]!;
    let tagSlugs = NO_SLUGS;
    if (l.tag_ids !== null) {
      const tagIds = ids(l.tag_ids);
      if (tagIds.length > 1) tagIds.sort(byRank);
      tagSlugs = tagIds.map((id) => {
        usedTags.add(id);
        return tags[tagRank.get(id)!]!.slug;
      });
    }
    const setIds = ids(l.set_ids);
    if (setIds.length > 1) setIds.sort(byNumber);
    for (const id of setIds) usedSets.add(id);
    let lat: number | null = null;
    let lng: number | null = null;
    if ((l.lat === null || plainFloat(l.lat)) && (l.lng === null || plainFloat(l.lng))) {
      lat = l.lat === null ? null : Number(l.lat);
      lng = l.lng === null ? null : Number(l.lng);
    } else {
      lat = 0;
      lng = 0;
      unusual.push(i);
    }
    objects[i] = {
      address: l.address,
      city: l.city,
      country: l.country,
      custom_fields: 0,
      description: l.description,
      email: l.email,
      id: l.id,
      image_url: l.image_url,
      lat,
      lng,
      phone: l.phone,
      sets: setIds,
      state: l.state,
      tags: tagSlugs,
      title: l.title,
      website: l.website,
      zip: l.zip,
    };
  }
  const pieces = JSON.stringify(objects).slice(1, -1).split(CUSTOM_MARK);
  for (const i of unusual) {
    const l = locations[i]!;
    pieces[i + 1] = pieces[i + 1]!.replace(COORDINATES_MARK, `"lat":${float(l.lat)},"lng":${float(l.lng)},`);
  }
  const parts = new Array<string>(pieces.length * 2 - 1);
  parts[0] = pieces[0]!;
  for (let i = 1; i < pieces.length; i++) {
    parts[2 * i - 1] = `"custom_fields":${locations[i - 1]!.custom_fields}`;
    parts[2 * i] = pieces[i]!;
  }
  // Tags and sets the listed locations carry (the server's lists may hold one more when a
  // write landed between the two statements).
  const listedTags = JSON.stringify(tags.filter((tag) => usedTags.has(tag.id)));
  const listedSets = JSON.stringify(sets.filter((set) => usedSets.has(set.id)));
  return (
    `{"advanced_refinements":${compact(finder.advanced_refinements)},` +
    `"custom_fields":${compact(finder.custom_fields)},"id":${finder.id},` +
    `"locations":[${parts.join('')}],"name":${text(finder.name)},` +
    `"sets":${listedSets},"settings":${compact(finder.settings)},` +
    `"tags":${listedTags},"token":${text(finder.token)}}`
  );
}

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

    /**
     * The payload of the finder with this token; undefined for an unknown token. Two
     * statements whatever the number of locations, sent together.
     */
    async build(token: string, tx: Executor = db): Promise<BuiltPayload | undefined> {
      const [finders, locations] = await Promise.all([
        run<FinderRow>(tx, finderStatement(token)),
        run<LocationRow>(tx, locationsStatement(token)),
      ]);
      const finder = finders[0];
      if (!finder) return undefined;
      const json = assemble(finder, locations);
      return {
        finderId: finder.id,
        workspaceId: finder.workspace_id,
        mapId: finder.map_id,
        token: finder.token,
        authorizedUrls: finder.authorized_urls,
        locationWorkspaceIds: [...new Set(locations.map((row) => row.workspace_id))],
        json,
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
