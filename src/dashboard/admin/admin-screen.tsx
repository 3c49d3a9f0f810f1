// The admin area (role admin): users, the audit log, the AI import log, and every workspace and
// finder of the service, each a tab named in the address. Anyone else is told, in the service's
// own words (its 403), that they may not; the screen never guesses access on its own.
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMe } from '../account/use-me.ts';
import { api, unwrap } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { t } from '../i18n/i18n.ts';
import { ScreenState } from '../ui/screen-state.tsx';
import { AddressTabs } from '../ui/tabs.tsx';
import { AiLogsPanel } from './ai-logs-panel.tsx';
import { AuditPanel } from './audit-panel.tsx';
import { FindersPanel, WorkspacesPanel } from './content-panels.tsx';
import type { AdminTab } from './tabs.ts';
import { UsersPanel } from './users-panel.tsx';

export function AdminScreen() {
  const me = useMe();
  const title = t('admin.title');
  if (me.error) return <ScreenState title={title} error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) return <ScreenState title={title} />;
  return me.data.role === 'admin' ? <AdminTabs title={title} /> : <AccessCheck title={title} />;
}

function AdminTabs({ title }: { title: string }) {
  const { tab = 'users' } = useSearch({ from: '/app/admin' });
  const navigate = useNavigate({ from: '/admin' });
  return (
    <>
      <h1>{title}</h1>
      <AddressTabs<AdminTab>
        label={t('admin.tabs')}
        selected={tab}
        onSelect={(key) => void navigate({ search: { tab: key }, replace: true })}
        tabs={[
          { id: 'users', label: t('admin.tab.users'), panel: <UsersPanel />, wide: true },
          { id: 'audit', label: t('admin.tab.audit'), panel: <AuditPanel />, wide: true },
          { id: 'ai-logs', label: t('admin.tab.ai_logs'), panel: <AiLogsPanel />, wide: true },
          { id: 'workspaces', label: t('admin.tab.workspaces'), panel: <WorkspacesPanel />, wide: true },
          { id: 'finders', label: t('admin.tab.finders'), panel: <FindersPanel />, wide: true },
        ]}
      />
    </>
  );
}

/**
 * Not an admin, as far as GET /me says: the service is asked anyway, so the page shows its own
 * refusal (403), and an account promoted since the page read GET /me is let in.
 */
function AccessCheck({ title }: { title: string }) {
  const probe = useQuery({
    queryKey: ['admin', 'access'],
    queryFn: async () => unwrap(await api.GET('/api/users', { params: { query: { limit: 1 } } })),
  });
  if (probe.isSuccess) return <AdminTabs title={title} />;
  const refused = probe.error instanceof ApiError && probe.error.status === 403;
  return (
    <ScreenState
      title={title}
      error={probe.error ?? undefined}
      onRetry={refused ? undefined : () => void probe.refetch()}
    />
  );
}
