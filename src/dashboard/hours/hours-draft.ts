// Opening hours as the dashboard's forms hold them while they are edited (a draft), and as the
// API takes them (src/lib/hours/hours.model.ts). A day is unknown, closed, open with intervals,
// or open 24 hours; an interval is the two values of native time inputs (HH:MM, '' until
// typed). Whether the hours are valid is the service's own rule (src/lib/hours/hours.rules.ts),
// run here before sending so a mistake shows at once, under the path the service would name.
// Pure: no React, no texts (the caller passes the one sentence of its own).
import {
  ALL_DAY,
  intervalMinutes,
  type SpecialHours,
  WEEKDAYS,
  type Weekday,
  type WeeklyHours,
} from '../../lib/hours/hours.model.ts';
import { checkSpecialHours, checkWeeklyHours, type HoursProblem } from '../../lib/hours/hours.rules.ts';
import type { FieldErrors } from '../api/errors.ts';

export type DayStatus = 'unknown' | 'closed' | 'open' | 'all_day';

export interface IntervalDraft {
  /** React's key: intervals are added and removed in the middle. */
  key: number;
  open: string;
  close: string;
}

export interface DayDraft {
  status: DayStatus;
  /** The intervals of an open day (at least one); kept but not sent for the other states. */
  intervals: IntervalDraft[];
}

export type WeekDraft = Record<Weekday, DayDraft>;

export interface SpecialDayDraft {
  key: number;
  date: string;
  /** Whether the entry is a range: then `endDate` is sent, '' included (a mistake to show). */
  severalDays: boolean;
  endDate: string;
  /** Never unknown: a special day replaces the regular hours. */
  day: DayDraft;
  label: string;
}

/** A time input says midnight as 00:00; as a closing time the API writes it 24:00 (the end of the day). */
const MIDNIGHT = '00:00';
const END_OF_DAY = '24:00';

let lastKey = 0;
const nextKey = () => {
  lastKey += 1;
  return lastKey;
};

export const blankInterval = (): IntervalDraft => ({ key: nextKey(), open: '', close: '' });

export function dayDraft(intervals: readonly string[] | undefined): DayDraft {
  if (intervals === undefined) return { status: 'unknown', intervals: [] };
  if (intervals.length === 0) return { status: 'closed', intervals: [] };
  if (intervals.length === 1 && intervals[0] === ALL_DAY) return { status: 'all_day', intervals: [] };
  return {
    status: 'open',
    intervals: intervals.map((text) => {
      const [open = '', close = ''] = text.split('-');
      return { key: nextKey(), open, close: close === END_OF_DAY ? MIDNIGHT : close };
    }),
  };
}

/** A day put in another state: an open day gets one interval to fill in if it had none. */
export function withStatus(day: DayDraft, status: DayStatus): DayDraft {
  if (status === 'open' && day.intervals.length === 0) return { status, intervals: [blankInterval()] };
  return { ...day, status };
}

export const intervalText = ({ open, close }: Pick<IntervalDraft, 'open' | 'close'>) =>
  `${open}-${close === MIDNIGHT ? END_OF_DAY : close}`;

/** The API's intervals of a day: undefined when unknown, [] when closed. */
export function dayIntervals(day: DayDraft): string[] | undefined {
  switch (day.status) {
    case 'unknown':
      return undefined;
    case 'closed':
      return [];
    case 'all_day':
      return [ALL_DAY];
    case 'open':
      return day.intervals.map(intervalText);
  }
}

/**
 * When an interval ends, if not on its own day before midnight: at midnight, or at a time of
 * the next day (a closing time before the opening time runs past midnight).
 */
export function closingDay(interval: IntervalDraft): 'midnight' | 'next_day' | undefined {
  const minutes = intervalMinutes(intervalText(interval));
  if (!minutes) return undefined;
  if (minutes.close === 24 * 60) return 'midnight';
  return minutes.close > 24 * 60 ? 'next_day' : undefined;
}

export const weekDraft = (hours: WeeklyHours | null | undefined): WeekDraft =>
  Object.fromEntries(WEEKDAYS.map((day) => [day, dayDraft(hours?.[day])])) as WeekDraft;

