// The regular week: each day's hours (DayHours), and one day's copied to Monday–Friday or to
// every day. The week's own errors (`hours`) show under its legend.
import { useId, useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { WEEKDAYS, type Weekday } from '../../lib/hours/hours.model.ts';
import { t } from '../i18n/i18n.ts';
import type { ErrorsAt } from '../ui/errors-at.ts';
import { SelectField } from '../ui/select-field.tsx';
import { DayHours } from './day-hours.tsx';
import { copyDay, type DayStatus, type WeekDraft, WORKING_DAYS } from './hours-draft.ts';

const WEEK_STATUSES: readonly DayStatus[] = ['unknown', 'closed', 'open', 'all_day'];

export const dayName = (day: Weekday) => t(`hours.day.${day}`);

export function WeekEditor({
  week,
  onChange,
  errors,
}: {
  week: WeekDraft;
  onChange: (week: WeekDraft) => void;
  errors: ErrorsAt;
}) {
  const [source, setSource] = useState<Weekday>('mon');
  const [copied, setCopied] = useState('');
  const copy = (to: readonly Weekday[], message: string) => {
    for (const day of to) if (day !== source) errors.edited(`hours.${day}`);
    onChange(copyDay(week, source, to));
    setCopied(message);
  };
  const weekErrors = errors.at('hours');
  const errorId = useId();
  return (
    <fieldset className="fieldset week" aria-describedby={weekErrors.length > 0 ? errorId : undefined}>
      <legend>{t('hours.week')}</legend>
      <p className="muted hint">{t('hours.week_hint')}</p>
      {weekErrors.length > 0 && (
        <p id={errorId} className="field-error">
          {weekErrors.join(' ')}
        </p>
      )}
      {WEEKDAYS.map((day) => (
        <DayHours
          key={day}
          label={dayName(day)}
          name={dayName(day)}
          path={`hours.${day}`}
          day={week[day]}
          onChange={(next) => {
            setCopied('');
            onChange({ ...week, [day]: next });
          }}
          statuses={WEEK_STATUSES}
          errors={errors}
        />
      ))}
      <div className="copy-days">
        <SelectField
          name="copy_from"
          label={t('hours.copy_from')}
          value={source}
          onChange={(day) => setSource(day as Weekday)}
          options={WEEKDAYS.map((day) => ({ value: day, label: dayName(day) }))}
        />
        <div className="actions tight">
          <Button
            className="button"
            aria-label={t('hours.copy_to_working_days_named', { day: dayName(source) })}
            onPress={() => copy(WORKING_DAYS, t('hours.copied_working_days', { day: dayName(source) }))}
          >
            {t('hours.copy_to_working_days')}
          </Button>
          <Button
            className="button"
            aria-label={t('hours.copy_to_all_named', { day: dayName(source) })}
            onPress={() => copy(WEEKDAYS, t('hours.copied_all', { day: dayName(source) }))}
          >
            {t('hours.copy_to_all')}
          </Button>
        </div>
        <p role="status" className="muted">
          {copied}
        </p>
      </div>
    </fieldset>
  );
}
