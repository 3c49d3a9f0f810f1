// The workspace's background work (CSV imports, AI drafting and imports), newest first: type,
// status, progress and times, kept live by asking again every 2 s while any is unfinished;
// a failed one can be retried, an unfinished one cancelled; each opens its event log.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { ProgressBar } from 'react-aria-components/ProgressBar';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';
import type { MessageKey } from '../i18n/en.ts';
import { formatDateTime, t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { ScreenState } from '../ui/screen-state.tsx';
import { chosenWorkspace, useWorkspaces } from '../workspaces/use-workspaces.ts';

type ProcessSummary = components['schemas']['ProcessSummary'];

/** While any process is unfinished the list is asked for again this often. */
const LIVE_INTERVAL_MS = 2000;
const FINISHED = new Set(['completed', 'failed', 'cancelled']);
const CANCELLABLE = new Set(['pending', 'running', 'waiting_review']);

const TYPE_LABELS: Record<string, MessageKey> = {
  csv_import: 'processes.type.csv_import',
  ai_location_import_generate: 'processes.type.ai_location_import_generate',
  ai_location_import_apply: 'processes.type.ai_location_import_apply',
  geocoding: 'processes.type.geocoding',
};
const typeLabel = (type: string | null) => t((type && TYPE_LABELS[type]) || 'processes.type.other');

export function ProcessesScreen() {
  const search = useSearch({ from: '/app/processes' });
  const workspaces = useWorkspaces();
  const workspace = workspaces.data && chosenWorkspace(workspaces.data, search.workspace);
  const processes = useQuery({
    queryKey: ['processes', workspace?.id],
    enabled: workspace !== undefined,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/processes', { params: { query: { workspace_id: workspace?.id, limit: 100 } } }),
      ),
    refetchInterval: (query) =>
      query.state.data?.some((process) => !FINISHED.has(process.status)) ? LIVE_INTERVAL_MS : false,
  });
  const title = t('processes.title');
  if (workspaces.error)
    return <ScreenState title={title} error={workspaces.error} onRetry={() => void workspaces.refetch()} />;
  if (processes.error)
    return <ScreenState title={title} error={processes.error} onRetry={() => void processes.refetch()} />;
  if (!processes.data) return <ScreenState title={title} />;
  return (
    <>
      <h1>{title}</h1>
      {processes.data.length === 0 ? (
        <p className="empty">{t('processes.empty')}</p>
      ) : (
        <table className="data-table compact">
          <thead>
            <tr>
              <th scope="col">{t('processes.col.type')}</th>
              <th scope="col">{t('processes.col.status')}</th>
              <th scope="col">{t('processes.col.progress')}</th>
              <th scope="col">{t('processes.col.started')}</th>
              <th scope="col">{t('processes.col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {processes.data.map((process) => (
              <ProcessRow key={process.id} process={process} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function ProcessRow({ process }: { process: ProcessSummary }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['processes'] });
  const retry = useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/api/processes/{id}/retry', { params: { path: { id: process.id } } })),
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/api/processes/{id}/cancel', { params: { path: { id: process.id } } })),
    onSettled: refresh,
  });
  const label = `${typeLabel(process.type)} #${process.id}`;
  return (
    <>
      <tr>
        <th scope="row">{label}</th>
        <td>
          <span className={`status status-${process.status}`}>
            {t(`processes.status.${process.status}` as MessageKey)}
          </span>
        </td>
        <td>
          <ProgressBar
            className="progress compact"
            aria-label={t('processes.progress_of', { label })}
            value={process.progress ?? 0}
          >
            {({ valueText }) => (
              <>
                <span>{valueText}</span>
                <div className="progress-track">
                  <div className="progress-fill" style={{ width: `${process.progress ?? 0}%` }} />
                </div>
              </>
            )}
          </ProgressBar>
        </td>
        <td>{formatDateTime(process.created_at)}</td>
        <td>
          <div className="actions tight">
            <Button className="button" onPress={() => setOpen(!open)} aria-expanded={open}>
              {open ? t('processes.hide') : t('processes.show')}
            </Button>
            {process.status === 'failed' && (
              <Button className="button" isDisabled={retry.isPending} onPress={() => retry.mutate()}>
                {t('processes.retry')}
              </Button>
            )}
            {CANCELLABLE.has(process.status) && (
              <Button className="button" isDisabled={cancel.isPending} onPress={() => cancel.mutate()}>
                {t('processes.cancel')}
              </Button>
            )}
          </div>
          {(retry.error || cancel.error) && <ErrorNotice error={retry.error ?? cancel.error} />}
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={5}>
            <ProcessEvents id={process.id} live={!FINISHED.has(process.status)} />
          </td>
        </tr>
      )}
    </>
  );
}

function ProcessEvents({ id, live }: { id: number; live: boolean }) {
  const events = useQuery({
    queryKey: ['process-events', id],
    queryFn: async () => unwrap(await api.GET('/api/processes/{id}/events', { params: { path: { id } } })),
    refetchInterval: live ? LIVE_INTERVAL_MS : false,
  });
  if (events.error) return <ErrorNotice error={events.error} onRetry={() => void events.refetch()} />;
  if (!events.data) return <p role="status">{t('app.loading')}</p>;
  return (
    <ol className="event-log" aria-label={t('processes.events')}>
      {events.data.map((event) => (
        <li key={event.id}>
          <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time> {event.message}
        </li>
      ))}
    </ol>
  );
}
