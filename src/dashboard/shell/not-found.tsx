// A path under /app that the dashboard does not know: said plainly, with a way back.
import { Link } from '@tanstack/react-router';
import { t } from '../i18n/i18n.ts';

export function NotFound() {
  return (
    <main id="main" className="auth-page">
      <h1>{t('notfound.title')}</h1>
      <p>{t('notfound.text')}</p>
      <p>
        <Link to="/locations" search={{}}>
          {t('notfound.back')}
        </Link>
      </p>
    </main>
  );
}
