// Optional paging of list endpoints (decisions §5): lists stay plain arrays; with `limit` or
// `offset` the page is cut in SQL and `X-Total-Count` carries the size of the whole list
// (sendList in lib/http.ts). No HTTP here: repositories use this file.
import { count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Executor } from '../db/client.ts';

export const MAX_PAGE_SIZE = 1000;

export const paginationQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

export type PageQuery = z.infer<typeof paginationQuerySchema>;

export interface Page {
  limit: number | undefined;
  offset: number;
  /** Whether the caller asked for paging, so the total must be counted and sent. */
  paged: boolean;
}

export const toPage = (query: PageQuery): Page => ({
  limit: query.limit,
  offset: query.offset ?? 0,
  paged: query.limit !== undefined || query.offset !== undefined,
});

export interface Listed<T> {
  items: T[];
  /** Present when the list was paged. */
  total?: number;
}

/** A Drizzle `$dynamic()` select: limit/offset change it in place. */
interface PageableQuery<T> extends PromiseLike<T[]> {
  limit(limit: number): unknown;
  offset(offset: number): unknown;
}

/** Runs the query for one page; counts the whole list only when the caller asked for paging. */
export async function fetchPage<T>(
  query: PageableQuery<T>,
  page: Page,
  countAll: () => Promise<number>,
): Promise<{ rows: T[]; total?: number }> {
  if (page.limit !== undefined) query.limit(page.limit);
  if (page.offset) query.offset(page.offset);
  const rows = await query;
  return page.paged ? { rows, total: await countAll() } : { rows };
}

/** count(*) of a table's rows under a condition. */
export async function countWhere(db: Executor, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ value: count() }).from(table).where(where);
  return row?.value ?? 0;
}
