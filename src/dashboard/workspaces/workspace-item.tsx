// One workspace in the list: its name, members and creation date, and its actions, each in a
// dialog: rename, invite someone (admins), delete (the name typed out first).
import { Button } from 'react-aria-components/Button';
import { formatDateTime, t, tCount } from '../i18n/i18n.ts';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { ModalButton } from '../ui/modal-button.tsx';
import { TypedConfirmForm } from '../ui/typed-confirm-form.tsx';
import { InviteForm } from './invite-form.tsx';
import { useDeleteWorkspace, useRenameWorkspace } from './use-workspace-changes.ts';
import type { Workspace } from './use-workspaces.ts';

interface WorkspaceItemProps {
  workspace: Workspace;
  /** Undefined while its detail loads. */
  membersCount: number | undefined;
  canInvite: boolean;
}

export function WorkspaceItem({ workspace, membersCount, canInvite }: WorkspaceItemProps) {
  return (
    <li className="item">
      <h2 className="item-title">{workspace.name}</h2>
      <p className="item-facts">
        {membersCount === undefined ? t('app.loading') : tCount('workspaces.members', membersCount)}
        {' · '}
        {t('workspaces.created', { time: formatDateTime(workspace.created_at) })}
      </p>
      <div className="actions">
        <ModalButton
          trigger={t('workspaces.rename')}
          title={t('workspaces.rename_title', { name: workspace.name })}
        >
          {(close) => <RenameForm workspace={workspace} onDone={close} />}
        </ModalButton>
        {canInvite && (
          <ModalButton trigger={t('invite.send')} title={t('invite.send_title', { name: workspace.name })}>
            {(close) => <InviteForm workspaceId={workspace.id} onClose={close} />}
          </ModalButton>
        )}
        <ModalButton
          trigger={t('workspaces.delete')}
          title={t('workspaces.delete_title', { name: workspace.name })}
          danger
        >
          {(close) => <DeleteForm workspace={workspace} onCancel={close} />}
        </ModalButton>
      </div>
    </li>
  );
}

function RenameForm({ workspace, onDone }: { workspace: Workspace; onDone: () => void }) {
  const rename = useRenameWorkspace(workspace.id);
  return (
    <Form
      label={t('workspaces.rename')}
      error={rename.error}
      onSubmit={(form) => rename.mutate(String(form.get('name')), { onSuccess: onDone })}
    >
      <Field name="name" label={t('workspaces.name')} defaultValue={workspace.name} isRequired autoFocus />
      <div className="form-actions">
        <Button className="button" onPress={onDone}>
          {t('app.cancel')}
        </Button>
        <SubmitButton pending={rename.isPending}>{t('app.save')}</SubmitButton>
      </div>
    </Form>
  );
}

function DeleteForm({ workspace, onCancel }: { workspace: Workspace; onCancel: () => void }) {
  const remove = useDeleteWorkspace(workspace.id);
  return (
    <>
      <p>{t('workspaces.delete_warning')}</p>
      <TypedConfirmForm
        label={t('workspaces.delete')}
        phrase={workspace.name}
        phraseLabel={t('workspaces.delete_phrase', { name: workspace.name })}
        action={t('workspaces.delete')}
        pending={remove.isPending}
        error={remove.error}
        onSubmit={() => remove.mutate()}
        onCancel={onCancel}
        autoFocus
      />
    </>
  );
}