/** The week as the API takes it; null when no day is known. */
export function weekBody(week: WeekDraft): WeeklyHours | null {
  const hours: WeeklyHours = {};
  for (const day of WEEKDAYS) {
    const intervals = dayIntervals(week[day]);
    if (intervals) hours[day] = intervals;
  }
  return Object.keys(hours).length > 0 ? hours : null;
}

export const WORKING_DAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

/** The week with `from`'s hours on each of `to` (the day itself left as it is). */
export function copyDay(week: WeekDraft, from: Weekday, to: readonly Weekday[]): WeekDraft {
  const source = week[from];
  const copy = { ...week };
  for (const day of to) {
    if (day === from) continue;
    copy[day] = {
      status: source.status,
      intervals: source.intervals.map((interval) => ({ ...interval, key: nextKey() })),
    };
  }
  return copy;
}

export const newSpecialDay = (): SpecialDayDraft => ({
  key: nextKey(),
  date: '',
  severalDays: false,
  endDate: '',
  day: { status: 'closed', intervals: [] },
  label: '',
});

export const specialDrafts = (entries: readonly SpecialHours[] | null | undefined): SpecialDayDraft[] =>
  (entries ?? []).map((entry) => ({
    key: nextKey(),
    date: entry.date,
    severalDays: entry.end_date != null,
    endDate: entry.end_date ?? '',
    day: dayDraft(entry.hours),
    label: entry.label ?? '',
  }));

export const specialBody = (drafts: readonly SpecialDayDraft[]): SpecialHours[] =>
  drafts.map((draft) => ({
    date: draft.date,
    end_date: draft.severalDays ? draft.endDate : null,
    hours: dayIntervals(draft.day) ?? [],
    label: draft.label.trim() || null,
  }));

/** Problems at their dotted paths under `prefix` (`hours` + `[mon, 1]` is `hours.mon.1`), as a 422's `errors`. */
export function problemFields(prefix: string, problems: readonly HoursProblem[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const problem of problems) {
    const path = [prefix, ...problem.path].join('.');
    fields[path] = [...(fields[path] ?? []), problem.message];
  }
  return fields;
}

/** The sentences for what is not filled in yet; the rules' own ask for text such as HH:MM-HH:MM, which is not what a person using time and date inputs sees. */
export interface BlankMessages {
  time: string;
  date: string;
}

const blankTimes = (intervals: readonly IntervalDraft[], path: (string | number)[], message: string) =>
  intervals.flatMap((interval, i) =>
    interval.open === '' || interval.close === '' ? [{ path: [...path, i], message }] : [],
  );

/** The blanks first, then the rules' problems at any other path. */
const withBlanks = (problems: HoursProblem[], blanks: HoursProblem[]) => {
  const taken = new Set(blanks.map((blank) => blank.path.join('.')));
  return [...blanks, ...problems.filter((problem) => !taken.has(problem.path.join('.')))];
};

/** What the service would refuse in the week, at its paths under `hours`. */
export function weekProblems(week: WeekDraft, blank: BlankMessages): FieldErrors {
  const blanks = WEEKDAYS.flatMap((day) =>
    week[day].status === 'open' ? blankTimes(week[day].intervals, [day], blank.time) : [],
  );
  return problemFields('hours', withBlanks(checkWeeklyHours(weekBody(week) ?? {}), blanks));
}

/** What the service would refuse in a list of special days, at its paths under `prefix` (`special_hours`, `days`). */
export function specialProblems(
  drafts: readonly SpecialDayDraft[],
  prefix: string,
  blank: BlankMessages,
): FieldErrors {
  const blanks = drafts.flatMap((draft, i) => [
    ...(draft.date === '' ? [{ path: [i, 'date'], message: blank.date }] : []),
    ...(draft.severalDays && draft.endDate === '' ? [{ path: [i, 'end_date'], message: blank.date }] : []),
    ...(draft.day.status === 'open' ? blankTimes(draft.day.intervals, [i, 'hours'], blank.time) : []),
  ]);
  return problemFields(prefix, withBlanks(checkSpecialHours(specialBody(drafts)), blanks));
}
