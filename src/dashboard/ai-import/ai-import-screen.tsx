// One AI import (`/app/ai-imports/{id}`): while the model drafts, its progress live; a failed
// drafting with its reason and a retry; then the review of the drafted items, "approve all
// valid", the import (its result stays on the page, from the batch) and discard after a
// confirmation. Another user's batch, or a discarded one, is the service's 404 sentence.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { ProgressBar } from 'react-aria-components/ProgressBar';
import { api, unwrap } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { MessageKey } from '../i18n/en.ts';
import { formatNumber, t, tCount } from '../i18n/i18n.ts';
import { ConfirmButton } from '../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { ScreenState } from '../ui/screen-state.tsx';
import { batchTopic } from './ai-imports-screen.tsx';
import { ReviewTable } from './review-table.tsx';
import {
  AI_IMPORTS_KEY,
  type Batch,
  type BatchWithItems,
  batchKey,
  isImportable,
  useBatch,
} from './use-ai-imports.ts';
import { DRAFTING_OVER, type ProcessProgress, useProcessProgress } from './use-process-progress.ts';

export function AiImportScreen() {
  const { batchId } = useParams({ from: '/app/ai-imports/$batchId' });
  const id = Number(batchId);
  const valid = Number.isSafeInteger(id) && id > 0;
  const batch = useBatch(valid ? id : 0);
  const title = t('ai_import.title');
  if (!valid)
    return <ScreenState title={title} error={new ApiError(404, 'not_found', t('error.not_found'))} />;
  if (batch.error)
    return <ScreenState title={title} error={batch.error} onRetry={() => void batch.refetch()} />;
  if (!batch.data) return <ScreenState title={title} />;
  // Keyed by the batch: another batch's page starts afresh (its progress, its mutations).
  return <BatchPage key={batch.data.id} batch={batch.data} fetching={batch.isFetching} />;
}

