// The parts of a location's list JSON that depend on its own row alone, as PostgreSQL writes
// them into two stored generated columns (locations.table.ts): everything but the id,
// workspace id and external id (cheap to write), the tags, sets and custom fields (which depend
// on other rows). The widget payload reads the first column too.
// A streamed list (locations.repository.ts batchJson) then joins stored text instead of
// escaping a dozen strings, formatting two floats and two timestamps per row each time it is
// read: a third of the database's work for a 100,000-location list (2.1 -> 1.2 s on the
// embedded PostgreSQL 18). Writes pay once, about 25 µs a row (2.5 s more for a 100,000-row
// import; measured, docs/api.md).
//
// A generated column takes only immutable expressions. to_json and to_char are declared
// stable because some of their inputs depend on settings (a timestamp's DateStyle, a month
// name's locale); on text, and with the fixed numeric pattern below, their output depends on
// the argument alone, so the migration wraps them in the immutable functions named here
// (drizzle/0004_listed_json.sql). float8's text form depends on extra_float_digits, which the
// service never changes (PostgreSQL's default writes the shortest exact digits).
import { type SQL, sql } from 'drizzle-orm';
import { shownCustomValues } from './locations.json-fields.ts';
import { MARK } from './locations.json-walker.ts';

/**
 * MARK (locations.json-walker.ts) as a PostgreSQL literal: around the values a list's reader
 * writes again as JavaScript writes them.
 */
export const MARK_LITERAL = `E'\\x${MARK.toString(16).padStart(2, '0')}'`;

/**
 * A text column as a JSON value: a string literal, or null. to_json escapes only quotes,
 * backslashes and control characters (a text never holds U+0000); a text without them is
 * quoted as it is, which costs a write a fraction of a function call (most texts).
 */
export const jsonText = (column: string) => `case when ${column} is null then 'null'
    when ${column} ~ '[\\x01-\\x1f"\\\\]' then lf_json_string(${column}) else '"' || ${column} || '"' end`;

/**
 * A float8 as JSON. PostgreSQL (shortest exact digits, extra_float_digits 1 as by default) and
 * JavaScript write the same plain decimal for magnitudes in [1e-4, 1e15); zero is written 0
 * (PostgreSQL writes -0); other values (1e-05 in PostgreSQL, 0.00001 in JavaScript; NaN,
 * Infinity) go between marks.
 */
const jsonFloat = (column: string) => `case when ${column} is null then 'null' when ${column} = 0 then '0'
    when abs(${column}) >= 1e-4 and abs(${column}) < 1e15 then ${column}::text
    else ${MARK_LITERAL} || ${column}::text || ${MARK_LITERAL} end`;

const jsonFields = (names: string[]) =>
  names.map((name, index) => `'${index === 0 ? '' : ','}"${name}":' || ${jsonText(name)}`).join(' || ');

/**
 * `"title":…` to `"image_url":…`, without the commas around them: the fields the list writes
 * between external_id and tags, and the widget payload after the id (finders.payload.repository.ts,
 * which removes the marks: PostgreSQL's float text, such as 1e-05, is valid JSON there).
 */
export const listedJsonHead = (): SQL =>
  sql.raw(
    `${jsonFields(['title', 'description', 'address', 'city', 'state', 'country', 'zip'])}
  || ',"lat":' || ${jsonFloat('lat')} || ',"lng":' || ${jsonFloat('lng')}
  || ',' || ${jsonFields(['phone', 'email', 'website', 'image_url'])}`,
  );

/** `,"created_at":…,"updated_at":…}`: the timestamps after custom_fields, and the closing brace. */
export const listedJsonTail = (): SQL =>
  sql.raw(
    `',"created_at":' || lf_json_time(created_at) || ',"updated_at":' || lf_json_time(updated_at) || '}'`,
  );

/**
 * A listed_json text as plain JSON, for a reader that does not write marked values again (the
 * widget payload): the marks dropped, as PostgreSQL's float text (1e-05) is valid JSON; NaN and
 * infinities, which no write path accepts, written null. Most texts have no mark.
 */
export const unmarkedJson = (column: string): SQL =>
  sql.raw(`case when strpos(${column}, ${MARK_LITERAL}) = 0 then ${column}
    else regexp_replace(regexp_replace(${column}, E'\\x01-?(NaN|Infinity)\\x01', 'null', 'g'), ${MARK_LITERAL}, '', 'g') end`);

/**
 * A location's custom values as a list writes them (text), from the shown values of
 * shownCustomValues: between marks, for JavaScript to write again (jsonb spaces its text and
 * orders integer keys last); an empty object as it is.
 */
export const listedCustomValues = (values: SQL, names: SQL) =>
  sql`case when ${values} = '{}' then '{}'
    else ${sql.raw(MARK_LITERAL)} || ${shownCustomValues(values, names)}::text || ${sql.raw(MARK_LITERAL)} end`;
