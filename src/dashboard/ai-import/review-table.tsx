// The drafted items as a table: each item's location, confidence, status, its validation errors
// and warnings, and its review (edit in place, approve, reject). A batch holds up to 500 items,
// so TanStack Virtual draws only the items in view; each item is its own <tbody> (its row and,
// while edited, the editor's row), measured as drawn, so an open editor takes the room it needs.
// The item being edited stays drawn while scrolled out of view, so its unsaved edits are kept.
// The table says how many rows it has (aria-rowcount) and each row where it is (aria-rowindex).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, type Ref, useCallback, useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { api, unwrap } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { MessageKey } from '../i18n/en.ts';
import { t } from '../i18n/i18n.ts';
import { errorText } from '../ui/error-notice.tsx';
import { ItemEditor } from './item-editor.tsx';
import { type BatchWithItems, batchKey, effectivePayload, type Item } from './use-ai-imports.ts';

const ROW_ESTIMATE = 96;
const COLUMNS = 5;

export function ReviewTable({ batch }: { batch: BatchWithItems }) {
  const scroller = useRef<HTMLElement>(null);
  const [editing, setEditing] = useState<number | null>(null);
  // The item whose Edit button takes the focus back once its editor closed and its row is drawn.
  const [refocus, setRefocus] = useState<number | null>(null);
  const items = batch.items;
  const editingIndex = editing === null ? -1 : items.findIndex((item) => item.id === editing);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      return editingIndex < 0 || indexes.includes(editingIndex)
        ? indexes
        : [...indexes, editingIndex].sort((a, b) => a - b);
    },
    [editingIndex],
  );
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE,
    getItemKey: (index) => items[index]?.id ?? index,
    overscan: 6,
    rangeExtractor,
  });
  const shown = virtualizer.getVirtualItems();
  // Each gap between drawn items (before the first, around an editor kept out of view, after the
  // last) is a spacer row of its height, so the scroll height is the whole list's.
  let drawnTo = 0;
  const spacer = (height: number) =>
    height > 0 && (
      <tbody aria-hidden="true">
        <tr style={{ height }} />
      </tbody>
    );
  const reviewable = batch.status === 'draft';
  return (
    // Focusable: an imported batch's rows hold no control, and the keyboard must still scroll it.
    <section
      ref={scroller}
      className="table-scroller ai-review"
      aria-label={t('ai_import.items')}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
    >
      <table
        className="data-table ai-review-table"
        aria-rowcount={items.length + 1 + (editingIndex >= 0 ? 1 : 0)}
      >
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">{t('ai_import.col.location')}</th>
            <th scope="col">{t('ai_import.col.confidence')}</th>
            <th scope="col">{t('ai_import.col.item_status')}</th>
            <th scope="col">{t('ai_import.col.notes')}</th>
            <th scope="col">{t('ai_import.col.review')}</th>
          </tr>
        </thead>
        {shown.map((row) => {
          const item = items[row.index];
          if (!item) return null;
          const gap = row.start - drawnTo;
          drawnTo = row.end;
          return (
            <Fragment key={row.key}>
              {spacer(gap)}
              <ItemRows
                ref={virtualizer.measureElement}
                index={row.index}
                rowIndex={row.index + 2 + (editingIndex >= 0 && row.index > editingIndex ? 1 : 0)}
                item={item}
                batchId={batch.id}
                reviewable={reviewable}
                editing={editing === item.id}
                onEdit={(open) => {
                  // An editor closed out of view brings its row into view, where the focus goes back.
                  if (!open) {
                    virtualizer.scrollToIndex(row.index);
                    setRefocus(item.id);
                  }
                  setEditing(open ? item.id : null);
                }}
                refocus={refocus === item.id}
                onRefocused={() => setRefocus(null)}
              />
            </Fragment>
          );
        })}
        {spacer(virtualizer.getTotalSize() - drawnTo)}
      </table>
    </section>
  );
}

interface ItemRowsProps {
  ref: Ref<HTMLTableSectionElement>;
  index: number;
  rowIndex: number;
  item: Item;
  batchId: number;
  reviewable: boolean;
  editing: boolean;
  onEdit: (open: boolean) => void;
  /** Whether the Edit button takes the focus once drawn (its editor just closed). */
  refocus: boolean;
  onRefocused: () => void;
}

