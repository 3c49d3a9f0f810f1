// The caller's workspaces: each with its member count and what can be done to it (rename,
// invite someone, delete), and a form to create one. The service decides who may do what (the
// list does not say the caller's role): a refusal is shown as its sentence.
import { useMe } from '../account/use-me.ts';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { CreateWorkspace } from './create-workspace.tsx';
import { useWorkspaceDetails, useWorkspaces } from './use-workspaces.ts';
import { WorkspaceItem } from './workspace-item.tsx';

export function WorkspacesScreen() {
  const workspaces = useWorkspaces();
  const details = useWorkspaceDetails(workspaces.data);
  const me = useMe();

  if (workspaces.error)
    return <ErrorNotice error={workspaces.error} onRetry={() => void workspaces.refetch()} />;
  if (!workspaces.data) return <p role="status">{t('app.loading')}</p>;
  // Invitations are an admin's to send (POST /invite/send is for role admin only).
  const canInvite = me.data?.role === 'admin';
  return (
    <>
      <h1>{t('workspaces.title')}</h1>
      <p>{t('workspaces.intro')}</p>
      {workspaces.data.length === 0 ? (
        <p className="empty">{t('workspaces.none')}</p>
      ) : (
        <ul className="item-list">
          {workspaces.data.map((workspace, index) => (
            <WorkspaceItem
              key={workspace.id}
              workspace={workspace}
              membersCount={details[index]?.data?.members_count}
              canInvite={canInvite}
            />
          ))}
        </ul>
      )}
      <CreateWorkspace />
    </>
  );
}
