// A few values chosen from many: the chosen ones as a tag group of chips (each removable by its
// button or the Delete key) and a combo box that finds the others as you type. The tag picker
// of a location and the countries of a finder's rule are both this; what they list, how they
// match the typed text and whether a value not listed may be added is theirs. The typed text is
// the picker's own, and starts over after each value added.
import { type ReactNode, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { ComboBox } from 'react-aria-components/ComboBox';
import { FieldError } from 'react-aria-components/FieldError';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Tag, TagGroup, TagList } from 'react-aria-components/TagGroup';
import { Text } from 'react-aria-components/Text';

export interface Chip {
  id: string;
  name: string;
}

export interface ChipPickerProps {
  /** The chosen values, in order. */
  chosen: Chip[];
  onRemove: (ids: Set<string>) => void;
  /** The values the combo box offers for the text typed (the chosen ones left out). */
  optionsFor: (typed: string) => Chip[];
  onPick: (id: string) => void;
  /** Enter with no suggestion highlighted adds the typed text as it is (onAddTyped). */
  onAddTyped?: (typed: string) => void;
  errors?: string[];
  labels: {
    /** The field's label, over the chips. */
    field: string;
    /** The tag group's accessible name. */
    chosen: string;
    none: string;
    remove: (name: string) => string;
    add: string;
    hint: ReactNode;
  };
}

export function ChipPicker({
  chosen,
  onRemove,
  optionsFor,
  onPick,
  onAddTyped,
  errors = [],
  labels,
}: ChipPickerProps) {
  const [typed, setTyped] = useState('');
  // The combo box keeps the last value picked as its selection, and picking the selected value
  // again is no change: once that value's chip was removed, Enter on it did nothing. Each pick
  // gives the options new keys (the picks so far, then the value's id), so that a value offered
  // again is never the one selected.
  const [picks, setPicks] = useState(0);
  const options = optionsFor(typed).map((chip) => ({ key: `${picks}:${chip.id}`, chip }));
  return (
    <div className="field tag-picker">
      <TagGroup aria-label={labels.chosen} onRemove={(keys) => onRemove(new Set([...keys].map(String)))}>
        <Label>{labels.field}</Label>
        <TagList className="tag-list" renderEmptyState={() => <span className="muted">{labels.none}</span>}>
          {chosen.map((chip) => (
            <Tag key={chip.id} id={chip.id} textValue={chip.name} className="tag-chip">
              {chip.name}
              <Button slot="remove" className="tag-remove" aria-label={labels.remove(chip.name)}>
                ×
              </Button>
            </Tag>
          ))}
        </TagList>
      </TagGroup>
      <ComboBox
        className="field"
        inputValue={typed}
        onInputChange={setTyped}
        allowsCustomValue={onAddTyped !== undefined}
        items={options}
        isInvalid={errors.length > 0}
        onSelectionChange={(key) => {
          if (key === null) return;
          const picked = String(key);
          onPick(picked.slice(picked.indexOf(':') + 1));
          setTyped('');
          setPicks((count) => count + 1);
        }}
        onKeyDown={(event) => {
          // With a suggestion highlighted, Enter picks it (onPick): the letters typed are not added too.
          const highlighted = (event.target as HTMLInputElement).hasAttribute('aria-activedescendant');
          if (event.key !== 'Enter' || !typed.trim() || highlighted) return;
          // Enter on text typed adds it where values not listed may be added; it never submits
          // the form around the picker, which the person did not mean.
          event.preventDefault();
          if (onAddTyped) {
            onAddTyped(typed);
            setTyped('');
          }
        }}
      >
        <Label>{labels.add}</Label>
        <Input />
        <Text slot="description">{labels.hint}</Text>
        <FieldError className="field-error">{errors.join(' ')}</FieldError>
        <Popover>
          <ListBox>
            {(option: (typeof options)[number]) => (
              <ListBoxItem id={option.key} textValue={option.chip.name}>
                {option.chip.name}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
    </div>
  );
}
