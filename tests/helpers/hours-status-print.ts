// Prints, as JSON, the device zone this process runs in and, for the named cases and 3,000
// random ones, what the widget says of them (tests/helpers/hours-answers.ts). Run by
// tests/hours-status-device-zone.test.ts under several TZ values, which must print the same.
import { hoursAnswers } from './hours-answers.ts';
import { NAMED_CASES } from './hours-cases.ts';
import { randomHoursCases } from './hours-random.ts';

const RANDOM_CASES_SEED = 20_250_603;

const cases = [
  ...NAMED_CASES.map(({ schedule, at }) => ({ schedule, now: Date.parse(at) })),
  ...randomHoursCases(RANDOM_CASES_SEED, 3000),
];
process.stdout.write(
  JSON.stringify({
    deviceZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    answers: hoursAnswers(cases),
  }),
);
