// One row of the locations table. Rows are memoised and light (a native checkbox, a plain link
// the router follows), since scrolling draws dozens of new ones a frame: a row renders again
// only when its location, place or selection changed.
import { type MouseEvent, memo } from 'react';
import { APP_BASE_PATH } from '../config.ts';
import { formatDateTime, t } from '../i18n/i18n.ts';
import type { Location } from './location-pages.ts';

export const ROW_HEIGHT = 44;

/** The columns after the checkbox, in order: the header's and the rows'. */
export const COLUMN_KEYS = ['title', 'address', 'city', 'country', 'tags', 'updated'] as const;

interface RowProps {
  location: Location;
  index: number;
  selected: boolean;
  selectable: boolean;
  onToggle: (id: number) => void;
  onOpen: (id: number) => void;
}

/** A plain left click opens the location in the app; others (new tab, ...) follow the link. */
function opener(id: number, onOpen: (id: number) => void) {
  return (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen(id);
  };
}

export const LocationRow = memo(function LocationRow({
  location,
  index,
  selected,
  selectable,
  onToggle,
  onOpen,
}: RowProps) {
  return (
    <tr aria-rowindex={index + 2} style={{ height: ROW_HEIGHT }}>
      <td className="select-cell">
        <input
          type="checkbox"
          className="row-check"
          aria-label={t('bulk.select_row', { title: location.title })}
          checked={selected}
          disabled={!selectable}
          onChange={() => onToggle(location.id)}
        />
      </td>
      <td>
        <a href={`${APP_BASE_PATH}/locations/${location.id}`} onClick={opener(location.id, onOpen)}>
          {location.title}
        </a>
      </td>
      <td>{location.address ?? ''}</td>
      <td>{location.city ?? ''}</td>
      <td>{location.country ?? ''}</td>
      <td>{location.tags.map((tag) => tag.name).join(', ')}</td>
      <td>{formatDateTime(location.updated_at)}</td>
    </tr>
  );
});
