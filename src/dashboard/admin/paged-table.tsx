// The admin area's long lists, one page at a time: `limit`/`offset` with the total from
// X-Total-Count (the API's paging), the previous page kept on screen while the next loads, and
// the page back to the first whenever the filters change. Each list is a real table inside a
// region that scrolls sideways on a narrow screen, with its loading, empty and error states.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { formatNumber, t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';

export const PAGE_SIZE = 50;

export interface PageRequest {
  limit: number;
  offset: number;
}

export function usePagedList<T, F>(
  key: readonly unknown[],
  filters: F,
  fetchPage: (page: PageRequest, filters: F) => Promise<{ rows: T[]; total: number }>,
) {
  const filterKey = JSON.stringify(filters);
  const [position, setPosition] = useState({ filterKey, offset: 0 });
  const offset = position.filterKey === filterKey ? position.offset : 0;
  const query = useQuery({
    queryKey: [...key, filters, offset],
    // The page's own offset goes with its rows: while the next page loads, the previous one
    // (kept on screen) still says which rows it shows.
    queryFn: async () => ({ ...(await fetchPage({ limit: PAGE_SIZE, offset }, filters)), offset }),
    placeholderData: keepPreviousData,
  });
  return { query, offset, moveTo: (next: number) => setPosition({ filterKey, offset: next }) };
}

interface PagedTableProps<T> {
  /** Names the table, its scrolling region and its pager. */
  label: string;
  list: ReturnType<typeof usePagedList<T, unknown>>;
  empty: string;
  head: ReactNode;
  row: (item: T) => ReactNode;
  /** Errors shown elsewhere (a filter's 422 beside its field) are not repeated here. */
  hideError?: (error: unknown) => boolean;
}

export function PagedTable<T>({ label, list, empty, head, row, hideError }: PagedTableProps<T>) {
  const { query, moveTo } = list;
  // Past the end (the last page's last row deleted): back to the last page that has rows.
  const pastEnd =
    query.data && !query.isPlaceholderData && query.data.rows.length === 0 && query.data.offset > 0
      ? Math.max(0, Math.floor((query.data.total - 1) / PAGE_SIZE) * PAGE_SIZE)
      : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: moveTo is new each render; the offset decides
  useEffect(() => {
    if (pastEnd !== undefined) moveTo(pastEnd);
  }, [pastEnd]);
  if (query.error && !hideError?.(query.error))
    return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return query.error ? null : <p role="status">{t('app.loading')}</p>;
  const { rows, total, offset } = query.data;
  if (total === 0) return <p className="empty">{t('admin.empty', { what: empty })}</p>;

  const first = Math.min(offset + 1, total);
  const last = Math.min(offset + rows.length, total);
  return (
    <>
      {/* Scrolls sideways on a phone; focusable so the keyboard can scroll it too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1) */}
      <section className="table-wrap" aria-label={label} tabIndex={0}>
        <table className="data-table compact" aria-busy={query.isPlaceholderData || undefined}>
          <caption>{label}</caption>
          <thead>{head}</thead>
          <tbody>{rows.map(row)}</tbody>
        </table>
      </section>
      <nav className="pager" aria-label={t('admin.pages_of', { label })}>
        <p role="status">
          {t('admin.showing', {
            first: formatNumber(first),
            last: formatNumber(last),
            total: formatNumber(total),
          })}
        </p>
        <Button
          className="button"
          isDisabled={offset === 0 || query.isFetching}
          onPress={() => moveTo(Math.max(0, offset - PAGE_SIZE))}
        >
          {t('admin.previous')}
        </Button>
        <Button
          className="button"
          isDisabled={offset + PAGE_SIZE >= total || query.isFetching}
          onPress={() => moveTo(offset + PAGE_SIZE)}
        >
          {t('admin.next')}
        </Button>
      </nav>
    </>
  );
}
