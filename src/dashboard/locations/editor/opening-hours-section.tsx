// The location editor's opening hours: the time zone they are read in, the regular week, the
// special days and a temporary closure with its reopening date. Saved with the rest of the
// form; every error beside its control.
import { useId } from 'react';
import { Checkbox } from 'react-aria-components/Checkbox';
import { SpecialDaysEditor } from '../../hours/special-days-editor.tsx';
import { WeekEditor } from '../../hours/week-editor.tsx';
import { t } from '../../i18n/i18n.ts';
import type { ErrorsAt } from '../../ui/errors-at.ts';
import { Field } from '../../ui/form.tsx';
import type { Location } from '../location-pages.ts';
import type { OpeningValues } from './opening-fields.ts';
import { TimeZoneField } from './time-zone-field.tsx';

interface OpeningHoursSectionProps {
  location: Location | undefined;
  values: OpeningValues;
  onChange: (values: OpeningValues) => void;
  hasPosition: boolean;
  errors: ErrorsAt;
}

export function OpeningHoursSection({
  location,
  values,
  onChange,
  hasPosition,
  errors,
}: OpeningHoursSectionProps) {
  const headingId = useId();
  const set = <K extends keyof OpeningValues>(key: K, value: OpeningValues[K]) =>
    onChange({ ...values, [key]: value });
  return (
    <section className="opening-hours" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('hours.title')}</h2>
      <TimeZoneField
        location={location}
        zone={values.zone}
        onChange={(zone) => set('zone', zone)}
        hasPosition={hasPosition}
        errors={errors}
      />
      <WeekEditor week={values.week} onChange={(week) => set('week', week)} errors={errors} />
      <SpecialDaysEditor
        path="special_hours"
        entries={values.special}
        onChange={(special) => set('special', special)}
        errors={errors}
      />
      <fieldset className="fieldset">
        <legend>{t('hours.closure')}</legend>
        <Checkbox
          className="checkbox"
          isSelected={values.closed}
          onChange={(closed) => {
            errors.edited('reopens_on');
            set('closed', closed);
          }}
        >
          <span className="checkbox-box" aria-hidden="true" />
          {t('hours.closed_now')}
        </Checkbox>
        {values.closed && (
          <Field
            className="date-field"
            label={t('hours.reopens_on')}
            type="date"
            value={values.reopensOn}
            onChange={(reopensOn) => {
              errors.edited('reopens_on');
              set('reopensOn', reopensOn);
            }}
            errors={errors.at('reopens_on')}
          />
        )}
      </fieldset>
    </section>
  );
}
