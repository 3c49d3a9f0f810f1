// What a location's JSON holds, once for every form it is written in: the API's single read
// and lists (locationSchema is derived from the same list) and the widget payload. Its own
// fields, in order, with their types; its relations (tags, sets, custom fields) and the rules
// they follow everywhere: tags and sets by name then id, custom values only when a definition
// of the location's workspace names them. How PostgreSQL writes the fields as text is
// locations.listed-json.ts; the single read maps the same list onto the table's columns
// (locations.repository.ts).
import { type SQL, sql } from 'drizzle-orm';

/**
 * How an own field is written: a JSON integer, string, number, ISO 8601 string (timestamps),
 * boolean, or the JSON text of a `json` column as stored (opening hours: weekly or special).
 */
export type OwnFieldType =
  | 'integer'
  | 'text'
  | 'float'
  | 'time'
  | 'boolean'
  | 'weekly_hours'
  | 'special_hours';

export interface OwnField {
  /** The JSON key, which is also the column's name. */
  readonly key: string;
  readonly type: OwnFieldType;
  readonly nullable?: boolean;
}

const ID = { key: 'id', type: 'integer' } as const;

/**
 * A location's own fields (columns of its row) in the order of its JSON, in three parts around
 * its relations:
 * - lead: written at each read, first: the id, and fields the widget payload leaves out;
 * - head: kept by PostgreSQL as JSON text (listed_json_head), written by the API after the lead
 *   and by the widget payload after the id: the fields a visitor sees;
 * - tail: kept as JSON text (listed_json_tail), after the relations.
 * Each is a column of `locations` of the same name. A field added here needs its column, and in
 * the head or the tail a new expression of a generated column: drizzle-kit writes the
 * migration, and tests/locations-json-fields.test.ts fails until it has. The widget reads the
 * payload's fields (src/widget/types.ts).
 */
export const LOCATION_FIELDS = {
  lead: [ID, { key: 'workspace_id', type: 'integer' }, { key: 'external_id', type: 'text', nullable: true }],
  head: [
    { key: 'title', type: 'text' },
    { key: 'description', type: 'text', nullable: true },
    { key: 'address', type: 'text', nullable: true },
    { key: 'city', type: 'text', nullable: true },
    { key: 'state', type: 'text', nullable: true },
    { key: 'country', type: 'text', nullable: true },
    { key: 'zip', type: 'text', nullable: true },
    { key: 'lat', type: 'float', nullable: true },
    { key: 'lng', type: 'float', nullable: true },
    { key: 'phone', type: 'text', nullable: true },
    { key: 'email', type: 'text', nullable: true },
    { key: 'website', type: 'text', nullable: true },
    { key: 'image_url', type: 'text', nullable: true },
    { key: 'time_zone', type: 'text', nullable: true },
    { key: 'hours', type: 'weekly_hours', nullable: true },
    { key: 'temporarily_closed', type: 'boolean' },
    { key: 'reopens_on', type: 'text', nullable: true },
  ],
  tail: [
    { key: 'special_hours', type: 'special_hours', nullable: true },
    { key: 'time_zone_derived', type: 'boolean' },
    { key: 'time_zone_review', type: 'text', nullable: true },
    { key: 'created_at', type: 'time' },
    { key: 'updated_at', type: 'time' },
  ],
} as const satisfies Record<'lead' | 'head' | 'tail', readonly OwnField[]>;

/** Every own field: the lead, the head, the tail. */
export const OWN_FIELDS = [
  ...LOCATION_FIELDS.lead,
  ...LOCATION_FIELDS.head,
  ...LOCATION_FIELDS.tail,
] as const;

/**
 * The widget payload's own fields: its lead, written at read (integers or texts: the payload's
 * text has no marks), then the head, whose stored text it joins.
 */
export const PAYLOAD_LEAD = [ID] as const;
export const PAYLOAD_FIELDS = [...PAYLOAD_LEAD, ...LOCATION_FIELDS.head] as const;
export type PayloadFieldKey = (typeof PAYLOAD_FIELDS)[number]['key'];

/** What a location's JSON writes from other rows than its own. */
export type Relation = 'tags' | 'sets' | 'custom_fields';
/**
 * The widget payload's relations: besides those, the special days of the next 400 days, its own
 * special hours and its holiday calendars' expanded per date (lf_special_days, drizzle/0007),
 * so that the widget needs no calendar logic.
 */
export type PayloadRelation = Relation | 'special_days';
/** The relations in the API's order, between the head and the tail. */
export const LIST_RELATIONS = ['tags', 'sets', 'custom_fields'] as const satisfies readonly Relation[];
/** The relations in the widget payload's order, after the head: alphabetical. */
export const PAYLOAD_RELATIONS = [
  'custom_fields',
  'sets',
  'special_days',
  'tags',
] as const satisfies readonly PayloadRelation[];

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
