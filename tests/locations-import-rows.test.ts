// The row rules of the CSV import, without a database: headers to columns, what a row must
// hold, tags and custom values, the loose repeat key, and the COPY line a row becomes.
import { describe, expect, it } from 'vitest';
import { arrayLiteral, copyField } from '../src/lib/pg-copy.ts';
import type { CustomFieldDefinitionRow } from '../src/modules/custom-fields/custom-fields.table.ts';
import { copyLine } from '../src/modules/locations/import/locations.import.repository.ts';
import {
  type Layout,
  looseKey,
  NO_VALUES,
  parseRow,
  type RowError,
  readLayout,
  TagCollector,
} from '../src/modules/locations/import/locations.import.rows.ts';
import { StagedValues } from '../src/modules/locations/import/locations.import.shared.ts';

const definition = (name: string, type: string, options: string[] | null = null) =>
  ({
    id: name.length,
    workspaceId: 1,
    name,
    label: name,
    type,
    options,
    required: false,
    sortOrder: 0,
    createdAt: new Date(),
    updatedAt: new Date(),
  }) as CustomFieldDefinitionRow;

const seats = definition('seats', 'number');
const kind = definition('Kind', 'select', ['shop', 'depot']);

function parse(layout: Layout, record: string[]) {
  const errors: RowError[] = [];
  return { row: parseRow(record, 2, layout, errors), errors };
}

describe('readLayout', () => {
  it('matches headers case-insensitively, ignores unknown columns and finds custom fields by name', () => {
    const layout = readLayout([' Title ', 'ADDRESS', 'zip', 'notes', 'seats', 'kind', 'Tags'], [seats, kind]);
    expect(layout.index).toEqual({ title: 0, address: 1, zip: 2, tags: 6 });
    expect(layout.custom.map((entry) => [entry.index, entry.definition.name])).toEqual([
      [4, 'seats'],
      [5, 'Kind'],
    ]);
    expect(layout.width).toBe(7);
  });

  it('keeps the first of two columns with the same name', () => {
    expect(readLayout(['title', 'address', 'Title'], []).index.title).toBe(0);
  });

  it('refuses a header without title or address', () => {
    expect(() => readLayout(['title', 'city'], [])).toThrow(
      expect.objectContaining({ statusCode: 422, errors: { file: [expect.stringContaining('address')] } }),
    );
  });
});

describe('parseRow', () => {
  const layout = readLayout(
    ['title', 'address', 'zip', 'lat', 'lng', 'email', 'website', 'external_id', 'tags', 'seats', 'kind'],
    [seats, kind],
  );

  it('trims values, turns empty cells into null, reads numbers, tags and custom values', () => {
    const { row, errors } = parse(layout, [
      ' Shop ',
      '1 Main St',
      '',
      '52.5',
      '13.4',
      'a@b.example',
      'shop.example/x',
      '',
      'Drive-thru | Late | ',
      '12',
      'shop',
    ]);
    expect(errors).toEqual([]);
    expect(row).toEqual({
      values: {
        title: 'Shop',
        address: '1 Main St',
        zip: null,
        lat: 52.5,
        lng: 13.4,
        email: 'a@b.example',
        website: 'https://shop.example/x',
        external_id: null,
      },
      tags: ['Drive-thru', 'Late'],
      customSet: { seats: 12, Kind: 'shop' },
      customRemoved: [],
      // The zones at the row's point, found as it is read, for the time zone derived after the match.
      opening: { zones: ['Europe/Berlin'] },
    });
  });

  it('lists an empty custom cell as a removal', () => {
    const { row } = parse(layout, ['Shop', 'A', '', '', '', '', '', '', '', '', '']);
    expect(row?.customRemoved.sort()).toEqual(['Kind', 'seats']);
    expect(row?.customSet).toEqual({});
  });

  it.each([
    [['', 'A', '', '', '', '', '', '', '', '', ''], 'title'],
    [['Shop', ' ', '', '', '', '', '', '', '', '', ''], 'address'],
    [['Shop', 'A', '', '91', '', '', '', '', '', '', ''], 'lat'],
    [['Shop', 'A', '', '', 'east', '', '', '', '', '', ''], 'lng'],
    [['Shop', 'A', '', '', '', 'not-an-email', '', '', '', '', ''], 'email'],
    [['Shop', 'A', '', '', '', '', 'javascript:alert(1)', '', '', '', ''], 'website'],
    [['Shop', 'A', '', '', '', '', '', '', 'x'.repeat(81), '', ''], 'tags'],
    [['Shop', 'A', '', '', '', '', '', '', '', 'many', ''], 'custom_fields.seats'],
    [['Shop', 'A', '', '', '', '', '', '', '', '', 'castle'], 'custom_fields.Kind'],
    [['Shop', 'A'], 'row'],
  ])('skips %j with an error on %s', (record, field) => {
    const { row, errors } = parse(layout, record);
    expect(row).toBeUndefined();
    expect(errors.map((error) => error.field)).toContain(field);
    expect(errors.every((error) => error.row === 2)).toBe(true);
  });

  it('refuses a value over its length limit', () => {
    const { errors } = parse(readLayout(['title', 'address'], []), ['x'.repeat(256), 'A']);
    expect(errors).toEqual([{ row: 2, field: 'title', message: expect.stringContaining('255') }]);
  });
});

