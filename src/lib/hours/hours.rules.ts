// What makes opening hours valid (docs/api.md, "Opening hours"): the API's schemas, the CSV
// import and the holiday calendars check them here, each problem with the path of the value it
// concerns, so a 422 names `hours.fri.1` or `special_hours.0.end_date`.
import { CONTROL_CHARACTER } from '../control-characters.ts';
import {
  dayNumber,
  type IntervalMinutes,
  intervalMinutes,
  type SpecialHours,
  type StoredSpecialHours,
  WEEKDAYS,
  type WeeklyHours,
} from './hours.model.ts';

/** A problem with a value, at its path below the value checked. */
export interface HoursProblem {
  path: (string | number)[];
  message: string;
}

export const MAX_INTERVALS_PER_DAY = 8;
export const MAX_SPECIAL_HOURS = 200;
/** The longest range of one special-hours entry: a season, not a standing rule. */
export const MAX_SPECIAL_RANGE_DAYS = 366;
export const MAX_LABEL_LENGTH = 80;

export const INTERVAL_MESSAGE =
  'Each interval must be HH:MM-HH:MM with a length, such as 09:00-18:00 or 19:00-02:00 (past midnight); 00:00-24:00 is open all day.';

/**
 * The intervals of one day, read and checked: each `HH:MM-HH:MM`, sorted, not overlapping, and
 * only the last may run past midnight. Answers their minutes when valid.
 */
export function checkDay(intervals: readonly string[], problems: HoursProblem[], path: (string | number)[]) {
  if (intervals.length > MAX_INTERVALS_PER_DAY) {
    problems.push({ path, message: `A day may have at most ${MAX_INTERVALS_PER_DAY} intervals.` });
    return undefined;
  }
  const read: IntervalMinutes[] = [];
  let valid = true;
  intervals.forEach((interval, i) => {
    const minutes = intervalMinutes(interval);
    if (!minutes) {
      problems.push({ path: [...path, i], message: INTERVAL_MESSAGE });
      valid = false;
      return;
    }
    const previous = read.at(-1);
    if (previous && minutes.open < previous.close) {
      problems.push({
        path: [...path, i],
        message:
          previous.close > 24 * 60
            ? 'An interval past midnight must be the last of its day.'
            : 'Intervals must be in order and may not overlap.',
      });
      valid = false;
    }
    read.push(minutes);
  });
  return valid ? read : undefined;
}

/** Problems of a regular week: each day's intervals, and an overnight interval overlapping the next day's first. */
export function checkWeeklyHours(hours: WeeklyHours): HoursProblem[] {
  const problems: HoursProblem[] = [];
  const days = WEEKDAYS.map((day) => {
    const intervals = hours[day];
    return intervals === undefined ? undefined : checkDay(intervals, problems, [day]);
  });
  WEEKDAYS.forEach((day, d) => {
    const spill = (days[d]?.at(-1)?.close ?? 0) - 24 * 60;
    const nextIndex = (d + 1) % WEEKDAYS.length;
    const next = days[nextIndex]?.[0];
    if (spill > 0 && next && next.open < spill) {
      problems.push({
        path: [WEEKDAYS[nextIndex]!, 0],
        message: `This interval overlaps ${day}'s interval past midnight.`,
      });
    }
  });
  return problems;
}

/** How far a day's last interval runs into the next day, in minutes (0 when it does not). */
const spillOf = (day: readonly IntervalMinutes[] | undefined) =>
  Math.max(0, (day?.at(-1)?.close ?? 0) - 24 * 60);

/**
 * Problems of a list of special hours: dates, ranges, intervals, labels, no date in two entries,
 * and, as in a week, no interval past midnight overlapping the next day's first (within a
 * range, whose days all have its hours, and from one entry into the entry of the next date).
 */
export function checkSpecialHours(entries: readonly SpecialHours[]): HoursProblem[] {
  const problems: HoursProblem[] = [];
  if (entries.length > MAX_SPECIAL_HOURS) {
    problems.push({ path: [], message: `There may be at most ${MAX_SPECIAL_HOURS} special hours entries.` });
    return problems;
  }
  const taken: { from: number; to: number; index: number }[] = [];
  const days: (IntervalMinutes[] | undefined)[] = [];
  entries.forEach((entry, i) => {
    const from = dayNumber(entry.date);
    if (from === undefined) {
      problems.push({ path: [i, 'date'], message: 'The date must be a date written YYYY-MM-DD.' });
    }
    const to = entry.end_date == null ? from : dayNumber(entry.end_date);
    if (entry.end_date != null && to === undefined) {
      problems.push({ path: [i, 'end_date'], message: 'The end date must be a date written YYYY-MM-DD.' });
    } else if (from !== undefined && to !== undefined) {
      if (to < from) {
        problems.push({ path: [i, 'end_date'], message: 'The end date may not be before the date.' });
      } else if (to - from + 1 > MAX_SPECIAL_RANGE_DAYS) {
        problems.push({
          path: [i, 'end_date'],
          message: `A range may span at most ${MAX_SPECIAL_RANGE_DAYS} days.`,
        });
      } else {
        const clash = taken.find((other) => from <= other.to && other.from <= to);
        if (clash) {
          problems.push({
            path: [i, 'date'],
            message: `These dates overlap special hours entry ${clash.index}; a date may have one entry.`,
          });
        }
        taken.push({ from, to, index: i });
      }
    }
    days[i] = checkDay(entry.hours, problems, [i, 'hours']);
    if (entry.label != null && CONTROL_CHARACTER.test(entry.label)) {
      problems.push({ path: [i, 'label'], message: 'The label may not contain control characters.' });
    } else if (entry.label != null && entry.label.length > MAX_LABEL_LENGTH) {
      problems.push({
        path: [i, 'label'],
        message: `The label may not be greater than ${MAX_LABEL_LENGTH} characters.`,
      });
    }
  });
  const startingOn = new Map(taken.map((entry) => [entry.from, entry.index]));
  for (const { from, to, index } of taken) {
    const spill = spillOf(days[index]);
    if (spill === 0) continue;
    const lastDate = entries[index]!.end_date ?? entries[index]!.date;
    const ownFirst = days[index]?.[0];
    if (to > from && ownFirst && ownFirst.open < spill) {
      problems.push({
        path: [index, 'hours', 0],
        message:
          'This interval overlaps the interval past midnight of the day before, which the range repeats.',
      });
    }
    const next = startingOn.get(to + 1);
    const nextFirst = next === undefined ? undefined : days[next]?.[0];
    if (next !== undefined && nextFirst && nextFirst.open < spill) {
      problems.push({
        path: [next, 'hours', 0],
        message: `This interval overlaps the interval past midnight of ${lastDate}.`,
      });
    }
  }
  return problems;
}

/**
 * Special hours as they are kept: an end date equal to the date is none (null), a missing label
 * is null, entries sorted by date. For entries that checkSpecialHours accepts.
 */
export function storedSpecialHours(entries: readonly SpecialHours[]): StoredSpecialHours[] {
  return entries
    .map((entry) => ({
      date: entry.date,
      end_date: entry.end_date == null || entry.end_date === entry.date ? null : entry.end_date,
      hours: entry.hours,
      label: entry.label ?? null,
    }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
