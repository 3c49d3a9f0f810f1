// A new password, typed twice: sign-up, the invite's sign-up and a password change ask for it
// the same way (the service's rules: 8 to 255 characters, a mismatch reported on `password`).
import { t } from '../i18n/i18n.ts';
import { Field } from '../ui/form.tsx';

export function NewPasswordFields({
  label,
  confirmationLabel,
}: {
  label: string;
  confirmationLabel: string;
}) {
  return (
    <>
      <Field
        name="password"
        type="password"
        label={label}
        description={t('signup.password_hint')}
        autoComplete="new-password"
        isRequired
      />
      <Field
        name="password_confirmation"
        type="password"
        label={confirmationLabel}
        autoComplete="new-password"
        isRequired
      />
    </>
  );
}
