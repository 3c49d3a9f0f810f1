// Sign in: email and password, then the second step when the account has a second factor
// (a TOTP code, a mailed code or a recovery code, all in one field: the service tells them
// apart). On success the session starts and the user lands where they were going.
import { useMutation } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { api, unwrap } from '../api/client.ts';
import { t } from '../i18n/i18n.ts';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { AuthPage } from './auth-page.tsx';
import { useFinishSignIn } from './finish-sign-in.ts';

interface Challenge {
  challenge_token: string;
  methods: string[];
}

export function SignIn() {
  const { redirect, expired, deleted } = useSearch({ from: '/sign-in' });
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const finish = useFinishSignIn(redirect);

  const login = useMutation({
    mutationFn: async (form: FormData) =>
      unwrap(
        await api.POST('/api/login', {
          body: { email: String(form.get('email')), password: String(form.get('password')) },
        }),
      ),
    onSuccess(answer) {
      if ('two_factor_required' in answer) setChallenge(answer);
      else finish(answer);
    },
  });

  if (challenge)
    return <ChallengeStep challenge={challenge} onRestart={() => setChallenge(null)} finish={finish} />;
  return (
    <AuthPage title={t('signin.title')}>
      {(expired || deleted) && (
        <p role="status" className="notice">
          {deleted ? t('signin.deleted') : t('signin.expired')}
        </p>
      )}
      <Form label={t('signin.title')} onSubmit={(form) => login.mutate(form)} error={login.error}>
        <Field
          name="email"
          type="email"
          label={t('signin.email')}
          autoComplete="username"
          isRequired
          autoFocus
        />
        <Field
          name="password"
          type="password"
          label={t('signin.password')}
          autoComplete="current-password"
          isRequired
        />
        <SubmitButton pending={login.isPending}>{t('signin.submit')}</SubmitButton>
      </Form>
      <p>
        <Link to="/sign-up" search={{ redirect }}>
          {t('signin.to_signup')}
        </Link>
      </p>
    </AuthPage>
  );
}

function ChallengeStep({
  challenge,
  onRestart,
  finish,
}: {
  challenge: Challenge;
  onRestart: () => void;
  finish: ReturnType<typeof useFinishSignIn>;
}) {
  const verify = useMutation({
    mutationFn: async (form: FormData) =>
      unwrap(
        await api.POST('/api/login/2fa', {
          body: { challenge_token: challenge.challenge_token, code: String(form.get('code')).trim() },
        }),
      ),
    onSuccess: finish,
  });
  return (
    <AuthPage title={t('challenge.title')}>
      <p>{t('challenge.intro')}</p>
      <Form label={t('challenge.title')} onSubmit={(form) => verify.mutate(form)} error={verify.error}>
        <Field name="code" label={t('challenge.code')} autoComplete="one-time-code" isRequired autoFocus />
        <SubmitButton pending={verify.isPending}>{t('challenge.submit')}</SubmitButton>
      </Form>
      <Button className="button link" onPress={onRestart}>
        {t('challenge.restart')}
      </Button>
    </AuthPage>
  );
}
