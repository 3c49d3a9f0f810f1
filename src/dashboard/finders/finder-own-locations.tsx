// The locations the finder lists of its own, a page at a time with their names, each removable;
// one more added by searching the workspace's locations; all removed after a confirmation; or
// the whole workspace put on it in the workspace's order. Each change is one PUT of the whole
// list, which keeps the others' sort order. A finder lists at most 10,000 of its own.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { api, withTotal } from '../api/client.ts';
import { formatNumber, t, tCount } from '../i18n/i18n.ts';
import type { LocationSummary } from '../locations/location-lookup.ts';
import { LocationSearchBox, PickedLocationList } from '../locations/location-picks.tsx';
import { ConfirmButton } from '../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { MAX_FINDER_LOCATIONS, refusalText, sourceKeys } from './use-finder-sources.ts';
import { type Finder, finderKeys, useUpdateFinder } from './use-finders.ts';

/** The largest page GET /locations gives. */
const LIST_PAGE = 1000;

type Entry = Finder['locations'][number];

async function workspaceLocationIds(workspaceId: number, total: number): Promise<number[]> {
  const pages = await Promise.all(
    Array.from({ length: Math.ceil(total / LIST_PAGE) }, async (_, page) => {
      const { rows } = withTotal(
        await api.GET('/api/locations', {
          params: { query: { workspace_id: workspaceId, limit: LIST_PAGE, offset: page * LIST_PAGE } },
        }),
      );
      return rows.map((location) => location.id);
    }),
  );
  return pages.flat();
}

export function FinderOwnLocations({ finder }: { finder: Finder }) {
  const queryClient = useQueryClient();
  const update = useUpdateFinder(finder.id);
  const [done, setDone] = useState('');
  const entries = finder.locations;
  const full = entries.length >= MAX_FINDER_LOCATIONS;

  const save = (locations: Entry[], message: string) =>
    update.mutateAsync({ locations }).then(() => {
      setDone(message);
      void queryClient.invalidateQueries({ queryKey: sourceKeys.shown(finder.id) });
    });
  const run = (locations: Entry[], message: string) => {
    setDone('');
    // A refused list was stale (a location deleted meanwhile, say): the service's is shown again
    // beside the refusal.
    save(locations, message).catch(() =>
      queryClient.invalidateQueries({ queryKey: finderKeys.one(finder.id) }),
    );
  };

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
      setDone('');
      const ids = await workspaceLocationIds(finder.workspace_id, count);
      return save(
        ids.map((location_id, sort_order) => ({ location_id, sort_order })),
        tCount('finder_sources.all_added', ids.length),
      );
    },
  });

  const add = (location: LocationSummary) => {
    const next = Math.max(-1, ...entries.map((entry) => entry.sort_order)) + 1;
    run(
      [...entries, { location_id: location.id, sort_order: next }],
      t('finder_sources.added', { name: location.title }),
    );
  };
  const remove = (id: number, name: string) =>
    run(
      entries.filter((entry) => entry.location_id !== id),
      t('finder_sources.removed', { name }),
    );

  return (
    <section aria-labelledby="finder-own-locations">
      <h3 id="finder-own-locations">{t('finder_sources.own')}</h3>
      <p>{tCount('finder_locations.count', entries.length)}</p>
      <PickedLocationList
        ids={entries.map((entry) => entry.location_id)}
        label={t('finder_sources.own')}
        empty={t('finder_sources.own_none')}
        onRemove={remove}
        disabled={update.isPending}
      />
      <LocationSearchBox
        workspaceId={finder.workspace_id}
        chosen={new Set(entries.map((entry) => entry.location_id))}
        isDisabled={full}
        description={full ? t('finder_sources.full', { max: formatNumber(MAX_FINDER_LOCATIONS) }) : undefined}
        onPick={add}
      />
      <div className="actions">
        {entries.length > 0 && (
          <ConfirmButton
            trigger={t('finder_sources.remove_all')}
            title={t('finder_sources.remove_all_title')}
            action={t('finder_sources.remove_all_action')}
            isDisabled={update.isPending}
            onConfirm={() => run([], t('finder_sources.all_removed'))}
          >
            <p>{tCount('finder_sources.remove_all_text', entries.length)}</p>
          </ConfirmButton>
        )}
        {total.data !== undefined && total.data > 0 && total.data <= MAX_FINDER_LOCATIONS && (
          <Button
            className="button"
            isDisabled={addAll.isPending || update.isPending}
            onPress={() => addAll.mutate(total.data)}
          >
            {tCount('finder_locations.add_all', total.data)}
          </Button>
        )}
      </div>
      {total.data !== undefined && total.data > MAX_FINDER_LOCATIONS && (
        <p>
          {t('finder_locations.too_many', {
            count: formatNumber(total.data),
            max: formatNumber(MAX_FINDER_LOCATIONS),
          })}
        </p>
      )}
      {total.error && <ErrorNotice error={total.error} onRetry={() => void total.refetch()} />}
      {update.error && (
        <div role="alert" className="notice error">
          <p>{refusalText(update.error)}</p>
        </div>
      )}
      {addAll.error && !update.error && <ErrorNotice error={addAll.error} />}
      <p role="status" className={done ? 'notice' : undefined}>
        {done}
      </p>
    </section>
  );
}