function BatchPage({ batch, fetching }: { batch: BatchWithItems; fetching: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [round, setRound] = useState(0);
  // Drafting is followed until the process says it is over; an imported batch is long past it.
  const follow = batch.status === 'draft' ? batch.process_id : null;
  const live = useProcessProgress(follow, round, () => {
    void queryClient.invalidateQueries({ queryKey: batchKey(batch.id) });
  });
  const retry = useMutation({
    mutationFn: async (processId: number) =>
      unwrap(await api.POST('/api/processes/{id}/retry', { params: { path: { id: processId } } })),
    onSuccess: () => setRound((value) => value + 1),
  });
  const discard = useMutation({
    mutationFn: async () =>
      unwrap(await api.DELETE('/api/ai-location-imports/{id}', { params: { path: { id: batch.id } } })),
    onSuccess() {
      queryClient.removeQueries({ queryKey: batchKey(batch.id) });
      // The list shows at once without it, before its refetch answers.
      queryClient.setQueriesData<Batch[]>({ queryKey: [...AI_IMPORTS_KEY, 'list'] }, (list) =>
        list?.filter((entry) => entry.id !== batch.id),
      );
      void queryClient.invalidateQueries({ queryKey: AI_IMPORTS_KEY });
      void navigate({ to: '/ai-imports', search: { workspace: batch.workspace_id } });
    },
  });

  // Until the process's state arrives, a batch with items is taken as drafted (no flash of
  // progress on opening one under review).
  const drafting =
    follow !== null && (live.progress ? !DRAFTING_OVER.has(live.progress.status) : batch.items.length === 0);
  const status = live.progress?.status;
  return (
    <>
      <p>
        <Link to="/ai-imports" search={{ workspace: batch.workspace_id }}>
          {t('ai_import.back_to_list')}
        </Link>
      </p>
      <h1>{t('ai_import.batch_name', { id: batch.id, topic: batchTopic(batch) })}</h1>
      <p>
        <span className={`status status-${batch.status}`}>
          {t(`ai_import.batch_status.${batch.status}` as MessageKey)}
        </span>{' '}
        {t('ai_import.model', { model: batch.model_name })}
      </p>
      {drafting ? (
        <DraftingProgress progress={live.progress} />
      ) : batch.status === 'draft' && (status === 'failed' || status === 'cancelled') ? (
        <section aria-labelledby="drafting-failed">
          <h2 id="drafting-failed">
            {status === 'failed' ? t('ai_import.drafting_failed') : t('ai_import.drafting_cancelled')}
          </h2>
          {live.progress?.message && <p className="notice error">{live.progress.message}</p>}
          {status === 'failed' && batch.process_id !== null && (
            <Button
              className="button primary"
              isDisabled={retry.isPending}
              onPress={() => retry.mutate(batch.process_id as number)}
            >
              {t('ai_import.retry_drafting')}
            </Button>
          )}
          {retry.error && <ErrorNotice error={retry.error} />}
        </section>
      ) : batch.status === 'imported' ? (
        <ImportedSummary batch={batch} />
      ) : (
        <ReviewActions batch={batch} />
      )}
      {live.error && drafting && <ErrorNotice error={live.error} />}
      {!drafting && batch.items.length > 0 && <ReviewTable batch={batch} />}
      {!drafting &&
        batch.status === 'draft' &&
        status === 'waiting_review' &&
        !fetching &&
        batch.items.length === 0 && <p className="empty">{t('ai_import.no_items')}</p>}
      <div className="actions">
        <ConfirmButton
          trigger={t('ai_import.discard')}
          title={t('ai_import.discard_title')}
          action={t('ai_import.discard_action')}
          isDisabled={discard.isPending}
          onConfirm={() => discard.mutate()}
        >
          <p>{t('ai_import.discard_confirm')}</p>
        </ConfirmButton>
      </div>
      {discard.error && <ErrorNotice error={discard.error} />}
    </>
  );
}

function DraftingProgress({ progress }: { progress: ProcessProgress | undefined }) {
  const value = progress?.progress ?? 0;
  return (
    <section aria-labelledby="drafting" className="ai-drafting">
      <h2 id="drafting">{t('ai_import.drafting')}</h2>
      <ProgressBar className="progress" aria-label={t('ai_import.drafting_progress')} value={value}>
        {({ valueText }) => (
          <>
            <span>{valueText}</span>
            <div className="progress-track">
              <div className="progress-fill" style={{ width: `${value}%` }} />
            </div>
          </>
        )}
      </ProgressBar>
      <p role="status">
        {progress?.message ??
          t(
            progress?.status === 'running'
              ? 'ai_import.drafting_running'
              : progress
                ? 'ai_import.drafting_waiting'
                : 'app.loading',
          )}
      </p>
    </section>
  );
}

function ReviewActions({ batch }: { batch: BatchWithItems }) {
  const queryClient = useQueryClient();
  const valid = batch.items.filter(
    (item) => item.status === 'pending_review' && item.validation_errors.length === 0,
  );
  const [approving, setApproving] = useState<{ done: number; total: number } | null>(null);
  // One PATCH per item (the API has no bulk review), one after another: each answers the whole
  // batch, and the last answer is the batch as it now is.
  const approveAll = useMutation({
    mutationFn: async (ids: number[]) => {
      let latest: BatchWithItems | undefined;
      for (const [index, itemId] of ids.entries()) {
        setApproving({ done: index, total: ids.length });
        latest = unwrap(
          await api.PATCH('/api/ai-location-imports/{id}/items/{itemId}', {
            params: { path: { id: batch.id, itemId } },
            body: { status: 'approved' },
          }),
        );
        queryClient.setQueryData(batchKey(batch.id), latest);
      }
      return latest;
    },
    onSettled() {
      setApproving(null);
      void queryClient.invalidateQueries({ queryKey: batchKey(batch.id) });
    },
  });
  const importing = useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/api/ai-location-imports/{id}/import', { params: { path: { id: batch.id } } })),
    async onSuccess() {
      await queryClient.invalidateQueries({ queryKey: batchKey(batch.id) });
      void queryClient.invalidateQueries({ queryKey: AI_IMPORTS_KEY });
      void queryClient.invalidateQueries({ queryKey: ['locations'] });
    },
  });
  const importable = batch.items.filter(isImportable).length;
  return (
    <section aria-labelledby="review" className="ai-review-actions">
      <h2 id="review">{t('ai_import.review')}</h2>
      <p>
        {t('ai_import.review_counts', {
          total: formatNumber(batch.total_items),
          approved: formatNumber(batch.approved_items),
          rejected: formatNumber(batch.rejected_items),
          importable: formatNumber(importable),
        })}
      </p>
      <div className="actions">
        <Button
          className="button"
          isDisabled={valid.length === 0 || approveAll.isPending || importing.isPending}
          onPress={() => approveAll.mutate(valid.map((item) => item.id))}
        >
          {t('ai_import.approve_all', { count: formatNumber(valid.length) })}
        </Button>
        <Button
          className="button primary"
          isDisabled={importable === 0 || approveAll.isPending || importing.isPending}
          onPress={() => importing.mutate()}
        >
          {importing.isPending ? t('ai_import.importing') : tCount('ai_import.import', importable)}
        </Button>
      </div>
      {approving && (
        <p role="status">
          {t('ai_import.approving', {
            done: formatNumber(approving.done),
            total: formatNumber(approving.total),
          })}
        </p>
      )}
      {approveAll.error && <ErrorNotice error={approveAll.error} />}
      {importing.error && <ErrorNotice error={importing.error} />}
    </section>
  );
}

function ImportedSummary({ batch }: { batch: BatchWithItems }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The import button is gone with the review: focus goes to the result instead of the page.
  useEffect(() => {
    if (document.activeElement === document.body) heading.current?.focus();
  }, []);
  return (
    <section aria-labelledby="imported" className="import-result">
      <h2 id="imported" ref={heading} tabIndex={-1}>
        {t('ai_import.imported')}
      </h2>
      <p role="status">
        {t('ai_import.imported_summary', {
          imported: formatNumber(batch.imported_items),
          failed: formatNumber(batch.failed_items),
        })}
      </p>
      <p>
        <Link to="/locations" search={{ workspace: batch.workspace_id }}>
          {t('ai_import.to_locations')}
        </Link>
      </p>
    </section>
  );
}
