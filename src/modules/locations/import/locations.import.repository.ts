// The CSV import's SQL (docs/api.md, CSV import): a temporary staging table filled by COPY as the
// file is parsed, then a fixed number of set-based statements that apply the whole file (match,
// update, insert, tags, sets). No statement runs per row. Everything runs on the caller's transaction, so
// a failed import leaves nothing behind.
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type SQL, sql } from 'drizzle-orm';
import { cursorOn, type Executor, idArray, sqlClientOf, type Transaction } from '../../../db/client.ts';
import { advisoryXactLock } from '../../../db/locks.ts';
import { type Column, columns, type TextColumn, textColumns } from '../../../lib/location-csv-columns.ts';
import { arrayLiteral, copyField } from '../../../lib/pg-copy.ts';
import { findOrCreateTagsByName } from '../../tags/tags.repository.ts';
import { matchKeyOf } from '../locations.table.ts';
import type { SettleRow } from './locations.import.opening.ts';
import { type Layout, NO_VALUES, type ParsedRow } from './locations.import.rows.ts';
import type { SettledLines, StagedValues } from './locations.import.shared.ts';

/**
 * Staging: valid rows are streamed with COPY into a temporary table as the file is parsed, so
 * PostgreSQL ingests while Node parses. `applyStaged` then applies the whole file with a
 * fixed number of set-based statements.
 */
const STAGING_COLUMNS = [
  'i',
  ...columns,
  'tag_slugs',
  'set_names',
  'custom_set',
  'custom_removed',
  'time_zone',
  'hours_id',
  'special_hours_id',
  'temporarily_closed',
  'reopens_on',
  'zones_id',
] as const;

const columnTypes: Record<Column, string> = {
  ...(Object.fromEntries(Object.keys(textColumns).map((column) => [column, 'text'])) as Record<
    TextColumn,
    string
  >),
  lat: 'double precision',
  lng: 'double precision',
};

/**
 * The COPY line of one accepted row, in STAGING_COLUMNS order; `i` is its row number. Its tags,
 * hours and zones go through `shared`, which stages each hours text once (stageShared).
 */
export function copyLine(i: number, row: ParsedRow, shared: StagedValues): string {
  const { tags } = shared;
  const fields = [String(i)];
  for (const column of columns) fields.push(copyField(row.values[column]));
  fields.push(row.tags === undefined ? '' : copyField(arrayLiteral(tags.slugsOf(row.tags))));
  fields.push(row.sets === undefined ? '' : copyField(arrayLiteral(row.sets)));
  fields.push(
    row.customSet === NO_VALUES ? '{}' : copyField(JSON.stringify(row.customSet)),
    row.customRemoved.length === 0 ? '{}' : copyField(arrayLiteral(row.customRemoved)),
  );
  const opening = row.opening;
  fields.push(
    copyField(opening.timeZone),
    opening.hours == null ? '' : String(shared.hoursId(opening.hours)),
    opening.specialHours == null ? '' : String(shared.hoursId(opening.specialHours)),
    opening.temporarilyClosed === undefined ? '' : String(opening.temporarilyClosed),
    copyField(opening.reopensOn),
    opening.zones ? String(shared.zonesId(opening.zones)) : '',
  );
  return `${fields.join(',')}\n`;
}

/** The temporary table and a COPY stream into it, on the transaction's own connection. */
async function createStaging(tx: Transaction): Promise<Writable> {
  await tx.execute(
    sql.raw(`create temporary table csv_import_rows (
      i int primary key,
      ${columns.map((column) => `${column} ${columnTypes[column]}`).join(',\n      ')},
      tag_slugs text[],
      set_names text[],
      custom_set jsonb not null,
      custom_removed text[] not null,
      time_zone text,
      hours_id int,
      special_hours_id int,
      temporarily_closed boolean,
      reopens_on text,
      zones_id int
    ) on commit drop`),
  );
  return sqlClientOf(tx)
    .unsafe(`copy csv_import_rows (${STAGING_COLUMNS.join(', ')}) from stdin with (format csv)`)
    .writable();
}

