// Opening hours as the API, the CSV import, the widget payload and the widget speak them
// (docs/api.md, "Opening hours"). Every time is local wall-clock time in the location's own
// IANA time zone; no instant is stored. Pure: the service and the widget share these rules.

/** The days of the week in the order of a week editor and of the CSV columns hours_mon ... hours_sun. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * One opening, `HH:MM-HH:MM` in local wall-clock time: `09:00-18:00`. A closing time not after
 * the opening time runs past midnight (`19:00-02:00` opens on its day and closes on the next);
 * `24:00` closes at the end of the day, so `00:00-24:00` is open all day. A zero-length
 * interval (`09:00-09:00`) is refused.
 */
export type Interval = string;

/** Open all day: from the day's first minute to its end. */
export const ALL_DAY: Interval = '00:00-24:00';

/**
 * The regular week: a day that is missing means its hours are unknown, an empty list means
 * closed. Intervals of a day are sorted and do not overlap; one past midnight is the day's last
 * and does not overlap the next day's first.
 */
export type WeeklyHours = Partial<Record<Weekday, Interval[]>>;

/**
 * A dated exception as a location (or a holiday calendar) keeps it: from `date` through
 * `end_date` (inclusive; absent or null: the one day), these intervals replace the regular
 * hours of each day (an empty list: closed), with an optional label ("Christmas Eve").
 */
export interface SpecialHours {
  date: string;
  end_date?: string | null;
  hours: Interval[];
  label?: string | null;
}

/** Special hours as they are kept (hours.rules.ts storedSpecialHours): every key present. */
export interface StoredSpecialHours extends SpecialHours {
  end_date: string | null;
  label: string | null;
}

/**
 * A special day as the widget payload lists it, one per date, the range and the calendars
 * already expanded: [date, intervals] or [date, intervals, label]. A location's own special
 * hours win over its calendars'.
 */
export type SpecialDay = [date: string, hours: Interval[], label?: string];

/** What the widget reads of a location to tell whether it is open (its payload's fields). */
export interface OpeningSchedule {
  time_zone: string | null;
  hours: WeeklyHours | null;
  /** Sorted by date, at most one per date. */
  special_days?: SpecialDay[];
  temporarily_closed: boolean;
  /** The local date the location opens again (YYYY-MM-DD); null: not known. */
  reopens_on: string | null;
}

/** An interval's opening and closing minutes after its day's midnight; closing past 1440 runs into the next day. */
export interface IntervalMinutes {
  open: number;
  close: number;
}

const DAY_MINUTES = 24 * 60;

/**
 * An interval's minutes (`19:00-02:00` is 1140 to 1560), or undefined when it is not
 * `HH:MM-HH:MM` with times from 00:00 to 24:00, opens at 24:00 or has no length.
 */
export function intervalMinutes(interval: string): IntervalMinutes | undefined {
  const match = /^(\d\d):([0-5]\d)-(\d\d):([0-5]\d)$/.exec(interval);
  if (!match) return undefined;
  const open = Number(match[1]) * 60 + Number(match[2]);
  const close = Number(match[3]) * 60 + Number(match[4]);
  if (open >= DAY_MINUTES || close > DAY_MINUTES || open === close) return undefined;
  return { open, close: close > open ? close : close + DAY_MINUTES };
}

const DAY_MS = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Days since 1970-01-01 of a real calendar date `YYYY-MM-DD`, or undefined. Calendar dates only: no time zone is involved. */
export function dayNumber(date: string): number | undefined {
  // Year 0000 is a date to JavaScript (1 BC) but not to PostgreSQL, which reads these dates too.
  if (!ISO_DATE.test(date) || date.startsWith('0000')) return undefined;
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) return undefined;
  return ms / DAY_MS;
}
