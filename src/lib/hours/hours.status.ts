// Whether a location is open at an instant, from its opening schedule (hours.model.ts): the one
// reading of the hours that the service and the widget share. Pure (no DOM, no Node API), and
// it never reads the device's time zone: the answer is the same in any browser.
//
// The rules (docs/api.md, "Opening hours: open now"):
// - A local day's hours are the special day of that date if there is one, else the weekly
//   hours of its weekday. A day without hours (a weekday missing from `hours`, or an interval
//   that is not `HH:MM-HH:MM`) is unknown; an empty list is closed.
// - An interval belongs to the day it opens on: Friday's 19:00-02:00 runs into Saturday even
//   when Saturday is a special closed day. It is open from its opening instant up to, not
//   including, its closing instant. `24:00` is the next day's 00:00.
// - Wall-clock times become instants as Temporal's `disambiguation: 'compatible'` (and RFC 5545)
//   reads them: a time inside a spring-forward gap moves forward by the gap (Berlin's 02:30 on
//   the last Sunday of March is 03:30 CEST); a time that happens twice at fall-back is its
//   earlier occurrence. An interval whose opening moves past its closing this way (02:30-03:15
//   on that Sunday) is never open. A local day starts at its first instant (after a gap at
//   midnight, the instant of the jump).
// - An instant is open when an interval of any day holds it. Otherwise it is unknown when the
//   hours of its local day are unknown, else closed: a day of unknown hours is not taken to run
//   past its midnight, so a missing Sunday leaves Monday's hours whole.
// - `open` gives `closes`: the first instant after which no interval holds on, or null when that
//   is not before the end of the 7th day after today (open around the clock) or when it is
//   followed by an unknown instant. `closed` gives `opens`: the first opening of the days up to
//   the 7th after today, or null when there is none or an unknown instant comes first. Both
//   give the `label` of today's special day, if any.
// - Temporarily closed: `temporarily_closed`, with `reopens_on` when it is a date; the closure
//   ends at the start of that local day, and the hours apply from then on.
// - No time zone (or one the runtime does not know): `unknown`, but for a temporary closure
//   without a reopening date.
import {
  dayNumber,
  intervalMinutes,
  type OpeningSchedule,
  type SpecialDay,
  WEEKDAYS,
  type Weekday,
} from './hours.model.ts';
import { DAY, instantOfWallClock, MINUTE, wallClockAt, type ZoneClock, zoneClock } from './hours.zone.ts';

export type OpeningStatus =
  | { state: 'unknown' }
  | { state: 'temporarily_closed'; reopens_on: string | null }
  /** closes: an instant (epoch milliseconds), null when not known in the next 7 days. */
  | { state: 'open'; closes: number | null; label: string | null }
  /** opens: an instant (epoch milliseconds), null when not known in the next 7 days. */
  | { state: 'closed'; opens: number | null; label: string | null };

const NEVER = Number.POSITIVE_INFINITY;
/** The days around today a status reads, as days after today. */
const FIRST_DAY = -2;
const LAST_OPENING_DAY = 7;
/** The day whose start ends the search for a closing. */
const HORIZON_DAY = LAST_OPENING_DAY + 1;

const UNKNOWN: OpeningStatus = { state: 'unknown' };

export function openingStatus(schedule: OpeningSchedule, now: number): OpeningStatus {
  const table = readingAt(schedule, now);
  if ('state' in table) return table;
  // Today's special day's label, whatever its hours.
  const label = specialDay(0)?.[2] ?? null;
  const closing = closingOfRunAt(table, now);
  if (closing !== undefined) return { state: 'open', closes: knownClosing(table, closing), label };
  return dayInstants(0) ? { state: 'closed', opens: nextOpening(table, now), label } : UNKNOWN;
}

/**
 * Whether openingStatus(schedule, now) is `open`, for a filter over thousands of locations:
 * without the closing, the label or the next opening, which it does not read.
 */
export function isOpenAt(schedule: OpeningSchedule, now: number): boolean {
  const table = readingAt(schedule, now);
  return !('state' in table) && holds(table, now) !== undefined;
}

/**
 * When the schedule's hours decide its status at `now`: the zone's table, the schedule read
 * (startReading). Otherwise the status that holds instead (a temporary closure, or unknown).
 */
function readingAt(schedule: OpeningSchedule, now: number): DayTable | OpeningStatus {
  let reopening: number | undefined;
  if (schedule.temporarily_closed) {
    // Not a date (null, or missing from an older payload): not known.
    reopening = schedule.reopens_on ? dayNumber(schedule.reopens_on) : undefined;
    if (reopening === undefined) return { state: 'temporarily_closed', reopens_on: null };
  }
  const table = schedule.time_zone ? dayTable(schedule.time_zone, now) : undefined;
  if (!table) return UNKNOWN;
  if (reopening !== undefined && now < startOfDate(table, reopening)) {
    return { state: 'temporarily_closed', reopens_on: schedule.reopens_on };
  }
  startReading(schedule, table);
  return table;
}

