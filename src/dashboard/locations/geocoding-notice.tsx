// How many of a workspace's locations wait for coordinates (GET /workspaces/{id}/geocoding), with
// a link that lists only them, so a person can place the rest by hand in the location editor
// (its map takes a pin). While the list shows only them, the link goes back to every location.
// Where a geocoder is configured and some addresses were not placed (the geocoder failed, found
// nothing or nothing precise) and no geocoding runs, a button looks them up again (POST). While
// geocoding is queued or running, the counts are read again every few seconds, and the lists
// of locations whenever the number waiting changes.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { Button } from 'react-aria-components/Button';
import { api, unwrap } from '../api/client.ts';
import { t, tCount } from '../i18n/i18n.ts';
import { errorText } from '../ui/error-notice.tsx';

const geocodingKey = (workspaceId: number) => ['geocoding', workspaceId];

/** While a geocoding process is queued or running, the counts are asked for this often. */
const WHILE_GEOCODING_MS = 10_000;

function useGeocoding(workspaceId: number) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: geocodingKey(workspaceId),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET('/api/workspaces/{id}/geocoding', { params: { path: { id: workspaceId } }, signal }),
      ),
    staleTime: 30_000,
    refetchInterval: (query) => (query.state.data?.process ? WHILE_GEOCODING_MS : false),
  });
  // Locations the geocoder places leave the list of those without coordinates, and a list shows
  // whether each has a position: the lists are read again when the number waiting changes, or
  // the table would go on listing them while the notice counts them placed.
  const waiting = query.data?.without_coordinates;
  const counted = useRef(waiting);
  useEffect(() => {
    if (waiting === undefined) return;
    if (counted.current !== undefined && counted.current !== waiting) {
      void queryClient.invalidateQueries({ queryKey: ['locations'] });
    }
    counted.current = waiting;
  }, [waiting, queryClient]);
  return query;
}

/** Every status a lookup can end in short of a point: all of them are asked again. */
const LOOK_UP_AGAIN = ['failed', 'not_found', 'imprecise'] as const;

function useLookUpAgain(workspaceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST('/api/workspaces/{id}/geocoding', {
          params: { path: { id: workspaceId } },
          body: { retry: [...LOOK_UP_AGAIN] },
        }),
      ),
    // The answer is the new state (GET's shape): the notice shows the lookup under way. A GET
    // still on its way holds the state before it, and would put the button back.
    onSuccess: async (state) => {
      await queryClient.cancelQueries({ queryKey: geocodingKey(workspaceId) });
      queryClient.setQueryData(geocodingKey(workspaceId), state);
    },
  });
}

export function GeocodingNotice({ workspaceId, only }: { workspaceId: number; only: boolean }) {
  const geocoding = useGeocoding(workspaceId);
  const again = useLookUpAgain(workspaceId);
  const state = geocoding.data;
  const waiting = state?.without_coordinates ?? 0;
  if (!only && waiting === 0) return null;
  const unplaced = state ? LOOK_UP_AGAIN.reduce((sum, status) => sum + state[status], 0) : 0;
  const canLookUp =
    state !== undefined && state.geocoder !== 'none' && state.process === null && unplaced > 0;
  return (
    <div className="notice geocoding" role="note">
      <p className="geocoding-text">
        {only ? t('locations.geocoding.only') : tCount('locations.geocoding.waiting', waiting)}
        {state && state.pending > 0 && state.process !== null
          ? ` ${tCount('locations.geocoding.in_progress', state.pending)}`
          : ''}
      </p>
      <Link
        to="/locations"
        search={(previous) => ({ ...previous, without_coordinates: only ? undefined : true })}
      >
        {only ? t('locations.geocoding.show_all') : t('locations.geocoding.list')}
      </Link>
      {canLookUp && (
        // isDisabled and its label, not isPending: see SubmitButton (ui/form.tsx).
        <Button className="button" isDisabled={again.isPending} onPress={() => again.mutate()}>
          {again.isPending ? t('app.working') : tCount('locations.geocoding.again', unplaced)}
        </Button>
      )}
      {canLookUp && again.error !== null && (
        <p role="alert" className="field-error geocoding-text">
          {errorText(again.error)}
        </p>
      )}
    </div>
  );
}
