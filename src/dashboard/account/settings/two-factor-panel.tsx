// The second factor: an authenticator app (TOTP) set up or turned off, codes by email on or
// off, and new recovery codes. What is on comes from GET /me (`two_factor`); each change asks
// for it again. Recovery codes, from confirming TOTP or asked for anew, take the panel's place
// until the user says they are saved: the service shows them once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { api, unwrap } from '../../api/client.ts';
import { t } from '../../i18n/i18n.ts';
import { ConfirmButton } from '../../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../../ui/error-notice.tsx';
import { ME_KEY, type User } from '../use-me.ts';
import { RecoveryCodes } from './recovery-codes.tsx';
import { TotpSetup } from './totp-setup.tsx';

export function TwoFactorPanel({ me }: { me: User }) {
  const queryClient = useQueryClient();
  const [codes, setCodes] = useState<string[] | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ME_KEY });
  const totpOff = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/me/2fa/totp')),
    onSuccess: refresh,
  });
  const emailOn = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/me/2fa/email/enable')),
    onSuccess: refresh,
  });
  const emailOff = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/me/2fa/email')),
    onSuccess: refresh,
  });
  const newCodes = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/me/2fa/recovery-codes')),
    onSuccess: (answer) => setCodes(answer.recovery_codes),
  });

  if (codes) return <RecoveryCodes codes={codes} email={me.email} onDone={() => setCodes(null)} />;
  const { totp_enabled: totpOn, email_enabled: emailCodesOn } = me.two_factor;
  const error = totpOff.error ?? emailOn.error ?? emailOff.error ?? newCodes.error;
  return (
    <>
      <section aria-labelledby="totp-heading" className="panel">
        <h2 id="totp-heading">{t('totp.title')}</h2>
        <p>{totpOn ? t('totp.on') : t('totp.off')}</p>
        {totpOn ? (
          <ConfirmButton
            trigger={t('totp.turn_off')}
            title={t('totp.turn_off')}
            action={t('totp.turn_off')}
            isDisabled={totpOff.isPending}
            onConfirm={() => totpOff.mutate()}
          >
            <p>{t('totp.turn_off_confirm')}</p>
          </ConfirmButton>
        ) : (
          <TotpSetup
            onEnabled={(recoveryCodes) => {
              setCodes(recoveryCodes);
              void refresh();
            }}
          />
        )}
      </section>

      <section aria-labelledby="email-codes-heading" className="panel">
        <h2 id="email-codes-heading">{t('email_codes.title')}</h2>
        <p>{emailCodesOn ? t('email_codes.on', { email: me.email }) : t('email_codes.off')}</p>
        {emailCodesOn ? (
          <ConfirmButton
            trigger={t('email_codes.turn_off')}
            title={t('email_codes.turn_off')}
            action={t('email_codes.turn_off')}
            isDisabled={emailOff.isPending}
            onConfirm={() => emailOff.mutate()}
          >
            <p>{t('email_codes.turn_off_confirm')}</p>
          </ConfirmButton>
        ) : (
          <Button className="button" isDisabled={emailOn.isPending} onPress={() => emailOn.mutate()}>
            {t('email_codes.turn_on')}
          </Button>
        )}
      </section>

      <section aria-labelledby="recovery-heading" className="panel">
        <h2 id="recovery-heading">{t('recovery.title')}</h2>
        <p>{totpOn || emailCodesOn ? t('recovery.intro') : t('recovery.needs_factor')}</p>
        {(totpOn || emailCodesOn) && (
          <ConfirmButton
            trigger={t('recovery.renew')}
            title={t('recovery.renew')}
            action={t('recovery.renew')}
            isDisabled={newCodes.isPending}
            onConfirm={() => newCodes.mutate()}
          >
            <p>{t('recovery.renew_confirm')}</p>
          </ConfirmButton>
        )}
      </section>
      {error && <ErrorNotice error={error} />}
    </>
  );
}
