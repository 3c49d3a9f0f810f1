// The line a location's opening status reads as in the list and the details: "Open now ·
// closes 18:00", "Closes in 25 min", "Closed · opens Mon 09:00", "Temporarily closed · reopens
// 3 June"; nothing when the hours are unknown. Times are the location's wall-clock times:
// Intl.DateTimeFormat in its time zone, never the visitor's, in the visitor's locale.
import { localDaysBetween, type OpeningStatus } from '../../lib/hours/hours.status.ts';
import type { Translate } from '../i18n.ts';

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
}

/** The status as one line of text, or null when there is nothing to say (unknown hours). */
export function openingText(
  status: OpeningStatus,
  { timeZone, now, locale, t }: OpeningTextOptions,
): string | null {
  if (status.state === 'unknown') return null;
  if (status.state === 'temporarily_closed') {
    if (status.reopens_on === null) return t('hoursTemporarilyClosed');
    const date = formatter(locale, 'UTC', 'date').format(Date.parse(`${status.reopens_on}T12:00:00Z`));
    return t('hoursReopensOn', { date });
  }
  if (status.state === 'open') {
    if (status.closes === null || timeZone === null) return t('hoursOpen');
    const left = status.closes - now;
    if (left < CLOSING_SOON) return t('hoursClosesIn', { count: Math.ceil(left / MINUTE) });
    return atTime(status.closes, timeZone, now, locale, t, 'hoursClosesAt', 'hoursClosesOn');
  }
  if (status.opens === null || timeZone === null) return t('hoursClosed');
  return atTime(status.opens, timeZone, now, locale, t, 'hoursOpensAt', 'hoursOpensOn');
}

/** "closes 18:00" on the same local day, "closes Sat 02:00" on another, with the date a week ahead. */
function atTime(
  instant: number,
  timeZone: string,
  now: number,
  locale: string,
  t: Translate,
  today: 'hoursClosesAt' | 'hoursOpensAt',
  otherDay: 'hoursClosesOn' | 'hoursOpensOn',
): string {
  const time = formatter(locale, timeZone, 'time').format(instant);
  const days = localDaysBetween(timeZone, now, instant) ?? 0;
  if (days === 0) return t(today, { time });
  const day = formatter(locale, timeZone, days >= DATED_FROM_DAYS ? 'weekdayDate' : 'weekday').format(
    instant,
  );
  return t(otherDay, { day, time });
}

const FORMATS = {
  time: { timeStyle: 'short' },
  weekday: { weekday: 'short' },
  weekdayDate: { weekday: 'short', day: 'numeric', month: 'short' },
  date: { day: 'numeric', month: 'long' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

// Building an Intl.DateTimeFormat costs far more than using one: one per locale, zone and format.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, timeZone: string, format: keyof typeof FORMATS): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone} ${format}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, { ...FORMATS[format], timeZone });
    formatters.set(key, made);
  }
  return made;
}
