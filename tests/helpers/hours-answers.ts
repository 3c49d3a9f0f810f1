// What the widget says of opening hours for each case: openingStatus, localDate and the status
// line in English, German and French (with and without "local time"). Pure: run in Node by
// tests/helpers/hours-status-print.ts and, bundled, in Chromium pages of other device zones by
// tests/widget/hours-chromium.test.ts; every run must give the same answers.
import type { OpeningSchedule } from '../../src/lib/hours/hours.model.ts';
import { localDate, openingStatus } from '../../src/lib/hours/hours.status.ts';
import { openingText } from '../../src/widget/hours.text.ts';
import { createTranslator } from '../../src/widget/i18n.ts';

export interface HoursCaseInput {
  schedule: OpeningSchedule;
  now: number;
}

/** Each language with a locale of its own clock: en-US's 12 hours, en-GB's 24. */
const LOCALES = [
  ['en', 'en-US'],
  ['en', 'en-GB'],
  ['de', 'de'],
  ['fr', 'fr'],
] as const;

export function hoursAnswers(cases: readonly HoursCaseInput[]): unknown[] {
  const languages = LOCALES.map(([language, locale]) => ({ locale, t: createTranslator(language) }));
  return cases.map(({ schedule, now }) => {
    const status = openingStatus(schedule, now);
    const timeZone = schedule.time_zone;
    const texts = languages.flatMap(({ locale, t }) =>
      [false, true].map((local) => openingText(status, timeZone, now, { locale, t }, local)),
    );
    return { status, today: timeZone ? (localDate(timeZone, now) ?? null) : null, texts };
  });
}
