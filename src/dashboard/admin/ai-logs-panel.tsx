// The AI import log (GET /admin/ai-logs): every drafting batch of every workspace, newest first,
// a page at a time: who, which model, how many items were drafted and imported, the tokens it
// used, and its process's state or error.
import { api, withTotal } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';
import type { MessageKey } from '../i18n/en.ts';
import { formatDateTime, formatNumber, t } from '../i18n/i18n.ts';
import { PagedTable, usePagedList } from './paged-table.tsx';

type AiLog = components['schemas']['AiLog'];

export function AiLogsPanel() {
  const list = usePagedList(['admin', 'ai-logs'], {}, async (page) =>
    withTotal(await api.GET('/api/admin/ai-logs', { params: { query: page } })),
  );
  return (
    <>
      <h2>{t('admin.ai.title')}</h2>
      <PagedTable<AiLog>
        label={t('admin.ai.title')}
        list={list}
        empty={t('admin.ai.what')}
        head={
          <tr>
            <th scope="col">{t('admin.ai.col.batch')}</th>
            <th scope="col">{t('admin.ai.col.who')}</th>
            <th scope="col">{t('admin.ai.col.model')}</th>
            <th scope="col">{t('admin.ai.col.items')}</th>
            <th scope="col">{t('admin.ai.col.tokens')}</th>
            <th scope="col">{t('admin.ai.col.state')}</th>
            <th scope="col">{t('admin.audit.col.when')}</th>
          </tr>
        }
        row={(log) => (
          <tr key={log.batch_id}>
            <th scope="row">{t('admin.ai.batch', { id: log.batch_id })}</th>
            <td>
              {log.user_email ?? t('admin.ai.user', { id: log.user_id })}
              <br />
              {t('admin.ai.workspace', { id: log.workspace_id })}
            </td>
            <td>
              {log.model_name} ({log.prompt_version})
            </td>
            <td>
              {t('admin.ai.items', {
                imported: formatNumber(log.imported_items),
                total: formatNumber(log.total_items),
              })}
            </td>
            <td>
              {log.usage_metadata ? formatNumber(log.usage_metadata.total_token_count) : t('admin.none')}
            </td>
            <td>
              {t(`ai_import.batch_status.${log.status}` as MessageKey)}
              {/* A draft's own state is its drafting process's: running, failed, waiting for review. */}
              {log.status === 'draft' && log.process_status && (
                <> · {t(`processes.status.${log.process_status}` as MessageKey)}</>
              )}
              {log.error_message && (
                <>
                  <br />
                  {log.error_message}
                </>
              )}
            </td>
            <td>{formatDateTime(log.created_at)}</td>
          </tr>
        )}
      />
    </>
  );
}