/**
 * The SELECT behind `csv_import_targets`: what each staged row becomes. Matching key
 * (docs/api.md, CSV import): external_id when the row has one; otherwise title + address + zip
 * through the same expression as the generated column (lowest id when several match). Rows without
 * a match take their new id here, so tags can be linked without finding them again.
 *
 * It runs with nested loops disabled (see `withoutNestedLoops`): a bulk match of n staged rows
 * against the workspace's m locations by equality is a hash (or merge) join, O(n + m) whatever
 * the statistics say. A nested loop is only ever right when one side is tiny, and the planner
 * cannot know which: for a workspace its statistics do not know yet (a fresh one, just filled
 * by a first import) it expects one location and picks a nested loop that re-reads all the
 * staged rows, or walks the whole workspace, for every row: quadratic.
 * Index-probe shapes (a scalar subquery per row) do not escape this either: expecting one row
 * in the workspace, the planner probes the (workspace_id, id) index, which is better
 * correlated, and filters on the key, again visiting the whole workspace per row.
 */
const stagedMatchKey = matchKeyOf((column) => sql.raw(`s.${column}`));

/** The key of a staged row `s` in the file: its external_id, else its match key (see matchTargetsQuery). */
const stagedKey = sql`coalesce('e:' || s.external_id, 'k:' || ${stagedMatchKey})`;

function matchTargetsQuery(workspaceId: number, mayRepeat: boolean): SQL {
  // A key repeated in the file: the last row wins; the earlier ones count as updates of it.
  const keyed = mayRepeat
    ? sql`select distinct on (coalesce('e:' || external_id, 'k:' || match_key)) * from (
        select s.i, s.external_id, case when s.external_id is null then ${stagedMatchKey} end as match_key
        from csv_import_rows s) k
        order by coalesce('e:' || external_id, 'k:' || match_key), i desc`
    : sql`select s.i, s.external_id, case when s.external_id is null then ${stagedMatchKey} end as match_key
        from csv_import_rows s`;
  // Rows of two keys may reach one location (one by its external_id, the other by title,
  // address and zip): the last of them wins as well. A row that matches none is its own (-i).
  return sql`
    with keyed as (${keyed})
    select t.i, coalesce(t.id, nextval(pg_get_serial_sequence('locations', 'id')))::int as location_id,
      t.id is not null as existed
    from (
      select distinct on (coalesce(m.id, -m.i)) m.i, m.id from (
        select k.i, l.id from keyed k
          left join locations l on l.workspace_id = ${workspaceId} and l.external_id = k.external_id
          where k.external_id is not null
        union all
        select k.i, min(l.id) from keyed k
          left join locations l on l.workspace_id = ${workspaceId} and l.match_key = k.match_key
          where k.external_id is null
          group by k.i
      ) m
      order by coalesce(m.id, -m.i), m.i desc
    ) t
    order by t.i`;
}

/**
 * Runs `work` with nested-loop joins disabled, then restores the setting. Only for statements
 * joining two bulk sets by equality, where a hash or merge join is never far from the best plan
 * and a nested loop chosen on a wrong estimate is quadratic (see matchTargetsQuery).
 */
async function withoutNestedLoops<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
  await tx.execute(sql`set local enable_nestloop = off`);
  const result = await work();
  await tx.execute(sql`reset enable_nestloop`);
  return result;
}

/**
 * The hours texts the staged rows share (StagedValues), in `csv_import_hours`: after the staged
 * rows' COPY, before anything reads them. Kept as json, the type of the location's columns
 * (json keeps the text as given), so a write copies the value without reading it again.
 */
