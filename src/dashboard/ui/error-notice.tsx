// An error as a plain sentence: the service's own message for 403, 404 and 409 (it names what
// was refused), a count-down for 429, "try again" for 503 and network failures, a generic
// sentence for anything unexpected (its details are in the service's log).
import { Button } from 'react-aria-components/Button';
import { ApiError, NetworkError } from '../api/errors.ts';
import { t } from '../i18n/i18n.ts';

export function errorText(error: unknown): string {
  if (error instanceof NetworkError) return t('error.network');
  if (!(error instanceof ApiError)) return t('error.unexpected');
  if (error.status === 429) return t('error.rate_limited', { seconds: error.retryAfter ?? 60 });
  if (error.status === 503 || error.status === 502) return error.message || t('error.unavailable');
  if (error.status === 422 && Object.keys(error.fields).length > 0) return t('error.form');
  if (error.status >= 500) return t('error.unexpected');
  return error.message;
}

export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div role="alert" className="notice error">
      <p>{errorText(error)}</p>
      {onRetry && (
        <Button className="button" onPress={onRetry}>
          {t('app.retry')}
        </Button>
      )}
    </div>
  );
}
