// Dated exceptions to the regular week, a location's special hours or a holiday calendar's
// days (the same shape, under `special_hours` or `days`): each a date or a range of dates,
// closed or open with intervals or for 24 hours, with an optional label; added and removed.
// Every error shows beside its control: `days.2.end_date` under the second entry's last day.
import { useId, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { Checkbox } from 'react-aria-components/Checkbox';
import { t } from '../i18n/i18n.ts';
import type { ErrorsAt } from '../ui/errors-at.ts';
import { Field } from '../ui/form.tsx';
import { DayHours } from './day-hours.tsx';
import { type DayStatus, newSpecialDay, type SpecialDayDraft } from './hours-draft.ts';

const SPECIAL_STATUSES: readonly DayStatus[] = ['closed', 'open', 'all_day'];

interface SpecialDaysEditorProps {
  /** The list's error path: `special_hours` of a location, `days` of a calendar. */
  path: string;
  entries: SpecialDayDraft[];
  onChange: (entries: SpecialDayDraft[]) => void;
  errors: ErrorsAt;
  /** The list's legend and hint, where the screen says it differently. */
  legend?: string;
  hint?: string;
}

export function SpecialDaysEditor({
  path,
  entries,
  onChange,
  errors,
  legend = t('hours.special'),
  hint = t('hours.special_hint'),
}: SpecialDaysEditorProps) {
  // The entry just added: its date field takes the focus.
  const [added, setAdded] = useState<number>();
  const errorId = useId();
  const listErrors = errors.at(path);
  const replace = (index: number, entry: SpecialDayDraft) =>
    onChange(entries.map((old, i) => (i === index ? entry : old)));
  return (
    <fieldset className="fieldset" aria-describedby={listErrors.length > 0 ? errorId : undefined}>
      <legend>{legend}</legend>
      <p className="muted hint">{hint}</p>
      {listErrors.length > 0 && (
        <p id={errorId} className="field-error">
          {listErrors.join(' ')}
        </p>
      )}
      {entries.length === 0 ? (
        <p className="empty">{t('hours.special_none')}</p>
      ) : (
        <ol className="special-days">
          {entries.map((entry, index) => (
            <li key={entry.key}>
              <SpecialDay
                path={`${path}.${index}`}
                number={index + 1}
                entry={entry}
                autoFocus={entry.key === added}
                onChange={(next) => replace(index, next)}
                onRemove={() => {
                  // Entries after it move up a place: their errors no longer match their paths.
                  errors.edited(path);
                  onChange(entries.filter((_, i) => i !== index));
                }}
                errors={errors}
              />
            </li>
          ))}
        </ol>
      )}
      <Button
        className="button"
        onPress={() => {
          const entry = newSpecialDay();
          setAdded(entry.key);
          onChange([...entries, entry]);
        }}
      >
        {t('hours.special_add')}
      </Button>
    </fieldset>
  );
}

function SpecialDay({
  path,
  number,
  entry,
  autoFocus,
  onChange,
  onRemove,
  errors,
}: {
  path: string;
  number: number;
  entry: SpecialDayDraft;
  autoFocus: boolean;
  onChange: (entry: SpecialDayDraft) => void;
  onRemove: () => void;
  errors: ErrorsAt;
}) {
  const name = t('hours.special_day', { number });
  const edit = (field: string, next: SpecialDayDraft) => {
    errors.edited(`${path}.${field}`);
    onChange(next);
  };
  const entryErrors = errors.at(path);
  return (
    <fieldset className="special-day">
      <legend>{name}</legend>
      {entryErrors.length > 0 && <p className="field-error">{entryErrors.join(' ')}</p>}
      <div className="special-dates">
        <Field
          className="date-field"
          label={t('hours.special_date')}
          type="date"
          value={entry.date}
          autoFocus={autoFocus}
          onChange={(date) => edit('date', { ...entry, date })}
          errors={errors.at(`${path}.date`)}
        />
        {entry.severalDays && (
          <Field
            className="date-field"
            label={t('hours.special_end')}
            type="date"
            value={entry.endDate}
            onChange={(endDate) => edit('end_date', { ...entry, endDate })}
            errors={errors.at(`${path}.end_date`)}
          />
        )}
      </div>
      <Checkbox
        className="checkbox"
        isSelected={entry.severalDays}
        onChange={(severalDays) => edit('end_date', { ...entry, severalDays })}
      >
        <span className="checkbox-box" aria-hidden="true" />
        {t('hours.special_several')}
      </Checkbox>
      <DayHours
        label={t('hours.special_hours')}
        name={name}
        path={`${path}.hours`}
        day={entry.day}
        onChange={(day) => onChange({ ...entry, day })}
        statuses={SPECIAL_STATUSES}
        errors={errors}
      />
      <Field
        label={t('hours.special_label')}
        description={t('hours.special_label_hint')}
        value={entry.label}
        onChange={(label) => edit('label', { ...entry, label })}
        errors={errors.at(`${path}.label`)}
      />
      <Button className="button" onPress={onRemove}>
        {t('hours.special_remove', { number })}
      </Button>
    </fieldset>
  );
}
