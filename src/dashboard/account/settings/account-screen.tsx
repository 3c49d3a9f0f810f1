// The signed-in user's account: the profile (name, email, password), the second factor, the
// devices signed in, and deleting the account, each a tab named in the address.
import { useNavigate, useSearch } from '@tanstack/react-router';
import { t } from '../../i18n/i18n.ts';
import { ErrorNotice } from '../../ui/error-notice.tsx';
import { AddressTabs } from '../../ui/tabs.tsx';
import { useMe } from '../use-me.ts';
import { DeleteAccountPanel } from './delete-account-panel.tsx';
import { ProfilePanel } from './profile-panel.tsx';
import { SessionsPanel } from './sessions-panel.tsx';
import type { AccountTab } from './tabs.ts';
import { TwoFactorPanel } from './two-factor-panel.tsx';

export function AccountScreen() {
  const { tab = 'profile' } = useSearch({ from: '/app/account' });
  const navigate = useNavigate({ from: '/account' });
  const me = useMe();

  if (me.error) return <ErrorNotice error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) return <p role="status">{t('app.loading')}</p>;
  const user = me.data;
  return (
    <>
      <h1>{t('account.title')}</h1>
      <AddressTabs<AccountTab>
        label={t('account.tabs')}
        selected={tab}
        onSelect={(key) => void navigate({ search: { tab: key }, replace: true })}
        tabs={[
          { id: 'profile', label: t('account.tab.profile'), panel: <ProfilePanel me={user} /> },
          { id: 'security', label: t('account.tab.security'), panel: <TwoFactorPanel me={user} /> },
          { id: 'sessions', label: t('account.tab.sessions'), panel: <SessionsPanel /> },
          { id: 'delete', label: t('account.tab.delete'), panel: <DeleteAccountPanel /> },
        ]}
      />
    </>
  );
}
