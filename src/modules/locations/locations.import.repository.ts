// The CSV import's SQL (decisions §5): a temporary staging table filled by COPY as the file is
// parsed, then a fixed number of set-based statements that apply the whole file (match,
// update, insert, tags). No statement runs per row. Everything runs on the caller's
// transaction, so a failed import leaves nothing behind.
import type { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.ts';
import { advisoryXactLock } from '../../db/locks.ts';
import { arrayLiteral, copyField } from '../../lib/pg-copy.ts';
import { findOrCreateTagsByName } from '../tags/tags.repository.ts';
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
import { normalize } from './locations.table.ts';

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

type CopyClient = { unsafe(text: string): { writable(): Promise<Writable> } };

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
  // Drizzle keeps the transaction's postgres.js client on `session.client`.
  const client = (tx as unknown as { session: { client: CopyClient } }).session.client;
  return client
    .unsafe(`copy csv_import_rows (${STAGING_COLUMNS.join(', ')}) from stdin with (format csv)`)
    .writable();
}

export interface ApplyOptions {
  workspaceId: number;
  layout: Layout;
  /** Whether the file may repeat a key (see looseKey); saves a pass over the rows when not. */
  mayRepeat: boolean;
  tagNames: string[];
}

/**
 * Applies the staged rows; returns the counts. The staging table is only read from here on:
 * what each row becomes lives in the narrow `csv_import_targets`, so no pass rewrites the
 * wide rows (temporary tables live in the small temp_buffers).
 */
async function applyStaged(tx: Transaction, { workspaceId, layout, mayRepeat, tagNames }: ApplyOptions) {
  const s = (column: string) => sql.raw(`s.${column}`);
  const matchKey = sql`${normalize(s('title'))} || '|' || ${normalize(s('address'))} || '|' || ${normalize(s('zip'))}`;
  // A key repeated in the file: the last row wins; the earlier ones count as updates of it.
  const keyed = mayRepeat
    ? sql`select distinct on (coalesce('e:' || external_id, 'k:' || match_key)) * from (
        select s.i, s.external_id, case when s.external_id is null then ${matchKey} end as match_key
        from csv_import_rows s) k
        order by coalesce('e:' || external_id, 'k:' || match_key), i desc`
    : sql`select s.i, s.external_id, case when s.external_id is null then ${matchKey} end as match_key
        from csv_import_rows s`;

  // Matching key (decisions §5): external_id when the row has one; otherwise title + address +
  // zip through the same expression as the generated column (lowest id when several match).
  // Rows without a match take their new id here, so tags can be linked without finding them again.
  await tx.execute(sql`
    create temporary table csv_import_targets on commit drop as
    with keyed as (${keyed})
    select m.i, coalesce(m.id, nextval(pg_get_serial_sequence('locations', 'id')))::int as location_id,
      m.id is not null as existed
    from (
      select k.i, l.id from keyed k
        left join locations l on l.workspace_id = ${workspaceId} and l.external_id = k.external_id
        where k.external_id is not null
      union all
      (select distinct on (k.i) k.i, l.id from keyed k
        left join locations l on l.workspace_id = ${workspaceId} and l.match_key = k.match_key
        where k.external_id is null
        order by k.i, l.id)
    ) m`);

  // Columns present in the file are written (an empty cell clears the value), except
  // external_id, which an empty cell never clears. Rows already equal to the file are left
  // alone: rewriting them would only churn indexes and WAL.
  const present = columns.filter((column) => layout.index[column] !== undefined);
  const target = (column: Column) =>
    column === 'external_id' ? sql`coalesce(s.external_id, l.external_id)` : s(column);
  const customValues = sql`(l.custom_values || s.custom_set) - s.custom_removed`;
  await tx.execute(sql`
    update locations l set ${sql.join(
      present.map((column) => sql`${sql.raw(column)} = ${target(column)}`),
      sql`, `,
    )}, custom_values = ${customValues}, updated_at = now()
    from csv_import_targets t join csv_import_rows s on s.i = t.i
    where t.existed and l.id = t.location_id and l.workspace_id = ${workspaceId}
      and ((${sql.join(
        present.map((column) => sql.raw(`l.${column}`)),
        sql`, `,
      )}, l.custom_values) is distinct from (${sql.join(present.map(target), sql`, `)}, ${customValues}))`);

  const inserted = await tx.execute(sql`
    insert into locations (id, workspace_id, ${sql.raw(columns.join(', '))}, custom_values)
    select t.location_id, ${workspaceId}, ${sql.join(
      columns.map((column) => s(column)),
      sql`, `,
    )}, s.custom_set
    from csv_import_targets t join csv_import_rows s on s.i = t.i
    where not t.existed order by s.i`);

  if (layout.index.tags !== undefined) await applyTags(tx, workspaceId, tagNames);

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
  };
}

export type LocationImportRepository = ReturnType<typeof createLocationImportRepository>;
