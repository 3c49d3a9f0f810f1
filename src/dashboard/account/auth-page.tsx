// The frame of the signed-out pages: the product's name, one heading, the form.
import type { ReactNode } from 'react';
import { t } from '../i18n/i18n.ts';

export function AuthPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="auth-page">
      <p className="brand">{t('app.name')}</p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}
