// The confirmation of what cannot be undone (deleting an account, a workspace): the user types
// a phrase (a fixed sentence, the workspace's name) and the button stays disabled until it is
// typed exactly, so no stray click or Enter deletes anything. Other fields (a password) go in
// as children; the form's errors show as every form's do.
import { type ReactNode, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { t } from '../i18n/i18n.ts';
import { Field, Form, SubmitButton } from './form.tsx';

interface TypedConfirmFormProps {
  label: string;
  /** What must be typed, exactly (case and spaces count). */
  phrase: string;
  /** The field's label, which says what to type. */
  phraseLabel: string;
  /** The typed field's name: an API field of that name gets its errors beside it. */
  phraseName?: string;
  action: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: FormData) => void;
  /** In a dialog: a Cancel button beside the action. */
  onCancel?: () => void;
  /** In a dialog: the phrase field takes the focus when it opens. */
  autoFocus?: boolean;
  children?: ReactNode;
}

export function TypedConfirmForm(props: TypedConfirmFormProps) {
  const [typed, setTyped] = useState('');
  const matches = typed === props.phrase;
  return (
    <Form
      label={props.label}
      error={props.error}
      onSubmit={(values) => {
        if (matches) props.onSubmit(values);
      }}
    >
      {props.children}
      <Field
        name={props.phraseName ?? 'confirmation'}
        label={props.phraseLabel}
        value={typed}
        onChange={setTyped}
        autoComplete="off"
        spellCheck="false"
        autoFocus={props.autoFocus}
        isRequired
      />
      <div className="form-actions">
        {props.onCancel && (
          <Button className="button" onPress={props.onCancel}>
            {t('app.cancel')}
          </Button>
        )}
        <SubmitButton pending={props.pending} isDisabled={!matches} pendingLabel={t('app.working')} danger>
          {props.action}
        </SubmitButton>
      </div>
    </Form>
  );
}
