// A workspace's locations as the table reads them: pages of PAGE_SIZE rows by offset, each
// page a query of its own (cached, refetched when stale), the total from X-Total-Count.
// Only the pages of the rows on screen are requested, so 100,000 rows cost a few pages.
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { api, withTotal } from '../api/client.ts';
import type { components, operations } from '../api/schema.gen.ts';

export const PAGE_SIZE = 100;

export type Location = components['schemas']['Location'];
type ListQuery = NonNullable<operations['listLocations']['parameters']['query']>;
export const LOCATION_SORTS = ['title', '-title', 'city', '-city', 'updated_at', '-updated_at'] as const;
export type LocationSort = (typeof LOCATION_SORTS)[number];

export interface LocationFilter {
  workspaceId: number;
  q: string;
  sort: LocationSort | undefined;
  /** Only the locations without coordinates. */
  withoutCoordinates: boolean;
}

async function fetchPage(filter: LocationFilter, page: number, signal: AbortSignal) {
  // Typed by its declaration: openapi-fetch's inferred parameters would let an unknown key pass.
  const query: ListQuery = {
    workspace_id: filter.workspaceId,
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
    q: filter.q || undefined,
    sort: filter.sort,
    without_coordinates: filter.withoutCoordinates ? 'true' : undefined,
  };
  return withTotal(await api.GET('/api/locations', { params: { query }, signal }));
}

/** The pages holding rows `first` to `last`, and page 0 (the total) always. */
export function useLocationPages(filter: LocationFilter, first: number, last: number) {
  const pages = new Set([0]);
  for (let page = Math.floor(first / PAGE_SIZE); page <= Math.floor(last / PAGE_SIZE); page++)
    pages.add(page);
  const queries = useQueries({
    queries: [...pages].map((page) => ({
      queryKey: [
        'locations',
        filter.workspaceId,
        filter.q,
        filter.sort ?? 'id',
        filter.withoutCoordinates,
        page,
      ],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchPage(filter, page, signal),
      staleTime: 30_000,
      // While the next search's first page loads, the table keeps the last one's.
      placeholderData: page === 0 ? keepPreviousData : undefined,
    })),
  });
  const byPage = new Map([...pages].map((page, index) => [page, queries[index]]));
  const head = byPage.get(0);
  return {
    total: head?.data?.total,
    error: head?.error ?? null,
    isPending: head?.isPending ?? true,
    isFetching: head?.isFetching ?? false,
    refetch: () => head?.refetch(),
    row(index: number): Location | undefined {
      return byPage.get(Math.floor(index / PAGE_SIZE))?.data?.rows[index % PAGE_SIZE];
    },
  };
}
