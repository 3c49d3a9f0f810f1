// CSV import: a file dropped or chosen (its size checked against the service's 50 MB limit
// before anything is sent), the upload's progress, then the result: how many locations were
// created, updated and skipped, and every problem with its row and column, as a table. A
// template with the columns the import reads can be downloaded.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { DropZone } from 'react-aria-components/DropZone';
import { FileTrigger } from 'react-aria-components/FileTrigger';
import { ProgressBar } from 'react-aria-components/ProgressBar';
import { Text } from 'react-aria-components/Text';
import type { components } from '../api/schema.gen.ts';
import { type UploadProgress, uploadForm } from '../api/upload.ts';
import { formatNumber, t } from '../i18n/i18n.ts';
import { downloadText } from '../ui/download.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { ScreenState } from '../ui/screen-state.tsx';
import { chosenWorkspace, useWorkspaces } from '../workspaces/use-workspaces.ts';
import { CSV_TEMPLATE_COLUMNS, MAX_CSV_BYTES } from './csv-rules.ts';

type ImportResult = components['schemas']['LocationImportResult'];

const downloadTemplate = () =>
  downloadText('locations-template.csv', `${CSV_TEMPLATE_COLUMNS.join(',')}\n`, 'text/csv');

const megabytes = (bytes: number) => `${formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`;

export function ImportScreen() {
  const search = useSearch({ from: '/app/import' });
  const workspaces = useWorkspaces();
  const workspace = workspaces.data && chosenWorkspace(workspaces.data, search.workspace);
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);

  const upload = useMutation({
    mutationFn: async ({ chosen, workspaceId }: { chosen: File; workspaceId: number }) => {
      const form = new FormData();
      form.append('workspace_id', String(workspaceId));
      form.append('file', chosen, chosen.name);
      return uploadForm('/api/locations/import', form, setProgress);
    },
    onSettled() {
      setProgress(null);
      void queryClient.invalidateQueries({ queryKey: ['locations'] });
    },
  });

  const choose = (files: FileList | File[] | null) => {
    const chosen = files ? Array.from(files)[0] : undefined;
    if (!chosen) return;
    upload.reset();
    setFile(chosen);
    setTooLarge(chosen.size > MAX_CSV_BYTES);
  };

  if (workspaces.error)
    return (
      <ScreenState
        title={t('import.title')}
        error={workspaces.error}
        onRetry={() => void workspaces.refetch()}
      />
    );
  if (!workspace) return <ScreenState title={t('import.title')} />;
  return (
    <>
      <h1>{t('import.title')}</h1>
      <p>{t('import.intro', { workspace: workspace.name })}</p>
      <p>
        <Link to="/ai-imports" search={{ workspace: workspace.id }}>
          {t('ai_import.from_csv_screen')}
        </Link>
      </p>
      <p>
        <Button className="button link" onPress={downloadTemplate}>
          {t('import.template')}
        </Button>
      </p>
      <DropZone
        className="drop-zone"
        aria-label={t('import.drop')}
        onDrop={async (event) => {
          const item = event.items.find((entry) => entry.kind === 'file');
          if (item && item.kind === 'file') choose([await item.getFile()]);
        }}
      >
        <Text slot="label">{t('import.drop')}</Text>
        <FileTrigger acceptedFileTypes={['.csv', 'text/csv']} onSelect={choose}>
          <Button className="button">{t('import.choose')}</Button>
        </FileTrigger>
      </DropZone>
      {file && (
        <div className="import-file">
          <p>{t('import.chosen', { name: file.name, size: megabytes(file.size) })}</p>
          {tooLarge ? (
            <p role="alert" className="notice error">
              {t('import.too_large', { size: megabytes(file.size), limit: megabytes(MAX_CSV_BYTES) })}
            </p>
          ) : (
            <Button
              className="button primary"
              isDisabled={upload.isPending}
              onPress={() => upload.mutate({ chosen: file, workspaceId: workspace.id })}
            >
              {t('import.start')}
            </Button>
          )}
        </div>
      )}
      {upload.isPending && (
        <ProgressBar
          className="progress"
          aria-label={t('import.progress')}
          value={progress && progress.total > 0 ? (progress.loaded / progress.total) * 100 : undefined}
          isIndeterminate={!progress || progress.loaded >= progress.total}
        >
          {({ percentage, isIndeterminate }) => (
            <>
              <span>
                {isIndeterminate
                  ? t('import.processing')
                  : t('import.uploading', { percent: Math.round(percentage ?? 0) })}
              </span>
              <div className="progress-track">
                <div
                  className="progress-fill"
                  style={{ width: isIndeterminate ? '100%' : `${percentage}%` }}
                />
              </div>
            </>
          )}
        </ProgressBar>
      )}
      {upload.error && <ErrorNotice error={upload.error} />}
      {upload.data && <ImportReport result={upload.data} workspaceId={workspace.id} />}
    </>
  );
}

function ImportReport({ result, workspaceId }: { result: ImportResult; workspaceId: number }) {
  return (
    <section aria-labelledby="import-result" className="import-result">
      <h2 id="import-result" tabIndex={-1}>
        {t('import.result')}
      </h2>
      <p role="status">
        {t('import.summary', {
          created: formatNumber(result.created),
          updated: formatNumber(result.updated),
          skipped: formatNumber(result.skipped),
        })}
      </p>
      {result.errors.length > 0 && (
        <table className="data-table compact">
          <caption>{t('import.errors_caption', { count: formatNumber(result.errors.length) })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('import.col.row')}</th>
              <th scope="col">{t('import.col.column')}</th>
              <th scope="col">{t('import.col.problem')}</th>
            </tr>
          </thead>
          <tbody>
            {result.errors.map((error) => (
              <tr key={`${error.row}-${error.field}-${error.message}`}>
                <td>{error.row}</td>
                <td>{error.field}</td>
                <td>{error.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <Link to="/locations" search={{ workspace: workspaceId }}>
          {t('import.to_locations')}
        </Link>
      </p>
    </section>
  );
}
