// Every workspace (GET /admin/workspaces) and every finder (GET /admin/finders) of the
// service, a page at a time, by id: the admin twins of the member lists, which see across
// every workspace.
import { api, withTotal } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';
import { formatDateTime, t } from '../i18n/i18n.ts';
import { PagedTable, usePagedList } from './paged-table.tsx';

type Workspace = components['schemas']['Workspace'];
type Finder = components['schemas']['Finder'];

export function WorkspacesPanel() {
  const list = usePagedList(['admin', 'workspaces'], {}, async (page) =>
    withTotal(await api.GET('/api/admin/workspaces', { params: { query: page } })),
  );
  return (
    <>
      <h2>{t('admin.workspaces.title')}</h2>
      <PagedTable<Workspace>
        label={t('admin.workspaces.title')}
        list={list}
        empty={t('admin.workspaces.what')}
        head={
          <tr>
            <th scope="col">{t('admin.col.name')}</th>
            <th scope="col">{t('admin.col.id')}</th>
            <th scope="col">{t('admin.col.created')}</th>
            <th scope="col">{t('admin.col.updated')}</th>
          </tr>
        }
        row={(workspace) => (
          <tr key={workspace.id}>
            <th scope="row">{workspace.name}</th>
            <td>{workspace.id}</td>
            <td>{formatDateTime(workspace.created_at)}</td>
            <td>{formatDateTime(workspace.updated_at)}</td>
          </tr>
        )}
      />
    </>
  );
}

export function FindersPanel() {
  const list = usePagedList(['admin', 'finders'], {}, async (page) =>
    withTotal(await api.GET('/api/admin/finders', { params: { query: page } })),
  );
  return (
    <>
      <h2>{t('admin.finders.title')}</h2>
      <PagedTable<Finder>
        label={t('admin.finders.title')}
        list={list}
        empty={t('admin.finders.what')}
        head={
          <tr>
            <th scope="col">{t('admin.col.name')}</th>
            <th scope="col">{t('admin.col.id')}</th>
            <th scope="col">{t('admin.finders.workspace')}</th>
            <th scope="col">{t('admin.col.created')}</th>
          </tr>
        }
        row={(finder) => (
          <tr key={finder.id}>
            <th scope="row">{finder.name}</th>
            <td>{finder.id}</td>
            <td>{finder.workspace_id}</td>
            <td>{formatDateTime(finder.created_at)}</td>
          </tr>
        )}
      />
    </>
  );
}
