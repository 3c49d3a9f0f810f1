// Sign up: name, email, password twice. The service creates the account and its first
// workspace, and answers a token: the user is signed in at once.
import { useMutation } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { api, unwrap } from '../api/client.ts';
import { t } from '../i18n/i18n.ts';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { AuthPage } from './auth-page.tsx';
import { useFinishSignIn } from './finish-sign-in.ts';
import { NewPasswordFields } from './password-fields.tsx';

export function SignUp() {
  const { redirect } = useSearch({ from: '/sign-up' });
  const finish = useFinishSignIn(redirect);
  const register = useMutation({
    mutationFn: async (form: FormData) =>
      unwrap(
        await api.POST('/api/register', {
          body: {
            name: String(form.get('name')),
            email: String(form.get('email')),
            password: String(form.get('password')),
            password_confirmation: String(form.get('password_confirmation')),
          },
        }),
      ),
    onSuccess: finish,
  });
  return (
    <AuthPage title={t('signup.title')}>
      <Form label={t('signup.title')} onSubmit={(form) => register.mutate(form)} error={register.error}>
        <Field name="name" label={t('signup.name')} autoComplete="name" isRequired autoFocus />
        <Field name="email" type="email" label={t('signup.email')} autoComplete="email" isRequired />
        <NewPasswordFields
          label={t('signup.password')}
          confirmationLabel={t('signup.password_confirmation')}
        />
        <SubmitButton pending={register.isPending}>{t('signup.submit')}</SubmitButton>
      </Form>
      <p>
        <Link to="/sign-in" search={{ redirect }}>
          {t('signup.to_signin')}
        </Link>
      </p>
    </AuthPage>
  );
}
