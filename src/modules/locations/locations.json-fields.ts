// The rules a location's relations follow in every form a location is written in (the API's
// single read and lists, the widget payload): tags and sets by name then id, each written as one
// JSON object, and custom values shown only when a definition of the location's workspace
// names them.
import { type SQL, sql } from 'drizzle-orm';

export type Relation = 'tags' | 'sets' | 'custom_fields';

/** The order of a location's tags, and of a payload's, for tags aliased `t`: by name, then id. */
export const tagOrder = (t: string) => sql.raw(`${t}.name, ${t}.id`);
/** The order of a location's sets, and of a payload's, for sets aliased `s`: by name, then id. */
export const setOrder = (s: string) => sql.raw(`${s}.name, ${s}.id`);

/** A tag as a location's tags (and a payload's) write it, as compact JSON text. */
export const tagJson = (t: string) =>
  sql.raw(
    `'{"id":' || ${t}.id || ',"name":' || to_json(${t}.name)::text || ',"slug":' || to_json(${t}.slug)::text || '}'`,
  );
/** A set as a location's sets (and a payload's) write it, as compact JSON text. */
export const setJson = (s: string) =>
  sql.raw(`'{"id":' || ${s}.id || ',"name":' || to_json(${s}.name)::text || '}'`);

/** The JSON array (text) of the tags aliased `t` that `from` (a from clause) reaches, in tag order. */
export const tagsJson = (from: SQL) =>
  sql`coalesce((select '[' || string_agg(${tagJson('t')}, ',' order by ${tagOrder('t')}) || ']' ${from}), '[]')`;
/** The JSON array (text) of the sets aliased `s` that `from` (a from clause) reaches, in set order. */
export const setsJson = (from: SQL) =>
  sql`coalesce((select '[' || string_agg(${setJson('s')}, ',' order by ${setOrder('s')}) || ']' ${from}), '[]')`;

/** The names of a workspace's custom field definitions (text[]). */
export const definitionNames = (workspaceId: SQL) =>
  sql`array(select d.name from custom_field_definitions d where d.workspace_id = ${workspaceId})`;

/**
 * The custom values (jsonb) a location shows: those a definition of its workspace names
 * (`names`). Values whose definition was deleted stay stored ("orphaned") but are not shown;
 * recreating a definition of the same name brings them back (docs/api.md, Locations). Most
 * locations have none, and their values go through as stored without being taken apart.
 */
export const shownCustomValues = (values: SQL, names: SQL) => sql`(case
    when ${values} - ${names} = '{}'::jsonb then ${values}
    else ${values} - array(select jsonb_object_keys(${values} - ${names})) end)`;

/**
 * A location's relations as JSON texts, as the API writes them, for one row of `locations`
 * named `row` (correlated subqueries: the single read; a list aggregates its batch at once).
 */
export function locationRelations(row: string): Record<Relation, SQL> {
  const id = sql.raw(`${row}.id`);
  return {
    tags: tagsJson(sql`from location_tags lt join tags t on t.id = lt.tag_id where lt.location_id = ${id}`),
    sets: setsJson(sql`from location_sets ls join sets s on s.id = ls.set_id where ls.location_id = ${id}`),
    custom_fields: sql`${shownCustomValues(
      sql.raw(`${row}.custom_values`),
      definitionNames(sql.raw(`${row}.workspace_id`)),
    )}::text`,
  };
}

/** The widget payload's tags of a location, from its tag ids (int[]): the slugs, in tag order. */
export const payloadTags = (tagIds: SQL) =>
  sql`array_to_json(array(select t.slug from tags t where t.id = any(${tagIds}) order by ${tagOrder('t')}))::text`;
/** The widget payload's sets of a location, from its set ids (int[]): the ids, ascending. */
export const payloadSets = (setIds: SQL) =>
  sql`array_to_json(array(select x from unnest(${setIds}) x order by x))::text`;