/**
 * How many local days after `now`'s local day `instant` (at most a week or so away) falls in
 * `timeZone` (0: the same day), for texts such as "opens Mon 09:00"; undefined when the
 * runtime does not know the zone.
 */
export function localDaysBetween(timeZone: string, now: number, instant: number): number | undefined {
  const table = dayTable(timeZone, now);
  return table && dayOf(table, instant);
}

/**
 * The local date (YYYY-MM-DD) at `now` in `timeZone`, for marking today in a week and listing the
 * coming special days; undefined when the runtime does not know the zone.
 */
export function localDate(timeZone: string, now: number): string | undefined {
  return dayTable(timeZone, now)?.dates[-FIRST_DAY];
}

/** The local dates and weekdays around today in one zone, shared by its locations' statuses. */
interface DayTable {
  clock: ZoneClock;
  /** Today's local midnight, as wall-clock milliseconds (hours.zone.ts). */
  today: number;
  /** Of the days from FIRST_DAY to HORIZON_DAY. */
  dates: string[];
  weekdays: Weekday[];
  /** The first instant of HORIZON_DAY: a closing from there on is not reported. */
  horizon: number;
  /** Of the same days: instants already read, by the day's intervals joined with commas. */
  days: Map<string, DayInstants>[];
  /** The last instant the table was asked for and holds for. */
  instant: number;
}

const DAY_COUNT = HORIZON_DAY - FIRST_DAY + 1;
const tables = new Map<string, DayTable>();

function dayTable(timeZone: string, now: number): DayTable | undefined {
  const cached = tables.get(timeZone);
  // A pass over thousands of locations asks for a few zones' tables at one instant, each of them
  // thousands of times: the clock and the wall-clock time are read once.
  if (cached?.instant === now) return cached;
  const clock = zoneClock(timeZone, now);
  if (!clock) return undefined;
  const today = Math.floor(wallClockAt(clock, now) / DAY) * DAY;
  if (cached?.clock === clock && cached.today === today) {
    cached.instant = now;
    return cached;
  }
  const dates: string[] = [];
  const weekdays: Weekday[] = [];
  for (let day = FIRST_DAY; day <= HORIZON_DAY; day++) {
    // Wall-clock milliseconds read through UTC: a calendar date, no zone involved.
    const midnight = new Date(today + day * DAY);
    dates.push(midnight.toISOString().slice(0, 10));
    weekdays.push(WEEKDAYS[(midnight.getUTCDay() + 6) % 7]!);
  }
  // startOfDay of HORIZON_DAY, read before the table exists.
  const horizon = instantOfWallClock(clock, today + HORIZON_DAY * DAY, true);
  const table = { clock, today, dates, weekdays, days: dates.map(() => new Map()), horizon, instant: now };
  tables.set(timeZone, table);
  return table;
}

/** A day's intervals as instants, flat: [open, close, open, close, ...]; null when unknown. */
type DayInstants = number[] | null;

const NO_INSTANTS: number[] = [];

// One schedule's days around today (FIRST_DAY to HORIZON_DAY; others are unknown), each read
// once, when a status first needs it. Module state, not an object per status: a status calls
// nothing that asks for another, and a pass over thousands of locations then allocates nothing
// for it (and minified names keep the widget small).
let readSchedule: OpeningSchedule;
let readTable: DayTable;
/** The schedule being read: `read[i]` is its day i when `readIn[i]` is this. */
let generation = 0;
const read: DayInstants[] = new Array(DAY_COUNT).fill(null);
const readIn: number[] = new Array(DAY_COUNT).fill(0);

function startReading(schedule: OpeningSchedule, table: DayTable): void {
  readSchedule = schedule;
  readTable = table;
  generation++;
}

/** The special day of day `day` after today of the schedule read, if any. */
function specialDay(day: number): SpecialDay | undefined {
  return specialDayOf(readSchedule.special_days, readTable.dates[day - FIRST_DAY]!);
}

/** The instants of day `day` after today of the schedule read. */
function dayInstants(day: number): DayInstants {
  if (day < FIRST_DAY || day > HORIZON_DAY) return null;
  const place = day - FIRST_DAY;
  if (readIn[place] !== generation) {
    read[place] = readDay(day, place);
    readIn[place] = generation;
  }
  return read[place] as DayInstants;
}

