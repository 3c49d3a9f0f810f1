// The one list of a location's JSON fields (src/modules/locations/json/locations.json-fields.ts)
// against what holds it and what is derived from it: the columns of the latest drizzle-kit
// snapshot (each field a column of its type and nullability, the stored columns' expressions
// as drizzle-kit compares them, so a field added without its migration fails here), and the
// keys of the API's and the payload's schemas, in order.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getTableConfig, PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { payloadLocationSchema } from '../src/modules/finders/payload/finders.payload.schemas.ts';
import {
  LIST_RELATIONS,
  LOCATION_FIELDS,
  OWN_FIELDS,
  type OwnFieldType,
  PAYLOAD_FIELDS,
  PAYLOAD_RELATIONS,
} from '../src/modules/locations/json/locations.json-fields.ts';
import { locationSchema } from '../src/modules/locations/locations.schemas.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';

interface SnapshotColumn {
  type: string;
  notNull: boolean;
  generated?: { as: string };
}

function latestLocationsColumns(): Record<string, SnapshotColumn> {
  const meta = path.resolve('drizzle/meta');
  const journal = JSON.parse(readFileSync(path.join(meta, '_journal.json'), 'utf8')) as {
    entries: { idx: number }[];
  };
  const latest = journal.entries.at(-1)!.idx;
  const snapshot = JSON.parse(
    readFileSync(path.join(meta, `${String(latest).padStart(4, '0')}_snapshot.json`), 'utf8'),
  ) as { tables: Record<string, { columns: Record<string, SnapshotColumn> }> };
  return snapshot.tables['public.locations']!.columns;
}

const columnTypes: Record<OwnFieldType, string[]> = {
  integer: ['integer', 'serial'],
  text: ['text'],
  float: ['double precision'],
  time: ['timestamp with time zone'],
  boolean: ['boolean'],
  weekly_hours: ['json'],
  special_hours: ['json'],
};

describe('the fields of a location', () => {
  const columns = latestLocationsColumns();

  it('are columns of the migrated table, of their type and nullability', () => {
    for (const field of OWN_FIELDS) {
      const column = columns[field.key];
      expect(column, field.key).toBeDefined();
      expect(columnTypes[field.type], field.key).toContain(column!.type);
      expect(column!.notNull, field.key).toBe(!('nullable' in field && field.nullable));
    }
  });

  it('give the stored columns the expressions the migrations created', () => {
    const dialect = new PgDialect();
    const generated = (name: string) => {
      const column = getTableConfig(locationsTable).columns.find(
        (candidate) =>
          candidate.name === name || candidate.name === name.replace(/_(\w)/g, (_, c) => c.toUpperCase()),
      );
      const as = column?.generated?.as;
      return typeof as === 'function' ? dialect.sqlToQuery(as()).sql : undefined;
    };
    expect(generated('listed_json_head')).toBe(columns.listed_json_head!.generated!.as);
    expect(generated('listed_json_tail')).toBe(columns.listed_json_tail!.generated!.as);
  });

  it('are the keys of the API’s location and of the payload’s, in their order', () => {
    expect(Object.keys(locationSchema.shape)).toEqual([
      ...LOCATION_FIELDS.lead.map((field) => field.key),
      ...LOCATION_FIELDS.head.map((field) => field.key),
      ...LIST_RELATIONS,
      ...LOCATION_FIELDS.tail.map((field) => field.key),
    ]);
    expect(Object.keys(payloadLocationSchema.shape)).toEqual([
      ...PAYLOAD_FIELDS.map((field) => field.key),
      ...PAYLOAD_RELATIONS,
    ]);
  });
});
