// Opening hours as a form edits them (the location editor, an AI import item's editor): the
// time zone they are read in, the regular week and the special days, each error beside its
// control; what only one form has (a location's temporary closure) comes after, as children.
// Saved with the rest of the form.
import { type ReactNode, useId } from 'react';
import { t } from '../i18n/i18n.ts';
import type { ErrorsAt } from '../ui/errors-at.ts';
import type { DerivedZone, OpeningDraft } from './opening-draft.ts';
import { SpecialDaysEditor } from './special-days-editor.tsx';
import { TimeZoneField } from './time-zone-field.tsx';
import { WeekEditor } from './week-editor.tsx';

interface OpeningHoursSectionProps<V extends OpeningDraft> {
  values: V;
  onChange: (values: V) => void;
  /** Whether the form has both coordinates, so the service can derive a zone. */
  hasPosition: boolean;
  derivedZone: DerivedZone | null;
  willDeriveHint?: string;
  /** Messages at the service's paths (`hours.mon.0`, `special_hours.1.date`, `time_zone`). */
  errors: ErrorsAt;
  /** The heading's level where the section is, under the screen's own headings. */
  level?: 2 | 3;
  children?: ReactNode;
}

export function OpeningHoursSection<V extends OpeningDraft>({
  values,
  onChange,
  hasPosition,
  derivedZone,
  willDeriveHint,
  errors,
  level = 2,
  children,
}: OpeningHoursSectionProps<V>) {
  const headingId = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  const set = <K extends keyof OpeningDraft>(key: K, value: OpeningDraft[K]) =>
    onChange({ ...values, [key]: value });
  return (
    <section className="opening-hours" aria-labelledby={headingId}>
      <Heading id={headingId}>{t('hours.title')}</Heading>
      <TimeZoneField
        derived={derivedZone}
        zone={values.zone}
        onChange={(zone) => set('zone', zone)}
        hasPosition={hasPosition}
        willDeriveHint={willDeriveHint}
        errors={errors}
      />
      <WeekEditor week={values.week} onChange={(week) => set('week', week)} errors={errors} />
      <SpecialDaysEditor
        path="special_hours"
        entries={values.special}
        onChange={(special) => set('special', special)}
        errors={errors}
      />
      {children}
    </section>
  );
}
