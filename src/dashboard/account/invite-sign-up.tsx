// Sign up through an invitation: the page the invite mail's link opens. It shows which
// workspace the invitation is for and the address it was sent to (the account takes that
// address), asks for a name and a password, and the new account starts signed in, a member of
// that workspace. A used or expired invitation says so, with the way to sign in instead.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, unwrap } from '../api/client.ts';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { AuthPage } from './auth-page.tsx';
import { useFinishSignIn } from './finish-sign-in.ts';
import { NewPasswordFields } from './password-fields.tsx';

export function InviteSignUp() {
  const { token } = useParams({ from: '/register/$token' });
  const finish = useFinishSignIn(undefined);
  const invite = useQuery({
    queryKey: ['invite', token],
    queryFn: async () => unwrap(await api.GET('/api/register/{token}', { params: { path: { token } } })),
  });
  const register = useMutation({
    mutationFn: async (form: FormData) =>
      unwrap(
        await api.POST('/api/register/{token}', {
          params: { path: { token } },
          body: {
            name: String(form.get('name')),
            password: String(form.get('password')),
            password_confirmation: String(form.get('password_confirmation')),
          },
        }),
      ),
    onSuccess: finish,
  });

  const signInLink = (
    <p>
      <Link to="/sign-in" search={{}}>
        {t('invite.to_signin')}
      </Link>
    </p>
  );
  if (invite.error)
    return (
      <AuthPage title={t('invite.title_unknown')}>
        <ErrorNotice error={invite.error} />
        {signInLink}
      </AuthPage>
    );
  if (!invite.data)
    return (
      <AuthPage title={t('invite.title_unknown')}>
        <p role="status">{t('app.loading')}</p>
      </AuthPage>
    );
  return (
    <AuthPage title={t('invite.title', { workspace: invite.data.workspace_name })}>
      <p>{t('invite.intro', { workspace: invite.data.workspace_name })}</p>
      <Form label={t('invite.form')} onSubmit={(form) => register.mutate(form)} error={register.error}>
        {/* The account takes the invited address; shown read-only, and named for password managers. */}
        <Field
          name="email"
          type="email"
          label={t('signup.email')}
          value={invite.data.email}
          autoComplete="username"
          isReadOnly
        />
        <Field name="name" label={t('signup.name')} autoComplete="name" isRequired autoFocus />
        <NewPasswordFields
          label={t('signup.password')}
          confirmationLabel={t('signup.password_confirmation')}
        />
        <SubmitButton pending={register.isPending}>{t('invite.submit')}</SubmitButton>
      </Form>
      {signInLink}
    </AuthPage>
  );
}
