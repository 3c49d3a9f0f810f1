// The websites allowed to show the finder (authorized_urls): one per line; empty allows every
// website. The service checks each entry and answers field errors by index
// (`authorized_urls.2`), which are shown beside the list.
import { useState } from 'react';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import { TextArea } from 'react-aria-components/TextArea';
import { TextField } from 'react-aria-components/TextField';
import { ApiError } from '../api/errors.ts';
import { t } from '../i18n/i18n.ts';
import { Form, SubmitButton } from '../ui/form.tsx';
import { type Finder, useUpdateFinder } from './use-finders.ts';

export function AccessPanel({ finder }: { finder: Finder }) {
  const [text, setText] = useState(finder.authorized_urls.join('\n'));
  const update = useUpdateFinder(finder.id);
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  // The list's errors are by entry; the field is the list, so they are gathered under it.
  const error = update.error instanceof ApiError && update.error.status === 422 ? update.error : undefined;
  const listErrors = error
    ? Object.entries(error.fields)
        .filter(([path]) => path.startsWith('authorized_urls'))
        .flatMap(([path, messages]) => {
          const index = Number(path.split('.')[1]);
          return messages.map((message) =>
            Number.isInteger(index) ? `${lines[index]}: ${message}` : message,
          );
        })
    : [];
  return (
    <Form
      label={t('access.title')}
      error={
        listErrors.length > 0
          ? new ApiError(422, 'validation_failed', '', { authorized_urls: listErrors })
          : update.error
      }
      onSubmit={() => update.mutate({ authorized_urls: lines })}
    >
      <h2>{t('access.title')}</h2>
      <TextField name="authorized_urls" value={text} onChange={setText} className="field">
        <Label>{t('access.label')}</Label>
        <TextArea rows={5} />
        <Text slot="description">{t('access.hint')}</Text>
        <FieldError className="field-error" />
      </TextField>
      <SubmitButton pending={update.isPending}>{t('app.save')}</SubmitButton>
      {update.isSuccess && !update.isPending && (
        <p role="status" className="notice">
          {t('finder.saved')}
        </p>
      )}
    </Form>
  );
}
