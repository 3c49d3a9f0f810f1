// Forms as every screen uses them: React Aria's Form and TextField, with a 422's field errors
// shown beside their fields (the error's dotted paths are the fields' names) and any other
// error above the submit button.
import { type ReactNode, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { FieldError } from 'react-aria-components/FieldError';
import { Form as AriaForm } from 'react-aria-components/Form';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import { TextField, type TextFieldProps } from 'react-aria-components/TextField';
import { ApiError } from '../api/errors.ts';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice } from './error-notice.tsx';

interface FormProps {
  /** The form element comes along so a screen can empty it once the change is saved. */
  onSubmit: (values: FormData, form: HTMLFormElement) => void;
  /** The last submit's error: field errors go beside their fields, the rest above the button. */
  error: unknown;
  children: ReactNode;
  label: string;
}

export function Form({ onSubmit, error, children, label }: FormProps) {
  // A field's error goes as soon as the field is edited (not when it loses focus, which would
  // move the button under the pointer as it is pressed).
  const [edited, setEdited] = useState<{ error: unknown; names: Set<string> }>({ error, names: new Set() });
  const names = edited.error === error ? edited.names : new Set<string>();
  const fields = error instanceof ApiError && error.status === 422 ? error.fields : {};
  const shown = Object.fromEntries(Object.entries(fields).filter(([name]) => !names.has(name)));
  return (
    <AriaForm
      aria-label={label}
      validationErrors={shown}
      // The service is the judge: errors are shown (aria-invalid, the message under the field)
      // but never block the next submit, which the browser's own validity would do.
      validationBehavior="aria"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(new FormData(event.currentTarget), event.currentTarget);
      }}
    >
      {/* Input events bubble here from every field; the wrapper takes no room (display: contents). */}
      <div
        className="form-fields"
        onInput={(event) => {
          const name = (event.target as HTMLInputElement).name;
          if (name && name in fields && !names.has(name))
            setEdited({ error, names: new Set(names).add(name) });
        }}
      >
        {children}
      </div>
      {error !== null && error !== undefined && <ErrorNotice error={error} />}
    </AriaForm>
  );
}

interface FieldProps extends Omit<TextFieldProps, 'children'> {
  label: string;
  description?: string;
  /** Messages placed by the screen (useErrorsAt), for a field whose name is no error path. */
  errors?: string[];
  /** The field's look beyond .field (a time input's narrower box). */
  className?: string;
}

export function Field({ label, description, errors = [], className, ...props }: FieldProps) {
  return (
    <TextField
      {...props}
      isInvalid={errors.length > 0 || props.isInvalid || undefined}
      className={className ? `field ${className}` : 'field'}
    >
      <Label>{label}</Label>
      <Input />
      {description && <Text slot="description">{description}</Text>}
      <FieldError className="field-error">{errors.length > 0 ? errors.join(' ') : undefined}</FieldError>
    </TextField>
  );
}

/**
 * The form's button. While the request runs it says so (its label) and ignores presses. (React
 * Aria's isPending would announce through a role="img" node that axe flags as unnamed; and its
 * Button does not pass aria-busy on to the element.)
 */
export function SubmitButton({
  pending,
  children,
  isDisabled,
  danger,
  pendingLabel = t('app.saving'),
}: {
  pending: boolean;
  children: ReactNode;
  /** Not ready to send (a confirmation not typed yet). */
  isDisabled?: boolean;
  /** A destructive action is red, not the screen's main colour. */
  danger?: boolean;
  /** What the button says while the request runs. */
  pendingLabel?: string;
}) {
  return (
    <Button
      type="submit"
      className={danger ? 'button danger' : 'button primary'}
      isDisabled={pending || isDisabled}
    >
      {pending ? pendingLabel : children}
    </Button>
  );
}
