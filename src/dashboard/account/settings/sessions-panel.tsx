// The devices signed in to the account (GET /me/sessions, the live ones, newest first): each
// with its browser, address and times, this one marked. Another can be signed out (its token
// stops working at once), or all the others together.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import type { components } from '../../api/schema.gen.ts';
import { formatDateTime, t, tCount } from '../../i18n/i18n.ts';
import { ConfirmButton } from '../../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../../ui/error-notice.tsx';

type Session = components['schemas']['Session'];

const SESSIONS_KEY = ['me', 'sessions'] as const;

export function SessionsPanel() {
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: async () => unwrap(await api.GET('/api/me/sessions')),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
  const revoke = useMutation({
    mutationFn: async (id: number) =>
      unwrap(await api.DELETE('/api/me/sessions/{id}', { params: { path: { id } } })),
    onSettled: refresh,
  });
  const revokeOthers = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/me/sessions')),
    onSettled: refresh,
  });

  if (sessions.error) return <ErrorNotice error={sessions.error} onRetry={() => void sessions.refetch()} />;
  if (!sessions.data) return <p role="status">{t('app.loading')}</p>;
  const others = sessions.data.filter((session) => !session.current).length;
  return (
    <>
      <h2>{t('sessions.title')}</h2>
      <p>{t('sessions.intro')}</p>
      <ul className="item-list">
        {sessions.data.map((session) => (
          <SessionItem
            key={session.id}
            session={session}
            pending={revoke.isPending && revoke.variables === session.id}
            onRevoke={() => revoke.mutate(session.id)}
          />
        ))}
      </ul>
      {others > 1 && (
        <div className="actions">
          <ConfirmButton
            trigger={t('sessions.revoke_others')}
            title={t('sessions.revoke_others')}
            action={t('sessions.revoke_others')}
            isDisabled={revokeOthers.isPending}
            onConfirm={() => revokeOthers.mutate()}
          >
            <p>{tCount('sessions.revoke_others_confirm', others)}</p>
          </ConfirmButton>
        </div>
      )}
      {revokeOthers.isSuccess && (
        <p role="status" className="notice">
          {tCount('sessions.revoked_others', revokeOthers.data.revoked)}
        </p>
      )}
      {(revoke.error || revokeOthers.error) && <ErrorNotice error={revoke.error ?? revokeOthers.error} />}
    </>
  );
}

function SessionItem({
  session,
  pending,
  onRevoke,
}: {
  session: Session;
  pending: boolean;
  onRevoke: () => void;
}) {
  const device = session.user_agent ?? t('sessions.unknown_device');
  return (
    <li className="item">
      <p className="item-title">
        {device}
        {session.current && <span className="badge">{t('sessions.current')}</span>}
      </p>
      <dl className="facts">
        <dt>{t('sessions.ip')}</dt>
        <dd>{session.ip ?? t('sessions.unknown_ip')}</dd>
        <dt>{t('sessions.created')}</dt>
        <dd>{formatDateTime(session.created_at)}</dd>
        <dt>{t('sessions.last_used')}</dt>
        <dd>{formatDateTime(session.last_used_at)}</dd>
      </dl>
      {!session.current && (
        <ConfirmButton
          trigger={t('sessions.revoke')}
          title={t('sessions.revoke')}
          action={t('sessions.revoke')}
          isDisabled={pending}
          onConfirm={onRevoke}
        >
          <p>{t('sessions.revoke_confirm', { device })}</p>
        </ConfirmButton>
      )}
    </li>
  );
}
