// The dashboard's drafts of opening hours (src/dashboard/hours/hours-draft.ts): what the API
// stores reads back as the same draft and is written back unchanged; a closing time of 00:00 is
// the end of the day; copies are independent; the problems found before sending sit at the
// paths the service's 422 would name. The same for the three opening keys a location and an AI
// import item share (opening-draft.ts).
import { describe, expect, it } from 'vitest';
import {
  closingDay,
  copyDay,
  dayDraft,
  dayIntervals,
  newSpecialDay,
  specialBody,
  specialDrafts,
  specialProblems,
  WORKING_DAYS,
  weekBody,
  weekDraft,
  weekProblems,
  withStatus,
} from '../../src/dashboard/hours/hours-draft.ts';
import { openingDraft, openingHoursBody, openingProblems } from '../../src/dashboard/hours/opening-draft.ts';

const BLANK = { time: 'Enter both times.', date: 'Enter a date.' };

describe('drafts of opening hours', () => {
  it('reads and writes a week unchanged: unknown, closed, 24 hours, split, past midnight and until midnight', () => {
    const hours = {
      mon: ['09:00-13:00', '14:00-18:00'],
      tue: [],
      thu: ['10:00-14:00', '19:00-02:00'],
      sat: ['00:00-24:00'],
      sun: ['18:00-24:00'],
    };
    const week = weekDraft(hours);
    expect(week.wed.status).toBe('unknown');
    expect(week.tue.status).toBe('closed');
    expect(week.sat.status).toBe('all_day');
    expect(week.sun.intervals.map(({ open, close }) => [open, close])).toEqual([['18:00', '00:00']]);
    expect(weekBody(week)).toEqual(hours);
    expect(weekBody(weekDraft(null))).toBeNull();
    expect(weekProblems(week, BLANK)).toEqual({});
  });

  it('says when an interval ends on another day than its own', () => {
    const [late, midnight, day] = dayDraft(['19:00-02:00', '09:00-24:00', '09:00-17:00']).intervals;
    expect([late, midnight, day].map((interval) => interval && closingDay(interval))).toEqual([
      'next_day',
      'midnight',
      undefined,
    ]);
  });

  it('gives an opened day one interval to fill in, and keeps a day’s intervals through other states', () => {
    const opened = withStatus(dayDraft([]), 'open');
    expect(opened.intervals).toHaveLength(1);
    expect(dayIntervals(opened)).toEqual(['-']);
    const split = dayDraft(['09:00-12:00', '13:00-17:00']);
    expect(dayIntervals(withStatus(withStatus(split, 'closed'), 'open'))).toEqual([
      '09:00-12:00',
      '13:00-17:00',
    ]);
    expect(dayIntervals(withStatus(split, 'all_day'))).toEqual(['00:00-24:00']);
  });

  it('copies a day to Monday–Friday as copies of their own', () => {
    const week = weekDraft({ mon: ['09:00-18:00'], sat: ['10:00-14:00'] });
    const copied = copyDay(week, 'mon', WORKING_DAYS);
    expect(weekBody(copied)).toEqual({
      mon: ['09:00-18:00'],
      tue: ['09:00-18:00'],
      wed: ['09:00-18:00'],
      thu: ['09:00-18:00'],
      fri: ['09:00-18:00'],
      sat: ['10:00-14:00'],
    });
    expect(new Set(WORKING_DAYS.map((day) => copied[day].intervals[0]?.key)).size).toBe(5);
    expect(copied.tue.intervals[0]).not.toBe(copied.mon.intervals[0]);
  });

  it('finds what the service would refuse, at its paths: overlaps, past midnight into the next day, blanks', () => {
    const week = weekDraft({
      sun: ['20:00-03:00'],
      mon: ['02:00-05:00'],
      tue: ['09:00-13:00', '12:00-18:00'],
    });
    week.wed = withStatus(week.wed, 'open');
    expect(weekProblems(week, BLANK)).toEqual({
      'hours.mon.0': [expect.stringMatching(/overlaps sun's interval past midnight/)],
      'hours.tue.1': [expect.stringMatching(/may not overlap/)],
      'hours.wed.0': ['Enter both times.'],
    });
  });

  it('reads and writes special days, and finds their problems under the list’s own path', () => {
    const entries = [
      { date: '2027-12-24', end_date: null, hours: ['09:00-14:00'], label: 'Christmas Eve' },
      { date: '2027-12-25', end_date: '2027-12-26', hours: [], label: null },
    ];
    expect(specialBody(specialDrafts(entries))).toEqual(entries);

    const drafts = specialDrafts(entries);
    drafts.push({ ...newSpecialDay(), date: '2027-12-26', label: '  ' });
    const range = { ...newSpecialDay(), severalDays: true, date: '2027-01-10', endDate: '2027-01-01' };
    drafts.push(range, newSpecialDay());
    expect(specialBody([drafts[2]!])[0]?.label).toBeNull();
    expect(specialProblems(drafts, 'days', BLANK)).toEqual({
      'days.2.date': [expect.stringMatching(/overlap special hours entry 1/)],
      'days.3.end_date': [expect.stringMatching(/before the date/)],
      'days.4.date': ['Enter a date.'],
    });
  });

  it('writes the time zone, week and special days back as read, nothing known as null, problems at the body’s paths', () => {
    const body = {
      time_zone: 'Europe/Paris',
      hours: { mon: ['09:00-13:00', '12:00-18:00'], sun: [] },
      special_hours: [{ date: '2027-12-24', end_date: null, hours: ['09:00-13:00'], label: 'Eve' }],
    };
    const draft = openingDraft(body.time_zone, body.hours, body.special_hours);
    expect(openingHoursBody(draft)).toEqual(body);
    expect(openingHoursBody(openingDraft(null, null, null))).toEqual({
      time_zone: null,
      hours: null,
      special_hours: null,
    });
    draft.special.push(newSpecialDay());
    expect(openingProblems(draft, BLANK)).toEqual({
      'hours.mon.1': [expect.stringMatching(/may not overlap/)],
      'special_hours.1.date': ['Enter a date.'],
    });
  });
});
