// Named opening-hours cases, each with the status worked out by hand from the zone's known
// offsets and changes (written as ISO times with their offsets): tests/hours-status.test.ts
// checks them in this process, tests/hours-status-device-zone.test.ts in processes of other
// device zones.
import type { Interval, OpeningSchedule, SpecialDay, WeeklyHours } from '../../src/lib/hours/hours.model.ts';
import type { OpeningStatus } from '../../src/lib/hours/hours.status.ts';

export interface NamedCase {
  name: string;
  schedule: OpeningSchedule;
  /** The instant asked about, ISO with an offset. */
  at: string;
  want: OpeningStatus;
}

/** An instant as ISO text in UTC: how the cases and failures show statuses. */
export const iso = (instant: number) => new Date(instant).toISOString();

/** A status with its instants as ISO text in UTC, for readable comparisons. */
export function readableStatus(status: OpeningStatus): unknown {
  if (status.state === 'open')
    return { ...status, closes: status.closes === null ? null : iso(status.closes) };
  if (status.state === 'closed')
    return { ...status, opens: status.opens === null ? null : iso(status.opens) };
  return status;
}

const instant = (text: string) => {
  const time = Date.parse(text);
  if (!/(Z|[+-]\d\d:\d\d)$/.test(text) || Number.isNaN(time))
    throw new Error(`not an ISO time with offset: ${text}`);
  return time;
};
const open = (closes: string | null, label: string | null = null): OpeningStatus => ({
  state: 'open',
  closes: closes === null ? null : instant(closes),
  label,
});
const closed = (opens: string | null, label: string | null = null): OpeningStatus => ({
  state: 'closed',
  opens: opens === null ? null : instant(opens),
  label,
});
const unknown: OpeningStatus = { state: 'unknown' };
const temporarilyClosed = (reopensOn: string | null): OpeningStatus => ({
  state: 'temporarily_closed',
  reopens_on: reopensOn,
});

const week = (days: WeeklyHours): WeeklyHours => ({
  mon: [],
  tue: [],
  wed: [],
  thu: [],
  fri: [],
  sat: [],
  sun: [],
  ...days,
});
const weekdays = (hours: Interval[]): WeeklyHours => ({
  mon: hours,
  tue: hours,
  wed: hours,
  thu: hours,
  fri: hours,
});
const schedule = (
  timeZone: string | null,
  hours: WeeklyHours | null,
  more: Partial<OpeningSchedule> = {},
): OpeningSchedule => ({ time_zone: timeZone, hours, temporarily_closed: false, reopens_on: null, ...more });

/** Special days for every date from `from` through `to` (inclusive), as the payload expands a range. */
function dateRange(from: string, to: string, hours: Interval[], label: string): SpecialDay[] {
  const days: SpecialDay[] = [];
  for (
    let time = Date.parse(`${from}T00:00:00Z`);
    time <= Date.parse(`${to}T00:00:00Z`);
    time += 86_400_000
  ) {
    days.push([iso(time).slice(0, 10), hours, label]);
  }
  return days;
}

const losAngeles = schedule(
  'America/Los_Angeles',
  week({ ...weekdays(['09:00-18:00']), sat: ['10:00-16:00'] }),
);
const parisBar = schedule('Europe/Paris', week({ fri: ['19:00-02:00'] }));
const berlinNight = schedule('Europe/Berlin', week({ sat: ['22:00-04:00'] }));
const berlinEarly = schedule('Europe/Berlin', week({ sun: ['02:30-06:00'] }));
const newYorkBar = schedule('America/New_York', week({ sat: ['20:00-01:45'], sun: ['12:00-18:00'] }));
const newYorkEarly = schedule('America/New_York', week({ sun: ['01:30-03:00'] }));
const allWeek = (zone: string) =>
  schedule(
    zone,
    week(
      Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, ['00:00-24:00']]),
      ),
    ),
  );
const madrid = (sunday: Interval[] | undefined) =>
  schedule('Europe/Madrid', {
    ...weekdays(['09:00-18:00']),
    sat: ['09:00-18:00'],
    ...(sunday ? { sun: sunday } : {}),
  });
