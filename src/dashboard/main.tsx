// The dashboard's entry: the server-state cache, the router, and a watch on the session so a
// sign-out (here, in another tab, or a 401) takes a signed-in page back to sign-in.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { I18nProvider } from 'react-aria-components/I18nProvider';
import { createRoot } from 'react-dom/client';
import { ApiError, isTransient } from './api/errors.ts';
import { getSession, subscribeSession } from './api/session.ts';
import { locale } from './i18n/i18n.ts';
import { router } from './router.tsx';
import 'leaflet/dist/leaflet.css';
import 'uplot/dist/uPlot.min.css';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Only what a retry can fix: a brief outage or a dropped connection, three times.
      retry: (failures, error) => isTransient(error) && failures < 3,
      refetchOnWindowFocus: false,
    },
  },
});

subscribeSession(() => {
  if (getSession()) return;
  queryClient.clear();
  const here = router.state.location;
  if (here.pathname === '/sign-in' || here.pathname === '/sign-up') return;
  void router.navigate({ to: '/sign-in', search: { redirect: here.href, expired: true } });
});

// Anything a screen did not handle: a 401 has ended the session above; the rest is logged.
queryClient.getQueryCache().subscribe((event) => {
  if (
    event.type === 'updated' &&
    event.action.type === 'error' &&
    !(event.action.error instanceof ApiError)
  ) {
    console.error(event.action.error);
  }
});

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from the page');
createRoot(container).render(
  <StrictMode>
    {/* React Aria's own strings and formats follow the dashboard's language, not the browser's. */}
    <I18nProvider locale={locale}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>,
);
