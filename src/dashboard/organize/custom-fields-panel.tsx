// The workspace's custom field definitions in their order: reordered by dragging (React Aria's
// drag and drop, which also works from the keyboard: Enter on a row's handle, arrows, Enter),
// or with the Move up / Move down buttons; each order change is one POST .../reorder of every
// id. New definitions are added with their name, label, type, options and whether required;
// deleting one keeps the stored values hidden (the service's rule).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { GridList, GridListItem } from 'react-aria-components/GridList';
import { useDragAndDrop } from 'react-aria-components/useDragAndDrop';
import { api, unwrap } from '../api/client.ts';
import { t } from '../i18n/i18n.ts';
import { ConfirmButton } from '../ui/confirm-dialog.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { type CustomFieldDefinition, contentKeys } from '../workspaces/use-workspace-content.ts';

type FieldType = CustomFieldDefinition['type'];

/**
 * Every type the API knows, in the order the form offers them (as written here): a key per type,
 * so a type added to the API's enum fails the typecheck here until the form offers it too.
 */
const OFFERED: Record<FieldType, true> = {
  text: true,
  textarea: true,
  number: true,
  boolean: true,
  select: true,
  multiselect: true,
  url: true,
  email: true,
  phone: true,
  date: true,
};
const TYPES = Object.keys(OFFERED) as FieldType[];

function moved(ids: number[], from: number, to: number): number[] {
  const next = [...ids];
  const [id] = next.splice(from, 1);
  next.splice(to, 0, id as number);
  return next;
}

export function CustomFieldsPanel({
  workspaceId,
  definitions,
}: {
  workspaceId: number;
  definitions: CustomFieldDefinition[];
}) {
  const queryClient = useQueryClient();
  const key = contentKeys.customFields(workspaceId);
  const reorder = useMutation({
    mutationFn: async (ids: number[]) =>
      unwrap(await api.POST('/api/custom-field-definitions/reorder', { body: { ids } })),
    onMutate(ids) {
      // Shown in the new order at once; put back if the service refuses.
      const before = queryClient.getQueryData<CustomFieldDefinition[]>(key);
      queryClient.setQueryData(
        key,
        ids.map((id) => definitions.find((definition) => definition.id === id)),
      );
      return { before };
    },
    onError: (_error, _ids, context) => queryClient.setQueryData(key, context?.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const remove = useMutation({
    mutationFn: async (id: number) =>
      unwrap(await api.DELETE('/api/custom-field-definitions/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const ids = definitions.map((definition) => definition.id);
  const { dragAndDropHooks } = useDragAndDrop({
    getItems: (keys) => [...keys].map((id) => ({ 'text/plain': String(id) })),
    onReorder(event) {
      const dragged = [...event.keys].map(Number);
      const rest = ids.filter((id) => !dragged.includes(id));
      const at = rest.indexOf(Number(event.target.key)) + (event.target.dropPosition === 'after' ? 1 : 0);
      reorder.mutate([...rest.slice(0, at), ...dragged, ...rest.slice(at)]);
    },
  });

  return (
    <>
      <h2>{t('fields.title')}</h2>
      <p>{t('fields.intro')}</p>
      {definitions.length === 0 ? (
        <p className="empty">{t('fields.empty')}</p>
      ) : (
        <GridList
          aria-label={t('fields.order')}
          items={definitions}
          dragAndDropHooks={dragAndDropHooks}
          className="field-list"
        >
          {(definition) => {
            const index = ids.indexOf(definition.id);
            return (
              <GridListItem id={definition.id} textValue={definition.label} className="field-row">
                <Button
                  slot="drag"
                  className="drag-handle"
                  aria-label={t('fields.drag', { label: definition.label })}
                >
                  ⠿
                </Button>
                <span className="field-row-text">
                  <strong>{definition.label}</strong>{' '}
                  <span className="muted">
                    {definition.name}, {t(`fields.type.${definition.type as FieldType}`)}
                    {definition.required ? `, ${t('fields.required')}` : ''}
                  </span>
                </span>
                <Button
                  className="button"
                  isDisabled={index === 0 || reorder.isPending}
                  onPress={() => reorder.mutate(moved(ids, index, index - 1))}
                  aria-label={t('fields.move_up', { label: definition.label })}
                >
                  ↑
                </Button>
                <Button
                  className="button"
                  isDisabled={index === ids.length - 1 || reorder.isPending}
                  onPress={() => reorder.mutate(moved(ids, index, index + 1))}
                  aria-label={t('fields.move_down', { label: definition.label })}
                >
                  ↓
                </Button>
                <ConfirmButton
                  trigger={t('organize.delete')}
                  title={t('organize.delete_title', { name: definition.label })}
                  action={t('organize.delete')}
                  onConfirm={() => remove.mutate(definition.id)}
                >
                  <p>{t('fields.delete_confirm', { label: definition.label })}</p>
                </ConfirmButton>
              </GridListItem>
            );
          }}
        </GridList>
      )}
      {(reorder.error || remove.error) && <ErrorNotice error={reorder.error ?? remove.error} />}
      <NewFieldForm workspaceId={workspaceId} />
    </>
  );
}

function NewFieldForm({ workspaceId }: { workspaceId: number }) {
  const queryClient = useQueryClient();
  const [type, setType] = useState<FieldType>('text');
  const create = useMutation({
    mutationFn: async (form: FormData) => {
      const options = String(form.get('options') ?? '')
        .split(',')
        .map((option) => option.trim())
        .filter(Boolean);
      return unwrap(
        await api.POST('/api/custom-field-definitions', {
          body: {
            workspace_id: workspaceId,
            name: String(form.get('name')).trim(),
            label: String(form.get('label')).trim(),
            type,
            ...(type === 'select' || type === 'multiselect' ? { options } : {}),
          },
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contentKeys.customFields(workspaceId) }),
  });
  return (
    <section className="panel" aria-labelledby="new-field">
      <h3 id="new-field">{t('fields.add')}</h3>
      <Form label={t('fields.add')} error={create.error} onSubmit={(form) => create.mutate(form)}>
        <Field name="label" label={t('fields.label')} isRequired />
        <Field name="name" label={t('fields.name')} description={t('fields.name_hint')} isRequired />
        <SelectField
          name="type"
          label={t('fields.type')}
          value={type}
          onChange={(value) => setType(value as FieldType)}
          options={TYPES.map((value) => ({ value, label: t(`fields.type.${value}`) }))}
        />
        {(type === 'select' || type === 'multiselect') && (
          <Field
            name="options"
            label={t('fields.options')}
            description={t('fields.options_hint')}
            isRequired
          />
        )}
        <SubmitButton pending={create.isPending}>{t('fields.add')}</SubmitButton>
      </Form>
    </section>
  );
}
