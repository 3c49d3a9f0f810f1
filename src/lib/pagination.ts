// Optional paging of list endpoints (docs/api.md, Conventions: Lists): lists stay plain arrays;
// with `limit` or `offset` the page is cut in SQL and `X-Total-Count` carries the size of the whole
// list (sendList in lib/http.ts). No HTTP and no database here: the queries that page a table
// are in db/lists.ts.
import { z } from 'zod';

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

/** Rows per query when a list is streamed in batches. */
export const LIST_BATCH_ROWS = 1000;
/** Ids read per query (from an index alone) before their rows are read in batches. */
const ID_WINDOW = 10_000;
/** Row batches read at once for one list: the database works while the last batch is sent. */
const PARALLEL_BATCHES = 2;

/**
 * Where a window of ids ended, so that the next starts after it (keyset): the last id and, in a
 * list ordered by something else first, that row's sort key as the source wrote it.
 */
export interface ListCursor {
  id: number;
  key?: string;
}

/** A window of ids in list order, with the sort key of the last when the list has one. */
export interface IdWindow {
  ids: number[];
  lastKey?: string;
  /**
   * The length of the whole list, when the statement of the first window had to find every row
   * anyway and counted them on the way; else the list is counted by a statement of its own.
   */
  total?: number;
}

/** Which ids a window holds: those after `after` (from the start when undefined), in order, skipping `offset`, at most `limit`. */
export interface IdRange {
  after: ListCursor | undefined;
  offset: number;
  limit: number;
}

/** Where a streamed list reads from: ids in order (cheap), then the JSON of given ids. */
export interface ListSource<T> {
  ids(range: IdRange): Promise<IdWindow>;
  /**
   * These rows in the order of the ids. Rows of locations come as JSON texts (bytes), where one
   * text may hold several rows already joined with commas.
   */
  rows(ids: number[]): Promise<T[]>;
}

/** A list to send as a JSON array: the first batch is read before anything is sent. */
export interface StreamedList<T = Buffer> {
  /** Present when the list was paged. */
  total?: number;
  first: T[];
  /** The batches after the first; empty when the first held the whole list. */
  rest: AsyncIterable<T[]>;
  /** Whether the first batch is the whole list (it can be sent with a Content-Length). */
  complete: boolean;
}

/**
 * A page (or the whole list) read in two steps: ids from an index alone, ID_WINDOW at a time by
 * keyset (after the last id, or the last sort key and id, of the window before; the offset is
 * applied once, to the first window, and skips index entries, not rows with their relations: a
 * deep page costs what the first costs); then their rows in batches of LIST_BATCH_ROWS,
 * PARALLEL_BATCHES at a time, sent in order. Memory holds a window of ids and a few batches,
 * whatever the list's length. The total, when paged, and the first batch are read here, so an
 * error in either is still an ordinary error answer; the rest is read as the client takes it.
 * Each statement stands alone (no transaction held open while a slow client reads): a row
 * written while a long list is being sent may or may not appear in it.
 */
export async function streamList<T>(
  page: Page,
  source: ListSource<T>,
  countAll: () => Promise<number>,
  batchRows = LIST_BATCH_ROWS,
): Promise<StreamedList<T>> {
  const limit = page.limit ?? Number.POSITIVE_INFINITY;
  let taken = 0;
  let after: ListCursor | undefined;
  let exhausted = false;
  let counted: number | undefined;
  /** The next window of ids; [] once the list is done. */
  async function nextIds(): Promise<number[]> {
    if (exhausted || taken >= limit) return [];
    const want = Math.min(ID_WINDOW, limit - taken);
    const first = after === undefined;
    const { ids, lastKey, total } = await source.ids({
      after,
      offset: first ? page.offset : 0,
      limit: want,
    });
    if (first) counted = total;
    taken += ids.length;
    if (ids.length > 0) after = { id: ids.at(-1)!, key: lastKey };
    if (ids.length < want || taken >= limit) exhausted = true;
    return ids;
  }

  let window = await nextIds();
  const total = page.paged ? (counted ?? (await countAll())) : undefined;
  const firstIds = window.slice(0, batchRows);
  window = window.slice(batchRows);
  const first = await source.rows(firstIds);
  const complete = window.length === 0 && exhausted;

  async function* rest(): AsyncGenerator<T[]> {
    const reading: Promise<T[]>[] = [];
    const fill = async () => {
      while (reading.length < PARALLEL_BATCHES) {
        if (window.length === 0) window = await nextIds();
        if (window.length === 0) return;
        const read = source.rows(window.slice(0, batchRows));
        read.catch(() => {}); // a client gone before it is awaited: not an unhandled rejection
        reading.push(read);
        window = window.slice(batchRows);
      }
    };
    if (complete) return;
    await fill();
    while (reading.length > 0) {
      const batch = await reading.shift()!;
      await fill();
      if (batch.length > 0) yield batch;
    }
  }
  return { total, first, rest: rest(), complete };
}

/** The batches of a streamed list, each row mapped (e.g. a table row to its payload). */
export async function* mapBatches<T, U>(
  batches: AsyncIterable<T[]>,
  map: (item: T) => U,
): AsyncGenerator<U[]> {
  for await (const batch of batches) yield batch.map(map);
}
