// Setting up an authenticator app: the service makes a secret (pending until confirmed) and
// answers it with a QR code of its otpauth URI (a data: SVG image, which the page's policy
// admits); the secret is shown as text too, for apps without a camera. A code from the app
// confirms it, and the answer carries the first recovery codes.
import { useMutation } from '@tanstack/react-query';
import { Button } from 'react-aria-components/Button';
import { api, unwrap } from '../../api/client.ts';
import { t } from '../../i18n/i18n.ts';
import { CopyButton } from '../../ui/copy-button.tsx';
import { ErrorNotice } from '../../ui/error-notice.tsx';
import { Field, Form, SubmitButton } from '../../ui/form.tsx';

/** The base32 secret in groups of four, as authenticator apps show and accept it. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

export function TotpSetup({ onEnabled }: { onEnabled: (recoveryCodes: string[]) => void }) {
  const setup = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/me/2fa/totp/setup')),
  });
  const confirm = useMutation({
    mutationFn: async (code: string) =>
      unwrap(await api.POST('/api/me/2fa/totp/confirm', { body: { code } })),
    onSuccess: (answer) => onEnabled(answer.recovery_codes),
  });

  if (!setup.data)
    return (
      <>
        <Button className="button primary" isDisabled={setup.isPending} onPress={() => setup.mutate()}>
          {t('totp.set_up')}
        </Button>
        {setup.error && <ErrorNotice error={setup.error} />}
      </>
    );
  const { secret, qr_code_uri: qrCode } = setup.data;
  return (
    <div className="totp-setup">
      <p>{t('totp.scan')}</p>
      <img className="qr-code" src={qrCode} alt={t('totp.qr_alt')} width={200} height={200} />
      <p>
        {t('totp.manual')} <code className="secret">{grouped(secret)}</code>
      </p>
      <CopyButton text={secret} label={t('totp.copy_key')} />
      <Form
        label={t('totp.confirm')}
        error={confirm.error}
        onSubmit={(form) => confirm.mutate(String(form.get('code')).replace(/\s+/g, ''))}
      >
        <Field
          name="code"
          label={t('totp.code')}
          description={t('totp.code_hint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          isRequired
        />
        <SubmitButton pending={confirm.isPending}>{t('totp.confirm')}</SubmitButton>
      </Form>
    </div>
  );
}