async function stageShared(tx: Transaction, shared: StagedValues) {
  await tx.execute(
    sql`create temporary table csv_import_hours (id int primary key, json json not null) on commit drop`,
  );
  const copy = sqlClientOf(tx)
    .unsafe('copy csv_import_hours (id, json) from stdin with (format csv)')
    .writable();
  await pipeline(Readable.from([shared.hoursLines()]), await copy);
  await tx.execute(sql`analyze csv_import_hours`);
}

/** The plan of the matching statement, as applyStaged runs it: for the test that keeps it linear. */
async function explainMatch(tx: Transaction, workspaceId: number, mayRepeat: boolean): Promise<string> {
  const rows = await withoutNestedLoops(tx, () =>
    tx.execute<{ 'QUERY PLAN': string }>(sql`explain ${matchTargetsQuery(workspaceId, mayRepeat)}`),
  );
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/**
 * What each staged row becomes, in `csv_import_targets` (after analyzing the staged rows, which
 * autovacuum never does for a temporary table). Made again when rows were dropped from a file
 * that may repeat a key: an earlier row of a dropped row's key then wins.
 */
async function matchStaged(tx: Transaction, workspaceId: number, mayRepeat: boolean, signal?: AbortSignal) {
  signal?.throwIfAborted();
  await tx.execute(sql`analyze csv_import_rows`);
  await tx.execute(sql`drop table if exists csv_import_targets`);
  await withoutNestedLoops(tx, () =>
    tx.execute(sql`
      create temporary table csv_import_targets on commit drop as ${matchTargetsQuery(workspaceId, mayRepeat)}`),
  );
  signal?.throwIfAborted();
  await tx.execute(sql`analyze csv_import_targets`);
}

/** How many matched rows the settle reads at a time. */
const SETTLE_BATCH = 5_000;

/**
 * What the settle reads of a staged row `s` matched by `m` (a target, or a refused winner; both
 * say whether the location `existed` and its `location_id`), as locations.import.opening.ts
 * SettleRow: the staged values, and those of the location it updates. Only whether hours are
 * given is read, not the hours.
 */
const SETTLE_VALUES = sql`m.existed, s.lat, s.lng, s.country, s.time_zone,
  s.hours_id is not null as has_hours, s.special_hours_id is not null as has_special_hours,
  s.temporarily_closed, s.reopens_on, s.zones_id,
  l.lat as old_lat, l.lng as old_lng, l.country as old_country, l.time_zone as old_time_zone,
  l.time_zone_derived as old_time_zone_derived, l.time_zone_review as old_time_zone_review,
  l.hours is not null as old_has_hours, l.special_hours is not null as old_has_special_hours,
  l.temporarily_closed as old_temporarily_closed, l.reopens_on as old_reopens_on`;
const SETTLE_LOCATION = sql`left join locations l on m.existed and l.id = m.location_id`;
/** The names of SETTLE_VALUES. */
const SETTLE_NAMES = sql.raw(
  [
    'existed, lat, lng, country, time_zone, has_hours, has_special_hours, temporarily_closed, reopens_on, zones_id',
    'old_lat, old_lng, old_country, old_time_zone, old_time_zone_derived, old_time_zone_review',
    'old_has_hours, old_has_special_hours, old_temporarily_closed, old_reopens_on',
  ].join(', '),
);

/**
 * The matched rows with what decides their opening (SETTLE_VALUES), in batches, as groups of
 * rows that read exactly the same values: the settle, a function of them alone, judges each
 * group once (a file's stores share a zone, a country and a week, and a re-import's locations
 * share what the last one wrote). `i` is the group's first row, `rows` all of them.
 */
function settleGroups(tx: Transaction): AsyncIterable<(SettleRow & { rows: number[] })[]> {
  return cursorOn<SettleRow & { rows: number[] }>(
    sqlClientOf(tx),
    sql`select min(x.i) as i, array_agg(x.i) as rows, ${SETTLE_NAMES}
      from (
        select s.i, ${SETTLE_VALUES}
        from csv_import_targets m join csv_import_rows s on s.i = m.i ${SETTLE_LOCATION}) x
      group by ${SETTLE_NAMES}`,
    SETTLE_BATCH,
  );
}

/**
 * The earlier rows of the keys whose winning rows (`winners`, matched rows) the settle refused,
 * in batches: each with the winner it would replace (`winner`) and what the settle reads, the
 * location being the winner's (a key's rows all match the same). By winner, latest row first,
 * so the first row of a key the settle accepts is the one the file leaves (the last row wins).
 * Read before the refused winners leave the targets. Keys are joined by hash: the refused keys
 * and the staged rows are both bulk sets (see withoutNestedLoops).
 */
async function* earlierRows(
  tx: Transaction,
  winners: readonly number[],
): AsyncIterable<(SettleRow & { winner: number })[]> {
  await tx.execute(sql`drop table if exists csv_import_refused`);
  await tx.execute(sql`
    create temporary table csv_import_refused on commit drop as
    select t.i, t.existed, t.location_id, ${stagedKey} as key
    from csv_import_targets t join csv_import_rows s on s.i = t.i
    where t.i = any(${idArray(winners)})`);
  await tx.execute(sql`analyze csv_import_refused`);
  await tx.execute(sql`set local enable_nestloop = off`);
  try {
    yield* cursorOn<SettleRow & { winner: number }>(
      sqlClientOf(tx),
      sql`select m.i as winner, s.i, ${SETTLE_VALUES}
        from csv_import_refused m
          join csv_import_rows s on ${stagedKey} = m.key and s.i < m.i ${SETTLE_LOCATION}
        order by m.i, s.i desc`,
      SETTLE_BATCH,
    );
  } finally {
    await tx.execute(sql`reset enable_nestloop`);
  }
}

/**
 * Keys whose refused winner an earlier row replaces: the target moves to that row (same
 * location). `moves` pairs the refused winner with its replacement.
 */
async function moveTargets(tx: Transaction, moves: readonly [from: number, to: number][]) {
  if (moves.length === 0) return;
  await tx.execute(sql`
    update csv_import_targets t set i = m.to_i
    from unnest(${idArray(moves.map(([from]) => from))}, ${idArray(moves.map(([, to]) => to))}) m(from_i, to_i)
    where t.i = m.from_i`);
}

/** Rows that cannot be written (found by the settle): out of the staging and the targets. */
async function dropStaged(tx: Transaction, rows: readonly number[]) {
  await tx.execute(sql`delete from csv_import_rows where i = any(${idArray(rows)})`);
  await tx.execute(sql`delete from csv_import_targets where i = any(${idArray(rows)})`);
}

/**
 * The settled opening of every matched row (SettledLines): each distinct opening once in
 * `csv_import_openings`, each row's in `csv_import_opening`.
 */
async function stageOpening(tx: Transaction, settled: SettledLines) {
  await tx.execute(sql`
    create temporary table csv_import_openings (
      id int primary key,
      time_zone text,
      time_zone_derived boolean not null,
      time_zone_review text,
      reopens_on text
    ) on commit drop`);
  await tx.execute(
    sql`create temporary table csv_import_opening (i int primary key, opening_id int not null) on commit drop`,
  );
  const client = sqlClientOf(tx);
  await pipeline(
    Readable.from([settled.openings]),
    await client
      .unsafe(
        'copy csv_import_openings (id, time_zone, time_zone_derived, time_zone_review, reopens_on) from stdin with (format csv)',
      )
      .writable(),
  );
  await pipeline(
    Readable.from([settled.rows]),
    await client.unsafe('copy csv_import_opening (i, opening_id) from stdin with (format csv)').writable(),
  );
  await tx.execute(sql`analyze csv_import_openings`);
  await tx.execute(sql`analyze csv_import_opening`);
}

/** Where the written statements read each hours column's value (csv_import_hours, by the staged row's id). */
const HOURS_ALIAS = { hours: 'hw', special_hours: 'hs' } as const;

/** The joins that give the written statements the staged rows' hours and settled openings. */
function valueJoins(layout: Layout, settled: boolean): SQL {
  return sql.raw(
    [
      settled
        ? 'join csv_import_opening oi on oi.i = t.i join csv_import_openings o on o.id = oi.opening_id'
        : '',
      settled || layout.opening.hours ? 'left join csv_import_hours hw on hw.id = s.hours_id' : '',
      settled || layout.opening.specialHours
        ? 'left join csv_import_hours hs on hs.id = s.special_hours_id'
        : '',
    ].join(' '),
  );
}

/** A column the import writes: its value, and how the location's and the file's are compared. */
interface Written {
  column: string;
  value: SQL;
  old: SQL;
  new: SQL;
}

/**
 * The opening columns a file writes: hours, special hours and the closure as its columns say
 * (when present), the time zone and reopening date as settled (when the file settles them).
 */
function openingWrites(layout: Layout, settled: boolean): Written[] {
  const written: Written[] = [];
  const same = (column: string, value: SQL) => ({ column, value, old: sql.raw(`l.${column}`), new: value });
  if (settled) {
    for (const column of ['time_zone', 'time_zone_derived', 'time_zone_review', 'reopens_on'])
      written.push(same(column, sql.raw(`o.${column}`)));
  }
  // json has no equality: the texts are compared (the service writes each week one way).
  for (const [column, said] of [
    ['hours', layout.opening.hours],
    ['special_hours', layout.opening.specialHours],
  ] as const) {
    const given = `${HOURS_ALIAS[column]}.json`;
    // 'unless null': a row without hours keeps the location's.
    const kept = (value: string, old: string) => (said === true ? value : `coalesce(${value}, ${old})`);
    if (said) {
      written.push({
        column,
        value: sql.raw(kept(given, `l.${column}`)),
        old: sql.raw(`l.${column}::text`),
        new: sql.raw(kept(`${given}::text`, `l.${column}::text`)),
      });
    }
  }
  if (layout.opening.temporarilyClosed) written.push(same('temporarily_closed', sql`s.temporarily_closed`));
  return written;
}

export interface WriteOptions {
  workspaceId: number;
  layout: Layout;
  tagNames: string[];
  /** Whether `csv_import_opening` holds each matched row's settled opening. */
  settled: boolean;
  signal?: AbortSignal;
}

/**
 * Writes the matched rows; returns the counts. The staging table is only read here: what each
 * row becomes lives in the narrow `csv_import_targets` (and `csv_import_opening`), so no pass
 * rewrites the wide rows (temporary tables live in the small temp_buffers).
 */
async function writeStaged(
  tx: Transaction,
  { workspaceId, layout, tagNames, settled, signal }: WriteOptions,
) {
  const s = (column: string) => sql.raw(`s.${column}`);
  const joins = valueJoins(layout, settled);
  const keptCoordinates = layout.opening.lat === 'unless null';

  // Columns present in the file are written (an empty cell clears the value), except
  // external_id, which an empty cell never clears, and coordinates the layout keeps unless
  // given (an AI item's). Rows already equal to the file are left
  // alone: rewriting them would only churn indexes and WAL. Rows are found by primary key
  // alone: the targets were matched in this workspace under its lock, and a condition on
  // workspace_id would invite a nested loop walking the whole workspace per row (see
  // matchTargetsQuery); by primary key a nested loop is n probes, so it may stay enabled.
  const written: Written[] = [
    ...columns
      .filter((column) => layout.index[column] !== undefined)
      .map((column) => {
        const value =
          column === 'external_id'
            ? sql`coalesce(s.external_id, l.external_id)`
            : keptCoordinates && (column === 'lat' || column === 'lng')
              ? sql.raw(`case when s.lat is null and s.lng is null then l.${column} else s.${column} end`)
              : s(column);
        return { column, value, old: sql.raw(`l.${column}`), new: value };
      }),
    ...openingWrites(layout, settled),
  ];
  const customValues = sql`(l.custom_values || s.custom_set) - s.custom_removed`;
  signal?.throwIfAborted();
  await tx.execute(sql`
    update locations l set ${sql.join(
      written.map((write) => sql`${sql.raw(write.column)} = ${write.value}`),
      sql`, `,
    )}, custom_values = ${customValues}, updated_at = now()
    from csv_import_targets t join csv_import_rows s on s.i = t.i ${joins}
    where t.existed and l.id = t.location_id
      and ((${sql.join(
        written.map((write) => write.old),
        sql`, `,
      )}, l.custom_values) is distinct from (${sql.join(
        written.map((write) => write.new),
        sql`, `,
      )}, ${customValues}))`);

  // A new location takes the opening columns as settled, and the file's hours; without a settle
  // (the file says nothing they depend on) their defaults.
  const openingInsert: [string, SQL][] = settled
    ? [
        ['time_zone', sql`o.time_zone`],
        ['time_zone_derived', sql`o.time_zone_derived`],
        ['time_zone_review', sql`o.time_zone_review`],
        ['reopens_on', sql`o.reopens_on`],
        ['hours', sql`hw.json`],
        ['special_hours', sql`hs.json`],
        ['temporarily_closed', sql`coalesce(s.temporarily_closed, false)`],
      ]
    : [];
  signal?.throwIfAborted();
  const inserted = await tx.execute(sql`
    insert into locations (id, workspace_id, ${sql.raw(
      [...columns, ...openingInsert.map(([column]) => column)].join(', '),
    )}, custom_values)
    select t.location_id, ${workspaceId}, ${sql.join(
      [...columns.map((column) => s(column)), ...openingInsert.map(([, value]) => value)],
      sql`, `,
    )}, s.custom_set
    from csv_import_targets t join csv_import_rows s on s.i = t.i ${joins}
    where not t.existed order by s.i`);

  signal?.throwIfAborted();
  if (layout.index.tags !== undefined) await applyTags(tx, workspaceId, tagNames);
  signal?.throwIfAborted();
  if (layout.index.sets !== undefined) await applySets(tx, workspaceId);
  signal?.throwIfAborted();

  const [staged] = await tx.execute<{ rows: number }>(sql`select count(*)::int as rows from csv_import_rows`);
  return { created: inserted.count, updated: (staged?.rows ?? 0) - inserted.count };
}

/** The tags column is the truth for the rows of the file: their links become exactly the listed tags. */
async function applyTags(tx: Transaction, workspaceId: number, tagNames: string[]) {
  await findOrCreateTagsByName(tx, workspaceId, tagNames);
  await tx.execute(sql`
    delete from location_tags lt using csv_import_targets x, csv_import_rows s, tags t
    where x.existed and s.i = x.i and lt.location_id = x.location_id and t.id = lt.tag_id
      and not (t.slug = any(coalesce(s.tag_slugs, '{}')))`);
  // Slugs are distinct within a row, and existing links are skipped, so no conflict can arise.
  await tx.execute(sql`
    insert into location_tags (location_id, tag_id)
    select x.location_id, t.id
    from csv_import_targets x join csv_import_rows s on s.i = x.i
    cross join unnest(s.tag_slugs) as u(slug)
    join tags t on t.workspace_id = ${workspaceId} and t.slug = u.slug
    where not x.existed or not exists (
      select 1 from location_tags lt where lt.location_id = x.location_id and lt.tag_id = t.id)`);
}

/**
 * A set named in the file (docs/api.md, CSV import): its name trimmed (when parsed) and compared
 * without case, as a tag's slug folds case. Set names need not be unique, so of the workspace's
 * sets answering to a name the lowest id is meant.
 */
const setKey = (name: string) => sql.raw(`lower(${name})`);

/**
 * The sets column is the truth for the rows of the file that are written: their memberships
 * become exactly the named sets. Sets named by written rows and missing from the workspace are
 * created first, each under its first spelling in the file (an existing set keeps its name).
 * Locations whose memberships changed get a new updated_at, as a PUT of their sets gives them
 * (new locations have it already; so do the rows the update statement rewrote).
 */
async function applySets(tx: Transaction, workspaceId: number) {
  const named = sql`
    select x.i, x.location_id, x.existed, u.name, u.o
    from csv_import_targets x join csv_import_rows s on s.i = x.i
    cross join unnest(s.set_names) with ordinality as u(name, o)`;
  await tx.execute(sql`
    insert into sets (workspace_id, name)
    select ${workspaceId}, n.name from (
      select distinct on (${setKey('f.name')}) f.name, f.i, f.o from (${named}) f
      order by ${setKey('f.name')}, f.i, f.o) n
    where not exists (
      select 1 from sets e where e.workspace_id = ${workspaceId} and ${setKey('e.name')} = ${setKey('n.name')})
    order by n.i, n.o`);
  // The removal and the insert touch disjoint links, so one statement (one snapshot) holds both.
  await tx.execute(sql`
    with known as (
      select ${setKey('e.name')} as key, min(e.id) as set_id from sets e
      where e.workspace_id = ${workspaceId} group by 1),
    wanted as (
      select distinct f.location_id, f.existed, k.set_id
      from (${named}) f join known k on k.key = ${setKey('f.name')}),
    removed as (
      delete from location_sets ls using csv_import_targets x
      where x.existed and ls.location_id = x.location_id
        and not exists (select 1 from wanted w where w.location_id = ls.location_id and w.set_id = ls.set_id)
      returning ls.location_id),
    added as (
      insert into location_sets (set_id, location_id)
      select w.set_id, w.location_id from wanted w
      where not w.existed or not exists (
        select 1 from location_sets ls where ls.location_id = w.location_id and ls.set_id = w.set_id)
      returning location_id)
    update locations l set updated_at = now()
    from (
      select location_id from removed
      union
      select a.location_id from added a join csv_import_targets x on x.location_id = a.location_id and x.existed
    ) c
    where l.id = c.location_id and l.updated_at <> now()`);
}

/**
 * The location each staged row became (after applyStaged, in its transaction), for callers that
 * link the written rows to something else (the AI import's items and finder map).
 */
async function stagedTargets(tx: Transaction): Promise<Map<number, number>> {
  const rows = await tx.execute<{ i: number; location_id: number }>(
    sql`select i, location_id from csv_import_targets`,
  );
  return new Map(rows.map((row) => [row.i, row.location_id]));
}

export function createLocationImportRepository() {
  return {
    /** One import per workspace at a time: two concurrent files would both miss each other's new rows. */
    lockWorkspace: (tx: Transaction, workspaceId: number) =>
      advisoryXactLock(tx, `csv_import:${workspaceId}`),
    createStaging,
    stageShared,
    matchStaged,
    settleGroups,
    earlierRows,
    moveTargets,
    dropStaged,
    stageOpening,
    writeStaged,
    stagedTargets,
    explainMatch,
    /** The server process of the transaction's connection, for cancelBackend. */
    async backendPid(tx: Transaction): Promise<number> {
      const [row] = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
      return row!.pid;
    },
    /**
     * Cancels the statement running on that server process, from another connection (its own
     * is busy). A cancel reaching it between statements is ignored, so callers also check
     * their signal between statements.
     */
    async cancelBackend(db: Executor, pid: number): Promise<void> {
      await db.execute(sql`select pg_cancel_backend(${pid})`);
    },
  };
}

export type LocationImportRepository = ReturnType<typeof createLocationImportRepository>;
