// The CSV import's SQL (docs/api.md, CSV import): a temporary staging table filled by COPY as the
// file is parsed, then a fixed number of set-based statements that apply the whole file (match,
// update, insert, tags). No statement runs per row. Everything runs on the caller's transaction, so
// a failed import leaves nothing behind.
import type { Writable } from 'node:stream';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, sqlClientOf, type Transaction } from '../../../db/client.ts';
import { advisoryXactLock } from '../../../db/locks.ts';
import { arrayLiteral, copyField } from '../../../lib/pg-copy.ts';
import { findOrCreateTagsByName } from '../../tags/tags.repository.ts';
import { matchKeyOf } from '../locations.table.ts';
import {
  type Column,
  columns,
  type Layout,
  NO_VALUES,
  type ParsedRow,
  type TagCollector,
  type TextColumn,
  textColumns,
} from './locations.import.rows.ts';

/**
 * Staging: valid rows are streamed with COPY into a temporary table as the file is parsed, so
 * PostgreSQL ingests while Node parses. `applyStaged` then applies the whole file with a
 * fixed number of set-based statements.
 */
const STAGING_COLUMNS = ['i', ...columns, 'tag_slugs', 'custom_set', 'custom_removed'] as const;

const columnTypes: Record<Column, string> = {
  ...(Object.fromEntries(Object.keys(textColumns).map((column) => [column, 'text'])) as Record<
    TextColumn,
    string
  >),
  lat: 'double precision',
  lng: 'double precision',
};

/** The COPY line of one accepted row, in STAGING_COLUMNS order; `i` is its row number. */
export function copyLine(i: number, row: ParsedRow, tags: TagCollector): string {
  const fields = [String(i)];
  for (const column of columns) fields.push(copyField(row.values[column]));
  fields.push(row.tags === undefined ? '' : copyField(arrayLiteral(tags.slugsOf(row.tags))));
  fields.push(
    row.customSet === NO_VALUES ? '{}' : copyField(JSON.stringify(row.customSet)),
    row.customRemoved.length === 0 ? '{}' : copyField(arrayLiteral(row.customRemoved)),
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
      custom_set jsonb not null,
      custom_removed text[] not null
    ) on commit drop`),
  );
  return sqlClientOf(tx)
    .unsafe(`copy csv_import_rows (${STAGING_COLUMNS.join(', ')}) from stdin with (format csv)`)
    .writable();
}

export interface ApplyOptions {
  workspaceId: number;
  layout: Layout;
  /** Whether the file may repeat a key (see looseKey); saves a pass over the rows when not. */
  mayRepeat: boolean;
  tagNames: string[];
  /** Checked between statements: an import given up (client gone, time budget spent) stops there. */
  signal?: AbortSignal;
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
function matchTargetsQuery(workspaceId: number, mayRepeat: boolean): SQL {
  const matchKey = matchKeyOf((column) => sql.raw(`s.${column}`));
  // A key repeated in the file: the last row wins; the earlier ones count as updates of it.
  const keyed = mayRepeat
    ? sql`select distinct on (coalesce('e:' || external_id, 'k:' || match_key)) * from (
        select s.i, s.external_id, case when s.external_id is null then ${matchKey} end as match_key
        from csv_import_rows s) k
        order by coalesce('e:' || external_id, 'k:' || match_key), i desc`
    : sql`select s.i, s.external_id, case when s.external_id is null then ${matchKey} end as match_key
        from csv_import_rows s`;
  return sql`
    with keyed as (${keyed})
    select m.i, coalesce(m.id, nextval(pg_get_serial_sequence('locations', 'id')))::int as location_id,
      m.id is not null as existed
    from (
      select k.i, l.id from keyed k
        left join locations l on l.workspace_id = ${workspaceId} and l.external_id = k.external_id
        where k.external_id is not null
      union all
      select k.i, min(l.id) from keyed k
        left join locations l on l.workspace_id = ${workspaceId} and l.match_key = k.match_key
        where k.external_id is null
        group by k.i
    ) m
    order by m.i`;
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

/** The plan of the matching statement, as applyStaged runs it: for the test that keeps it linear. */
async function explainMatch(tx: Transaction, workspaceId: number, mayRepeat: boolean): Promise<string> {
  const rows = await withoutNestedLoops(tx, () =>
    tx.execute<{ 'QUERY PLAN': string }>(sql`explain ${matchTargetsQuery(workspaceId, mayRepeat)}`),
  );
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/**
 * Applies the staged rows; returns the counts. The staging table is only read from here on:
 * what each row becomes lives in the narrow `csv_import_targets`, so no pass rewrites the
 * wide rows (temporary tables live in the small temp_buffers).
 */
async function applyStaged(
  tx: Transaction,
  { workspaceId, layout, mayRepeat, tagNames, signal }: ApplyOptions,
) {
  const s = (column: string) => sql.raw(`s.${column}`);
  // Autovacuum never analyzes temporary tables: without this the planner guesses their size
  // and spread from their pages alone.
  signal?.throwIfAborted();
  await tx.execute(sql`analyze csv_import_rows`);
  await withoutNestedLoops(tx, () =>
    tx.execute(sql`
      create temporary table csv_import_targets on commit drop as ${matchTargetsQuery(workspaceId, mayRepeat)}`),
  );
  signal?.throwIfAborted();
  await tx.execute(sql`analyze csv_import_targets`);

  // Columns present in the file are written (an empty cell clears the value), except
  // external_id, which an empty cell never clears. Rows already equal to the file are left
  // alone: rewriting them would only churn indexes and WAL. Rows are found by primary key
  // alone: the targets were matched in this workspace under its lock, and a condition on
  // workspace_id would invite a nested loop walking the whole workspace per row (see
  // matchTargetsQuery); by primary key a nested loop is n probes, so it may stay enabled.
  const present = columns.filter((column) => layout.index[column] !== undefined);
  const target = (column: Column) =>
    column === 'external_id' ? sql`coalesce(s.external_id, l.external_id)` : s(column);
  const customValues = sql`(l.custom_values || s.custom_set) - s.custom_removed`;
  signal?.throwIfAborted();
  await tx.execute(sql`
    update locations l set ${sql.join(
      present.map((column) => sql`${sql.raw(column)} = ${target(column)}`),
      sql`, `,
    )}, custom_values = ${customValues}, updated_at = now()
    from csv_import_targets t join csv_import_rows s on s.i = t.i
    where t.existed and l.id = t.location_id
      and ((${sql.join(
        present.map((column) => sql.raw(`l.${column}`)),
        sql`, `,
      )}, l.custom_values) is distinct from (${sql.join(present.map(target), sql`, `)}, ${customValues}))`);

  signal?.throwIfAborted();
  const inserted = await tx.execute(sql`
    insert into locations (id, workspace_id, ${sql.raw(columns.join(', '))}, custom_values)
    select t.location_id, ${workspaceId}, ${sql.join(
      columns.map((column) => s(column)),
      sql`, `,
    )}, s.custom_set
    from csv_import_targets t join csv_import_rows s on s.i = t.i
    where not t.existed order by s.i`);

  signal?.throwIfAborted();
  if (layout.index.tags !== undefined) await applyTags(tx, workspaceId, tagNames);
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
    applyStaged,
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
