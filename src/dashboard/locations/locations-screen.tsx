// The locations of a workspace: a search box, the count, and a table that stays smooth at
// 100,000 rows (locations-table.tsx). The workspace, the search and the order live in the
// address, so a reload or a shared link shows the same view.
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { SearchField } from 'react-aria-components/SearchField';
import { t, tCount } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { ScreenState } from '../ui/screen-state.tsx';
import { chosenWorkspace, rememberWorkspace, useWorkspaces } from '../workspaces/use-workspaces.ts';
import { BulkActions } from './bulk-actions.tsx';
import { GeocodingNotice } from './geocoding-notice.tsx';
import { type LocationFilter, useLocationPages } from './location-pages.ts';
import { useLocationSelection } from './location-selection.ts';
import { LocationsTable } from './locations-table.tsx';

/**
 * Typing pauses this long before the search is sent: a steady typist's keys come closer together
 * (one request per word, not per key), and the search still shows its rows within 300 ms of the
 * last key (npm run bench:dashboard).
 */
const SEARCH_PAUSE_MS = 150;

export function LocationsScreen() {
  const search = useSearch({ from: '/app/locations' });
  const workspaces = useWorkspaces();
  if (workspaces.error)
    return (
      <ScreenState
        title={t('locations.title')}
        error={workspaces.error}
        onRetry={() => void workspaces.refetch()}
      />
    );
  if (!workspaces.data) return <ScreenState title={t('locations.title')} />;
  const workspace = chosenWorkspace(workspaces.data, search.workspace);
  if (!workspace) return <p>{t('workspaces.none')}</p>;
  return (
    <WorkspaceLocations
      key={workspace.id}
      filter={{
        workspaceId: workspace.id,
        q: search.q ?? '',
        sort: search.sort,
        withoutCoordinates: search.without_coordinates === true,
      }}
    />
  );
}

function WorkspaceLocations({ filter }: { filter: LocationFilter }) {
  const navigate = useNavigate({ from: '/locations' });
  const [typed, setTyped] = useState(filter.q);
  const [range, setRange] = useState({ first: 0, last: 0 });
  const pages = useLocationPages(filter, range.first, range.last);
  // A new search or order starts with nothing selected.
  const selection = useLocationSelection(
    `${filter.q}\u0000${filter.sort ?? ''}\u0000${filter.withoutCoordinates}`,
  );

  useEffect(() => rememberWorkspace(filter.workspaceId), [filter.workspaceId]);
  useEffect(() => {
    if (typed.trim() === filter.q) return;
    const timer = setTimeout(
      () =>
        void navigate({
          search: (previous) => ({ ...previous, q: typed.trim() || undefined }),
          replace: true,
        }),
      SEARCH_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [typed, filter.q, navigate]);

  return (
    <>
      <div className="screen-head">
        <h1>{t('locations.title')}</h1>
        <SearchField className="search-field" value={typed} onChange={setTyped}>
          <Label>{t('locations.search')}</Label>
          <Input />
        </SearchField>
        <Link
          className="button"
          to="/locations/$locationId"
          params={{ locationId: 'new' }}
          search={{ workspace: filter.workspaceId }}
        >
          {t('location.add')}
        </Link>
        <p role="status" aria-live="polite" className="count">
          {pages.total === undefined
            ? pages.isPending
              ? t('app.loading')
              : ''
            : tCount('locations.count', pages.total)}
        </p>
      </div>
      <GeocodingNotice workspaceId={filter.workspaceId} only={filter.withoutCoordinates} />
      {pages.error ? (
        <ErrorNotice error={pages.error} onRetry={() => void pages.refetch()} />
      ) : pages.total === 0 ? (
        <div className="empty">
          <p>
            {filter.q
              ? t('locations.no_match', { q: filter.q })
              : filter.withoutCoordinates
                ? t('locations.geocoding.none_left')
                : t('locations.empty')}
          </p>
          {!filter.q && !filter.withoutCoordinates && (
            <Link className="button primary" to="/import" search={{ workspace: filter.workspaceId }}>
              {t('locations.import')}
            </Link>
          )}
        </div>
      ) : pages.total !== undefined ? (
        <>
          <BulkActions filter={filter} selection={selection} total={pages.total} />
          <LocationsTable
            selection={selection}
            total={pages.total}
            row={pages.row}
            sort={filter.sort}
            onSort={(sort) => void navigate({ search: (previous) => ({ ...previous, sort }), replace: true })}
            onRangeChange={setRange}
          />
        </>
      ) : null}
    </>
  );
}
