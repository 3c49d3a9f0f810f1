// One day's hours, a weekday of the regular week or a special day: its state (not known,
// closed, open, open 24 hours) and, when open, its intervals, each two native time inputs
// (the browser's accessible time entry, whose value is already the API's HH:MM) with a note
// when it ends at midnight or the next day. An interval's errors (`hours.mon.1`) show under
// its two times, the day's (`hours.mon`) under its state.
import { useId } from 'react';
import { Button } from 'react-aria-components/Button';
import { Group } from 'react-aria-components/Group';
import type { MessageKey } from '../i18n/en.ts';
import { formatClock, t } from '../i18n/i18n.ts';
import type { ErrorsAt } from '../ui/errors-at.ts';
import { Field } from '../ui/form.tsx';
import { SelectField } from '../ui/select-field.tsx';
import {
  blankInterval,
  closingDay,
  type DayDraft,
  type DayStatus,
  type IntervalDraft,
  withStatus,
} from './hours-draft.ts';

const STATUS_TEXTS: Record<DayStatus, MessageKey> = {
  unknown: 'hours.status.unknown',
  closed: 'hours.status.closed',
  open: 'hours.status.open',
  all_day: 'hours.status.all_day',
};

interface DayHoursProps {
  /** The state's visible label: the weekday, or "Hours" of a special day. */
  label: string;
  /** The day as its intervals are named: "Monday, hours 2", "Special day 1, hours 2". */
  name: string;
  /** The error path of the day's intervals: `hours.mon`, `special_hours.0.hours`. */
  path: string;
  day: DayDraft;
  onChange: (day: DayDraft) => void;
  statuses: readonly DayStatus[];
  errors: ErrorsAt;
}

export function DayHours({ label, name, path, day, onChange, statuses, errors }: DayHoursProps) {
  const change = (next: DayDraft) => {
    errors.edited(path);
    onChange(next);
  };
  const setInterval = (index: number, interval: IntervalDraft) =>
    change({ ...day, intervals: day.intervals.map((old, i) => (i === index ? interval : old)) });
  return (
    <div className="day-hours">
      <SelectField
        name={`${path}.state`}
        label={label}
        value={day.status}
        onChange={(status) => change(withStatus(day, status as DayStatus))}
        options={statuses.map((status) => ({ value: status, label: t(STATUS_TEXTS[status]) }))}
        errors={errors.at(path)}
      />
      {day.status === 'open' && (
        <>
          {day.intervals.map((interval, index) => (
            <IntervalRow
              key={interval.key}
              name={t('hours.interval', { day: name, number: index + 1 })}
              interval={interval}
              onChange={(next) => setInterval(index, next)}
              onRemove={
                day.intervals.length > 1
                  ? () => change({ ...day, intervals: day.intervals.filter((_, i) => i !== index) })
                  : undefined
              }
              errors={errors.at(`${path}.${index}`)}
            />
          ))}
          <Button
            className="button link add-interval"
            aria-label={t('hours.add_interval_to', { day: name })}
            onPress={() => change({ ...day, intervals: [...day.intervals, blankInterval()] })}
          >
            {t('hours.add_interval')}
          </Button>
        </>
      )}
    </div>
  );
}

function IntervalRow({
  name,
  interval,
  onChange,
  onRemove,
  errors,
}: {
  name: string;
  interval: IntervalDraft;
  onChange: (interval: IntervalDraft) => void;
  /** Absent for an open day's only interval (a day without one is closed, not open). */
  onRemove: (() => void) | undefined;
  errors: string[];
}) {
  const noteId = useId();
  const errorId = useId();
  const ends = closingDay(interval);
  const invalid = errors.length > 0;
  return (
    <Group className="interval" aria-label={name} isInvalid={invalid}>
      <Field
        className="time-field"
        label={t('hours.opens')}
        type="time"
        value={interval.open}
        onChange={(open) => onChange({ ...interval, open })}
        isInvalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
      />
      <Field
        className="time-field"
        label={t('hours.closes')}
        type="time"
        value={interval.close}
        onChange={(close) => onChange({ ...interval, close })}
        isInvalid={invalid || undefined}
        aria-describedby={[ends ? noteId : '', invalid ? errorId : ''].filter(Boolean).join(' ') || undefined}
      />
      {onRemove && (
        <Button className="button" aria-label={t('hours.remove_interval_named', { name })} onPress={onRemove}>
          {t('hours.remove_interval')}
        </Button>
      )}
      {ends && (
        <p id={noteId} className="interval-note">
          {ends === 'midnight'
            ? t('hours.until_midnight')
            : t('hours.until_next_day', { time: formatClock(interval.close) })}
        </p>
      )}
      {invalid && (
        <p id={errorId} className="field-error interval-error">
          {errors.join(' ')}
        </p>
      )}
    </Group>
  );
}
