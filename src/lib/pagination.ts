// Optional paging of list endpoints (decisions §5): lists stay plain arrays; with `limit` or
// `offset` the page is cut in SQL and `X-Total-Count` carries the size of the whole list.
import type { FastifyReply } from 'fastify';
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

/** Sends the items, with X-Total-Count when the list was paged. */
export function sendList<T>(reply: FastifyReply, listed: Listed<T>): T[] {
  if (listed.total !== undefined) reply.header('x-total-count', String(listed.total));
  return listed.items;
}
