// A labelled select (React Aria's Select: a button and a listbox popover, keyboard and screen
// reader behaviour included), used like a form field with a name.
import { Button } from 'react-aria-components/Button';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Select, SelectValue } from 'react-aria-components/Select';
import { Text } from 'react-aria-components/Text';

interface SelectFieldProps {
  name: string;
  label: string;
  description?: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  /** Messages placed by the screen (useErrorsAt), for a select whose name is no error path. */
  errors?: string[];
}

export function SelectField({
  name,
  label,
  description,
  options,
  value,
  onChange,
  errors = [],
}: SelectFieldProps) {
  return (
    <Select
      className="field"
      name={name}
      selectedKey={value}
      onSelectionChange={(key) => onChange(String(key))}
      isInvalid={errors.length > 0 || undefined}
    >
      <Label>{label}</Label>
      <Button className="button select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      {description && <Text slot="description">{description}</Text>}
      <FieldError className="field-error">{errors.length > 0 ? errors.join(' ') : undefined}</FieldError>
      <Popover>
        <ListBox items={options.map((option) => ({ id: option.value, ...option }))}>
          {(option) => <ListBoxItem id={option.id}>{option.label}</ListBoxItem>}
        </ListBox>
      </Popover>
    </Select>
  );
}
