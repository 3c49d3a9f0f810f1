// One translation layer: every text of the dashboard is `t(key, values)`. Languages are data
// (Messages objects); English is shipped, and the page's language follows the one in use.
import { en, type MessageKey, type Messages } from './en.ts';

const languages: Record<string, Messages> = { en };
let messages: Messages = en;

export const language = 'en';
document.documentElement.lang = language;
messages = languages[language] ?? en;

export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return messages[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

const numbers = new Intl.NumberFormat(language);
export const formatNumber = (value: number) => numbers.format(value);
const dates = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
export const formatDateTime = (iso: string) => dates.format(new Date(iso));
