// An independent reading of the opening-hours rules (the header of src/lib/hours/hours.status.ts)
// with Temporal, for the tests to judge openingStatus by: every wall-clock time through
// PlainDateTime.toZonedDateTime with disambiguation 'compatible', every day start through
// PlainDate.toZonedDateTime (the first instant of the day), every local date through
// Instant.toZonedDateTimeISO, and the answer found by walking the instants where anything can
// change (each opening, closing and day start) and asking at each whether it is open, closed or
// unknown. No offsets and no bounds: plain, and slow, on purpose. Temporal's answers are kept
// (the polyfill takes about 0.1 ms a conversion); a kept answer is the same answer.
import { Temporal } from 'temporal-polyfill';
import { type IntervalMinutes, type OpeningSchedule, WEEKDAYS } from '../../src/lib/hours/hours.model.ts';
import { isOpenAt, type OpeningStatus, openingStatus } from '../../src/lib/hours/hours.status.ts';
import type { HoursCase } from './hours-random.ts';

type State = 'open' | 'closed' | 'unknown';

const DAY_MINUTES = 24 * 60;

/**
 * A time `HH:MM` as minutes after midnight, `24:00` being the day's end; read by Temporal, not
 * by the model's parser, so that the reference judges the parsing too.
 */
function minutesOf(time: string | undefined): number | undefined {
  if (time === '24:00') return DAY_MINUTES;
  if (time === undefined || !/^\d\d:\d\d$/.test(time)) return undefined;
  try {
    const read = Temporal.PlainTime.from(time, { overflow: 'reject' });
    return read.hour * 60 + read.minute;
  } catch {
    return undefined;
  }
}

/**
 * An interval `HH:MM-HH:MM` of a day: from its opening, which is on that day (never 24:00), to
 * its closing, on the next day when it is not after the opening; one of no length is no interval.
 */
function readInterval(text: string): IntervalMinutes | undefined {
  const parts = text.split('-');
  if (parts.length !== 2) return undefined;
  const [open, close] = parts.map(minutesOf);
  if (open === undefined || close === undefined || open === DAY_MINUTES || open === close) return undefined;
  return { open, close: close > open ? close : close + DAY_MINUTES };
}

export function referenceStatus(schedule: OpeningSchedule, now: number): OpeningStatus {
  const reopensOn = plainDate(schedule.reopens_on);
  if (schedule.temporarily_closed && !reopensOn) return { state: 'temporarily_closed', reopens_on: null };
  const zone = schedule.time_zone;
  if (!zone) return { state: 'unknown' };
  let today: string;
  try {
    today = dateAt(zone, now);
  } catch {
    return { state: 'unknown' };
  }
  if (schedule.temporarily_closed && reopensOn && now < startOfDay(zone, reopensOn)) {
    return { state: 'temporarily_closed', reopens_on: schedule.reopens_on };
  }

  const specialOf = (date: string) => schedule.special_days?.find(([day]) => day === date);
  const hoursOf = (date: string): IntervalMinutes[] | undefined => {
    const special = specialOf(date);
    const weekday = WEEKDAYS[Temporal.PlainDate.from(date).dayOfWeek - 1]!;
    const list = special ? special[1] : schedule.hours?.[weekday];
    if (!Array.isArray(list)) return undefined;
    const read = list.map(readInterval);
    return read.every((minutes) => minutes !== undefined) ? (read as IntervalMinutes[]) : undefined;
  };

  const intervals: [number, number][] = [];
  const boundaries: number[] = [];
  for (let day = -2; day <= 7; day++) {
    const date = addDays(today, day);
    for (const { open, close } of hoursOf(date) ?? []) {
      const interval: [number, number] = [
        wallClockInstant(zone, date, open),
        wallClockInstant(zone, date, close),
      ];
      intervals.push(interval);
      boundaries.push(...interval);
    }
  }
  for (let day = -1; day <= 8; day++) boundaries.push(startOfDay(zone, addDays(today, day)));
  const horizon = startOfDay(zone, addDays(today, 8));

  const held = (instant: number) => intervals.some(([open, close]) => open <= instant && instant < close);
  const stateAt = (instant: number): State => {
    if (held(instant)) return 'open';
    return hoursOf(dateAt(zone, instant)) ? 'closed' : 'unknown';
  };
  const after = [...new Set(boundaries)].filter((instant) => instant > now).sort((a, b) => a - b);
  const label = specialOf(today)?.[2] ?? null;

  const state = stateAt(now);
  if (state === 'unknown') return { state };
  if (state === 'open') {
    const end = after.find((instant) => !held(instant));
    const closes = end === undefined || end >= horizon || stateAt(end) === 'unknown' ? null : end;
    return { state, closes, label };
  }
  for (const instant of after) {
    const next = stateAt(instant);
    if (next === 'open') return { state, opens: instant, label };
    if (next === 'unknown') break;
  }
  return { state, opens: null, label };
}

