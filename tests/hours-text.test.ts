// Opening hours written as text (src/lib/hours/hours.text.ts): what a day's cell and a
// special_hours cell read as, what they refuse rather than guess, and the text written back.
import { describe, expect, it } from 'vitest';
import type { SpecialHours } from '../src/lib/hours/hours.model.ts';
import { checkDay, checkSpecialHours, type HoursProblem } from '../src/lib/hours/hours.rules.ts';
import {
  DAY_TEXT_MESSAGE,
  formatDayText,
  formatSpecialHoursText,
  parseDayText,
  parseSpecialHoursText,
  SPECIAL_TEXT_MESSAGE,
} from '../src/lib/hours/hours.text.ts';

const readValue = <T>(reading: { value: T } | { error: string }): T => {
  if ('error' in reading) throw new Error(reading.error);
  return reading.value;
};

describe('parseDayText', () => {
  it.each([
    ['09:00-18:00', ['09:00-18:00']],
    ['09:00-12:00, 13:00-18:00', ['09:00-12:00', '13:00-18:00']],
    ['09:00-12:00,13:00-18:00', ['09:00-12:00', '13:00-18:00']],
    [' 09:00 - 12:00 ,  13:00 -18:00 ', ['09:00-12:00', '13:00-18:00']],
    ['19:00-02:00', ['19:00-02:00']],
    ['00:00-24:00', ['00:00-24:00']],
    ['closed', []],
    [' Closed ', []],
    ['CLOSED', []],
    ['24h', ['00:00-24:00']],
    ['24H', ['00:00-24:00']],
  ])('reads %j as %j', (text, hours) => {
    expect(readValue(parseDayText(text))).toEqual(hours);
  });

  it('reads an empty or blank cell as not known', () => {
    expect(parseDayText('')).toEqual({ value: undefined });
    expect(parseDayText('   ')).toEqual({ value: undefined });
  });

  it.each([
    'closed, 09:00-12:00',
    '09:00-12:00, 24h',
    '09:00-12:00,',
    ', 09:00-12:00',
    '09:00-12:00,,13:00-14:00',
    '09:00 12:00',
    '24 h',
    'open',
    'geschlossen',
    '09:00–18:00',
  ])('refuses the shape of %j', (text) => {
    expect(parseDayText(text)).toEqual({ error: DAY_TEXT_MESSAGE });
  });

  it('leaves the intervals it does not guess to the rules: 9-18, 9:00-18:00, 9am-6pm', () => {
    for (const text of ['9-18', '9:00-18:00', '9am-6pm', '09.00-18.00']) {
      const hours = readValue(parseDayText(text));
      expect(hours).toEqual([text.trim()]);
      const problems: HoursProblem[] = [];
      expect(checkDay(hours!, problems, ['mon'])).toBeUndefined();
      expect(problems).toEqual([{ path: ['mon', 0], message: expect.stringMatching(/HH:MM-HH:MM/) }]);
    }
  });
});

describe('formatDayText', () => {
  it.each([
    [undefined, ''],
    [null, ''],
    [[], 'closed'],
    [['00:00-24:00'], '24h'],
    [['09:00-12:00', '13:00-18:00'], '09:00-12:00, 13:00-18:00'],
    [['00:00-24:00', '10:00-11:00'], '00:00-24:00, 10:00-11:00'],
  ])('writes %j as %j, which reads back the same', (hours, text) => {
    expect(formatDayText(hours)).toBe(text);
    expect(readValue(parseDayText(text))).toEqual(hours ?? undefined);
  });
});

describe('parseSpecialHoursText', () => {
  it('reads dates, ranges, intervals, closed, 24h and labels, entries separated by ;', () => {
    const reading = readValue(
      parseSpecialHoursText(
        '2026-12-24 09:00-14:00 Christmas Eve; 2026-12-25..2026-12-26 closed;2026-12-31 10:00 - 12:00, 13:00-15:00;' +
          ' 2027-01-01  24h  New Year ; 2026-12-27 .. 2026-12-30 CLOSED Between the years;',
      ),
    );
    expect(reading.entries).toEqual([
      { date: '2026-12-24', end_date: null, hours: ['09:00-14:00'], label: 'Christmas Eve' },
      { date: '2026-12-25', end_date: '2026-12-26', hours: [], label: null },
      { date: '2026-12-31', end_date: null, hours: ['10:00-12:00', '13:00-15:00'], label: null },
      { date: '2027-01-01', end_date: null, hours: ['00:00-24:00'], label: 'New Year' },
      { date: '2026-12-27', end_date: '2026-12-30', hours: [], label: 'Between the years' },
    ]);
    expect(reading.texts[1]).toBe('2026-12-25..2026-12-26 closed');
    expect(checkSpecialHours(reading.entries)).toEqual([]);
  });

  it('reads an empty cell as no entries', () => {
    expect(parseSpecialHoursText('')).toEqual({ value: { entries: [], texts: [] } });
    expect(parseSpecialHoursText(' ; ')).toEqual({ value: { entries: [], texts: [] } });
  });

  it.each([
    ['2026-12-24', 'no hours'],
    ['2026-12-24 Christmas Eve', 'a label without hours'],
    ['Dec 24 closed', 'a date not written with digits'],
    ['2026-12-24 09:00-14:00, Christmas Eve', 'a comma before the label'],
    ['2026-12-24 closed 2026-12-25 closed', 'two entries without ;'],
    ['2026-12-24 closed\n2026-12-25 closed', 'entries on lines'],
    ['2026-12-24 closedtoday', 'a word glued to the hours'],
    ['2026-12-24..closed', 'a range without its end'],
    ['2026-12-24 09:00-14:00 15:00-18:00', 'two intervals without a comma'],
    ['2026-12-24 09:00-14:00 & 15:00-18:00', 'two intervals joined by &'],
    ['2026-12-24 9-14 15-18', 'two short intervals without a comma'],
    ['2026-12-24 closed 09:00-12:00', 'closed, then hours'],
    ['2026-12-24 09:00-14:00 closed', 'hours, then closed'],
    ['2026-12-24 closed Christmas, open 10:00-12:00', 'a label holding an interval'],
  ])('refuses %j (%s), naming the entry', (text) => {
    const reading = parseSpecialHoursText(`2026-01-01 closed; ${text}`);
    expect(reading).toEqual({ error: `"${text.trim()}": ${SPECIAL_TEXT_MESSAGE}` });
  });

  it('leaves bad dates and intervals to the rules, which name the entry', () => {
    const reading = readValue(
      parseSpecialHoursText('2026-02-30 closed; 2026-12-27..2026-12-20 closed; 2026-12-24 9-14 Eve'),
    );
    expect(checkSpecialHours(reading.entries).map((problem) => problem.path)).toEqual([
      [0, 'date'],
      [1, 'end_date'],
      [2, 'hours', 0],
    ]);
  });
});

