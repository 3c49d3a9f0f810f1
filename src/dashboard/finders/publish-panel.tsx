// Publishing: when the finder was last published and as which version, publish (again) and
// unpublish (confirmed first), and the code a website pastes to embed it, with a copy button.
import { Button } from 'react-aria-components/Button';
import { Label } from 'react-aria-components/Label';
import { TextArea } from 'react-aria-components/TextArea';
import { TextField } from 'react-aria-components/TextField';
import { apiBaseUrl } from '../config.ts';
import { formatDateTime, t } from '../i18n/i18n.ts';
import { ConfirmButton } from '../ui/confirm-dialog.tsx';
import { CopyButton } from '../ui/copy-button.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { type Finder, usePublication, usePublish } from './use-finders.ts';

/** What a website pastes: the script from the service (which serves /widget.js) and a container. */
export function embedSnippet(token: string): string {
  const service = apiBaseUrl || window.location.origin;
  return `<script src="${service}/widget.js" data-finder="${token}" async></script>\n<div data-location-finder></div>`;
}

export function PublishPanel({ finder }: { finder: Finder }) {
  const publication = usePublication(finder.token);
  const { publish, unpublish } = usePublish(finder.token);
  const snippet = embedSnippet(finder.token);
  const published = publication.data?.hash ? publication.data : undefined;

  return (
    <>
      <h2>{t('finder.tab.publish')}</h2>
      {publication.error ? (
        <ErrorNotice error={publication.error} onRetry={() => void publication.refetch()} />
      ) : (
        <p role="status">
          {publication.isPending
            ? t('app.loading')
            : published?.last_synced_at
              ? t('publish.state', {
                  time: formatDateTime(published.last_synced_at),
                  hash: published.hash ?? '',
                })
              : t('publish.state_never')}
        </p>
      )}
      <div className="actions">
        <Button className="button primary" isDisabled={publish.isPending} onPress={() => publish.mutate()}>
          {published ? t('publish.republish') : t('publish.publish')}
        </Button>
        {published && (
          <ConfirmButton
            trigger={t('publish.unpublish')}
            title={t('publish.unpublish')}
            action={t('publish.unpublish')}
            isDisabled={unpublish.isPending}
            onConfirm={() => unpublish.mutate()}
          >
            <p>{t('publish.unpublish_confirm')}</p>
          </ConfirmButton>
        )}
      </div>
      {(publish.error || unpublish.error) && <ErrorNotice error={publish.error ?? unpublish.error} />}
      <TextField className="field snippet" value={snippet} isReadOnly>
        <Label>{t('publish.snippet')}</Label>
        <TextArea rows={3} />
      </TextField>
      <p>{t('publish.snippet_hint')}</p>
      <div className="actions">
        <CopyButton text={snippet} label={t('publish.copy')} />
      </div>
    </>
  );
}
