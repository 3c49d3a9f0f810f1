// The rules of one CSV row of a location import (docs/api.md, CSV import), with no I/O: which
// header is which column, what a row must hold, how its tags and custom values are read, and the
// loose key that spots repeated rows. locations.import.service.ts streams the file through these;
// locations.import.repository.ts stages and applies what they accept.
import { z } from 'zod';
import { createFieldError } from '../../../lib/errors.ts';
import {
  type Column,
  knownColumns,
  type NamedColumn,
  type OpeningColumn,
  type TextColumn,
  textColumns,
} from '../../../lib/location-csv-columns.ts';
import { nameSchema } from '../../../lib/schemas.ts';
import { slugify } from '../../../lib/slug.ts';
import type { CustomFieldDefinitionRow } from '../../custom-fields/custom-fields.table.ts';
import { checkCustomValues, valueFromText } from '../../custom-fields/custom-fields.values.ts';
import { normalizeWebsite, WEBSITE_MESSAGE } from '../locations.rules.ts';
import {
  type OpeningLayout,
  openingLayoutOf,
  type ParsedOpening,
  readOpening,
  zonesOfRow,
} from './locations.import.opening.ts';

export const CSV_MAX_BYTES = 50 * 1024 * 1024;
export const CSV_MAX_ROWS = 100_000;
/** The response lists at most this many row errors; `skipped` still counts every bad row. */
export const MAX_REPORTED_ERRORS = 1_000;

export interface RowError {
  row: number;
  field: string;
  message: string;
}

/** Where each known header sits in a record. */
export interface Layout {
  index: Partial<Record<Column | NamedColumn | OpeningColumn, number>>;
  custom: { index: number; definition: CustomFieldDefinitionRow }[];
  width: number;
  /** Which fields deciding the opening columns the file holds. */
  opening: OpeningLayout;
}

export interface ParsedRow {
  values: Partial<Record<Column, string | number | null>>;
  tags: string[] | undefined;
  /** The set names of the row (docs/api.md, CSV import), trimmed; undefined without a `sets` column. */
  sets: string[] | undefined;
  customSet: Record<string, unknown>;
  customRemoved: string[];
  opening: ParsedOpening;
}

const emailSchema = z.email();
export function readLayout(header: string[], definitions: CustomFieldDefinitionRow[]): Layout {
  const byName = new Map(definitions.map((definition) => [definition.name.toLowerCase(), definition]));
  const layout: Layout = { index: {}, custom: [], width: header.length, opening: openingLayoutOf({}) };
  header.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (knownColumns.has(name)) {
      layout.index[name as Column | OpeningColumn] ??= index;
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
  layout.opening = openingLayoutOf(layout.index);
  return layout;
}

/** The custom values of a row that sets none (shared, never mutated). */
export const NO_VALUES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

export function parseRow(
  record: string[],
  row: number,
  layout: Layout,
  errors: RowError[],
): ParsedRow | undefined {
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

  const tags = namesOf(record, layout.index.tags);
  if (tags?.some((tag) => tag.length > 80)) fail('tags', 'A tag may not be greater than 80 characters.');
  // A set's name follows the sets API's rule for it, message included.
  const sets = namesOf(record, layout.index.sets);
  const badSet = sets?.map((name) => nameSchema.safeParse(name)).find((parsed) => !parsed.success);
  if (badSet) fail('sets', badSet.error!.issues[0]!.message);

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

  const opening = readOpening(record, layout.index, fail);

  if (errors.length > before) return undefined;
  const zones = zonesOfRow(values.lat, values.lng, opening);
  if (zones) opening.zones = zones;
  return { values, tags, sets, customSet, customRemoved, opening };
}

/** The names of a `|`-separated cell, trimmed, blanks dropped; undefined when the column is absent. */
function namesOf(record: string[], index: number | undefined): string[] | undefined {
  if (index === undefined) return undefined;
  return record[index]!.split('|')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** Tags of the file: slug -> the first spelling, which names a tag that must be created. */
export class TagCollector {
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

/**
 * The matching key (docs/api.md, CSV import), coarser than PostgreSQL's (any Unicode case and
 * space), to spot possible repeats.
 */
export const looseKey = (row: ParsedRow) =>
  row.values.external_id
    ? `e:${row.values.external_id}`
    : `k:${[row.values.title, row.values.address, row.values.zip]
        .map((value) =>
          String(value ?? '')
            .replace(/\s+/g, '')
            .toLowerCase(),
        )
        .join('|')}`;
