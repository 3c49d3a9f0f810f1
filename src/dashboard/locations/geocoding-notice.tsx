// How many of a workspace's locations wait for coordinates (GET /workspaces/{id}/geocoding), with
// a link that lists only them, so a person can place the rest by hand in the location editor
// (its map takes a pin). While the list shows only them, the link goes back to every location.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, unwrap } from '../api/client.ts';
import { formatNumber, t } from '../i18n/i18n.ts';

function useGeocoding(workspaceId: number) {
  return useQuery({
    queryKey: ['geocoding', workspaceId],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET('/api/workspaces/{id}/geocoding', { params: { path: { id: workspaceId } }, signal }),
      ),
    staleTime: 30_000,
  });
}

export function GeocodingNotice({ workspaceId, only }: { workspaceId: number; only: boolean }) {
  const geocoding = useGeocoding(workspaceId);
  const waiting = geocoding.data?.without_coordinates ?? 0;
  if (!only && waiting === 0) return null;
  return (
    <div className="notice geocoding" role="note">
      <p>
        {only
          ? t('locations.geocoding.only')
          : waiting === 1
            ? t('locations.geocoding.waiting_one')
            : t('locations.geocoding.waiting', { count: formatNumber(waiting) })}
        {!only && geocoding.data && geocoding.data.pending > 0 && geocoding.data.process !== null
          ? ` ${t('locations.geocoding.in_progress', { count: formatNumber(geocoding.data.pending) })}`
          : ''}
      </p>
      <Link
        to="/locations"
        search={(previous) => ({ ...previous, without_coordinates: only ? undefined : true })}
      >
        {only ? t('locations.geocoding.show_all') : t('locations.geocoding.list')}
      </Link>
    </div>
  );
}
