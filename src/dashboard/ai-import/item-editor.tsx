// One item's payload edited in place: a field per key of the location payload (the tags as a
// comma-separated list, the custom fields as a JSON object, the opening hours with the location
// editor's controls). The PATCH sends every field, so what the form shows is what the item
// holds; a cleared field clears it, hours not known are sent as null, and a custom field taken
// out of the object is sent as null, which removes it. 422s go beside their fields, and so do
// the item's own validation errors (a missing name, overlapping hours), which block its
// approval; the hours are checked by the service's own rules before sending.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import { TextArea } from 'react-aria-components/TextArea';
import { TextField } from 'react-aria-components/TextField';
import { api, unwrap } from '../api/client.ts';
import { ApiError, type FieldErrors } from '../api/errors.ts';
import type { components } from '../api/schema.gen.ts';
import { blankMessages } from '../hours/blank-messages.ts';
import {
  type OpeningDraft,
  openingDraft,
  openingHoursBody,
  openingProblems,
} from '../hours/opening-draft.ts';
import { OpeningHoursSection } from '../hours/opening-hours-section.tsx';
import type { MessageKey } from '../i18n/en.ts';
import { t } from '../i18n/i18n.ts';
import { errorsUnder, useErrorsAt } from '../ui/errors-at.ts';
import { Field, Form, SubmitButton } from '../ui/form.tsx';
import { batchKey, effectivePayload, type Item } from './use-ai-imports.ts';

type PayloadEdit = NonNullable<components['schemas']['UpdateAiImportItemInput']['payload']>;

const TEXT_FIELDS = ['name', 'address', 'city', 'state', 'zip', 'country', 'phone', 'website'] as const;
const COORDINATES = ['lat', 'lng'] as const;

/** The payload's keys whose controls place their errors path by path (`hours.mon.0`, `special_hours.1.date`). */
const OPENING_KEYS = new Set(['time_zone', 'hours', 'special_hours']);

/**
 * The editor's field of an error path: `payload.tags.3` and `custom_fields.email` are the list's
 * and the object's; an hours path is kept whole, for the control it names.
 */
function fieldOf(path: string): string {
  const inPayload = path.replace(/^payload\./, '');
  const key = inPayload.split('.')[0] ?? inPayload;
  return `payload.${OPENING_KEYS.has(key) ? inPayload : key}`;
}

function byField(entries: [string, string[]][]): FieldErrors {
  const fields: FieldErrors = {};
  for (const [path, messages] of entries) {
    const field = fieldOf(path);
    fields[field] = [...(fields[field] ?? []), ...messages];
  }
  return fields;
}

/** A 422 with its paths moved onto the editor's fields. */
function onFields(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 422) return error;
  return new ApiError(422, error.code, error.message, byField(Object.entries(error.fields)));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

interface Props {
  batchId: number;
  item: Item;
  name: string;
  onDone: () => void;
}