export interface Mismatch {
  index: number;
  zone: string | null;
  now: string;
  schedule: OpeningSchedule;
  got: OpeningStatus;
  want: OpeningStatus;
  /** What isOpenAt, the open-now filter's shortcut, answered. */
  isOpenAt: boolean;
}

/**
 * The first `limit` cases where openingStatus and the reference differ, or isOpenAt and the
 * reference's state, instants shown as ISO text.
 */
export function mismatchesWithReference(cases: HoursCase[], limit = 5): Mismatch[] {
  const mismatches: Mismatch[] = [];
  for (const [index, { schedule, now }] of cases.entries()) {
    const got = openingStatus(schedule, now);
    const want = referenceStatus(schedule, now);
    const open = isOpenAt(schedule, now);
    if (JSON.stringify(got) === JSON.stringify(want) && open === (want.state === 'open')) continue;
    mismatches.push({
      index,
      zone: schedule.time_zone,
      now: new Date(now).toISOString(),
      schedule,
      got: readable(got),
      want: readable(want),
      isOpenAt: open,
    });
    if (mismatches.length >= limit) break;
  }
  return mismatches;
}

function readable(status: OpeningStatus): OpeningStatus {
  const iso = (instant: number | null) => (instant === null ? null : new Date(instant).toISOString());
  if (status.state === 'open') return { ...status, closes: iso(status.closes) as never };
  if (status.state === 'closed') return { ...status, opens: iso(status.opens) as never };
  return status;
}

const remembered = new Map<string, number | string>();

function remember<T extends number | string>(key: string, answer: () => T): T {
  let value = remembered.get(key);
  if (value === undefined) {
    value = answer();
    remembered.set(key, value);
  }
  return value as T;
}

/** `minutes` after the start of the wall-clock day `date`, disambiguated as 'compatible'. */
function wallClockInstant(zone: string, date: string, minutes: number): number {
  return remember(
    `at ${zone} ${date} ${minutes}`,
    () =>
      Temporal.PlainDate.from(date)
        .toPlainDateTime()
        .add({ minutes })
        .toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds,
  );
}

function startOfDay(zone: string, date: string): number {
  return remember(
    `start ${zone} ${date}`,
    () => Temporal.PlainDate.from(date).toZonedDateTime(zone).epochMilliseconds,
  );
}

function dateAt(zone: string, instant: number): string {
  return remember(`date ${zone} ${instant}`, () =>
    Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone).toPlainDate().toString(),
  );
}

function addDays(date: string, days: number): string {
  return remember(`add ${date} ${days}`, () => Temporal.PlainDate.from(date).add({ days }).toString());
}

function plainDate(value: string | null): string | undefined {
  if (value === null || !/^\d{4}-\d\d-\d\d$/.test(value)) return undefined;
  try {
    return Temporal.PlainDate.from(value, { overflow: 'reject' }).toString();
  } catch {
    return undefined;
  }
}
