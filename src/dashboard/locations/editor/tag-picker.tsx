// A location's tags: the chosen ones as a tag group (each removable by button or Delete key)
// and a combo box that suggests the workspace's tags as you type; a name that is not among them
// is added as it is and the service creates the tag on save.
import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { ComboBox } from 'react-aria-components/ComboBox';
import { FieldError } from 'react-aria-components/FieldError';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Tag, TagGroup, TagList } from 'react-aria-components/TagGroup';
import { Text } from 'react-aria-components/Text';
import { t } from '../../i18n/i18n.ts';

interface TagPickerProps {
  names: string[];
  onChange: (names: string[]) => void;
  suggestions: string[];
  errors: string[];
}

export function TagPicker({ names, onChange, suggestions, errors }: TagPickerProps) {
  const [typed, setTyped] = useState('');
  const chosen = new Set(names.map((name) => name.toLowerCase()));
  const add = (name: string) => {
    const clean = name.trim();
    if (clean && !chosen.has(clean.toLowerCase())) onChange([...names, clean]);
    setTyped('');
  };
  const options = suggestions
    .filter((name) => !chosen.has(name.toLowerCase()))
    .filter((name) => name.toLowerCase().includes(typed.trim().toLowerCase()))
    .slice(0, 50)
    .map((name) => ({ id: name, name }));
  return (
    <div className="field tag-picker">
      <TagGroup
        aria-label={t('location.tags_chosen')}
        onRemove={(keys) => onChange(names.filter((name) => !keys.has(name)))}
      >
        <Label>{t('location.tags')}</Label>
        <TagList
          className="tag-list"
          renderEmptyState={() => <span className="muted">{t('location.tags_none')}</span>}
        >
          {names.map((name) => (
            <Tag key={name} id={name} textValue={name} className="tag-chip">
              {name}
              <Button slot="remove" className="tag-remove" aria-label={t('location.tag_remove', { name })}>
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
        allowsCustomValue
        items={options}
        isInvalid={errors.length > 0}
        onSelectionChange={(key) => key !== null && add(String(key))}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && typed.trim()) {
            event.preventDefault();
            add(typed);
          }
        }}
      >
        <Label>{t('location.tag_add')}</Label>
        <Input />
        <Text slot="description">{t('location.tag_add_hint')}</Text>
        <FieldError className="field-error">{errors.join(' ')}</FieldError>
        <Popover>
          <ListBox>
            {(option: { id: string; name: string }) => (
              <ListBoxItem id={option.id}>{option.name}</ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
    </div>
  );
}
