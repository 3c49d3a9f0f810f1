// CSV import of locations (decisions §5). The file is parsed as a stream with csv-parse and
// written in batches inside one transaction: a batch costs a fixed number of statements
// (match, update, insert, tags), never a query per row. A bad row is reported and skipped;
// a broken file (not CSV, no title/address column, too many rows) rolls everything back.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Transaction } from '../../db/client.ts';
import { createFieldError } from '../../lib/errors.ts';
import { slugify } from '../../lib/slug.ts';
import type { CustomFieldDefinitionRow } from '../custom-fields/custom-fields.table.ts';
import { checkCustomValues, valueFromText } from '../custom-fields/custom-fields.values.ts';
import { processEventsTable, processesTable } from '../processes/processes.table.ts';
import { findOrCreateTagsByName } from '../tags/tags.repository.ts';
import type { LocationsRepository } from './locations.repository.ts';
import { normalizeWebsite, WEBSITE_MESSAGE } from './locations.rules.ts';
import { normalize } from './locations.table.ts';

export const CSV_MAX_BYTES = 50 * 1024 * 1024;
export const CSV_MAX_ROWS = 100_000;
/** The response lists at most this many row errors; `skipped` still counts every bad row. */
export const MAX_REPORTED_ERRORS = 1_000;

export interface RowError {
  row: number;
  field: string;
  message: string;
}

export interface ImportResult {
  created: number;
  updated: number;
  skipped: number;
  errors: RowError[];
  process_id: number;
}

/** Plain text columns and their length limits (the same as the location API). */
const textColumns = {
  title: 255,
  address: 255,
  external_id: 255,
  description: 10_000,
  city: 120,
  state: 120,
  country: 120,
  zip: 40,
  phone: 120,
  email: 255,
  website: 2048,
} as const;
type TextColumn = keyof typeof textColumns;
type Column = TextColumn | 'lat' | 'lng';
const columns: Column[] = [...(Object.keys(textColumns) as TextColumn[]), 'lat', 'lng'];
const knownColumns = new Set<string>([...columns, 'tags']);

/** Where each known header sits in a record. */
interface Layout {
  index: Partial<Record<Column | 'tags', number>>;
  custom: { index: number; definition: CustomFieldDefinitionRow }[];
  width: number;
}

interface ParsedRow {
  values: Partial<Record<Column, string | number | null>>;
  tags: string[] | undefined;
  customSet: Record<string, unknown>;
  customRemoved: string[];
}

const emailSchema = z.email();
function readLayout(header: string[], definitions: CustomFieldDefinitionRow[]): Layout {
  const byName = new Map(definitions.map((definition) => [definition.name.toLowerCase(), definition]));
  const layout: Layout = { index: {}, custom: [], width: header.length };
  header.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (knownColumns.has(name)) {
      layout.index[name as Column] ??= index;
      return;
    }
    const definition = byName.get(name);
    if (definition && !layout.custom.some((entry) => entry.definition.id === definition.id)) {
      layout.custom.push({ index, definition });
    }
  });
  if (layout.index.title === undefined || layout.index.address === undefined) {
    throw createFieldError('file', 'The CSV file must have a title and an address column.');
  }
  return layout;
}

/** The custom values of a row that sets none (shared, never mutated). */
const NO_VALUES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