/** A 422 on `status` (approving an item with errors) as its own sentence; anything else as usual. */
const reviewErrorText = (error: unknown) =>
  (error instanceof ApiError && error.field('status')?.join(' ')) || errorText(error);

function ItemRows({
  ref,
  index,
  rowIndex,
  item,
  batchId,
  reviewable,
  editing,
  onEdit,
  refocus,
  onRefocused,
}: ItemRowsProps) {
  const queryClient = useQueryClient();
  const editButton = useRef<HTMLButtonElement>(null);
  const review = useMutation({
    mutationFn: async (status: 'approved' | 'rejected' | 'pending_review') =>
      unwrap(
        await api.PATCH('/api/ai-location-imports/{id}/items/{itemId}', {
          params: { path: { id: batchId, itemId: item.id } },
          body: { status },
        }),
      ),
    onSuccess: (batch) => queryClient.setQueryData(batchKey(batchId), batch),
  });
  const payload = effectivePayload(item);
  const name = payload.name ?? t('ai_import.unnamed');
  const place = [payload.address, [payload.zip, payload.city].filter(Boolean).join(' '), payload.country]
    .filter(Boolean)
    .join(', ');
  // On the render that closed the editor, or when the row is drawn again after scrolling back.
  useEffect(() => {
    if (!refocus || !editButton.current) return;
    editButton.current.focus();
    onRefocused();
  }, [refocus, onRefocused]);
  const closeEditor = () => onEdit(false);
  return (
    <tbody ref={ref} data-index={index}>
      <tr aria-rowindex={rowIndex}>
        <th scope="row">
          <span className="ai-item-name">{name}</span>
          {place && <span className="ai-item-place">{place}</span>}
          {item.user_payload && <span className="ai-item-place">{t('ai_import.edited')}</span>}
        </th>
        <td>
          <span className={`badge confidence-${item.confidence}`}>
            {t(`ai_import.confidence.${item.confidence}` as MessageKey)}
          </span>
        </td>
        <td>
          <span className={`status item-status-${item.status}`}>
            {t(`ai_import.item_status.${item.status}` as MessageKey)}
          </span>
        </td>
        <td>
          {item.validation_errors.length + item.warnings.length === 0 ? (
            <span className="muted">{t('ai_import.no_notes')}</span>
          ) : (
            <ul className="ai-notes">
              {item.validation_errors.map((error) => (
                <li key={`e-${error.field}-${error.message}`} className="ai-note-error">
                  {t('ai_import.note_error', { message: error.message })}
                </li>
              ))}
              {item.warnings.map((warning) => (
                <li key={`w-${warning}`}>{t('ai_import.note_warning', { message: warning })}</li>
              ))}
            </ul>
          )}
        </td>
        <td>
          {reviewable ? (
            <div className="actions tight">
              <Button
                ref={editButton}
                className="button"
                aria-expanded={editing}
                onPress={() => (editing ? closeEditor() : onEdit(true))}
              >
                {editing ? t('ai_import.close_edit') : t('ai_import.edit')}
              </Button>
              <Button
                className="button"
                isDisabled={
                  review.isPending || item.status === 'approved' || item.validation_errors.length > 0
                }
                onPress={() => review.mutate('approved')}
              >
                {t('ai_import.approve')}
              </Button>
              {item.status === 'rejected' ? (
                <Button
                  className="button"
                  isDisabled={review.isPending}
                  onPress={() => review.mutate('pending_review')}
                >
                  {t('ai_import.restore')}
                </Button>
              ) : (
                <Button
                  className="button"
                  isDisabled={review.isPending}
                  onPress={() => review.mutate('rejected')}
                >
                  {t('ai_import.reject')}
                </Button>
              )}
            </div>
          ) : item.location_id !== null ? (
            <Link to="/locations/$locationId" params={{ locationId: String(item.location_id) }} search={{}}>
              {t('ai_import.open_location')}
            </Link>
          ) : null}
          {review.error && (
            <p role="alert" className="field-error">
              {reviewErrorText(review.error)}
            </p>
          )}
        </td>
      </tr>
      {editing && (
        <tr aria-rowindex={rowIndex + 1}>
          <td colSpan={COLUMNS} className="ai-editor-cell">
            <ItemEditor batchId={batchId} item={item} name={name} onDone={closeEditor} />
          </td>
        </tr>
      )}
    </tbody>
  );
}
