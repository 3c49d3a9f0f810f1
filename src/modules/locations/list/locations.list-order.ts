// The orders of the location list (`sort`, docs/api.md, Locations): by a key, then by id, so
// that rows with equal keys keep one order and pages neither repeat nor skip a row. `-` before a
// field is the exact reverse (key and id both descending), so one index serves both
// directions. The index of each key is built on the expression sortKeyOf gives
// (locations.table.ts), and the list's keyset steps from window to window along the same
// expression.
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { ListCursor } from '../../../lib/pagination.ts';

type SortedField = 'id' | 'title' | 'city' | 'updated_at';
type KeyedField = Exclude<SortedField, 'id'>;

/** Every value of `sort`: a field, ascending, or `-` and the field, descending. */
export const LOCATION_SORTS = [
  'id',
  '-id',
  'title',
  '-title',
  'city',
  '-city',
  'updated_at',
  '-updated_at',
] as const satisfies readonly (SortedField | `-${SortedField}`)[];
export type LocationSort = (typeof LOCATION_SORTS)[number];
export const DEFAULT_LOCATION_SORT: LocationSort = 'id';

/** How a query writes a column of `locations` (the index writes it bare). */
export type ColumnOf = (name: SortedField) => SQLWrapper;

/**
 * The key of each field but the id, never null so that a keyset can compare it, with the type
 * its text form is read back as. Texts are compared lower-cased: "apple" sits beside "Apple",
 * not after "Zebra"; a missing city is '', before every other.
 */
const KEYS: Record<KeyedField, { key: (column: ColumnOf) => SQL; type: 'text' | 'timestamptz' }> = {
  title: { key: (column) => sql`lower(${column('title')})`, type: 'text' },
  city: { key: (column) => sql`lower(coalesce(${column('city')}, ''))`, type: 'text' },
  updated_at: { key: (column) => sql`${column('updated_at')}`, type: 'timestamptz' },
};

/** The sort key of a field, as its index is built on it. */
export const sortKeyOf = (field: KeyedField, column: ColumnOf): SQL => KEYS[field].key(column);

export interface ListOrder {
  /** ORDER BY: the key, then the id, in the sort's direction. */
  orderBy: SQL[];
  /** The key of a row, selected beside its id as `k`; undefined in the order by id. */
  key: SQL | undefined;
  /** ORDER BY over rows already selected as `id` and `k`. */
  bySelected: SQL;
  /** The rows after `cursor` in this order. */
  after(cursor: ListCursor): SQL;
  /**
   * One row for a window of the list, from `rows` (its `id`, with a key `k`, and `total` when
   * counted, already ordered and cut): the ids in order as one comma-separated text, the last
   * one's key as text (null without a key) and the total (null when not counted).
   */
  window(rows: SQL, counted: boolean): SQL;
}

const totalOf = (counted: boolean) => sql.raw(counted ? 'max(total)' : 'null');

export function listOrder(sort: LocationSort, column: ColumnOf): ListOrder {
  const descending = sort.startsWith('-');
  const field = (descending ? sort.slice(1) : sort) as SortedField;
  const direction = sql.raw(descending ? 'desc' : 'asc');
  const beyond = sql.raw(descending ? '<' : '>');
  const id = sql`${column('id')}`;
  if (field === 'id') {
    const bySelected = sql`id ${direction}`;
    return {
      orderBy: [sql`${id} ${direction}`],
      key: undefined,
      bySelected,
      after: (cursor) => sql`${id} ${beyond} ${cursor.id}`,
      window: (rows, counted) =>
        sql`select string_agg(id::text, ',' order by ${bySelected}), null, ${totalOf(counted)} from (${rows}) w`,
    };
  }
  const { key: keyOf, type } = KEYS[field];
  const key = keyOf(column);
  // The last row of a window has the greatest key of it (the least, descending).
  const last = sql.raw(descending ? 'min' : 'max');
  const bySelected = sql`k ${direction}, id ${direction}`;
  return {
    orderBy: [sql`${key} ${direction}`, sql`${id} ${direction}`],
    key,
    bySelected,
    after: (cursor) => {
      if (cursor.key === undefined)
        throw new Error(`a list by ${sort} steps on with the key of its last row`);
      return sql`(${key}, ${id}) ${beyond} (${cursor.key}::${sql.raw(type)}, ${cursor.id})`;
    },
    window: (rows, counted) =>
      sql`select string_agg(id::text, ',' order by ${bySelected}), ${last}(k)::text, ${totalOf(counted)}
        from (${rows}) w`,
  };
}
