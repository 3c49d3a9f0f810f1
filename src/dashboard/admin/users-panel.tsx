// Every account (GET /users, by id, a page at a time), searched by name or email: each one's
// role, plan and status, edited in a dialog (PUT /users/{id}: name, email, role, plan, status;
// the API has no "disabled" state, only deletion), or deleted after its email is typed out
// (DELETE /users/{id}, a soft delete that signs the user out everywhere).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { ME_KEY, type User } from '../account/use-me.ts';
import { api, unwrap, withTotal } from '../api/client.ts';
import { isValidationError } from '../api/errors.ts';
import type { components, operations } from '../api/schema.gen.ts';
import { statusLabel, tierLabel } from '../billing/plan-labels.ts';
import { formatDateTime, t } from '../i18n/i18n.ts';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { ModalButton } from '../ui/modal-button.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { TypedConfirmForm } from '../ui/typed-confirm-form.tsx';
import { PagedTable, usePagedList } from './paged-table.tsx';

type AdminUser = components['schemas']['AdminUser'];
type UserUpdate = NonNullable<operations['updateUser']['requestBody']>['content']['application/json'];

const USERS_KEY = ['admin', 'users'] as const;
const ROLES = ['user', 'admin'] as const;
const TIERS = ['none', 'free', 'bronze', 'premium', 'custom'] as const;
const STATUSES = ['active', 'trialing', 'past_due', 'canceled', 'none'] as const;

export function UsersPanel() {
  const [q, setQ] = useState('');
  const list = usePagedList(USERS_KEY, { q }, async (page, filters) =>
    withTotal(
      await api.GET('/api/users', {
        params: { query: { ...page, ...(filters.q === '' ? {} : { q: filters.q }) } },
      }),
    ),
  );
  return (
    <>
      <h2>{t('admin.users.title')}</h2>
      <Form
        label={t('admin.users.search')}
        error={isValidationError(list.query.error) ? list.query.error : null}
        onSubmit={(values) => setQ(String(values.get('q') ?? '').trim())}
      >
        <Field name="q" label={t('admin.users.q')} description={t('admin.users.q_hint')} type="search" />
        <div className="form-actions">
          <SubmitButton pending={list.query.isFetching} pendingLabel={t('app.loading')}>
            {t('admin.users.search')}
          </SubmitButton>
        </div>
      </Form>
      <PagedTable<AdminUser>
        label={t('admin.users.title')}
        list={list}
        empty={t('admin.users.what')}
        hideError={isValidationError}
        head={
          <tr>
            <th scope="col">{t('admin.users.col.name')}</th>
            <th scope="col">{t('admin.users.col.email')}</th>
            <th scope="col">{t('admin.users.col.role')}</th>
            <th scope="col">{t('admin.users.col.plan')}</th>
            <th scope="col">{t('admin.users.col.created')}</th>
            <th scope="col">{t('admin.col.actions')}</th>
          </tr>
        }
        row={(user) => <UserRow key={user.id} user={user} />}
      />
    </>
  );
}

function UserRow({ user }: { user: AdminUser }) {
  return (
    <tr>
      <th scope="row">{user.name}</th>
      <td>{user.email}</td>
      <td>{t(user.role === 'admin' ? 'admin.role.admin' : 'admin.role.user')}</td>
      <td>
        {tierLabel(user.subscription_tier)} · {statusLabel(user.subscription_status)}
      </td>
      <td>{formatDateTime(user.created_at)}</td>
      <td>
        <div className="actions tight">
          <ModalButton
            trigger={t('admin.users.edit')}
            triggerLabel={`${t('admin.users.edit')}: ${user.name}`}
            title={t('admin.users.edit_title', { name: user.name })}
          >
            {(close) => <EditUserForm user={user} onDone={close} />}
          </ModalButton>
          <ModalButton
            trigger={t('admin.users.delete')}
            triggerLabel={`${t('admin.users.delete')}: ${user.name}`}
            title={t('admin.users.delete_title', { name: user.name })}
            danger
          >
            {(close) => <DeleteUserForm user={user} onDone={close} />}
          </ModalButton>
        </div>
      </td>
    </tr>
  );
}

function useUserChanged() {
  const queryClient = useQueryClient();
  return (user: Pick<AdminUser, 'id'>) => {
    void queryClient.invalidateQueries({ queryKey: USERS_KEY });
    // The admin changed their own account: the header's view of it (the admin link) follows.
    if (queryClient.getQueryData<User>(ME_KEY)?.id === user.id)
      void queryClient.invalidateQueries({ queryKey: ME_KEY });
  };
}

function EditUserForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const changed = useUserChanged();
  const [role, setRole] = useState<string>(user.role);
  const [tier, setTier] = useState<string>(user.subscription_tier);
  const [status, setStatus] = useState<string>(user.subscription_status);
  const save = useMutation({
    mutationFn: async (body: UserUpdate) =>
      unwrap(await api.PUT('/api/users/{id}', { params: { path: { id: user.id } }, body })),
    onSuccess() {
      changed(user);
      onDone();
    },
  });
  return (
    <Form
      label={t('admin.users.edit_title', { name: user.name })}
      error={save.error}
      onSubmit={(values) =>
        save.mutate({
          name: String(values.get('name') ?? ''),
          email: String(values.get('email') ?? ''),
          role: role as UserUpdate['role'],
          subscription_tier: tier as UserUpdate['subscription_tier'],
          subscription_status: status as UserUpdate['subscription_status'],
        })
      }
    >
      <Field name="name" label={t('admin.users.col.name')} defaultValue={user.name} isRequired autoFocus />
      <Field
        name="email"
        label={t('admin.users.col.email')}
        defaultValue={user.email}
        type="email"
        isRequired
      />
      <SelectField
        name="role"
        label={t('admin.users.col.role')}
        value={role}
        onChange={setRole}
        options={ROLES.map((value) => ({ value, label: t(`admin.role.${value}`) }))}
      />
      <SelectField
        name="subscription_tier"
        label={t('billing.plan')}
        value={tier}
        onChange={setTier}
        options={TIERS.map((value) => ({ value, label: tierLabel(value) }))}
      />
      <SelectField
        name="subscription_status"
        label={t('billing.status')}
        value={status}
        onChange={setStatus}
        options={STATUSES.map((value) => ({ value, label: statusLabel(value) }))}
      />
      <div className="dialog-actions">
        <Button className="button" onPress={onDone}>
          {t('app.cancel')}
        </Button>
        <SubmitButton pending={save.isPending}>{t('app.save')}</SubmitButton>
      </div>
    </Form>
  );
}

function DeleteUserForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const changed = useUserChanged();
  const remove = useMutation({
    mutationFn: async () =>
      unwrap(await api.DELETE('/api/users/{id}', { params: { path: { id: user.id } } })),
    onSuccess() {
      changed(user);
      onDone();
    },
  });
  return (
    <TypedConfirmForm
      label={t('admin.users.delete_title', { name: user.name })}
      phrase={user.email}
      phraseLabel={t('admin.users.delete_phrase', { email: user.email })}
      action={t('admin.users.delete')}
      pending={remove.isPending}
      error={remove.error}
      onSubmit={() => remove.mutate()}
      onCancel={onDone}
      autoFocus
    >
      <p>{t('admin.users.delete_warning')}</p>
    </TypedConfirmForm>
  );
}
