// Inviting someone into a workspace (POST /invite/send, admins only): the service mails them a
// link to sign up with; the form says when it was sent and until when the link works, and stays
// open for the next address.
import { Button } from 'react-aria-components/Button';
import { formatDateTime, t } from '../i18n/i18n.ts';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { useSendInvite } from './use-workspace-changes.ts';

export function InviteForm({ workspaceId, onClose }: { workspaceId: number; onClose: () => void }) {
  const send = useSendInvite(workspaceId);
  return (
    <>
      <p>{t('invite.send_intro')}</p>
      <Form
        label={t('invite.send')}
        error={send.error}
        onSubmit={(form, element) =>
          send.mutate(String(form.get('email')).trim(), { onSuccess: () => element.reset() })
        }
      >
        <Field name="email" type="email" label={t('invite.email')} autoComplete="off" isRequired autoFocus />
        <div className="form-actions">
          <Button className="button" onPress={onClose}>
            {t('app.close')}
          </Button>
          <SubmitButton pending={send.isPending} pendingLabel={t('invite.sending')}>
            {t('invite.submit_send')}
          </SubmitButton>
        </div>
      </Form>
      {send.isSuccess && (
        <p role="status" className="notice">
          {t('invite.sent', { email: send.data.email, time: formatDateTime(send.data.expires_at) })}
        </p>
      )}
    </>
  );
}
