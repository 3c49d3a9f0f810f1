// The line a location's opening status reads as in the list and the details: "Open now ·
// closes 18:00", "Closes in 25 min", "Closed · opens Mon 09:00", "Temporarily closed · reopens
// 3 Jun"; nothing when the hours are unknown. Times are the location's wall-clock times:
// Intl.DateTimeFormat in its time zone, never the visitor's, in the visitor's locale.
import { localDaysBetween, type OpeningStatus } from '../lib/hours/hours.status.ts';
import type { Translate } from './i18n.ts';

const MINUTE = 60_000;
/** Closer than this to its closing, a location counts the minutes left. */
const CLOSING_SOON = 60 * MINUTE;
/** A week ahead the weekday is today's: the date joins it. */
const DATED_FROM_DAYS = 7;

export interface OpeningTextOptions {
  /** The location's time zone (the schedule's). */
  timeZone: string | null;
  now: number;
  /** A BCP 47 locale for times, weekdays and dates: the widget's language, or the page's. */
  locale: string;
  t: Translate;
  /** The visitor's clock is at another offset than the location's: times say "local time". */
  local?: boolean;
}

/** The status as one line of text, or null when there is nothing to say (unknown hours). */
export function openingText(
  status: OpeningStatus,
  { timeZone, now, locale, t, local }: OpeningTextOptions,
): string | null {
  if (status.state === 'unknown') return null;
  if (status.state === 'temporarily_closed') {
    const closed = t('hoursTemporarilyClosed');
    if (status.reopens_on === null) return closed;
    // A calendar date: formatted through UTC, no zone involved.
    const date = formatter(locale, 'UTC', 'date').format(Date.parse(status.reopens_on));
    return `${closed} · ${t('hoursReopens', { date })}`;
  }
  const open = status.state === 'open';
  const said = t(open ? 'hoursOpen' : 'hoursClosed');
  const instant = open ? status.closes : status.opens;
  if (instant === null || timeZone === null) return said;
  if (open && instant - now < CLOSING_SOON) {
    return t('hoursClosesIn', { count: Math.ceil((instant - now) / MINUTE) });
  }
  // "closes 18:00" on the same local day, "closes Sat 02:00" on another, with the date a week ahead.
  let time = formatter(locale, timeZone, 'time').format(instant);
  if (local) time = t('hoursLocal', { time });
  const days = localDaysBetween(timeZone, now, instant) ?? 0;
  const day = days
    ? `${formatter(locale, timeZone, days < DATED_FROM_DAYS ? 'weekday' : 'weekdayDate').format(instant)} `
    : '';
  return `${said} · ${t(open ? 'hoursCloses' : 'hoursOpens', { day, time })}`;
}

const FORMATS = {
  time: { timeStyle: 'short' },
  weekday: { weekday: 'short' },
  weekdayDate: { weekday: 'short', day: 'numeric', month: 'short' },
  date: { day: 'numeric', month: 'short' },
  weekdayLong: { weekday: 'long' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

// Building an Intl.DateTimeFormat costs far more than using one: one per locale, zone and format.
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A formatter of `format` in `locale` and `timeZone`. With 'UTC', it formats wall-clock times and
 * calendar dates kept as UTC milliseconds, with no zone involved.
 */
export function formatter(
  locale: string,
  timeZone: string,
  format: keyof typeof FORMATS,
): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone} ${format}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, { ...FORMATS[format], timeZone });
    formatters.set(key, made);
  }
  return made;
}
