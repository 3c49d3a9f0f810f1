// Which locations the finder lists of its own. A finder lists at most 10,000 (the service's
// limit); a workspace within it can be put on the finder whole, in the workspace's order.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components/Button';
import { api, withTotal } from '../api/client.ts';
import { formatNumber, t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { type Finder, useUpdateFinder } from './use-finders.ts';

/** The most locations a finder lists of its own (PUT /finders/{id}). */
const MAX_FINDER_LOCATIONS = 10_000;
/** The largest page GET /locations gives. */
const PAGE = 1000;

async function workspaceLocationIds(workspaceId: number, total: number): Promise<number[]> {
  const pages = await Promise.all(
    Array.from({ length: Math.ceil(total / PAGE) }, async (_, page) => {
      const { rows } = withTotal(
        await api.GET('/api/locations', {
          params: { query: { workspace_id: workspaceId, limit: PAGE, offset: page * PAGE } },
        }),
      );
      return rows.map((location) => location.id);
    }),
  );
  return pages.flat();
}

export function FinderLocationsPanel({ finder }: { finder: Finder }) {
  const update = useUpdateFinder(finder.id);
  const total = useQuery({
    queryKey: ['locations', finder.workspace_id, 'total'],
    queryFn: async () =>
      withTotal(
        await api.GET('/api/locations', {
          params: { query: { workspace_id: finder.workspace_id, limit: 1 } },
        }),
      ).total,
  });
  const addAll = useMutation({
    mutationFn: async (count: number) => {
      const ids = await workspaceLocationIds(finder.workspace_id, count);
      return update.mutateAsync({
        locations: ids.map((location_id, sort_order) => ({ location_id, sort_order })),
      });
    },
  });

  return (
    <>
      <h2>{t('finder.tab.locations')}</h2>
      <p role="status">{t('finder_locations.count', { count: formatNumber(finder.locations.length) })}</p>
      {total.error && <ErrorNotice error={total.error} onRetry={() => void total.refetch()} />}
      {total.data !== undefined &&
        (total.data > MAX_FINDER_LOCATIONS ? (
          <p>
            {t('finder_locations.too_many', {
              count: formatNumber(total.data),
              max: formatNumber(MAX_FINDER_LOCATIONS),
            })}
          </p>
        ) : (
          total.data > 0 && (
            <Button
              className="button primary"
              isDisabled={addAll.isPending}
              onPress={() => addAll.mutate(total.data)}
            >
              {t('finder_locations.add_all', { count: formatNumber(total.data) })}
            </Button>
          )
        ))}
      {addAll.error && <ErrorNotice error={addAll.error} />}
    </>
  );
}
