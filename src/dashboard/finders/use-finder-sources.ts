// Where a finder's locations come from, as its Locations tab reads and changes them: its backing
// map (whose sets, the product's categories, and direct locations it also shows) and how many
// locations it shows in all. Its own locations are read and searched as every picked list's
// (locations/location-lookup.ts).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, withTotal } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { components } from '../api/schema.gen.ts';
import { errorText } from '../ui/error-notice.tsx';

export type BackingMap = components['schemas']['Map'];

export const sourceKeys = {
  map: (mapId: number) => ['maps', 'one', mapId] as const,
  shown: (finderId: number) => ['locations', 'finder', finderId, 'total'] as const,
};

/** The most locations a finder lists of its own (PUT /finders/{id}). */
export const MAX_FINDER_LOCATIONS = 10_000;

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
