// The locations the finder lists of its own, a page at a time with their names, each removable;
// one more added by searching the workspace's locations; all removed after a confirmation; or
// the whole workspace put on it in the workspace's order. Each change is one PUT of the whole
// list, which keeps the others' sort order. A finder lists at most 10,000 of its own.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { ComboBox } from 'react-aria-components/ComboBox';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Text } from 'react-aria-components/Text';
import { api, withTotal } from '../api/client.ts';
import { formatNumber, t } from '../i18n/i18n.ts';
import { ConfirmButton } from '../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import {
  type FinderLocation,
  MAX_FINDER_LOCATIONS,
  refusalText,
  sourceKeys,
  useLocationSearch,
  useLocationsById,
} from './use-finder-sources.ts';
import { type Finder, finderKeys, useUpdateFinder } from './use-finders.ts';

/** Locations shown a page at a time (read in one request, at most MAX_LISTED_IDS of GET /locations). */
const PAGE = 25;
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

const place = (location: FinderLocation) => [location.address, location.city].filter(Boolean).join(', ');

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
        t('finder_sources.all_added', { count: formatNumber(ids.length) }),
      );
    },
  });

  const add = (location: FinderLocation) => {
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
      <p>{t('finder_locations.count', { count: formatNumber(entries.length) })}</p>
      <OwnList entries={entries} onRemove={remove} disabled={update.isPending} />
      <AddLocation finder={finder} full={full} onAdd={add} />
      <div className="actions">
        {entries.length > 0 && (
          <ConfirmButton
            trigger={t('finder_sources.remove_all')}
            title={t('finder_sources.remove_all_title')}
            action={t('finder_sources.remove_all_action')}
            isDisabled={update.isPending}
            onConfirm={() => run([], t('finder_sources.all_removed'))}
          >
            <p>{t('finder_sources.remove_all_text', { count: formatNumber(entries.length) })}</p>
          </ConfirmButton>
        )}
        {total.data !== undefined && total.data > 0 && total.data <= MAX_FINDER_LOCATIONS && (
          <Button
            className="button"
            isDisabled={addAll.isPending || update.isPending}
            onPress={() => addAll.mutate(total.data)}
          >
            {t('finder_locations.add_all', { count: formatNumber(total.data) })}
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

function OwnList({
  entries,
  onRemove,
  disabled,
}: {
  entries: Entry[];
  onRemove: (id: number, name: string) => void;
  disabled: boolean;
}) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(entries.length / PAGE));
  // A removal can empty the last page: the one before is shown then.
  const shown = Math.min(page, pages - 1);
  const ids = entries.slice(shown * PAGE, (shown + 1) * PAGE).map((entry) => entry.location_id);
  const details = useLocationsById(ids);

  if (entries.length === 0) return <p className="empty">{t('finder_sources.own_none')}</p>;
  if (details.error) return <ErrorNotice error={details.error} onRetry={() => void details.refetch()} />;
  if (!details.data) return <p role="status">{t('app.loading')}</p>;
  const byId = new Map(details.data.map((row) => [row.id, row]));
  return (
    <>
      <ul className="named-list" aria-label={t('finder_sources.own')}>
        {ids.map((id) => {
          const location = byId.get(id);
          // While the next page loads, the last page's names stand in: a location missing from
          // them is still loading, not deleted.
          const loading = !location && details.isPlaceholderData;
          const name = location?.title ?? (loading ? t('app.loading') : t('finder_sources.gone', { id }));
          return (
            <li key={id}>
              <span className="named-name">
                {name}
                {location && place(location) && <span className="muted"> · {place(location)}</span>}
              </span>
              <Button
                className="button"
                aria-label={t('finder_sources.remove_one', { name })}
                isDisabled={disabled || loading}
                onPress={() => onRemove(id, name)}
              >
                {t('finder_sources.remove')}
              </Button>
            </li>
          );
        })}
      </ul>
      {pages > 1 && (
        <nav className="actions" aria-label={t('finder_sources.pages')}>
          <Button className="button" isDisabled={shown === 0} onPress={() => setPage(shown - 1)}>
            {t('finder_sources.previous')}
          </Button>
          <span>
            {t('finder_sources.page', {
              from: formatNumber(shown * PAGE + 1),
              to: formatNumber(Math.min(entries.length, (shown + 1) * PAGE)),
              count: formatNumber(entries.length),
            })}
          </span>
          <Button className="button" isDisabled={shown >= pages - 1} onPress={() => setPage(shown + 1)}>
            {t('finder_sources.next')}
          </Button>
        </nav>
      )}
    </>
  );
}

function AddLocation({
  finder,
  full,
  onAdd,
}: {
  finder: Finder;
  full: boolean;
  onAdd: (location: FinderLocation) => void;
}) {
  const [typed, setTyped] = useState('');
  const search = useLocationSearch(finder.workspace_id, typed);
  const listed = new Set(finder.locations.map((entry) => entry.location_id));
  const options = (search.data ?? []).filter((location) => !listed.has(location.id));
  return (
    <>
      <ComboBox
        className="field"
        inputValue={typed}
        onInputChange={setTyped}
        // The text typed stays when the suggestions close (a scroll closes them), so the search
        // goes on where it was.
        allowsCustomValue
        items={options}
        isDisabled={full}
        onSelectionChange={(key) => {
          const location = options.find((option) => option.id === Number(key));
          if (location) {
            setTyped('');
            onAdd(location);
          }
        }}
      >
        <Label>{t('finder_sources.add')}</Label>
        <Input />
        <Text slot="description">
          {full
            ? t('finder_sources.full', { max: formatNumber(MAX_FINDER_LOCATIONS) })
            : t('finder_sources.add_hint')}
        </Text>
        <Popover>
          <ListBox>
            {(location: FinderLocation) => (
              <ListBoxItem id={location.id} textValue={location.title}>
                {location.title}
                {place(location) && <span className="muted"> · {place(location)}</span>}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
      {search.error && <ErrorNotice error={search.error} onRetry={() => void search.refetch()} />}
    </>
  );
}
