// The workspace's AI imports (the caller's own, the 20 last changed): what each was about, its
// status and its item counts, each opening its review; and the way to start a new one.
import { Link, useSearch } from '@tanstack/react-router';
import type { MessageKey } from '../i18n/en.ts';
import { formatDateTime, formatNumber, t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { ScreenState } from '../ui/screen-state.tsx';
import { chosenWorkspace, useWorkspaces } from '../workspaces/use-workspaces.ts';
import { type Batch, useAiImports } from './use-ai-imports.ts';

/** What the batch was about: the business type the answers gave. */
export const batchTopic = (batch: Pick<Batch, 'source_answers'>) => {
  const value = batch.source_answers.business_type;
  return typeof value === 'string' ? value : '';
};

export function AiImportsScreen() {
  const search = useSearch({ from: '/app/ai-imports' });
  const workspaces = useWorkspaces();
  const workspace = workspaces.data && chosenWorkspace(workspaces.data, search.workspace);
  const batches = useAiImports(workspace?.id);
  const title = t('ai_import.title');

  if (workspaces.error)
    return <ScreenState title={title} error={workspaces.error} onRetry={() => void workspaces.refetch()} />;
  if (!workspace) return <ScreenState title={title} />;
  return (
    <>
      <h1>{title}</h1>
      <p>{t('ai_import.intro', { workspace: workspace.name })}</p>
      <p>
        <Link className="button primary" to="/ai-imports/new" search={{ workspace: workspace.id }}>
          {t('ai_import.new')}
        </Link>
      </p>
      {batches.error ? (
        <ErrorNotice error={batches.error} onRetry={() => void batches.refetch()} />
      ) : !batches.data ? (
        <p role="status">{t('app.loading')}</p>
      ) : batches.data.length === 0 ? (
        <p className="empty">{t('ai_import.empty')}</p>
      ) : (
        <div className="ai-list">
          <table className="data-table compact">
            <caption>{t('ai_import.list_caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ai_import.col.import')}</th>
                <th scope="col">{t('ai_import.col.status')}</th>
                <th scope="col">{t('ai_import.col.items')}</th>
                <th scope="col">{t('ai_import.col.updated')}</th>
              </tr>
            </thead>
            <tbody>
              {batches.data.map((batch) => (
                <tr key={batch.id}>
                  <th scope="row">
                    <Link to="/ai-imports/$batchId" params={{ batchId: String(batch.id) }}>
                      {t('ai_import.batch_name', { id: batch.id, topic: batchTopic(batch) })}
                    </Link>
                  </th>
                  <td>
                    <span className={`status status-${batch.status}`}>
                      {t(`ai_import.batch_status.${batch.status}` as MessageKey)}
                    </span>
                  </td>
                  <td>
                    {t('ai_import.counts', {
                      total: formatNumber(batch.total_items),
                      approved: formatNumber(batch.approved_items),
                      rejected: formatNumber(batch.rejected_items),
                    })}
                  </td>
                  <td>{formatDateTime(batch.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
