// A location's tags: the chosen ones as chips and a combo box that suggests the workspace's tags
// as you type (ui/chip-picker.tsx); a name that is not among them is added as it is and the
// service creates the tag on save.
import { t } from '../../i18n/i18n.ts';
import { ChipPicker } from '../../ui/chip-picker.tsx';

interface TagPickerProps {
  names: string[];
  onChange: (names: string[]) => void;
  suggestions: string[];
  errors: string[];
}

export function TagPicker({ names, onChange, suggestions, errors }: TagPickerProps) {
  const chosen = new Set(names.map((name) => name.toLowerCase()));
  const add = (name: string) => {
    const clean = name.trim();
    if (clean && !chosen.has(clean.toLowerCase())) onChange([...names, clean]);
  };
  const optionsFor = (typed: string) =>
    suggestions
      .filter((name) => !chosen.has(name.toLowerCase()))
      .filter((name) => name.toLowerCase().includes(typed.trim().toLowerCase()))
      .slice(0, 50)
      .map((name) => ({ id: name, name }));
  return (
    <ChipPicker
      chosen={names.map((name) => ({ id: name, name }))}
      onRemove={(ids) => onChange(names.filter((name) => !ids.has(name)))}
      optionsFor={optionsFor}
      onPick={add}
      onAddTyped={add}
      errors={errors}
      labels={{
        field: t('location.tags'),
        chosen: t('location.tags_chosen'),
        none: t('location.tags_none'),
        remove: (name) => t('location.tag_remove', { name }),
        add: t('location.tag_add'),
        hint: t('location.tag_add_hint'),
      }}
    />
  );
}
