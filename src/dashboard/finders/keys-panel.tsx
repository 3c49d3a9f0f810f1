// The finder's keys for the address search providers (GET /finders/{id}/integrations): each
// provider with whether a key is held, a password field to set or replace it, and removal after
// a confirmation. The service never returns a key, and the page never keeps one: the field is
// read when the request is made and emptied once the key is stored.
import { ApiError } from '../api/errors.ts';
import type { MessageKey } from '../i18n/en.ts';
import { t } from '../i18n/i18n.ts';
import { ConfirmButton } from '../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import {
  type Finder,
  type Integration,
  type Provider,
  useIntegrations,
  useProviderKey,
} from './use-finders.ts';

/** A key per provider the API knows, so a provider it adds fails the typecheck until named here. */
const PROVIDER_NAMES: Record<Provider, MessageKey> = {
  google: 'keys.provider.google',
  mapbox: 'keys.provider.mapbox',
  here: 'keys.provider.here',
  tomtom: 'keys.provider.tomtom',
  geoapify: 'keys.provider.geoapify',
};

export function KeysPanel({ finder }: { finder: Finder }) {
  const integrations = useIntegrations(finder.id);
  return (
    <>
      <h2>{t('keys.title')}</h2>
      <p>{t('keys.intro')}</p>
      {integrations.error ? (
        <ErrorNotice error={integrations.error} onRetry={() => void integrations.refetch()} />
      ) : !integrations.data ? (
        <p role="status">{t('app.loading')}</p>
      ) : (
        integrations.data.map((integration) => (
          <ProviderKey key={integration.provider} finderId={finder.id} integration={integration} />
        ))
      )}
    </>
  );
}

function ProviderKey({ finderId, integration }: { finderId: number; integration: Integration }) {
  const { save, remove } = useProviderKey(finderId, integration.provider);
  const provider = t(PROVIDER_NAMES[integration.provider]);
  const held = integration.has_api_key;
  const headingId = `key-${integration.provider}`;
  // A key that is gone already (removed in another tab) is what the user wanted: say it plainly.
  const removeError =
    remove.error instanceof ApiError && remove.error.status === 404 ? undefined : remove.error;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>{provider}</h3>
      <p className={held ? 'key-state held' : 'key-state'}>{held ? t('keys.held') : t('keys.none')}</p>
      <Form
        label={t('keys.form', { provider })}
        error={save.error}
        onSubmit={(_values, form) => {
          remove.reset();
          save.mutate(form);
        }}
      >
        <Field
          name="api_key"
          type="password"
          autoComplete="off"
          spellCheck="false"
          label={held ? t('keys.replace_label', { provider }) : t('keys.set_label', { provider })}
          description={t('keys.hint')}
        />
        <div className="actions">
          <SubmitButton pending={save.isPending}>{held ? t('keys.replace') : t('keys.save')}</SubmitButton>
        </div>
      </Form>
      {held && (
        <ConfirmButton
          trigger={t('keys.remove')}
          title={t('keys.remove_title', { provider })}
          action={t('keys.remove')}
          isDisabled={remove.isPending}
          onConfirm={() => {
            save.reset();
            remove.mutate();
          }}
        >
          <p>{t('keys.remove_confirm', { provider })}</p>
        </ConfirmButton>
      )}
      {save.isSuccess && !save.isPending && (
        <p role="status" className="notice">
          {t('keys.saved', { provider })}
        </p>
      )}
      {(remove.isSuccess || (remove.error && !removeError)) && !remove.isPending && (
        <p role="status" className="notice">
          {t('keys.removed', { provider })}
        </p>
      )}
      {removeError && <ErrorNotice error={removeError} />}
    </section>
  );
}
