// A screen that cannot show its content yet: its heading, then the loading line or the error
// (with a retry), so every state of every screen has its one level-one heading.
import { t } from '../i18n/i18n.ts';
import { ErrorNotice } from './error-notice.tsx';

export function ScreenState({
  title,
  error,
  onRetry,
}: {
  title: string;
  error?: unknown;
  onRetry?: () => void;
}) {
  return (
    <>
      <h1>{title}</h1>
      {error ? <ErrorNotice error={error} onRetry={onRetry} /> : <p role="status">{t('app.loading')}</p>}
    </>
  );
}
