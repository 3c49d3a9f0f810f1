// Opening hours in the widget: the status line of a list row, the week and the coming special
// days in the details, the open-now filter's test, and the tick that keeps them current. Times
// are the location's wall-clock times in the visitor's language and clock format; of the
// visitor's own zone only hours.device.ts knows (to say "local time").
import { type Interval, intervalMinutes, type OpeningSchedule, WEEKDAYS } from '../lib/hours/hours.model.ts';
import { localDate, openingStatus } from '../lib/hours/hours.status.ts';
import { DAY, MINUTE } from '../lib/hours/hours.zone.ts';
import { h, isolated } from './dom.ts';
import hoursCss from './hours.css';
import { offsetDiffers } from './hours.device.ts';
import {
  formatter,
  type HoursContext,
  openingText,
  TIME,
  WEEKDAY,
  WEEKDAY_DATE,
  WEEKDAY_LONG,
} from './hours.text.ts';
import type { Lifetime } from './lifetime.ts';
import type { FinderLocation } from './types.ts';

export type { HoursContext };

export const HOURS_CSS = hoursCss;

/** Monday 1 January 2024, midnight UTC: the week's rows read their names and times from it through UTC. */
const MONDAY = Date.UTC(2024, 0, 1);
/** The details list the special days from today to this many days ahead. */
const SPECIAL_DAYS_AHEAD = 30;

/**
 * The widget's language with the region of the visitor's browser when it speaks that language
 * (en-GB rather than en), for the visitor's clock format: 18:00 or 6:00 PM.
 */
export const hoursLocale = (language: string) =>
  navigator.languages.find((tag) => tag.split('-')[0] === language) ?? language;

/** "Open now · closes 18:00" and the like, or null when the hours are unknown. */
export function statusLine(location: FinderLocation, now: number, context: HoursContext): string | null {
  const timeZone = location.time_zone ?? null;
  return openingText(
    openingStatus(location as OpeningSchedule, now),
    timeZone,
    now,
    context,
    !!timeZone && offsetDiffers(timeZone, now),
  );
}

/**
 * The details' opening hours, as [label, table]: the week, then the special days of the coming
 * 30 days with their labels; the location's today marked; a temporary closure as the table's
 * caption, so that the week is not read as open. Undefined when there is none of these.
 */
export function hoursField(
  location: FinderLocation,
  now: number,
  context: HoursContext,
): [string, Node] | undefined {
  const { time_zone: timeZone, hours } = location;
  const today = timeZone && localDate(timeZone, now);
  if (!today) return undefined;
  const todayIndex = (new Date(today).getUTCDay() + 6) % 7;
  const until = Date.parse(today) + SPECIAL_DAYS_AHEAD * DAY;
  const rows: Row[] = [
    ...(hours && WEEKDAYS.some((day) => hours[day])
      ? WEEKDAYS.map(
          (day, index): Row => [MONDAY + index * DAY, hours[day], index === todayIndex, WEEKDAY_LONG],
        )
      : []),
    ...(location.special_days ?? [])
      .filter(([date]) => date >= today && Date.parse(date) < until)
      .map(
        ([date, intervals, label]): Row => [Date.parse(date), intervals, date === today, WEEKDAY_DATE, label],
      ),
  ];
  const status = openingStatus(location as OpeningSchedule, now);
  const closure = status.state === 'temporarily_closed' && openingText(status, timeZone, now, context);
  if (rows.length === 0 && !closure) return undefined;
  const heading = context.t('hours');
  return [
    offsetDiffers(timeZone, now) ? context.t('local', { time: heading }) : heading,
    h('table', { class: 'lf-week' }, [
      closure && h('caption', {}, [closure]),
      ...rows.map(([midnight, intervals, isToday, name, label]) =>
        h('tr', {}, [
          h('th', { scope: 'row', 'aria-current': isToday && 'date' }, [
            formatter(context.locale, 'UTC', name).format(midnight),
          ]),
          h('td', {}, [
            intervalsText(intervals, midnight, context),
            label && ' · ',
            label && isolated(label),
          ]),
        ]),
      ),
    ]),
  ];
}

/** A day's row: midnight as UTC milliseconds, its intervals (undefined: unknown), today, its name's format, label. */
type Row = [
  midnight: number,
  intervals: Interval[] | undefined,
  today: boolean,
  name: Intl.DateTimeFormatOptions,
  label?: string,
];

/** "9:00 AM – 6:00 PM", past midnight "7:00 PM – Sat 2:00 AM"; closed or not known. */
function intervalsText(intervals: Interval[] | undefined, midnight: number, { locale, t }: HoursContext) {
  if (!intervals) return t('unknown');
  if (intervals.length === 0) return t('closed');
  const time = formatter(locale, 'UTC', TIME);
  return intervals
    .map((interval) => {
      const minutes = intervalMinutes(interval);
      if (!minutes) return t('unknown');
      const close = midnight + minutes.close * MINUTE;
      // 24:00 ends the same day; only a closing past it names the next day.
      const day = minutes.close * MINUTE <= DAY ? '' : `${formatter(locale, 'UTC', WEEKDAY).format(close)} `;
      return `${time.format(midnight + minutes.open * MINUTE)} – ${day}${time.format(close)}`;
    })
    .join(', ');
}

/** Calls `tick` at the start of every minute, from the next one on, while the view lives. */
export function everyMinute(lifetime: Lifetime, tick: () => void): void {
  let timer: ReturnType<typeof setTimeout>;
  const next = () => {
    // From the clock each time: a timer that fires late (or early) does not shift the minutes.
    timer = setTimeout(
      () => {
        tick();
        next();
      },
      MINUTE - (Date.now() % MINUTE),
    );
  };
  next();
  lifetime.add(() => clearTimeout(timer));
}
