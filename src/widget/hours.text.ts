// The line a location's opening status reads as in the list and the details: "Open now ·
// closes 18:00", "Closes in 25 min", "Closed · opens Mon 09:00", "Temporarily closed · reopens
// 3 Jun"; nothing when the hours are unknown. Times are the location's wall-clock times:
// Intl.DateTimeFormat in its time zone, never the visitor's, in the visitor's locale.
import { localDaysBetween, type OpeningStatus } from '../lib/hours/hours.status.ts';
import { MINUTE } from '../lib/hours/hours.zone.ts';
import type { Translate } from './i18n.ts';

/** Closer than this to its closing, a location counts the minutes left. */
const CLOSING_SOON = 60 * MINUTE;
/** A week ahead the weekday is today's: the date joins it. */
const DATED_FROM_DAYS = 7;

/** What the hours' texts are said in: the visitor's clock format and the widget's language. */
export interface HoursContext {
  /** A BCP 47 locale for times, weekdays and dates (hoursLocale of hours.view.ts). */
  locale: string;
  t: Translate;
}

/**
 * The status as one line of text, or null when there is nothing to say (unknown hours).
 * `timeZone` is the location's (the schedule's); with `local`, the visitor's clock is at another
 * offset than the location's and times say "local time".
 */
export function openingText(
  status: OpeningStatus,
  timeZone: string | null,
  now: number,
  { locale, t }: HoursContext,
  local?: boolean,
): string | null {
  if (status.state === 'unknown') return null;
  if (status.state === 'temporarily_closed') {
    const closed = t('temporarilyClosed');
    if (status.reopens_on === null) return closed;
    // A calendar date: formatted through UTC, no zone involved.
    const date = formatter(locale, 'UTC', DATE).format(Date.parse(status.reopens_on));
    return `${closed} · ${t('reopens', { date })}`;
  }
  const open = status.state === 'open';
  const said = t(open ? 'open' : 'closed');
  const instant = open ? status.closes : status.opens;
  if (instant === null || timeZone === null) return said;
  if (open && instant - now < CLOSING_SOON) {
    return t('closesIn', { count: Math.ceil((instant - now) / MINUTE) });
  }
  // "closes 18:00" on the same local day, "closes Sat 02:00" on another, with the date a week ahead.
  let time = formatter(locale, timeZone, TIME).format(instant);
  if (local) time = t('local', { time });
  const days = localDaysBetween(timeZone, now, instant) ?? 0;
  const day = days
    ? `${formatter(locale, timeZone, days < DATED_FROM_DAYS ? WEEKDAY : WEEKDAY_DATE).format(instant)} `
    : '';
  return `${said} · ${t(open ? 'closes' : 'opens', { day, time })}`;
}

// The formats of the hours' times, weekdays and dates, for formatter().
export const TIME: Intl.DateTimeFormatOptions = { timeStyle: 'short' };
export const WEEKDAY: Intl.DateTimeFormatOptions = { weekday: 'short' };
export const WEEKDAY_DATE: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };
export const DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' };
export const WEEKDAY_LONG: Intl.DateTimeFormatOptions = { weekday: 'long' };

// Building an Intl.DateTimeFormat costs far more than using one: one per locale, zone and format.
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A formatter of `format` in `locale` and `timeZone`. With 'UTC', it formats wall-clock times and
 * calendar dates kept as UTC milliseconds, with no zone involved.
 */
export function formatter(
  locale: string,
  timeZone: string,
  format: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = JSON.stringify([locale, timeZone, format]);
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, { ...format, timeZone });
    formatters.set(key, made);
  }
  return made;
}
