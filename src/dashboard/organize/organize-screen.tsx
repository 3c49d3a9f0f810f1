// What a workspace's locations are sorted by: tags, categories (the API's sets), custom
// fields and holiday calendars, one tab each (the tab, and an open calendar, in the address).
import { useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components/Tabs';
import { api, unwrap } from '../api/client.ts';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { ScreenState } from '../ui/screen-state.tsx';
import { contentKeys, useCustomFields, useSets, useTags } from '../workspaces/use-workspace-content.ts';
import { chosenWorkspace, useWorkspaces } from '../workspaces/use-workspaces.ts';
import { CustomFieldsPanel } from './custom-fields-panel.tsx';
import { NamedList } from './named-list.tsx';
import { ORGANIZE_TABS, type OrganizeTab } from './tabs.ts';

// The calendars' editors (special days, a location search) are a chunk of their own, loaded
// with their tab: the other tabs stay as small as they were.
const HolidayCalendarsPanel = lazy(() =>
  import('./holiday-calendars-panel.tsx').then((module) => ({ default: module.HolidayCalendarsPanel })),
);

export function OrganizeScreen() {
  const search = useSearch({ from: '/app/organize' });
  const navigate = useNavigate({ from: '/organize' });
  const workspaces = useWorkspaces();
  const workspace = workspaces.data && chosenWorkspace(workspaces.data, search.workspace);
  const title = t('organize.title');
  if (workspaces.error)
    return <ScreenState title={title} error={workspaces.error} onRetry={() => void workspaces.refetch()} />;
  if (!workspace) return <ScreenState title={title} />;
  const labels: Record<OrganizeTab, string> = {
    tags: t('organize.tab.tags'),
    categories: t('organize.tab.categories'),
    fields: t('organize.tab.fields'),
    calendars: t('organize.tab.calendars'),
  };
  return (
    <>
      <h1>{title}</h1>
      <Tabs
        selectedKey={search.tab ?? 'tags'}
        onSelectionChange={(key) =>
          void navigate({
            search: (previous) => ({ ...previous, tab: key as OrganizeTab, calendar: undefined }),
            replace: true,
          })
        }
      >
        <TabList aria-label={title} className="tab-list">
          {ORGANIZE_TABS.map((key) => (
            <Tab key={key} id={key} className="tab">
              {labels[key]}
            </Tab>
          ))}
        </TabList>
        <TabPanel id="tags" className="tab-panel">
          <TagsPanel workspaceId={workspace.id} />
        </TabPanel>
        <TabPanel id="categories" className="tab-panel">
          <CategoriesPanel workspaceId={workspace.id} />
        </TabPanel>
        <TabPanel id="fields" className="tab-panel">
          <FieldsPanel workspaceId={workspace.id} />
        </TabPanel>
        <TabPanel id="calendars" className="tab-panel">
          <Suspense fallback={<p role="status">{t('app.loading')}</p>}>
            <HolidayCalendarsPanel workspaceId={workspace.id} calendarId={search.calendar} />
          </Suspense>
        </TabPanel>
      </Tabs>
    </>
  );
}

function TagsPanel({ workspaceId }: { workspaceId: number }) {
  const tags = useTags(workspaceId);
  if (!tags.data) return <ScreenPart error={tags.error} onRetry={() => void tags.refetch()} />;
  return (
    <NamedList
      items={tags.data}
      texts={{
        title: 'organize.tab.tags',
        empty: 'tags.empty',
        add: 'tags.add',
        name: 'tags.name',
        deleteConfirm: 'tags.delete_confirm',
      }}
      api={{
        queryKey: contentKeys.tags(workspaceId),
        create: async (name) =>
          unwrap(await api.POST('/api/tags', { body: { name, workspace_id: workspaceId } })),
        rename: async (id, name) =>
          unwrap(await api.PUT('/api/tags/{id}', { params: { path: { id } }, body: { name } })),
        remove: async (id) => unwrap(await api.DELETE('/api/tags/{id}', { params: { path: { id } } })),
      }}
    />
  );
}

function CategoriesPanel({ workspaceId }: { workspaceId: number }) {
  const sets = useSets(workspaceId);
  if (!sets.data) return <ScreenPart error={sets.error} onRetry={() => void sets.refetch()} />;
  return (
    <NamedList
      items={sets.data}
      texts={{
        title: 'organize.tab.categories',
        empty: 'categories.empty',
        add: 'categories.add',
        name: 'categories.name',
        deleteConfirm: 'categories.delete_confirm',
      }}
      api={{
        queryKey: contentKeys.sets(workspaceId),
        create: async (name) =>
          unwrap(await api.POST('/api/sets', { body: { name, workspace_id: workspaceId } })),
        rename: async (id, name) =>
          unwrap(await api.PUT('/api/sets/{id}', { params: { path: { id } }, body: { name } })),
        remove: async (id) => unwrap(await api.DELETE('/api/sets/{id}', { params: { path: { id } } })),
      }}
    />
  );
}

function FieldsPanel({ workspaceId }: { workspaceId: number }) {
  const fields = useCustomFields(workspaceId);
  if (!fields.data) return <ScreenPart error={fields.error} onRetry={() => void fields.refetch()} />;
  return <CustomFieldsPanel workspaceId={workspaceId} definitions={fields.data} />;
}

/** A tab's content while it loads or failed (the screen's heading is above). */
function ScreenPart({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return error ? <ErrorNotice error={error} onRetry={onRetry} /> : <p role="status">{t('app.loading')}</p>;
}
