// Which locations the finder shows: those its rule matches, those of the categories (sets)
// linked to its backing map, the map's own, and the finder's own list. The total counts each location once, as the widget
// and GET /locations?finder_id= do.
import { t, tCount } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { FinderCategories } from './finder-categories.tsx';
import { FinderOwnLocations } from './finder-own-locations.tsx';
import { FinderRule } from './finder-rule.tsx';
import { useShownTotal } from './use-finder-sources.ts';
import type { Finder } from './use-finders.ts';

export function FinderLocationsPanel({ finder }: { finder: Finder }) {
  const shown = useShownTotal(finder.id);
  return (
    <>
      <h2>{t('finder.tab.locations')}</h2>
      {shown.error ? (
        <ErrorNotice error={shown.error} onRetry={() => void shown.refetch()} />
      ) : (
        <p role="status">
          {shown.data === undefined ? t('app.loading') : tCount('finder_sources.shown', shown.data)}
        </p>
      )}
      <FinderRule finder={finder} />
      <FinderCategories finder={finder} />
      <FinderOwnLocations finder={finder} />
    </>
  );
}
