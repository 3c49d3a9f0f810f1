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

/** Rows per query when a list is streamed in batches (keyset on id). */
export const LIST_BATCH_ROWS = 2000;

/** One batch of a list: rows already rendered as JSON texts, in id order. */
export interface ListBatch {
  json: string[];
  /** The id of the last row, where the next batch starts after. */
  lastId: number | undefined;
}

/** Fetches the rows after `afterId` (all when undefined), skipping `offset`, at most `limit`. */
export type FetchBatch = (range: {
  afterId: number | undefined;
  offset: number;
  limit: number;
}) => Promise<ListBatch>;

/** A list to send as a JSON array: the first batch is read before anything is sent. */
export interface StreamedList {
  /** Present when the list was paged. */
  total?: number;
  first: string[];
  /** The batches after the first; empty when the first held the whole list. */
  rest: AsyncIterable<string[]>;
  /** Whether the first batch is the whole list (it can be sent with a Content-Length). */
  complete: boolean;
}

/**
 * A page (or the whole list) read in batches of LIST_BATCH_ROWS by keyset on id: the offset is
 * applied once, to the first batch; each next batch starts after the last id sent, so a batch
 * costs the same however deep it lies. The first batch is read here, so an error in it is
 * still an ordinary error answer; the rest is read as the client takes it. Each batch is its
 * own statement (no transaction held open while a slow client reads): a row written while a
 * long list is being sent may or may not appear in it.
 */
export async function streamBatches(
  page: Page,
  fetchBatch: FetchBatch,
  countAll: () => Promise<number>,
  batchRows = LIST_BATCH_ROWS,
): Promise<StreamedList> {
  const total = page.paged ? await countAll() : undefined;
  let remaining = page.limit ?? Number.POSITIVE_INFINITY;
  const firstLimit = Math.min(batchRows, remaining);
  const first = await fetchBatch({ afterId: undefined, offset: page.offset, limit: firstLimit });
  remaining -= first.json.length;
  const complete = first.json.length < firstLimit || remaining <= 0;
  // One batch is read ahead while the one before is being sent, so the database and the
  // client's connection work at the same time; no more than two batches are held.
  const next = (afterId: number | undefined) => {
    const limit = Math.min(batchRows, remaining);
    const read = fetchBatch({ afterId, offset: 0, limit }).then((batch) => ({ batch, limit }));
    read.catch(() => {}); // a client gone before it is awaited: not an unhandled rejection
    return read;
  };
  async function* rest(): AsyncGenerator<string[]> {
    if (complete || first.lastId === undefined) return;
    let ahead = next(first.lastId);
    for (;;) {
      const { batch, limit } = await ahead;
      remaining -= batch.json.length;
      const more = batch.json.length === limit && remaining > 0 && batch.lastId !== undefined;
      if (more) ahead = next(batch.lastId);
      if (batch.json.length > 0) yield batch.json;
      if (!more) return;
    }
  }
  return { total, first: first.json, rest: rest(), complete };
}
