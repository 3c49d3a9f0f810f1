// The table itself: TanStack Virtual renders only the rows in view (plus a few), between two
// spacer rows, so 100,000 rows are a few dozen <tr>s; the table says how many rows it has
// (aria-rowcount) and each row where it is (aria-rowindex), so screen readers count right.
// Headers of sortable columns are buttons; aria-sort says the order.

import { useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef } from 'react';
import { Checkbox } from 'react-aria-components/Checkbox';
import type { MessageKey } from '../i18n/en.ts';
import { t, tCount } from '../i18n/i18n.ts';
import type { Location, LocationSort } from './location-pages.ts';
import { COLUMN_KEYS, LocationRow, ROW_HEIGHT } from './location-row.tsx';
import type { LocationSelection } from './location-selection.ts';

type SortableColumn = 'title' | 'city' | 'updated_at';

const HEADERS: Record<(typeof COLUMN_KEYS)[number], { label: MessageKey; sortable?: SortableColumn }> = {
  title: { label: 'locations.col.title', sortable: 'title' },
  address: { label: 'locations.col.address' },
  city: { label: 'locations.col.city', sortable: 'city' },
  country: { label: 'locations.col.country' },
  tags: { label: 'locations.col.tags' },
  updated: { label: 'locations.col.updated', sortable: 'updated_at' },
};

interface Props {
  selection: LocationSelection;
  total: number;
  row: (index: number) => Location | undefined;
  sort: LocationSort | undefined;
  onSort: (sort: LocationSort | undefined) => void;
  onRangeChange: (range: { first: number; last: number }) => void;
}

function ariaSort(column: SortableColumn, sort: LocationSort | undefined) {
  if (sort === column) return 'ascending';
  if (sort === `-${column}`) return 'descending';
  return undefined;
}

/** Ascending, then descending, then the default order (by id). */
function nextSort(column: SortableColumn, sort: LocationSort | undefined): LocationSort | undefined {
  if (sort === column) return `-${column}`;
  if (sort === `-${column}`) return undefined;
  return column;
}

export function LocationsTable({ selection, total, row, sort, onSort, onRangeChange }: Props) {
  const scroller = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // Rows render in a task of their own after the scroll event rather than inside it, so a fast
    // flick on a slow phone keeps its tasks short; the 12 rows drawn beyond each edge (528 px)
    // cover the frame the rows arrive late for.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => onRangeChange({ first, last }), [first, last, onRangeChange]);

  const navigate = useNavigate();
  const open = useCallback(
    (id: number) =>
      void navigate({ to: '/locations/$locationId', params: { locationId: String(id) }, search: {} }),
    [navigate],
  );

  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    // The sort buttons inside make the scrolling region reachable by keyboard.
    <section ref={scroller} className="table-scroller" aria-label={t('locations.title')}>
      <table className="data-table" aria-rowcount={total + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" className="select-cell">
              <Checkbox
                className="checkbox"
                aria-label={tCount('bulk.select_all', total)}
                isSelected={selection.selection.kind === 'all'}
                isIndeterminate={selection.selection.kind === 'ids' && selection.selection.ids.size > 0}
                onChange={(selected) => (selected ? selection.selectAll() : selection.clear())}
              >
                <span className="checkbox-box" aria-hidden="true" />
              </Checkbox>
            </th>
            {COLUMN_KEYS.map((key) => {
              const { label, sortable } = HEADERS[key];
              const order = sortable ? ariaSort(sortable, sort) : undefined;
              return (
                <th key={key} scope="col" aria-sort={order}>
                  {sortable ? (
                    <button
                      type="button"
                      className="sort-button"
                      onClick={() => onSort(nextSort(sortable, sort))}
                    >
                      {t(label)}
                      <span aria-hidden="true" className="sort-mark">
                        {order === 'ascending' ? ' ▲' : order === 'descending' ? ' ▼' : ''}
                      </span>
                    </button>
                  ) : (
                    t(label)
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row holds nothing, focusable or not */}
          {before > 0 && <tr aria-hidden="true" style={{ height: before }} />}
          {items.map((item) => {
            const location = row(item.index);
            return location ? (
              <LocationRow
                key={item.key}
                location={location}
                index={item.index}
                selected={selection.isSelected(location.id)}
                selectable={selection.selection.kind !== 'all'}
                onToggle={selection.toggle}
                onOpen={open}
              />
            ) : (
              <tr key={item.key} aria-rowindex={item.index + 2} style={{ height: ROW_HEIGHT }}>
                <td colSpan={COLUMN_KEYS.length + 1} className="row-loading">
                  {t('locations.row_loading')}
                </td>
              </tr>
            );
          })}
          {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row holds nothing, focusable or not */}
          {after > 0 && <tr aria-hidden="true" style={{ height: after }} />}
        </tbody>
      </table>
    </section>
  );
}
