// The signed-in frame: a skip link, the header (product, workspace switcher, the main
// navigation, and the account with sign out), with the current screen in <main>.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useSearch } from '@tanstack/react-router';
import { Button } from 'react-aria-components/Button';
import { useMe } from '../account/use-me.ts';
import { api } from '../api/client.ts';
import { endSession } from '../api/session.ts';
import { t } from '../i18n/i18n.ts';
import { WorkspaceSwitcher } from '../workspaces/workspace-switcher.tsx';

export function AppShell() {
  const navigate = useNavigate();
  // The workspace in view goes along from screen to screen.
  const { workspace } = useSearch({ strict: false }) as { workspace?: number };
  const workspaceSearch = workspace === undefined ? {} : { workspace };
  const queryClient = useQueryClient();
  // The admin area is linked for admins only; the page itself still asks the service.
  const isAdmin = useMe().data?.role === 'admin';
  const signOut = useMutation({
    // The session ends here whatever the service answers: a sign-out never fails for the user.
    mutationFn: async () => api.POST('/api/logout').catch(() => undefined),
    onSettled() {
      endSession();
      queryClient.clear();
      void navigate({ to: '/sign-in', search: {} });
    },
  });
  return (
    <>
      <a className="skip-link" href="#main">
        {t('app.skip')}
      </a>
      <header className="app-header">
        <span className="brand">{t('app.name')}</span>
        <WorkspaceSwitcher />
        <nav aria-label={t('nav.main')}>
          <ul>
            <li>
              <Link to="/locations" search={workspaceSearch} activeProps={{ 'aria-current': 'page' }}>
                {t('nav.locations')}
              </Link>
            </li>
            <li>
              <Link to="/import" search={workspaceSearch} activeProps={{ 'aria-current': 'page' }}>
                {t('nav.import')}
              </Link>
            </li>
            <li>
              <Link to="/organize" search={workspaceSearch} activeProps={{ 'aria-current': 'page' }}>
                {t('nav.organize')}
              </Link>
            </li>
            <li>
              <Link to="/finders" search={workspaceSearch} activeProps={{ 'aria-current': 'page' }}>
                {t('nav.finders')}
              </Link>
            </li>
            <li>
              <Link to="/processes" search={workspaceSearch} activeProps={{ 'aria-current': 'page' }}>
                {t('nav.processes')}
              </Link>
            </li>
            <li>
              <Link to="/workspaces" search={workspaceSearch} activeProps={{ 'aria-current': 'page' }}>
                {t('nav.workspaces')}
              </Link>
            </li>
            <li>
              <Link to="/billing" search={workspaceSearch} activeProps={{ 'aria-current': 'page' }}>
                {t('nav.billing')}
              </Link>
            </li>
            {isAdmin && (
              <li>
                <Link to="/admin" search={{}} activeProps={{ 'aria-current': 'page' }}>
                  {t('nav.admin')}
                </Link>
              </li>
            )}
          </ul>
        </nav>
        <div className="account-menu">
          <Link to="/account" search={{}} activeProps={{ 'aria-current': 'page' }}>
            {t('nav.account')}
          </Link>
          <Button className="button" onPress={() => signOut.mutate()} isDisabled={signOut.isPending}>
            {t('nav.sign_out')}
          </Button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
