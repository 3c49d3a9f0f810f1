// One translation layer: every text of the dashboard is `t(key, values)`. Languages are data
// (Messages objects); English is shipped, and the page's language follows the one in use.
import { en, type MessageKey, type Messages } from './en.ts';

const languages: Record<string, Messages> = { en };
let messages: Messages = en;

export const language = 'en';
/** The locale of formats and of React Aria's own strings (the build keeps its strings of this one). */
export const locale = 'en-US';
document.documentElement.lang = language;
messages = languages[language] ?? en;

export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return messages[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

const numbers = new Intl.NumberFormat(locale);
export const formatNumber = (value: number) => numbers.format(value);

/** The keys of texts of a number of things, {count}: those with a `_one` form for one. */
type CountKey = { [K in MessageKey]: `${K}_one` extends MessageKey ? K : never }[MessageKey];

/** A text of `count` things: its `_one` form for one. */
export function tCount(key: CountKey, count: number): string {
  return t(count === 1 ? `${key}_one` : key, { count: formatNumber(count) });
}
const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
export const formatDateTime = (iso: string) => dates.format(new Date(iso));
const days = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
export const formatDate = (iso: string) => days.format(new Date(iso));
// A wall-clock time of no particular day (an opening hour, HH:MM) in the locale's manner:
// formatted as that time of a fixed day in UTC, so no time zone moves it.
const clock = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
export const formatClock = (time: string) => {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return clock.format(Date.UTC(2000, 0, 1, hours, minutes));
};