function readDay(day: number, place: number): DayInstants {
  const table = readTable;
  const special = specialDay(day);
  const intervals = special ? special[1] : readSchedule.hours?.[table.weekdays[place]!];
  if (!Array.isArray(intervals)) return null;
  // Thousands of locations share a few days' hours: each is turned into instants once per day.
  // Most days have one interval, its own key (no string to build).
  const key = intervals.length === 1 ? intervals[0]! : intervals.join();
  let instants = table.days[place]!.get(key);
  if (instants !== undefined) return instants;
  const midnight = table.today + day * DAY;
  instants = [];
  for (const interval of intervals) {
    const minutes = intervalMinutes(interval);
    if (!minutes) {
      instants = null;
      break;
    }
    instants.push(
      instantOfWallClock(table.clock, midnight + minutes.open * MINUTE),
      instantOfWallClock(table.clock, midnight + minutes.close * MINUTE),
    );
  }
  table.days[place]!.set(key, instants);
  return instants;
}

/** The first instant of local day `day` after today. */
function startOfDay(table: DayTable, day: number): number {
  return instantOfWallClock(table.clock, table.today + day * DAY, true);
}

/** The local day of an instant, as days after today. */
function dayOf(table: DayTable, instant: number): number {
  return Math.floor((wallClockAt(table.clock, instant) - table.today) / DAY);
}

/**
 * The first instant of a local date (as dayNumber gives it), or ±Infinity well before or after
 * the days read.
 */
function startOfDate(table: DayTable, date: number): number {
  // Both whole days since 1970-01-01: the difference is exact.
  const day = date - table.today / DAY;
  if (day < FIRST_DAY) return -NEVER;
  if (day > HORIZON_DAY) return NEVER;
  return startOfDay(table, day);
}

/**
 * When `instant` is held by an interval: the first instant after it that none holds (an
 * interval closing as the next opens runs on). Otherwise undefined.
 */
function closingOfRunAt(table: DayTable, instant: number): number | undefined {
  let closing: number | undefined;
  for (let next = holds(table, instant); next !== undefined; next = holds(table, next)) {
    closing = next;
  }
  return closing;
}

/** When an interval holds `at`: the latest closing of those that do. Otherwise undefined. */
function holds(table: DayTable, at: number): number | undefined {
  let closing: number | undefined;
  // Only these days can hold `at`: an interval opens on its day and closes before the end of
  // the next, and every offset of the zone lies between the clock's min and max.
  const last = Math.min(LAST_OPENING_DAY, Math.floor((at + table.clock.max - table.today) / DAY));
  for (
    let day = Math.max(FIRST_DAY, Math.floor((at + table.clock.min - table.today) / DAY) - 1);
    day <= last;
    day++
  ) {
    const instants = dayInstants(day) ?? NO_INSTANTS;
    for (let index = 0; index < instants.length; index += 2) {
      const close = instants[index + 1]!;
      if (instants[index]! <= at && at < close && (closing === undefined || close > closing)) closing = close;
    }
  }
  return closing;
}

/** A run's closing as `closes` reports it: null past the horizon or where an unknown instant follows. */
function knownClosing(table: DayTable, closing: number): number | null {
  if (closing >= table.horizon) return null;
  return dayInstants(dayOf(table, closing)) ? closing : null;
}

/** The first opening after `instant` (a closed one), or null when none comes before an unknown instant. */
function nextOpening(table: DayTable, instant: number): number | null {
  let opening = NEVER;
  // The start of the first unknown day: from there on nothing is known until an opening.
  let unknownFrom = NEVER;
  for (let day = FIRST_DAY; day <= LAST_OPENING_DAY; day++) {
    const midnight = table.today + day * DAY;
    // Later days open later than an opening or unknown instant already found.
    if (midnight - table.clock.max > Math.min(opening, unknownFrom)) break;
    if (midnight + 2 * DAY - table.clock.min <= instant) continue;
    const instants = dayInstants(day);
    // Today is known when the instant is closed. A day the clock skips (Apia's 30 December
    // 2011) has no instant to be unknown at: its start is the next day's.
    if (!instants) {
      const start = startOfDay(table, day);
      if (day > 0 && dayOf(table, start) === day) unknownFrom = Math.min(unknownFrom, start);
      continue;
    }
    for (let index = 0; index < instants.length; index += 2) {
      const open = instants[index]!;
      // An interval turned empty by a skipped hour never opens.
      if (open > instant && open < opening && open < instants[index + 1]!) opening = open;
    }
  }
  return opening <= unknownFrom && opening !== NEVER ? opening : null;
}

/** The special day of a date: special days are sorted by date, one per date. */
function specialDayOf(specialDays: SpecialDay[] | undefined, date: string): SpecialDay | undefined {
  if (!specialDays) return undefined;
  let low = 0;
  let high = specialDays.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (specialDays[middle]![0] < date) low = middle + 1;
    else high = middle;
  }
  const found = specialDays[low];
  return found?.[0] === date ? found : undefined;
}