describe('parseRow: the sets column', () => {
  const layout = readLayout(['title', 'address', 'sets'], []);

  it('splits on |, trims and drops blanks; without the column there are none to apply', () => {
    expect(parse(layout, ['Shop', 'A', ' Outlets | |Flagship|']).row?.sets).toEqual(['Outlets', 'Flagship']);
    expect(parse(layout, ['Shop', 'A', ' ']).row?.sets).toEqual([]);
    expect(parse(readLayout(['title', 'address'], []), ['Shop', 'A']).row?.sets).toBeUndefined();
  });

  it('refuses a name the sets API refuses, with its message', () => {
    const { row, errors } = parse(layout, ['Shop', 'A', `Fine|${'x'.repeat(256)}`]);
    expect(row).toBeUndefined();
    expect(errors).toEqual([
      { row: 2, field: 'sets', message: 'The name may not be greater than 255 characters.' },
    ]);
    expect(parse(layout, ['Shop', 'A', ` ${'x'.repeat(255)} `]).errors).toEqual([]);
  });
});

describe('looseKey', () => {
  const row = (values: Record<string, string | null>) => ({
    values,
    tags: undefined,
    sets: undefined,
    customSet: NO_VALUES,
    customRemoved: [],
    opening: {},
  });

  it('is the external id when the row has one', () => {
    expect(looseKey(row({ external_id: 'S-1', title: 'A', address: 'B' }))).toBe('e:S-1');
  });

  it('is title, address and zip without case or spaces otherwise', () => {
    expect(looseKey(row({ title: 'My Shop', address: '1 Main  St', zip: null }))).toBe(
      looseKey(row({ title: 'myshop', address: '1MAIN ST', zip: '' })),
    );
  });
});

describe('TagCollector', () => {
  it('gives each name its slug and remembers the first spelling of each slug', () => {
    const tags = new TagCollector();
    expect(tags.slugsOf(['Drive Thru', 'drive-thru', 'Café'])).toEqual(['drive-thru', 'cafe']);
    expect([...tags.names]).toEqual([
      ['drive-thru', 'Drive Thru'],
      ['cafe', 'Café'],
    ]);
  });
});

describe('COPY encoding', () => {
  it('quotes only what needs quoting and keeps NULL and empty apart', () => {
    expect(copyField(null)).toBe('');
    expect(copyField('')).toBe('""');
    expect(copyField('plain')).toBe('plain');
    expect(copyField('a,"b"\nc')).toBe('"a,""b""\nc"');
    expect(copyField(1.5)).toBe('1.5');
    expect(arrayLiteral(['a', 'null', 'q"\\'])).toBe('{"a","null","q\\"\\\\"}');
  });

  it('writes one staging line per accepted row', () => {
    const layout = readLayout(['title', 'address', 'tags', 'seats'], [seats]);
    const { row } = parse(layout, ['Shop, Inc', '1 Main St', 'Late', '3']);
    const line = copyLine(7, row!, new StagedValues());
    expect(line.endsWith('\n')).toBe(true);
    expect(line).toMatch(/^7,"Shop, Inc",1 Main St,/);
    expect(line).toContain('"{""late""}"');
    expect(line).toContain('"{""seats"":3}"');
  });
});
