// Locations as the screens that pick them read them (a finder's own list, a holiday calendar's
// locations): the details of a page of them by id, in one list request, and a search of the
// workspace's locations as a name, address or city is typed.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';

export type LocationSummary = components['schemas']['Location'];

/** How many suggestions a search offers. */
const SUGGESTIONS = 20;

export const lookupKeys = {
  search: (workspaceId: number, q: string) => ['locations', workspaceId, 'search', q] as const,
};

/** Where a location is, as a list shows it beside its name: "street, city". */
export const placeOf = (location: LocationSummary) =>
  [location.address, location.city].filter(Boolean).join(', ');

/**
 * The details of a page of locations, in one list request by their ids; one deleted meanwhile is
 * simply not among them.
 */
export function useLocationsById(ids: number[]) {
  return useQuery({
    queryKey: ['locations', 'ids', ids],
    placeholderData: keepPreviousData,
    enabled: ids.length > 0,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/locations', { params: { query: { ids } }, signal })),
  });
}

export function useLocationSearch(workspaceId: number, q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: lookupKeys.search(workspaceId, text),
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/locations', {
          params: { query: { workspace_id: workspaceId, q: text || undefined, limit: SUGGESTIONS } },
        }),
      ),
  });
}