const christmas = schedule('Europe/Berlin', week({ ...weekdays(['09:00-20:00']), sat: ['09:00-20:00'] }), {
  special_days: [
    ['2025-12-24', ['09:00-14:00'], 'Christmas Eve'],
    ['2025-12-25', [], 'Christmas Day'],
    ['2025-12-26', [], 'Boxing Day'],
  ],
});
const summer = schedule('Europe/Rome', week({ ...weekdays(['09:00-19:00']), sat: ['09:00-19:00'] }), {
  special_days: dateRange('2025-06-01', '2025-08-31', ['10:00-16:00'], 'Summer hours'),
});
const berlinShop = (more: Partial<OpeningSchedule>) =>
  schedule('Europe/Berlin', week({ ...weekdays(['09:00-18:00']), sat: ['09:00-18:00'] }), more);
const lordHoweMarket = schedule('Australia/Lord_Howe', week({ sat: ['20:00-03:00'] }));
const lordHoweEarly = schedule('Australia/Lord_Howe', week({ sun: ['02:15-06:00'] }));
const lordHoweLate = schedule('Australia/Lord_Howe', week({ sat: ['20:00-01:45'] }));
const santiago = (more: Partial<OpeningSchedule> = {}) =>
  schedule('America/Santiago', week({ sun: ['00:00-02:00'] }), more);
const holiday: SpecialDay[] = [['2025-06-11', [], 'Holiday']];

