// How PostgreSQL writes a location's JSON text, field by field as locations.json-fields.ts lists
// them: the rows of a streamed list (locations.repository.ts batchJson) and the location
// documents of the widget payload (finders.payload.repository.ts sliceStatement).
// The fields that depend on the row alone, the head and the tail, are kept as text in two stored
// generated columns (locations.table.ts); the lead (the id and fields the payload leaves out,
// cheap to write) and the relations (which depend on other rows) are written at read. A
// streamed list then joins stored text instead of escaping a dozen strings, formatting two
// floats and two timestamps per row each time it is read: a large share of the database's work
// for a long list. Writes pay for it once, at insert and update (the figures are in docs/api.md).
//
// A generated column takes only immutable expressions. to_json and to_char are declared
// stable because some of their inputs depend on settings (a timestamp's DateStyle, a month
// name's locale); on text, and with the fixed numeric pattern below, their output depends on
// the argument alone, so the migration wraps them in the immutable functions named here
// (drizzle/0004_listed_json.sql). float8's text form depends on extra_float_digits, which the
// service never changes (PostgreSQL's default writes the shortest exact digits).
import { type SQL, sql } from 'drizzle-orm';
import {
  LIST_RELATIONS,
  LOCATION_FIELDS,
  type OwnField,
  PAYLOAD_LEAD,
  PAYLOAD_RELATIONS,
  type PayloadRelation,
  type Relation,
  shownCustomValues,
} from './locations.json-fields.ts';
import { MARK } from './locations.json-walker.ts';

/**
 * MARK (locations.json-walker.ts) as a PostgreSQL literal: around the values a list's reader
 * writes again as JavaScript writes them.
 */
const MARK_LITERAL = `E'\\x${MARK.toString(16).padStart(2, '0')}'`;

/**
 * A text column as a JSON value: a string literal, or null. to_json escapes only quotes,
 * backslashes and control characters (a text never holds U+0000); a text without them is
 * quoted as it is, which costs a write a fraction of a function call (most texts).
 */
const jsonText = (column: string) => `case when ${column} is null then 'null'
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

/** A timestamp as Date.prototype.toISOString writes it, as a JSON string (drizzle/0004). */
const jsonTime = (column: string) => `lf_json_time(${column})`;

/** An own field's value as JSON text, read from `column`; floats outside plain decimals marked. */
function jsonValue(field: OwnField, column: string): string {
  switch (field.type) {
    case 'integer':
      return column;
    case 'text':
      return jsonText(column);
    case 'float':
      return jsonFloat(column);
    case 'time':
      return jsonTime(column);
    case 'boolean':
      return `case when ${column} then 'true' else 'false' end`;
    case 'weekly_hours':
    case 'special_hours':
      // A json column's text is what the service wrote: compact JSON.
      return `coalesce(${column}::text, 'null')`;
  }
}

/**
 * The stored fields' `"key":value` pairs joined, for a generated column (columns by their bare
 * names), with a comma before the first when `afterOthers`. drizzle-kit compares a generated
 * column's expression with its latest snapshot as text, and another text of the same value
 * would make it write a migration that rewrites every row; so the layout is the one the
 * snapshot holds (tests/locations-json-fields.test.ts): runs of fields of one type a line
 * apart, and a run of texts that does not open the expression writes its comma on its own.
 */
function storedJson(fields: readonly OwnField[], afterOthers: boolean): string {
  const runs: OwnField[][] = [];
  for (const field of fields) {
    const run = runs.at(-1);
    if (run?.[0]?.type === field.type) run.push(field);
    else runs.push([field]);
  }
  return runs
    .map((run, r) =>
      run
        .map((field, i) => {
          const label =
            !afterOthers && r === 0 && i === 0
              ? `'"${field.key}":'`
              : field.type === 'text' && i === 0
                ? `',' || '"${field.key}":'`
                : `',"${field.key}":'`;
          return `${label} || ${jsonValue(field, field.key)}`;
        })
        .join(' || '),
    )
    .join('\n  || ');
}

/**
 * The head's pairs without the commas around them: what the list writes between the lead and
 * the relations, and the widget payload after its lead (without the marks, see payloadLocationJson).
 */
export const listedJsonHead = (): SQL => sql.raw(storedJson(LOCATION_FIELDS.head, false));

/** The tail's pairs, each after a comma, and the closing brace. */
export const listedJsonTail = (): SQL => sql.raw(`${storedJson(LOCATION_FIELDS.tail, true)} || '}'`);

/**
 * A listed_json text as plain JSON, for a reader that does not write marked values again (the
 * widget payload): the marks dropped, as PostgreSQL's float text (1e-05) is valid JSON; NaN and
 * infinities, which no write path accepts, written null. Most texts have no mark.
 */
const unmarkedJson = (column: string) => `case when strpos(${column}, ${MARK_LITERAL}) = 0 then ${column}
    else regexp_replace(regexp_replace(${column}, E'\\x01-?(NaN|Infinity)\\x01', 'null', 'g'), ${MARK_LITERAL}, '', 'g') end`;

/** The opening brace and the lead's pairs, read from the row aliased `row`. */
const leadJson = (fields: readonly OwnField[], row: string) =>
  fields
    .map(
      (field, i) => `'${i === 0 ? '{' : ','}"${field.key}":' || ${jsonValue(field, `${row}.${field.key}`)}`,
    )
    .join(' || ');

const relationsJson = <R extends PayloadRelation>(order: readonly R[], relations: Record<R, SQL>) =>
  order.map((key) => sql`${sql.raw(`',"${key}":'`)} || ${relations[key]}`);

/**
 * A location's custom values as a list writes them (text), from the shown values of
 * shownCustomValues: between marks, for JavaScript to write again (jsonb spaces its text and
 * orders integer keys last); an empty object as it is.
 */
export const listedCustomValues = (values: SQL, names: SQL) =>
  sql`case when ${values} = '{}' then '{}'
    else ${sql.raw(MARK_LITERAL)} || ${shownCustomValues(values, names)}::text || ${sql.raw(MARK_LITERAL)} end`;

/**
 * A location's JSON text as the API's lists write it, for the row of `locations` aliased `row`:
 * the lead, the stored head, the relations (texts the caller builds for its batch), the stored
 * tail. Marked values are written again by locations.json-walker.ts.
 */
export const listedLocationJson = (row: string, relations: Record<Relation, SQL>): SQL =>
  sql.join(
    [
      sql.raw(`${leadJson(LOCATION_FIELDS.lead, row)} || ',' || ${row}.listed_json_head`),
      ...relationsJson(LIST_RELATIONS, relations),
      sql.raw(`${row}.listed_json_tail`),
    ],
    sql` || `,
  );

/**
 * A location's document in the widget payload, for the row aliased `row` (its id and
 * listed_json_head at least): the payload's lead, the stored head without the list's marks,
 * then the relations (texts the caller builds) and the closing brace.
 */
export const payloadLocationJson = (row: string, relations: Record<PayloadRelation, SQL>): SQL =>
  sql.join(
    [
      sql.raw(`${leadJson(PAYLOAD_LEAD, row)} || ',' || ${unmarkedJson(`${row}.listed_json_head`)}`),
      ...relationsJson(PAYLOAD_RELATIONS, relations),
      sql.raw(`'}'`),
    ],
    sql` || `,
  );
