// Locations chosen one by one (a finder's own, a holiday calendar's): the chosen shown a page at
// a time with their names, each removable, and a search of the workspace's locations that adds
// the one picked from its suggestions. What a pick or a removal does is the screen's.
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { ComboBox } from 'react-aria-components/ComboBox';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Text } from 'react-aria-components/Text';
import { formatNumber, t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { type LocationSummary, placeOf, useLocationSearch, useLocationsById } from './location-lookup.ts';

/** Locations shown a page at a time (read in one request, at most MAX_LISTED_IDS of GET /locations). */
const PAGE = 25;

export function PickedLocationList({
  ids,
  label,
  empty,
  onRemove,
  disabled,
}: {
  ids: number[];
  /** The list's accessible name. */
  label: string;
  /** Said when nothing is chosen. */
  empty: string;
  onRemove: (id: number, name: string) => void;
  disabled: boolean;
}) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(ids.length / PAGE));
  // A removal can empty the last page: the one before is shown then.
  const shown = Math.min(page, pages - 1);
  const pageIds = ids.slice(shown * PAGE, (shown + 1) * PAGE);
  const details = useLocationsById(pageIds);

  if (ids.length === 0) return <p className="empty">{empty}</p>;
  if (details.error) return <ErrorNotice error={details.error} onRetry={() => void details.refetch()} />;
  if (!details.data) return <p role="status">{t('app.loading')}</p>;
  const byId = new Map(details.data.map((row) => [row.id, row]));
  return (
    <>
      <ul className="named-list" aria-label={label}>
        {pageIds.map((id) => {
          const location = byId.get(id);
          // While the next page loads, the last page's names stand in: a location missing from
          // them is still loading, not deleted.
          const loading = !location && details.isPlaceholderData;
          const name = location?.title ?? (loading ? t('app.loading') : t('picked.gone', { id }));
          return (
            <li key={id}>
              <span className="named-name">
                {name}
                {location && placeOf(location) && <span className="muted"> · {placeOf(location)}</span>}
              </span>
              <Button
                className="button"
                aria-label={t('picked.remove_named', { name })}
                isDisabled={disabled || loading}
                onPress={() => onRemove(id, name)}
              >
                {t('picked.remove')}
              </Button>
            </li>
          );
        })}
      </ul>
      {pages > 1 && (
        <nav className="actions" aria-label={t('picked.pages')}>
          <Button className="button" isDisabled={shown === 0} onPress={() => setPage(shown - 1)}>
            {t('picked.previous')}
          </Button>
          <span>
            {t('picked.page', {
              from: formatNumber(shown * PAGE + 1),
              to: formatNumber(Math.min(ids.length, (shown + 1) * PAGE)),
              count: formatNumber(ids.length),
            })}
          </span>
          <Button className="button" isDisabled={shown >= pages - 1} onPress={() => setPage(shown + 1)}>
            {t('picked.next')}
          </Button>
        </nav>
      )}
    </>
  );
}

export function LocationSearchBox({
  workspaceId,
  chosen,
  onPick,
  isDisabled,
  description = t('picked.add_hint'),
}: {
  workspaceId: number;
  /** Already chosen: not suggested again. */
  chosen: ReadonlySet<number>;
  onPick: (location: LocationSummary) => void;
  isDisabled?: boolean;
  description?: string;
}) {
  const [typed, setTyped] = useState('');
  const search = useLocationSearch(workspaceId, typed);
  const options = (search.data ?? []).filter((location) => !chosen.has(location.id));
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
        isDisabled={isDisabled}
        onSelectionChange={(key) => {
          const location = options.find((option) => option.id === Number(key));
          if (location) {
            setTyped('');
            onPick(location);
          }
        }}
        // Enter picks a suggestion; inside a form it must not also send the form.
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.preventDefault();
        }}
      >
        <Label>{t('picked.add')}</Label>
        <Input />
        <Text slot="description">{description}</Text>
        <Popover>
          <ListBox>
            {(location: LocationSummary) => (
              <ListBoxItem id={location.id} textValue={location.title}>
                {location.title}
                {placeOf(location) && <span className="muted"> · {placeOf(location)}</span>}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
      {search.error && <ErrorNotice error={search.error} onRetry={() => void search.refetch()} />}
    </>
  );
}
