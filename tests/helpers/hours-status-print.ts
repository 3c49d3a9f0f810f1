// Prints, as JSON, the device zone this process runs in and, for the named cases and 3,000
// random ones, openingStatus and its text in English, German and French. Run by
// tests/hours-status-device-zone.test.ts under several TZ values, which must print the same.
import { openingStatus } from '../../src/lib/hours/hours.status.ts';
import { openingText } from '../../src/widget/hours.text.ts';
import { createTranslator } from '../../src/widget/i18n.ts';
import { NAMED_CASES } from './hours-cases.ts';
import { randomHoursCases } from './hours-random.ts';

const RANDOM_CASES_SEED = 20_250_603;

const cases = [
  ...NAMED_CASES.map(({ schedule, at }) => ({ schedule, now: Date.parse(at) })),
  ...randomHoursCases(RANDOM_CASES_SEED, 3000),
];
const languages = (['en', 'de', 'fr'] as const).map((language) => ({
  language,
  t: createTranslator(language),
}));
const answers = cases.map(({ schedule, now }) => {
  const status = openingStatus(schedule, now);
  const texts = languages.map(({ language, t }) =>
    openingText(status, { timeZone: schedule.time_zone, now, locale: language, t }),
  );
  return { status, texts };
});
process.stdout.write(
  JSON.stringify({ deviceZone: Intl.DateTimeFormat().resolvedOptions().timeZone, answers }),
);
