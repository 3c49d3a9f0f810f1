// One finder's editor: its name, and tabs for its design, its locations, the websites that may
// show it, and publishing (with the embed code). The tab is in the address.
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components/Tabs';
import { AnalyticsPanel } from '../analytics/analytics-panel.tsx';
import { t } from '../i18n/i18n.ts';
import { ScreenState } from '../ui/screen-state.tsx';
import { AccessPanel } from './access-panel.tsx';
import { DesignPanel } from './design-panel.tsx';
import { FinderLocationsPanel } from './finder-locations-panel.tsx';
import { PublishPanel } from './publish-panel.tsx';
import { FINDER_TABS, type FinderTab } from './tabs.ts';
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
  const labels: Record<FinderTab, string> = {
    design: t('finder.tab.design'),
    locations: t('finder.tab.locations'),
    access: t('finder.tab.access'),
    publish: t('finder.tab.publish'),
    analytics: t('finder.tab.analytics'),
  };
  return (
    <>
      <p>
        <Link to="/finders" search={{ workspace: data.workspace_id }}>
          {t('finders.back')}
        </Link>
      </p>
      <h1>{data.name}</h1>
      <Tabs
        selectedKey={tab}
        onSelectionChange={(key) => void navigate({ search: { tab: key as FinderTab }, replace: true })}
      >
        <TabList aria-label={t('finder.tabs')} className="tab-list">
          {FINDER_TABS.map((key) => (
            <Tab key={key} id={key} className="tab">
              {labels[key]}
            </Tab>
          ))}
        </TabList>
        <TabPanel id="design" className="tab-panel">
          <DesignPanel finder={data} />
        </TabPanel>
        <TabPanel id="locations" className="tab-panel">
          <FinderLocationsPanel finder={data} />
        </TabPanel>
        <TabPanel id="access" className="tab-panel">
          <AccessPanel finder={data} />
        </TabPanel>
        <TabPanel id="publish" className="tab-panel">
          <PublishPanel finder={data} />
        </TabPanel>
        <TabPanel id="analytics" className="tab-panel wide">
          <AnalyticsPanel finderId={data.id} />
        </TabPanel>
      </Tabs>
    </>
  );
}