export const NAMED_CASES: NamedCase[] = [
  {
    name: 'Los Angeles store at 10:00 PDT (19:00 in Berlin, 02:00 Wednesday in Tokyo): open until 18:00 PDT',
    schedule: losAngeles,
    at: '2025-06-10T17:00:00Z',
    want: open('2025-06-10T18:00-07:00'),
  },
  {
    name: 'Los Angeles store at 19:30 PDT Tuesday (Wednesday in Berlin and Tokyo): opens Wednesday 09:00 PDT',
    schedule: losAngeles,
    at: '2025-06-11T02:30:00Z',
    want: closed('2025-06-11T09:00-07:00'),
  },
  {
    name: 'Los Angeles store on Saturday night (Sunday in Berlin and Tokyo): opens Monday 09:00 PDT',
    schedule: losAngeles,
    at: '2025-06-14T23:30-07:00',
    want: closed('2025-06-16T09:00-07:00'),
  },
  {
    name: 'Paris bar, Friday 19:00-02:00, at Saturday 01:30: open until 02:00',
    schedule: parisBar,
    at: '2025-06-14T01:30+02:00',
    want: open('2025-06-14T02:00+02:00'),
  },
  {
    name: 'Paris bar at Saturday 02:00: closed (the closing instant is not open), opens next Friday 19:00',
    schedule: parisBar,
    at: '2025-06-14T02:00+02:00',
    want: closed('2025-06-20T19:00+02:00'),
  },
  {
    name: 'Paris bar, Saturday a special closed day: Friday night still runs to 02:00, with Saturday’s label',
    schedule: { ...parisBar, special_days: [['2025-06-14', [], 'Private event']] },
    at: '2025-06-14T01:30+02:00',
    want: open('2025-06-14T02:00+02:00', 'Private event'),
  },
  {
    name: 'Paris bar, Saturday a special closed day, at 02:00: closed until next Friday',
    schedule: { ...parisBar, special_days: [['2025-06-14', [], 'Private event']] },
    at: '2025-06-14T02:00+02:00',
    want: closed('2025-06-20T19:00+02:00', 'Private event'),
  },
  {
    name: 'Berlin, spring forward: Saturday 22:00-04:00 at 01:30 CET closes 04:00 CEST (an hour sooner)',
    schedule: berlinNight,
    at: '2025-03-30T01:30+01:00',
    want: open('2025-03-30T04:00+02:00'),
  },
  {
    name: 'Berlin, spring forward: an opening at 02:30, inside the skipped hour, is 03:30 CEST',
    schedule: berlinEarly,
    at: '2025-03-30T01:00+01:00',
    want: closed('2025-03-30T03:30+02:00'),
  },
  {
    name: 'Berlin, spring forward: at 03:15 CEST the moved opening is still to come',
    schedule: berlinEarly,
    at: '2025-03-30T03:15+02:00',
    want: closed('2025-03-30T03:30+02:00'),
  },
  {
    name: 'Berlin, spring forward: open from 03:30 CEST until 06:00',
    schedule: berlinEarly,
    at: '2025-03-30T03:30+02:00',
    want: open('2025-03-30T06:00+02:00'),
  },
  {
    name: 'New York, fall back: at the first 01:30 (EDT) Saturday 20:00-01:45 is open until the first 01:45',
    schedule: newYorkBar,
    at: '2025-11-02T01:30-04:00',
    want: open('2025-11-02T01:45-04:00'),
  },
  {
    name: 'New York, fall back: at the second 01:30 (EST) it has closed; opens Sunday 12:00 EST',
    schedule: newYorkBar,
    at: '2025-11-02T01:30-05:00',
    want: closed('2025-11-02T12:00-05:00'),
  },
  {
    name: 'New York, fall back: an opening at 01:30 is the first 01:30 (EDT)',
    schedule: newYorkEarly,
    at: '2025-11-02T01:00-04:00',
    want: closed('2025-11-02T01:30-04:00'),
  },
  {
    name: 'New York, fall back: at the second 01:40 (EST) it is open since the first 01:30, until 03:00 EST',
    schedule: newYorkEarly,
    at: '2025-11-02T01:40-05:00',
    want: open('2025-11-02T03:00-05:00'),
  },
  {
    name: 'Open 24 hours all week, over Berlin’s spring-forward night: open, no closing',
    schedule: allWeek('Europe/Berlin'),
    at: '2025-03-30T01:59+01:00',
    want: open(null),
  },
  {
    name: 'Open 24 hours all week, in Tokyo: open, no closing',
    schedule: allWeek('Asia/Tokyo'),
    at: '2025-06-10T12:00+09:00',
    want: open(null),
  },
  {
    name: 'Sunday missing (unknown): unknown on Sunday',
    schedule: madrid(undefined),
    at: '2025-06-15T12:00+02:00',
    want: unknown,
  },
  {
    name: 'Sunday missing: Monday before opening is closed (an unknown day is not taken past its midnight)',
    schedule: madrid(undefined),
    at: '2025-06-16T08:00+02:00',
    want: closed('2025-06-16T09:00+02:00'),
  },
  {
    name: 'Sunday missing: open on Monday once Monday’s hours hold',
    schedule: madrid(undefined),
    at: '2025-06-16T10:00+02:00',
    want: open('2025-06-16T18:00+02:00'),
  },
  {
    name: 'Sunday missing: Saturday after closing is closed, and the next opening is not known',
    schedule: madrid(undefined),
    at: '2025-06-14T19:00+02:00',
    want: closed(null),
  },
  {
    name: 'Sunday closed ([]): closed on Sunday, opens Monday 09:00',
    schedule: madrid([]),
    at: '2025-06-15T12:00+02:00',
    want: closed('2025-06-16T09:00+02:00'),
  },
  {
    name: 'No hours at all: unknown',
    schedule: schedule('Europe/Madrid', null),
    at: '2025-06-15T12:00+02:00',
    want: unknown,
  },
  {
    name: 'No time zone: unknown',
    schedule: schedule(null, week({ sun: ['00:00-24:00'] })),
    at: '2025-06-15T12:00+02:00',
    want: unknown,
  },
  {
    name: 'A time zone the runtime does not know: unknown',
    schedule: schedule('Mars/Olympus_Mons', week({ sun: ['00:00-24:00'] })),
    at: '2025-06-15T12:00+02:00',
    want: unknown,
  },
  {
    name: 'A labelled short day: Christmas Eve 09:00-14:00 at 13:00, closes 14:00',
    schedule: christmas,
    at: '2025-12-24T13:00+01:00',
    want: open('2025-12-24T14:00+01:00', 'Christmas Eve'),
  },
  {
    name: 'Christmas Eve after 14:00: closed through two special closed days, opens Saturday 09:00',
    schedule: christmas,
    at: '2025-12-24T15:00+01:00',
    want: closed('2025-12-27T09:00+01:00', 'Christmas Eve'),
  },
  {
    name: 'A special closed day (Christmas Day, a Thursday): closed, with its label',
    schedule: christmas,
    at: '2025-12-25T10:00+01:00',
    want: closed('2025-12-27T09:00+01:00', 'Christmas Day'),
  },
  {
    name: 'Summer hours (June to August, expanded per date) on a Tuesday in July: closes 16:00',
    schedule: summer,
    at: '2025-07-15T15:00+02:00',
    want: open('2025-07-15T16:00+02:00', 'Summer hours'),
  },
  {
    name: 'Summer hours’ last day, a Sunday, after 16:00: opens Monday 1 September at the regular 09:00',
    schedule: summer,
    at: '2025-08-31T17:00+02:00',
    want: closed('2025-09-01T09:00+02:00', 'Summer hours'),
  },
  {
    name: 'Temporarily closed without a date',
    schedule: berlinShop({ temporarily_closed: true }),
    at: '2025-07-01T10:00+02:00',
    want: temporarilyClosed(null),
  },
  {
    name: 'Temporarily closed without a date nor a time zone: still temporarily closed',
    schedule: { ...berlinShop({ temporarily_closed: true }), time_zone: null },
    at: '2025-07-01T10:00+02:00',
    want: temporarilyClosed(null),
  },
  {
    name: 'Temporarily closed, reopens on 1 July: closed at 23:59 the day before',
    schedule: berlinShop({ temporarily_closed: true, reopens_on: '2025-07-01' }),
    at: '2025-06-30T23:59+02:00',
    want: temporarilyClosed('2025-07-01'),
  },
  {
    name: 'Temporarily closed, reopens on 1 July: from 00:00 that day the hours apply (opens 09:00)',
    schedule: berlinShop({ temporarily_closed: true, reopens_on: '2025-07-01' }),
    at: '2025-07-01T00:00+02:00',
    want: closed('2025-07-01T09:00+02:00'),
  },
  {
    name: 'Temporarily closed, reopens on 1 July: the day after, open as usual',
    schedule: berlinShop({ temporarily_closed: true, reopens_on: '2025-07-01' }),
    at: '2025-07-02T10:00+02:00',
    want: open('2025-07-02T18:00+02:00'),
  },
  {
    name: 'Temporarily closed with a reopening date but no time zone: unknown',
    schedule: { ...berlinShop({ temporarily_closed: true, reopens_on: '2025-07-01' }), time_zone: null },
    at: '2025-06-30T10:00+02:00',
    want: unknown,
  },
  {
    name: 'Asia/Kolkata (+05:30) at 20:30: closes 21:00',
    schedule: schedule('Asia/Kolkata', week({ ...weekdays(['10:00-21:00']), sat: ['10:00-21:00'] })),
    at: '2025-06-10T15:00:00Z',
    want: open('2025-06-10T21:00+05:30'),
  },
  {
    name: 'Asia/Kathmandu (+05:45) at 09:45: opens 10:00',
    schedule: schedule('Asia/Kathmandu', week(weekdays(['10:00-18:00']))),
    at: '2025-06-10T04:00:00Z',
    want: closed('2025-06-10T10:00+05:45'),
  },
  {
    name: 'Australia/Lord_Howe, half-hour spring forward: Saturday 20:00-03:00 at 01:45 (+10:30) closes 03:00 (+11)',
    schedule: lordHoweMarket,
    at: '2025-10-05T01:45+10:30',
    want: open('2025-10-05T03:00+11:00'),
  },
  {
    name: 'Australia/Lord_Howe: an opening at 02:15, inside the skipped half hour, is 02:45 (+11)',
    schedule: lordHoweEarly,
    at: '2025-10-05T01:45+10:30',
    want: closed('2025-10-05T02:45+11:00'),
  },
  {
    name: 'Australia/Lord_Howe, half-hour fall back: Saturday 20:00-01:45 closes at the first 01:45 (+11)',
    schedule: lordHoweLate,
    at: '2026-04-05T01:40+11:00',
    want: open('2026-04-05T01:45+11:00'),
  },
  {
    name: 'Australia/Lord_Howe, fall back: at the second 01:40 (+10:30) it has closed',
    schedule: lordHoweLate,
    at: '2026-04-05T01:40+10:30',
    want: closed('2026-04-11T20:00+10:30'),
  },
  {
    name: 'America/Santiago, midnight skipped: Sunday 00:00-02:00 opens at 01:00 (-03)',
    schedule: santiago(),
    at: '2025-09-06T23:30-04:00',
    want: closed('2025-09-07T01:00-03:00'),
  },
  {
    name: 'America/Santiago: at 01:30 (-03) open until 02:00',
    schedule: santiago(),
    at: '2025-09-07T01:30-03:00',
    want: open('2025-09-07T02:00-03:00'),
  },
  {
    name: 'America/Santiago: a closure until Sunday still holds at Saturday 23:59 (-04)',
    schedule: santiago({ temporarily_closed: true, reopens_on: '2025-09-07' }),
    at: '2025-09-06T23:59-04:00',
    want: temporarilyClosed('2025-09-07'),
  },
  {
    name: 'America/Santiago: the closure ends at Sunday’s first instant, 01:00 (-03)',
    schedule: santiago({ temporarily_closed: true, reopens_on: '2025-09-07' }),
    at: '2025-09-07T01:00-03:00',
    want: open('2025-09-07T02:00-03:00'),
  },
  {
    name: 'Pacific/Kiritimati (+14) at 10:00 UTC, Wednesday 00:00 there and its holiday: opens Thursday 09:00',
    schedule: schedule('Pacific/Kiritimati', week(weekdays(['09:00-17:00'])), { special_days: holiday }),
    at: '2025-06-10T10:00:00Z',
    want: closed('2025-06-12T09:00+14:00', 'Holiday'),
  },
  {
    name: 'Pacific/Pago_Pago (-11) at the same instant, Monday 23:00 there: opens Tuesday 09:00',
    schedule: schedule('Pacific/Pago_Pago', week(weekdays(['09:00-17:00'])), { special_days: holiday }),
    at: '2025-06-10T10:00:00Z',
    want: closed('2025-06-10T09:00-11:00'),
  },
  {
    name: 'Pacific/Apia skipped Friday 30 December 2011: its 09:00 moves a day forward, to Saturday 09:00 (+14)',
    schedule: schedule('Pacific/Apia', week({ ...weekdays(['09:00-17:00']), sat: ['09:00-17:00'] })),
    at: '2011-12-29T20:00-10:00',
    want: closed('2011-12-31T09:00+14:00'),
  },
  {
    name: 'Pacific/Apia: a Friday of unknown hours that never happened does not hide Saturday’s opening',
    schedule: schedule('Pacific/Apia', {
      mon: ['09:00-17:00'],
      tue: ['09:00-17:00'],
      wed: ['09:00-17:00'],
      thu: ['09:00-17:00'],
      sat: ['09:00-17:00'],
    }),
    at: '2011-12-29T20:00-10:00',
    want: closed('2011-12-31T09:00+14:00'),
  },
  {
    name: 'Pacific/Apia a year later: Friday of unknown hours comes first, so the next opening is not known',
    schedule: schedule('Pacific/Apia', {
      mon: ['09:00-17:00'],
      tue: ['09:00-17:00'],
      wed: ['09:00-17:00'],
      thu: ['09:00-17:00'],
      sat: ['09:00-17:00'],
    }),
    at: '2012-12-27T20:00+14:00',
    want: closed(null),
  },
];
