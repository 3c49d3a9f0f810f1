// Where a finder's locations come from, as its Locations tab reads and changes them: its backing
// map (whose sets, the product's categories, and direct locations it also shows), how many
// locations it shows in all, the details of its own locations by id, and a search of the
// workspace's locations to add one.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, withTotal } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { components } from '../api/schema.gen.ts';
import { errorText } from '../ui/error-notice.tsx';

export type BackingMap = components['schemas']['Map'];
export type FinderLocation = components['schemas']['Location'];

export const sourceKeys = {
  map: (mapId: number) => ['maps', 'one', mapId] as const,
  shown: (finderId: number) => ['locations', 'finder', finderId, 'total'] as const,
  search: (workspaceId: number, q: string) => ['locations', workspaceId, 'search', q] as const,
};

/** The most locations a finder lists of its own (PUT /finders/{id}). */
export const MAX_FINDER_LOCATIONS = 10_000;
/** How many suggestions the add search offers. */
const SUGGESTIONS = 20;

export function useBackingMap(mapId: number | undefined) {
  return useQuery({
    queryKey: sourceKeys.map(mapId ?? 0),
    enabled: mapId !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/maps/{id}', { params: { path: { id: mapId as number } } })),
    // A map that is not the caller's answers 404; asking again changes nothing.
    retry: false,
  });
}

export function useSaveMapSets(mapId: number, finderId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (sets: number[]) =>
      unwrap(await api.PUT('/api/maps/{id}', { params: { path: { id: mapId } }, body: { sets } })),
    onSuccess(map) {
      queryClient.setQueryData(sourceKeys.map(mapId), map);
      void queryClient.invalidateQueries({ queryKey: sourceKeys.shown(finderId) });
    },
  });
}

/** Every location the finder shows: its own, its map's and its map's sets', each once. */
export function useShownTotal(finderId: number) {
  return useQuery({
    queryKey: sourceKeys.shown(finderId),
    queryFn: async () =>
      withTotal(await api.GET('/api/locations', { params: { query: { finder_id: finderId, limit: 1 } } }))
        .total,
  });
}

/**
 * The details of a page of the finder's own locations, in one list request by their ids; one
 * deleted meanwhile is simply not among them.
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
    queryKey: sourceKeys.search(workspaceId, text),
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/locations', {
          params: { query: { workspace_id: workspaceId, q: text || undefined, limit: SUGGESTIONS } },
        }),
      ),
  });
}

/**
 * What a refused save names, as one sentence: the service names the refused ids in its field
 * messages (`errors.sets` of a map, `errors.locations` of a finder), which belong to no single
 * control of these forms. Undefined when the error is no such refusal.
 */
export function refusalOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 422)) return undefined;
  const messages = Object.values(error.fields).flat();
  return messages.length > 0 ? messages.join(' ') : undefined;
}

/** A failed save as a sentence: the refusal's own words, else the error's plain sentence. */
export const refusalText = (error: unknown) => refusalOf(error) ?? errorText(error);
