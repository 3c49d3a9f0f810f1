// openingStatus (src/lib/hours/hours.status.ts) on named cases worked out by hand: zones seen
// from far away, overnight intervals, DST gaps and repeats, unknown and closed days, special
// days, temporary closures, odd offsets and the date line. Each is checked against the
// Temporal reference too, so the reference is held to the same hand-made answers.
import { describe, expect, it } from 'vitest';
import { isOpenAt, localDate, localDaysBetween, openingStatus } from '../src/lib/hours/hours.status.ts';
import { NAMED_CASES, readableStatus } from './helpers/hours-cases.ts';
import { referenceStatus } from './helpers/hours-reference.ts';

describe('openingStatus', () => {
  it.each(NAMED_CASES)('$name', ({ schedule, at, want }) => {
    const now = Date.parse(at);
    expect(readableStatus(openingStatus(schedule, now))).toEqual(readableStatus(want));
    expect(readableStatus(referenceStatus(schedule, now))).toEqual(readableStatus(want));
    // The open-now filter's shortcut agrees.
    expect(isOpenAt(schedule, now)).toBe(want.state === 'open');
  });

  it('answers the same for the same instant written in any offset', () => {
    const schedule = NAMED_CASES[0]!.schedule;
    const statuses = ['2025-06-10T17:00:00Z', '2025-06-10T19:00+02:00', '2025-06-11T02:00+09:00'].map((at) =>
      openingStatus(schedule, Date.parse(at)),
    );
    expect(statuses[1]).toEqual(statuses[0]);
    expect(statuses[2]).toEqual(statuses[0]);
  });
});

describe('localDaysBetween', () => {
  it('counts local days in the location’s zone, not UTC days', () => {
    // 23:00 Monday in Pago Pago (-11) to 09:00 Tuesday there: the same UTC day, the next local day.
    expect(
      localDaysBetween(
        'Pacific/Pago_Pago',
        Date.parse('2025-06-09T23:00-11:00'),
        Date.parse('2025-06-10T09:00-11:00'),
      ),
    ).toBe(1);
    // 00:30 to 23:30 on Kiritimati (+14): two UTC days, one local day.
    expect(
      localDaysBetween(
        'Pacific/Kiritimati',
        Date.parse('2025-06-11T00:30+14:00'),
        Date.parse('2025-06-11T23:30+14:00'),
      ),
    ).toBe(0);
    expect(
      localDaysBetween(
        'Europe/Berlin',
        Date.parse('2025-12-24T15:00+01:00'),
        Date.parse('2025-12-27T09:00+01:00'),
      ),
    ).toBe(3);
    expect(localDaysBetween('Mars/Olympus_Mons', 0, 0)).toBeUndefined();
  });
});

describe('localDate', () => {
  it('is the date on the location’s calendar, either side of the date line', () => {
    const instant = Date.parse('2025-06-10T10:30:00Z');
    expect(localDate('Pacific/Kiritimati', instant)).toBe('2025-06-11');
    expect(localDate('Pacific/Pago_Pago', instant)).toBe('2025-06-09');
    expect(localDate('Europe/Berlin', instant)).toBe('2025-06-10');
    // The first instant of a day after a jump at midnight (Santiago, 01:00 -03): that day.
    expect(localDate('America/Santiago', Date.parse('2025-09-07T01:00-03:00'))).toBe('2025-09-07');
    expect(localDate('America/Santiago', Date.parse('2025-09-06T23:59-04:00'))).toBe('2025-09-06');
    expect(localDate('Mars/Olympus_Mons', instant)).toBeUndefined();
  });
});
