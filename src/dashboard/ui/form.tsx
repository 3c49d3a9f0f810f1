// Forms as every screen uses them: React Aria's Form and TextField, with a 422's field errors
// shown beside their fields (the error's dotted paths are the fields' names) and any other
// error above the submit button.
import type { ReactNode } from 'react';
import {
  Form as AriaForm,
  Button,
  FieldError,
  Input,
  Label,
  Text,
  TextField,
  type TextFieldProps,
} from 'react-aria-components';
import { ApiError } from '../api/errors.ts';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice } from './error-notice.tsx';

interface FormProps {
  onSubmit: (values: FormData) => void;
  /** The last submit's error: field errors go beside their fields, the rest above the button. */
  error: unknown;
  children: ReactNode;
  label: string;
}

export function Form({ onSubmit, error, children, label }: FormProps) {
  const fields = error instanceof ApiError && error.status === 422 ? error.fields : {};
  return (
    <AriaForm
      aria-label={label}
      validationErrors={fields}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(new FormData(event.currentTarget));
      }}
    >
      {children}
      {error !== null && error !== undefined && <ErrorNotice error={error} />}
    </AriaForm>
  );
}

interface FieldProps extends Omit<TextFieldProps, 'children'> {
  label: string;
  description?: string;
}

export function Field({ label, description, ...props }: FieldProps) {
  return (
    <TextField {...props} className="field">
      <Label>{label}</Label>
      <Input />
      {description && <Text slot="description">{description}</Text>}
      <FieldError className="field-error" />
    </TextField>
  );
}

/**
 * The form's button. While the request runs it says so and ignores presses. (React Aria's
 * isPending would announce through a role="img" node that axe flags as unnamed.)
 */
export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <Button type="submit" className="button primary" isDisabled={pending} aria-busy={pending || undefined}>
      {pending ? t('app.saving') : children}
    </Button>
  );
}
