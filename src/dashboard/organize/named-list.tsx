// A workspace's tags or categories (sets): each renamed in place or deleted after confirmation,
// and a form to add one. The two lists work alike; what differs (the routes, the texts) is
// passed in.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import type { MessageKey } from '../i18n/en.ts';
import { t } from '../i18n/i18n.ts';
import { ConfirmButton } from '../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Field, Form, SubmitButton } from '../ui/form.tsx';

export interface Named {
  id: number;
  name: string;
}

export interface NamedListApi {
  queryKey: readonly unknown[];
  create: (name: string) => Promise<unknown>;
  rename: (id: number, name: string) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
}

export interface NamedListTexts {
  title: MessageKey;
  empty: MessageKey;
  add: MessageKey;
  name: MessageKey;
  deleteConfirm: MessageKey;
}

export function NamedList({
  items,
  api,
  texts,
}: {
  items: Named[];
  api: NamedListApi;
  texts: NamedListTexts;
}) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: api.queryKey });
  const create = useMutation({ mutationFn: api.create, onSuccess: refresh });
  const remove = useMutation({ mutationFn: api.remove, onSuccess: refresh });
  return (
    <>
      <h2>{t(texts.title)}</h2>
      {items.length === 0 ? (
        <p className="empty">{t(texts.empty)}</p>
      ) : (
        <ul className="named-list">
          {items.map((item) => (
            <li key={item.id}>
              <NamedRow item={item} api={api} label={t(texts.name)} onChanged={refresh} />
              <ConfirmButton
                trigger={t('organize.delete')}
                title={t('organize.delete_title', { name: item.name })}
                action={t('organize.delete')}
                onConfirm={() => remove.mutate(item.id)}
              >
                <p>{t(texts.deleteConfirm, { name: item.name })}</p>
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      {remove.error && <ErrorNotice error={remove.error} />}
      <Form
        label={t(texts.add)}
        error={create.error}
        onSubmit={(form) =>
          create.mutate(String(form.get('name')).trim(), { onSuccess: () => create.reset() })
        }
      >
        <Field name="name" label={t(texts.name)} isRequired />
        <SubmitButton pending={create.isPending}>{t(texts.add)}</SubmitButton>
      </Form>
    </>
  );
}

function NamedRow({
  item,
  api,
  label,
  onChanged,
}: {
  item: Named;
  api: NamedListApi;
  label: string;
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const rename = useMutation({
    mutationFn: (name: string) => api.rename(item.id, name),
    onSuccess() {
      setEditing(false);
      onChanged();
    },
  });
  if (!editing) {
    return (
      <>
        <span className="named-name">{item.name}</span>
        <Button
          className="button"
          onPress={() => setEditing(true)}
          aria-label={t('organize.rename_named', { name: item.name })}
        >
          {t('organize.rename')}
        </Button>
      </>
    );
  }
  return (
    <Form
      label={t('organize.rename_named', { name: item.name })}
      error={rename.error}
      onSubmit={(form) => rename.mutate(String(form.get('name')).trim())}
    >
      <Field name="name" label={label} defaultValue={item.name} isRequired autoFocus />
      <div className="actions">
        <SubmitButton pending={rename.isPending}>{t('app.save')}</SubmitButton>
        <Button className="button" onPress={() => setEditing(false)}>
          {t('app.cancel')}
        </Button>
      </div>
    </Form>
  );
}
