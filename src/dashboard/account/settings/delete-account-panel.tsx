// Deleting the account (DELETE /me): the password, and the sentence the service asks for typed
// out before the button works. Afterwards every token of the account is dead, so the page goes
// to sign-in first and then forgets the session (in that order: forgetting it first would send
// the page to sign-in as an expired session that comes back here).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { api, unwrap } from '../../api/client.ts';
import { endSession } from '../../api/session.ts';
import { t } from '../../i18n/i18n.ts';
import { Field } from '../../ui/form.tsx';
import { TypedConfirmForm } from '../../ui/typed-confirm-form.tsx';

/** The service's own confirmation (docs/api.md, DELETE /me): exact, so never translated. */
const CONFIRMATION = 'DELETE MY ACCOUNT';

export function DeleteAccountPanel() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async (password: string) =>
      unwrap(await api.DELETE('/api/me', { body: { password, confirmation: CONFIRMATION } })),
    async onSuccess() {
      await router.navigate({ to: '/sign-in', search: { deleted: true } });
      endSession();
      queryClient.clear();
    },
  });
  return (
    <section aria-labelledby="delete-heading">
      <h2 id="delete-heading">{t('delete_account.title')}</h2>
      <p>{t('delete_account.intro')}</p>
      <TypedConfirmForm
        label={t('delete_account.title')}
        phrase={CONFIRMATION}
        phraseLabel={t('delete_account.phrase', { phrase: CONFIRMATION })}
        action={t('delete_account.submit')}
        pending={remove.isPending}
        error={remove.error}
        onSubmit={(form) => remove.mutate(String(form.get('password')))}
      >
        <Field
          name="password"
          type="password"
          label={t('delete_account.password')}
          autoComplete="current-password"
          isRequired
        />
      </TypedConfirmForm>
    </section>
  );
}