function parseRow(record: string[], row: number, layout: Layout, errors: RowError[]): ParsedRow | undefined {
  const before = errors.length;
  const fail = (field: string, message: string) => errors.push({ row, field, message });
  if (record.length !== layout.width) {
    fail('row', `The row has ${record.length} columns; the header has ${layout.width}.`);
    return undefined;
  }
  const values: ParsedRow['values'] = {};
  for (const column of Object.keys(textColumns) as TextColumn[]) {
    const index = layout.index[column];
    if (index === undefined) continue;
    const value = record[index]!.trim();
    if (value.length > textColumns[column]) {
      fail(
        column,
        `The ${column.replace('_', ' ')} may not be greater than ${textColumns[column]} characters.`,
      );
    }
    values[column] = value === '' ? null : value;
  }
  if (!values.title) fail('title', 'The title field is required.');
  if (!values.address) fail('address', 'The address field is required.');
  for (const [column, limit] of [
    ['lat', 90],
    ['lng', 180],
  ] as const) {
    const index = layout.index[column];
    if (index === undefined) continue;
    const text = record[index]!.trim();
    if (text === '') {
      values[column] = null;
      continue;
    }
    const number = Number(text);
    if (!Number.isFinite(number) || Math.abs(number) > limit) {
      fail(column, `The ${column} must be a number between -${limit} and ${limit}.`);
    }
    values[column] = number;
  }
  if (typeof values.email === 'string' && !emailSchema.safeParse(values.email).success) {
    fail('email', 'The email must be a valid email address.');
  }
  if (typeof values.website === 'string') {
    const website = normalizeWebsite(values.website);
    if (website === undefined) fail('website', WEBSITE_MESSAGE);
    else values.website = website;
  }

  let tags: string[] | undefined;
  if (layout.index.tags !== undefined) {
    tags = record[layout.index.tags]!.split('|')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
    if (tags.some((tag) => tag.length > 80)) fail('tags', 'A tag may not be greater than 80 characters.');
  }

  let customSet: Record<string, unknown> = NO_VALUES;
  const customRemoved: string[] = [];
  if (layout.custom.length > 0) {
    customSet = {};
    const input: Record<string, unknown> = {};
    for (const { index, definition } of layout.custom) {
      const text = record[index]!;
      input[definition.name] = text.trim() === '' ? null : valueFromText(definition, text);
    }
    const checked = checkCustomValues(
      layout.custom.map((entry) => entry.definition),
      input,
      { enforceRequired: false },
    );
    for (const [field, messages] of Object.entries(checked.errors)) fail(field, messages[0]!);
    for (const [name, value] of Object.entries(checked.values)) {
      if (value === null) customRemoved.push(name);
      else customSet[name] = value;
    }
  }

  if (errors.length > before) return undefined;
  return { values, tags, customSet, customRemoved };
}

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

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field for COPY. Only an unquoted empty field means NULL, so '' is sent quoted. */
function copyField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (value === '' || NEEDS_QUOTES.test(value)) return `"${value.replaceAll('"', '""')}"`;
  return value;
}

