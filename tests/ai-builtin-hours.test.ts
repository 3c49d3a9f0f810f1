// The built-in parser's reading of opening hours in pasted text
// (src/modules/ai-imports/builtin/ai-imports.builtin-hours.ts): the forms shops write, in
// English, German and French, and what it refuses rather than guesses.
import { describe, expect, it } from 'vitest';
import type { WeeklyHours } from '../src/lib/hours/hours.model.ts';
import { checkWeeklyHours } from '../src/lib/hours/hours.rules.ts';
import { readOpeningHours } from '../src/modules/ai-imports/builtin/ai-imports.builtin-hours.ts';

const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** The days from `first` to `last` (inclusive), each with `intervals`. */
const days = (first: number, last: number, intervals: string[]): WeeklyHours =>
  Object.fromEntries(WEEK.slice(first, last + 1).map((day) => [day, intervals]));

describe('readOpeningHours reads', () => {
  it.each<[string, WeeklyHours]>([
    ['Mon-Fri 9-18, Sat 10-14', { ...days(0, 4, ['09:00-18:00']), sat: ['10:00-14:00'] }],
    ['Mo-Fr 09:00-18:00', days(0, 4, ['09:00-18:00'])],
    ['Mon–Sat 9am–8pm', days(0, 5, ['09:00-20:00'])],
    ['Sun closed', { sun: [] }],
    ['closed Sun', { sun: [] }],
    ['Sunday: closed', { sun: [] }],
    ['24/7', days(0, 6, ['00:00-24:00'])],
    ['Open 24 hours', days(0, 6, ['00:00-24:00'])],
    ['Sat-Sun 24h', days(5, 6, ['00:00-24:00'])],
    ['daily 8-22', days(0, 6, ['08:00-22:00'])],
    ['Open daily 7-19', days(0, 6, ['07:00-19:00'])],
    ['täglich 7-19 Uhr', days(0, 6, ['07:00-19:00'])],
    ['Mo–Sa 6–18 Uhr', days(0, 5, ['06:00-18:00'])],
    [
      'Öffnungszeiten: Mo.-Fr. 8.30-18 Uhr, Sa. 9-13 Uhr',
      { ...days(0, 4, ['08:30-18:00']), sat: ['09:00-13:00'] },
    ],
    ['Horaires : mar-sam 10h-19h', days(1, 5, ['10:00-19:00'])],
    ['lun-ven 9h30-12h, 14h-18h30', days(0, 4, ['09:30-12:00', '14:00-18:30'])],
    ['Open Mon-Sat 9am-5:30pm', days(0, 5, ['09:00-17:30'])],
    [
      'Mon-Fri 9-12, 14-18; Sat 9-12',
      { ...days(0, 4, ['09:00-12:00', '14:00-18:00']), sat: ['09:00-12:00'] },
    ],
    ['Mon-Fri 09:00-13:00 & 14:00-18:00', days(0, 4, ['09:00-13:00', '14:00-18:00'])],
    ['Mon, Wed, Fri 9-18', { mon: ['09:00-18:00'], wed: ['09:00-18:00'], fri: ['09:00-18:00'] }],
    ['Sat & Sun 10-16', days(5, 6, ['10:00-16:00'])],
    ['Sat/Sun 10-16', days(5, 6, ['10:00-16:00'])],
    ['Mon-Fri 9-18 Sat 10-14 Sun closed', { ...days(0, 4, ['09:00-18:00']), sat: ['10:00-14:00'], sun: [] }],
    ['Mon-Fri 9-18\nSat 10-14', { ...days(0, 4, ['09:00-18:00']), sat: ['10:00-14:00'] }],
    ['Monday to Friday 9am to 5pm', days(0, 4, ['09:00-17:00'])],
    ['9am-5pm Mon-Fri', days(0, 4, ['09:00-17:00'])],
    [
      'weekdays 7am-7pm, weekends 8am-6pm',
      { ...days(0, 4, ['07:00-19:00']), ...days(5, 6, ['08:00-18:00']) },
    ],
    // Past midnight: from an evening start, or when the end says am.
    ['Fri-Sat 18-2', days(4, 5, ['18:00-02:00'])],
    ['Fri 8pm-2am', { fri: ['20:00-02:00'] }],
    ['Fri 22:00-04:00, Sat 10:00-12:00', { fri: ['22:00-04:00'], sat: ['10:00-12:00'] }],
    // An am/pm on the end alone: the half of the day that puts the start first.
    ['Mon-Fri 9-5pm', days(0, 4, ['09:00-17:00'])],
    ['Thu 7-11pm', { thu: ['19:00-23:00'] }],
    ['Mon 11-1pm', { mon: ['11:00-13:00'] }],
    ['Thu-Sun 6-12am', days(3, 6, ['18:00-24:00'])],
    ['Mon 12pm-12am', { mon: ['12:00-24:00'] }],
    ['Mon-Sun 0-24', days(0, 6, ['00:00-24:00'])],
    [
      'Fri-Mon 10-16',
      { mon: ['10:00-16:00'], fri: ['10:00-16:00'], sat: ['10:00-16:00'], sun: ['10:00-16:00'] },
    ],
  ])('%j', (text, hours) => {
    const reading = readOpeningHours(text);
    expect(reading).toEqual({ hours });
    // Days in week order, and a week the API accepts.
    if ('hours' in reading) {
      expect(Object.keys(reading.hours)).toEqual(WEEK.filter((day) => day in reading.hours));
      expect(checkWeeklyHours(reading.hours)).toEqual([]);
    }
  });
});

describe('readOpeningHours refuses to guess', () => {
  it.each([
    ['Mon-Fri 9-5', /9-5: the end is not after the start/],
    ['Sun 12-5', /12-5: the end is not after the start/],
    ['Sun 12:30-6', /12:30-6: the end is not after the start/],
    ['Mon-Fri 9am-5', /9am-5: the end is not after the start/],
    ['Mon-Fri 9-18, Mon 10-12', /mon is given twice/],
    ['Mon-Sat 9-18, Sat 10-14', /sat is given twice/],
    ['Sun & holidays closed', /"holidays" is not read/],
    ['Mon-Fri 9-18 except public holidays', /"except" is not read/],
    ['by appointment', /"by" is not read/],
    ['Mon-Fri mornings', /"mornings" is not read/],
    ['Mon-Fri', /days without hours/],
    ['9-18', /hours without days/],
    ['Mon-Fri 9-18-20', /not intervals/],
    ['Mon-Fri 9', /not intervals/],
    ['Mon-Fri 9:75-18', /"9:75"/],
    ['Mon-Fri 13pm-5pm', /"13pm"/],
    ['Mon-Fri closed 9-18', /not intervals/],
    ['Sat 20-03, Sun 02-05', /overlaps sat's interval past midnight/],
    ['Mon 9-12, 11-14', /in order and may not overlap/],
    ['Daily Grind Downtown', /"grind" is not read/],
    ['(open 24h)', /"\(" is not read/],
    ['', /no opening hours/],
  ])('%j', (text, reason) => {
    const reading = readOpeningHours(text);
    expect(reading).toEqual({ refused: expect.stringMatching(reason) });
  });
});
