// The time zone of opening hours (a location's, an AI import item's): a searchable list of the
// browser's IANA zones (React Aria's combo box; "new york" finds America/New_York) with the
// stored zone added when the browser does not list it (a link such as Asia/Kolkata). Chosen by
// hand, or left to the service, which derives it from the coordinates and may say why a person
// should check what it derived: that sentence is shown with the zone, and the derived zone can
// be kept as chosen, or a chosen one given back to the coordinates (sent as null).
import { useId } from 'react';
import { Button } from 'react-aria-components/Button';
import { ComboBox } from 'react-aria-components/ComboBox';
import { FieldError } from 'react-aria-components/FieldError';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Text } from 'react-aria-components/Text';
import { t } from '../i18n/i18n.ts';
import type { ErrorsAt } from '../ui/errors-at.ts';
import type { DerivedZone } from './opening-draft.ts';

let browserZones: string[] | undefined;
/** The browser's zones, read once (some hundred names). */
const knownZones = () => {
  browserZones ??= Intl.supportedValuesOf('timeZone');
  return browserZones;
};

/** Zone names read as words: case, underscores and slashes do not matter to the search. */
const words = (text: string) => text.toLowerCase().replace(/[_/]+/g, ' ');
const matches = (zone: string, typed: string) => words(zone).includes(words(typed).trim());

interface TimeZoneFieldProps {
  /** What the service derived for the stored zone, when it was left to it. */
  derived: DerivedZone | null;
  /** The zone chosen by hand, or null: the service derives it from the coordinates. */
  zone: string | null;
  onChange: (zone: string | null) => void;
  /** Whether the form has both coordinates, so the service can derive a zone. */
  hasPosition: boolean;
  /** When a zone left to the service is derived, where the screen's save does not do it (an AI item's: on import). */
  willDeriveHint?: string;
  errors: ErrorsAt;
}

export function TimeZoneField({
  derived: stored,
  zone,
  onChange,
  hasPosition,
  willDeriveHint = t('hours.time_zone_will_derive'),
  errors,
}: TimeZoneFieldProps) {
  const reviewId = useId();
  const derived = zone === null && stored ? stored.zone : null;
  const review = derived ? stored?.review : null;
  const shown = zone ?? derived;
  const items = [...new Set([...(shown ? [shown] : []), ...knownZones()])]
    .sort()
    .map((name) => ({ id: name, name }));
  const messages = errors.at('time_zone');
  const change = (next: string | null) => {
    errors.edited('time_zone');
    onChange(next);
  };
  const state = zone
    ? t('hours.time_zone_chosen')
    : derived
      ? t('hours.time_zone_derived')
      : hasPosition
        ? willDeriveHint
        : t('hours.time_zone_none');
  return (
    <div className="time-zone">
      <ComboBox
        className="field"
        defaultItems={items}
        selectedKey={shown}
        onSelectionChange={(key) => change(key === null ? null : String(key))}
        defaultFilter={matches}
        isInvalid={messages.length > 0 || undefined}
        aria-describedby={review ? reviewId : undefined}
      >
        <Label>{t('hours.time_zone')}</Label>
        <div className="combo-input">
          <Input />
          <Button className="button combo-button" aria-label={t('hours.time_zone_all')}>
            <span aria-hidden="true">▾</span>
          </Button>
        </div>
        <Text slot="description">{state}</Text>
        <FieldError className="field-error">{messages.join(' ')}</FieldError>
        <Popover>
          <ListBox className="react-aria-ListBox zone-list">
            {(item: { id: string; name: string }) => <ListBoxItem id={item.id}>{item.name}</ListBoxItem>}
          </ListBox>
        </Popover>
      </ComboBox>
      {review && (
        <div id={reviewId} className="notice warning">
          <p>
            <strong>{t('hours.time_zone_review')}</strong> {review}
          </p>
        </div>
      )}
      {derived && (
        <Button className="button" onPress={() => change(derived)}>
          {t('hours.time_zone_keep', { zone: derived })}
        </Button>
      )}
      {zone && hasPosition && (
        <Button className="button" onPress={() => change(null)}>
          {t('hours.time_zone_derive')}
        </Button>
      )}
    </div>
  );
}
