// Creating a workspace. The plan limits how many a user owns: over it the service answers 403
// `tier_required`, shown as what it means for the user (no more workspaces on this plan) with
// the way to a bigger plan, rather than as a refusal.
import { ApiError } from '../api/errors.ts';
import { APP_BASE_PATH } from '../config.ts';
import { t } from '../i18n/i18n.ts';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { useCreateWorkspace } from './use-workspace-changes.ts';

/** The billing screen, where a bigger plan is bought. */
const BILLING_HREF = `${APP_BASE_PATH}/billing`;

export function CreateWorkspace() {
  const create = useCreateWorkspace();
  const overLimit = create.error instanceof ApiError && create.error.code === 'tier_required';
  return (
    <section aria-labelledby="create-workspace" className="panel">
      <h2 id="create-workspace">{t('workspaces.create')}</h2>
      <Form
        label={t('workspaces.create')}
        error={overLimit ? null : create.error}
        onSubmit={(form, element) =>
          create.mutate(String(form.get('name')), { onSuccess: () => element.reset() })
        }
      >
        <Field name="name" label={t('workspaces.name')} isRequired />
        <SubmitButton pending={create.isPending}>{t('workspaces.create')}</SubmitButton>
      </Form>
      {overLimit && (
        <div role="alert" className="notice upgrade">
          <p>{t('workspaces.limit_reached')}</p>
          <p>
            <a href={BILLING_HREF}>{t('workspaces.upgrade')}</a>
          </p>
        </div>
      )}
      {create.isSuccess && (
        <p role="status" className="notice">
          {t('workspaces.created_notice', { name: create.data.name })}
        </p>
      )}
    </section>
  );
}