export function ItemEditor({ batchId, item, name, onDone }: Props) {
  const queryClient = useQueryClient();
  const payload = effectivePayload(item);
  const [checked, setChecked] = useState<ApiError | null>(null);
  const [opening, setOpening] = useState<OpeningDraft>(() =>
    openingDraft(payload.time_zone, payload.hours, payload.special_hours),
  );
  // Whether both coordinates are filled in, for what the time zone field says.
  const [position, setPosition] = useState(() => ({
    lat: payload.lat !== null,
    lng: payload.lng !== null,
  }));
  const save = useMutation({
    mutationFn: async (edit: PayloadEdit) =>
      unwrap(
        await api.PATCH('/api/ai-location-imports/{id}/items/{itemId}', {
          params: { path: { id: batchId, itemId: item.id } },
          body: { payload: edit },
        }),
      ),
    onSuccess(batch) {
      queryClient.setQueryData(batchKey(batchId), batch);
      onDone();
    },
  });
  // One object per error, so the form knows which fields were edited since it was shown.
  const error = useMemo(
    () =>
      checked ??
      onFields(save.error) ??
      (item.validation_errors.length > 0
        ? new ApiError(
            422,
            'item_invalid',
            '',
            byField(item.validation_errors.map((problem) => [problem.field, [problem.message]])),
          )
        : null),
    [checked, save.error, item.validation_errors],
  );
  const hoursErrors = errorsUnder(useErrorsAt(error), 'payload');

  const submit = (values: FormData) => {
    const text = (key: string) => {
      const value = String(values.get(`payload.${key}`) ?? '').trim();
      return value === '' ? null : value;
    };
    const problems: FieldErrors = {};
    const coordinate = (key: 'lat' | 'lng') => {
      const value = text(key);
      if (value === null) return null;
      const number = Number(value);
      if (!Number.isFinite(number)) problems[`payload.${key}`] = [t('ai_import.edit.not_a_number')];
      return number;
    };
    let customFields: Record<string, unknown> = {};
    const customText = text('custom_fields');
    if (customText !== null) {
      try {
        const parsed: unknown = JSON.parse(customText);
        if (isObject(parsed)) customFields = parsed;
        else problems['payload.custom_fields'] = [t('ai_import.edit.not_an_object')];
      } catch {
        problems['payload.custom_fields'] = [t('ai_import.edit.not_json')];
      }
    }
    for (const [path, messages] of Object.entries(openingProblems(opening, blankMessages()))) {
      problems[`payload.${path}`] = messages;
    }
    const edit: PayloadEdit = {
      ...Object.fromEntries(TEXT_FIELDS.map((key) => [key, text(key)])),
      lat: coordinate('lat'),
      lng: coordinate('lng'),
      tags: (text('tags') ?? '')
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
      // A key no longer in the object is removed (the API merges custom fields key by key).
      custom_fields: {
        ...Object.fromEntries(Object.keys(payload.custom_fields).map((key) => [key, null])),
        ...customFields,
      },
      ...openingHoursBody(opening),
    };
    if (Object.keys(problems).length > 0) {
      setChecked(new ApiError(422, 'validation_failed', '', problems));
      return;
    }
    setChecked(null);
    save.mutate(edit);
  };

  const customFields =
    Object.keys(payload.custom_fields).length === 0 ? '' : JSON.stringify(payload.custom_fields, null, 2);
  return (
    <Form label={t('ai_import.edit_label', { name })} error={error} onSubmit={submit}>
      <div className="ai-editor-grid">
        {TEXT_FIELDS.map((key, position) => (
          <Field
            key={key}
            name={`payload.${key}`}
            label={t(`ai_import.field.${key}` as MessageKey)}
            defaultValue={payload[key] ?? ''}
            autoFocus={position === 0}
          />
        ))}
        {COORDINATES.map((key) => (
          <Field
            key={key}
            name={`payload.${key}`}
            label={t(`ai_import.field.${key}` as MessageKey)}
            defaultValue={payload[key] === null ? '' : String(payload[key])}
            onChange={(value) => setPosition((previous) => ({ ...previous, [key]: value.trim() !== '' }))}
            inputMode="decimal"
          />
        ))}
        <Field
          name="payload.tags"
          label={t('ai_import.field.tags')}
          description={t('ai_import.field.tags_hint')}
          defaultValue={payload.tags.join(', ')}
        />
        <TextField name="payload.custom_fields" defaultValue={customFields} className="field">
          <Label>{t('ai_import.field.custom_fields')}</Label>
          <TextArea rows={3} className="code-input" />
          <Text slot="description">{t('ai_import.field.custom_fields_hint')}</Text>
          <FieldError className="field-error" />
        </TextField>
      </div>
      <OpeningHoursSection
        values={opening}
        onChange={setOpening}
        hasPosition={position.lat && position.lng}
        derivedZone={null}
        willDeriveHint={t('ai_import.field.time_zone_on_import')}
        errors={hoursErrors}
        level={3}
      />
      <div className="actions tight">
        <SubmitButton pending={save.isPending}>{t('app.save')}</SubmitButton>
        <Button className="button" onPress={onDone}>
          {t('app.cancel')}
        </Button>
      </div>
    </Form>
  );
}