/** A PostgreSQL array literal of text, every element quoted (so "null" stays a string). */
const arrayLiteral = (values: readonly string[]) =>
  `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/** Tags of the file: slug -> the first spelling, which names a tag that must be created. */
class TagCollector {
  readonly names = new Map<string, string>();
  private readonly slugs = new Map<string, string>();

  slugsOf(names: string[]): string[] {
    const slugs = new Set<string>();
    for (const name of names) {
      let slug = this.slugs.get(name);
      if (slug === undefined) {
        slug = slugify(name);
        this.slugs.set(name, slug);
        if (!this.names.has(slug)) this.names.set(slug, name);
      }
      slugs.add(slug);
    }
    return [...slugs];
  }
}

function copyLine(i: number, row: ParsedRow, tags: TagCollector): string {
  const fields = [String(i)];
  for (const column of columns) fields.push(copyField(row.values[column]));
  fields.push(row.tags === undefined ? '' : copyField(arrayLiteral(tags.slugsOf(row.tags))));
  fields.push(
    row.customSet === NO_VALUES ? '{}' : copyField(JSON.stringify(row.customSet)),
    row.customRemoved.length === 0 ? '{}' : copyField(arrayLiteral(row.customRemoved)),
  );
  return `${fields.join(',')}\n`;
}

/** The key of decisions §5, coarser than PostgreSQL's (any Unicode case and space), to spot possible repeats. */
const looseKey = (row: ParsedRow) =>
  row.values.external_id
    ? `e:${row.values.external_id}`
    : `k:${[row.values.title, row.values.address, row.values.zip]
        .map((value) =>
          String(value ?? '')
            .replace(/\s+/g, '')
            .toLowerCase(),
        )
        .join('|')}`;

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

interface ApplyOptions {
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

export interface ImportInput {
  workspaceId: number;
  userId: number;
  /** The uploaded file, spooled to disk by the route. */
  path: string;
  fileName: string;
  bytes: number;
}

/** Refuses files that are not text: NUL bytes never occur in a CSV file. */
async function assertLooksLikeText(path: string) {
  const file = await open(path);
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(8192), 0, 8192, 0);
    if (buffer.subarray(0, bytesRead).includes(0))
      throw createFieldError('file', 'The file is not a CSV file.');
  } finally {
    await file.close();
  }
}

export function createLocationImporter({ db, locations }: { db: Database; locations: LocationsRepository }) {
  return async function importCsv(input: ImportInput): Promise<ImportResult> {
    const startedAt = new Date();
    return db.transaction(async (tx) => {
      // One import per workspace at a time: two concurrent files would both miss each other's new rows.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`csv_import:${input.workspaceId}`}, 0))`,
      );
      const definitions = await locations.definitions(input.workspaceId, tx);
      const errors: RowError[] = [];
      let skipped = 0;
      let rows = 0;
      let layout: Layout | undefined;

      await assertLooksLikeText(input.path);
      const copy = await createStaging(tx);
      const tags = new TagCollector();
      const keys = new Set<string>();
      let mayRepeat = false;
      const source = createReadStream(input.path, { highWaterMark: 256 * 1024 });
      const parser = parse({
        bom: true,
        relax_column_count: true,
        skip_empty_lines: true,
        max_record_size: 1024 * 1024,
      });

      // parse -> check -> COPY lines, with backpressure end to end.
      async function* stage(records: AsyncIterable<string[]>) {
        let chunk = '';
        for await (const record of records) {
          if (!layout) {
            layout = readLayout(record, definitions);
            continue;
          }
          rows += 1;
          if (rows > CSV_MAX_ROWS) {
            throw createFieldError('file', `The file may not have more than ${CSV_MAX_ROWS} rows.`);
          }
          const rowErrors: RowError[] = [];
          // Row numbers count the header as row 1, like a spreadsheet.
          const parsed = parseRow(record, rows + 1, layout, rowErrors);
          if (!parsed) {
            skipped += 1;
            for (const error of rowErrors) if (errors.length < MAX_REPORTED_ERRORS) errors.push(error);
            continue;
          }
          const key = looseKey(parsed);
          if (keys.has(key)) mayRepeat = true;
          else keys.add(key);
          chunk += copyLine(rows, parsed, tags);
          if (chunk.length > 64 * 1024) {
            yield chunk;
            chunk = '';
          }
        }
        if (chunk) yield chunk;
      }

      try {
        await pipeline(source, parser, stage, copy);
      } catch (error) {
        if (error instanceof CsvError) {
          throw createFieldError('file', `The file is not valid CSV: ${error.message}`);
        }
        throw error;
      }
      if (!layout) throw createFieldError('file', 'The file is empty.');
      const applied = await applyStaged(tx, {
        workspaceId: input.workspaceId,
        layout,
        mayRepeat,
        tagNames: [...tags.names.values()],
      });

      const result = { created: applied.created, updated: applied.updated, skipped, error_count: skipped };
      const [process] = await tx
        .insert(processesTable)
        .values({
          workspaceId: input.workspaceId,
          userId: input.userId,
          type: 'csv_import',
          status: 'completed',
          progressPercent: 100,
          currentStep: 'completed',
          summary: { ...result, rows, file_name: input.fileName, bytes: input.bytes },
          inputPayload: { file_name: input.fileName, bytes: input.bytes },
          attempts: 1,
          startedAt,
          finishedAt: new Date(),
        })
        .returning({ id: processesTable.id });
      await tx.insert(processEventsTable).values({
        processId: process!.id,
        type: 'step',
        status: 'completed',
        progressPercent: 100,
        step: 'completed',
        message: `Imported ${rows} rows: ${result.created} created, ${result.updated} updated, ${skipped} skipped.`,
        payload: result,
      });
      return { created: result.created, updated: result.updated, skipped, errors, process_id: process!.id };
    });
  };
}

export type LocationImporter = ReturnType<typeof createLocationImporter>;
