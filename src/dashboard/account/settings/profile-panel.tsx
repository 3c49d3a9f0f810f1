// Name and email, and the password: two forms, since each asks for different things. PUT /me
// needs the current password to change the email or the password (and ignores it otherwise, so
// the first form always sends what was typed); a new password signs out every other device.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import type { components } from '../../api/schema.gen.ts';
import { t } from '../../i18n/i18n.ts';
import { Field, Form, SubmitButton } from '../../ui/form.tsx';
import { NewPasswordFields } from '../password-fields.tsx';
import { ME_KEY, type User } from '../use-me.ts';

type MeChange = components['schemas']['UpdateMeInput'];

function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: MeChange) => unwrap(await api.PUT('/api/me', { body })),
    onSuccess: (user) => queryClient.setQueryData(ME_KEY, user),
  });
}

export function ProfilePanel({ me }: { me: User }) {
  return (
    <>
      <ProfileForm me={me} />
      <PasswordForm />
    </>
  );
}

function ProfileForm({ me }: { me: User }) {
  const update = useUpdateMe();
  // Kept here so it can be emptied once saved: a password should not linger in the page.
  const [currentPassword, setCurrentPassword] = useState('');
  return (
    <section aria-labelledby="profile-heading" className="panel">
      <h2 id="profile-heading">{t('profile.title')}</h2>
      <Form
        label={t('profile.title')}
        error={update.error}
        onSubmit={(form) =>
          update.mutate(
            {
              name: String(form.get('name')),
              email: String(form.get('email')),
              current_password: currentPassword,
            },
            { onSuccess: () => setCurrentPassword('') },
          )
        }
      >
        <Field name="name" label={t('profile.name')} defaultValue={me.name} autoComplete="name" isRequired />
        <Field
          name="email"
          type="email"
          label={t('profile.email')}
          defaultValue={me.email}
          autoComplete="email"
          isRequired
        />
        <Field
          name="current_password"
          type="password"
          label={t('profile.current_password')}
          description={t('profile.current_password_hint')}
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrentPassword}
        />
        <SubmitButton pending={update.isPending}>{t('app.save')}</SubmitButton>
      </Form>
      {update.isSuccess && (
        <p role="status" className="notice">
          {t('profile.saved')}
        </p>
      )}
    </section>
  );
}

function PasswordForm() {
  const update = useUpdateMe();
  return (
    <section aria-labelledby="password-heading" className="panel">
      <h2 id="password-heading">{t('password.title')}</h2>
      <Form
        label={t('password.title')}
        error={update.error}
        onSubmit={(form, element) =>
          update.mutate(
            {
              current_password: String(form.get('current_password')),
              password: String(form.get('password')),
              password_confirmation: String(form.get('password_confirmation')),
            },
            { onSuccess: () => element.reset() },
          )
        }
      >
        <Field
          name="current_password"
          type="password"
          label={t('profile.current_password')}
          autoComplete="current-password"
          isRequired
        />
        <NewPasswordFields label={t('password.new')} confirmationLabel={t('password.new_again')} />
        <SubmitButton pending={update.isPending}>{t('password.submit')}</SubmitButton>
      </Form>
      {update.isSuccess && (
        <p role="status" className="notice">
          {t('password.changed')}
        </p>
      )}
    </section>
  );
}
