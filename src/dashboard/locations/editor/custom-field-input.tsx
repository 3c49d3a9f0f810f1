// One custom field of a location, as its definition's type asks: text kinds as text fields (of
// the matching input type), a number, a yes/no checkbox, a select of the options, checkboxes
// for a multiselect. The field's name is its error path (`custom_fields.<name>`), so the
// service's message appears beside it.
import { Checkbox } from 'react-aria-components/Checkbox';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { t } from '../../i18n/i18n.ts';
import { Field } from '../../ui/form.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import type { CustomFieldDefinition } from '../../workspaces/use-workspace-content.ts';

const INPUT_TYPES: Partial<Record<CustomFieldDefinition['type'], string>> = {
  url: 'url',
  email: 'email',
  phone: 'tel',
  date: 'date',
  number: 'number',
};

export function CustomFieldInput({
  definition,
  value,
  onChange,
}: {
  definition: CustomFieldDefinition;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const name = `custom_fields.${definition.name}`;
  const label = definition.label;
  if (definition.type === 'boolean') {
    return (
      <Checkbox name={name} className="checkbox" isSelected={value === true} onChange={onChange}>
        <span className="checkbox-box" aria-hidden="true" />
        {label}
      </Checkbox>
    );
  }
  if (definition.type === 'select') {
    return (
      <SelectField
        name={name}
        label={label}
        value={typeof value === 'string' ? value : ''}
        onChange={onChange}
        options={[
          { value: '', label: t('location.custom_none') },
          ...(definition.options ?? []).map((option) => ({ value: option, label: option })),
        ]}
      />
    );
  }
  if (definition.type === 'multiselect') {
    return (
      <CheckboxGroup
        name={name}
        className="field"
        value={Array.isArray(value) ? value.map(String) : []}
        onChange={onChange}
      >
        <Label>{label}</Label>
        {(definition.options ?? []).map((option) => (
          <Checkbox key={option} value={option} className="checkbox">
            <span className="checkbox-box" aria-hidden="true" />
            {option}
          </Checkbox>
        ))}
        <FieldError className="field-error" />
      </CheckboxGroup>
    );
  }
  return (
    <Field
      name={name}
      label={label}
      isRequired={definition.required}
      type={INPUT_TYPES[definition.type] ?? 'text'}
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(text) =>
        onChange(
          definition.type === 'number'
            ? text.trim() === ''
              ? null
              : Number(text)
            : text === ''
              ? null
              : text,
        )
      }
    />
  );
}
