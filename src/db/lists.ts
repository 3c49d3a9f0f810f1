// Queries that page or stream a whole table (lib/pagination.ts holds the paging rules without
// the database).
import { and, asc, count, gt, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type Page, type StreamedList, streamList } from '../lib/pagination.ts';
import type { Executor } from './client.ts';

/** count(*) of a table's rows under a condition. */
export async function countWhere(db: Executor, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ value: count() }).from(table).where(where);
  return row?.value ?? 0;
}

/**
 * streamList over one table with an integer `id` primary key: ids by keyset on it, then each
 * batch's rows by id. For lists whose rows need nothing beyond their own columns.
 */
export function streamTable<Row>(
  db: Executor,
  table: PgTable & { id: PgColumn },
  where: SQL | undefined,
  page: Page,
): Promise<StreamedList<Row>> {
  return streamList<Row>(
    page,
    {
      ids: async ({ after, offset, limit }) => {
        const rows = await db
          .select({ id: table.id })
          .from(table as PgTable)
          .where(and(where, after === undefined ? undefined : gt(table.id, after.id)))
          .orderBy(asc(table.id))
          .limit(limit)
          .offset(offset);
        return { ids: rows.map((row) => row.id as number) };
      },
      rows: async (ids) =>
        ids.length === 0
          ? []
          : ((await db
              .select()
              .from(table as PgTable)
              .where(inArray(table.id, ids))
              .orderBy(asc(table.id))) as Row[]),
    },
    () => countWhere(db, table, where),
  );
}
