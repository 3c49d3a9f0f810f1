// One finder's editor: its name, and tabs for its design, its locations, its filters (advanced
// refinements), the websites that may show it, the address search's provider keys, publishing
// (with the embed code) and its analytics. The tab is in the address.
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { AnalyticsPanel } from '../analytics/analytics-panel.tsx';
import { t } from '../i18n/i18n.ts';
import { ScreenState } from '../ui/screen-state.tsx';
import { AddressTabs } from '../ui/tabs.tsx';
import { AccessPanel } from './access-panel.tsx';
import { DesignPanel } from './design-panel.tsx';
import { FinderLocationsPanel } from './finder-locations-panel.tsx';
import { KeysPanel } from './keys-panel.tsx';
import { PublishPanel } from './publish-panel.tsx';
import { RefinementsPanel } from './refinements-panel.tsx';
import type { FinderTab } from './tabs.ts';
import { useFinder } from './use-finders.ts';

export function FinderScreen() {
  const { finderId } = useParams({ from: '/app/finders/$finderId' });
  const { tab = 'design' } = useSearch({ from: '/app/finders/$finderId' });
  const navigate = useNavigate({ from: '/finders/$finderId' });
  const finder = useFinder(Number(finderId));

  if (finder.error)
    return (
      <ScreenState title={t('finders.title')} error={finder.error} onRetry={() => void finder.refetch()} />
    );
  if (!finder.data) return <ScreenState title={t('finders.title')} />;
  const data = finder.data;
  return (
    <>
      <p>
        <Link to="/finders" search={{ workspace: data.workspace_id }}>
          {t('finders.back')}
        </Link>
      </p>
      <h1>{data.name}</h1>
      <AddressTabs<FinderTab>
        label={t('finder.tabs')}
        selected={tab}
        onSelect={(key) => void navigate({ search: { tab: key }, replace: true })}
        tabs={[
          // Wide: the form and the widget's preview side by side where there is room.
          { id: 'design', label: t('finder.tab.design'), panel: <DesignPanel finder={data} />, wide: true },
          {
            id: 'locations',
            label: t('finder.tab.locations'),
            panel: <FinderLocationsPanel finder={data} />,
          },
          { id: 'filters', label: t('finder.tab.filters'), panel: <RefinementsPanel finder={data} /> },
          { id: 'access', label: t('finder.tab.access'), panel: <AccessPanel finder={data} /> },
          { id: 'keys', label: t('finder.tab.keys'), panel: <KeysPanel finder={data} /> },
          { id: 'publish', label: t('finder.tab.publish'), panel: <PublishPanel finder={data} /> },
          {
            id: 'analytics',
            label: t('finder.tab.analytics'),
            panel: <AnalyticsPanel finderId={data.id} />,
            wide: true,
          },
        ]}
      />
    </>
  );
}