describe('formatSpecialHoursText', () => {
  it('writes what parseSpecialHoursText reads back the same', () => {
    const entries: SpecialHours[] = [
      { date: '2026-12-24', end_date: null, hours: ['09:00-14:00'], label: 'Christmas Eve' },
      { date: '2026-12-25', end_date: '2026-12-26', hours: [], label: null },
      { date: '2026-12-31', end_date: null, hours: ['10:00-12:00', '19:00-02:00'], label: null },
      { date: '2027-01-01', end_date: null, hours: ['00:00-24:00'], label: 'Open all day, 24h' },
    ];
    const text = formatSpecialHoursText(entries);
    expect(text).toBe(
      '2026-12-24 09:00-14:00 Christmas Eve; 2026-12-25..2026-12-26 closed; ' +
        '2026-12-31 10:00-12:00, 19:00-02:00; 2027-01-01 24h Open all day, 24h',
    );
    expect(readValue(parseSpecialHoursText(text)).entries).toEqual(entries);
    expect(formatSpecialHoursText(null)).toBe('');
  });
});

describe('checkSpecialHours across days', () => {
  it.each([
    [
      'a range whose night overlaps its next morning',
      [{ date: '2026-12-24', end_date: '2026-12-26', hours: ['08:00-18:00', '20:00-09:00'] }],
      [
        {
          path: [0, 'hours', 0],
          message:
            'This interval overlaps the interval past midnight of the day before, which the range repeats.',
        },
      ],
    ],
    [
      "a night overlapping the next date's entry",
      [
        { date: '2026-12-24', hours: ['20:00-03:00'] },
        { date: '2026-12-25', hours: ['01:00-05:00'] },
      ],
      [
        {
          path: [1, 'hours', 0],
          message: 'This interval overlaps the interval past midnight of 2026-12-24.',
        },
      ],
    ],
    [
      "a range's last night overlapping the next entry, listed first",
      [
        { date: '2027-01-01', hours: ['02:00-06:00'] },
        { date: '2026-12-30', end_date: '2026-12-31', hours: ['22:00-04:00'] },
      ],
      [
        {
          path: [0, 'hours', 0],
          message: 'This interval overlaps the interval past midnight of 2026-12-31.',
        },
      ],
    ],
  ])('refuses %s', (_case, entries, problems) => {
    expect(checkSpecialHours(entries)).toEqual(problems);
  });

  it.each([
    [
      'a night running into a closed day',
      [
        { date: '2026-12-24', hours: ['20:00-03:00'] },
        { date: '2026-12-25', hours: [] },
      ],
    ],
    [
      'a night ending as the next day opens',
      [
        { date: '2026-12-24', hours: ['20:00-03:00'] },
        { date: '2026-12-25', hours: ['03:00-05:00'] },
      ],
    ],
    [
      'a night before a day that is not the next',
      [
        { date: '2026-12-24', hours: ['20:00-03:00'] },
        { date: '2026-12-26', hours: ['01:00-05:00'] },
      ],
    ],
    [
      'a range whose nights end before its mornings',
      [{ date: '2026-07-01', end_date: '2026-08-31', hours: ['10:00-14:00', '19:00-02:00'] }],
    ],
    [
      'a range of 366 days, both ends counted',
      [{ date: '2028-01-01', end_date: '2028-12-31', hours: ['10:00-16:00'] }],
    ],
  ])('accepts %s', (_case, entries) => {
    expect(checkSpecialHours(entries)).toEqual([]);
  });

  it('refuses a range of 367 days on its end date', () => {
    expect(checkSpecialHours([{ date: '2026-01-01', end_date: '2027-01-02', hours: [] }])).toEqual([
      { path: [0, 'end_date'], message: 'A range may span at most 366 days.' },
    ]);
  });
});
