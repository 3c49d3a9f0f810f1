// Opening hours as people write them in a cell of a spreadsheet (the CSV import's hours_mon ...
// hours_sun and special_hours columns, docs/api.md "CSV import"), read into the model and
// written back into the same text. Reading only splits the text into the model's pieces,
// forgiving case and spaces and nothing else; whether the pieces are valid (HH:MM, order,
// overlaps, dates) is decided by hours.rules.ts, as for the API.
import { ALL_DAY, type Interval, type SpecialHours } from './hours.model.ts';

/** A day's cell or an entry's hours meaning closed all day. */
export const CLOSED_WORD = 'closed';
/** A day's cell or an entry's hours meaning open all day (00:00-24:00). */
export const ALL_DAY_WORD = '24h';

export const DAY_TEXT_MESSAGE =
  'Write the hours of a day as intervals such as 09:00-12:00, 13:00-18:00, or closed, or 24h; leave the cell empty when they are not known.';
export const SPECIAL_TEXT_MESSAGE =
  'Write each special hours entry as a date or a range (2026-12-24 or 2026-12-27..2026-12-30), then intervals such as 09:00-14:00, or closed, or 24h, then an optional label (holding no date); separate entries with ";".';

/** What a text says, or why it cannot be read. */
export type TextReading<T> = { value: T } | { error: string };

/** "09:00 - 12:00" -> "09:00-12:00": spaces around the dash are not part of an interval. */
const tightInterval = (text: string) => text.trim().replace(/\s*-\s*/, '-');

/** `closed`, `24h` or intervals separated by commas; undefined when it is none of them. */
function readHours(text: string): Interval[] | undefined {
  const word = text.trim().toLowerCase();
  if (word === CLOSED_WORD) return [];
  if (word === ALL_DAY_WORD) return [ALL_DAY];
  const parts = text.split(',').map(tightInterval);
  // An interval is anything around a dash without spaces in it ("9-18" too, which the rules
  // refuse by name); a word such as "open" or "closed" among intervals is not one.
  return parts.every((part) => /^[^\s-]+-[^\s-]+$/.test(part)) ? parts : undefined;
}

/**
 * A day's cell: `09:00-12:00, 13:00-18:00`, `closed` ([]), `24h` (00:00-24:00), or empty
 * (undefined: not known). The intervals are as written, spaces around their dash removed; they
 * are checked by hours.rules.ts checkDay.
 */
export function parseDayText(text: string): TextReading<Interval[] | undefined> {
  if (text.trim() === '') return { value: undefined };
  const hours = readHours(text);
  return hours ? { value: hours } : { error: DAY_TEXT_MESSAGE };
}

/** The hours of a day as parseDayText reads them: '' for unknown, `closed`, `24h` or the intervals. */
export function formatDayText(intervals: readonly Interval[] | undefined | null): string {
  if (intervals == null) return '';
  if (intervals.length === 0) return CLOSED_WORD;
  if (intervals.length === 1 && intervals[0] === ALL_DAY) return ALL_DAY_WORD;
  return intervals.join(', ');
}

// A date or a range, loosely (dates are checked by the rules, so "2026-02-30" is named there),
// then the hours, then the label. The hours are intervals (digits and colons around a dash,
// separated by commas), `closed` or `24h`, each ending at a space or the end.
// No line break anywhere: a list of entries on separate lines would read as one entry with the
// others in its label.
const ENTRY = /^(\d[\d-]*)(?:[ \t]*\.\.[ \t]*(\d[\d-]*))?[ \t]+([^\r\n]*)$/;
const HOURS_AT_START = /^(closed|24h|[\d:]+\s*-\s*[\d:]+(?:\s*,\s*[\d:]+\s*-\s*[\d:]+)*)(?=\s|$)(.*)$/i;
/** A label holding a date is most likely the next entry without its `;`. */
const DATE_IN_LABEL = /\d{4}-\d{1,2}-\d{1,2}/;
/**
 * A label starting with hours (`15:00-18:00`, `& 15-18`, `closed`), or holding an interval of
 * times, is most likely more hours without the comma between them: read as a label, they
 * would be lost.
 */
const HOURS_IN_LABEL =
  /^(?:[&+,/]\s*)?(?:closed\b|24h\b|\d[\d:]*\s*-\s*\d)|\d{1,2}:\d{2}\s*-\s*\d{1,2}:\d{2}/i;

/** One entry of a special_hours cell, or undefined when it does not have the entry's shape. */
function readEntry(text: string): SpecialHours | undefined {
  const entry = ENTRY.exec(text);
  if (!entry) return undefined;
  const hoursAndLabel = HOURS_AT_START.exec(entry[3]!.trim());
  if (!hoursAndLabel) return undefined;
  const hours = readHours(hoursAndLabel[1]!);
  if (!hours) return undefined;
  const label = hoursAndLabel[2]!.trim();
  if (DATE_IN_LABEL.test(label) || HOURS_IN_LABEL.test(label)) return undefined;
  return { date: entry[1]!, end_date: entry[2] ?? null, hours, label: label === '' ? null : label };
}

/** A special_hours cell's entries with the text each was read from (for messages naming it). */
export interface SpecialHoursReading {
  entries: SpecialHours[];
  texts: string[];
}

/**
 * A special_hours cell: entries separated by `;`, each `2026-12-24 09:00-14:00 Christmas Eve`
 * or `2026-12-25..2026-12-26 closed` (a range, both days included). An empty cell has no
 * entries; an empty entry (a `;` at the end) is skipped. Dates, intervals and labels are
 * checked by hours.rules.ts checkSpecialHours. A label cannot hold `;`.
 */
export function parseSpecialHoursText(text: string): TextReading<SpecialHoursReading> {
  const reading: SpecialHoursReading = { entries: [], texts: [] };
  for (const part of text.split(';')) {
    const entryText = part.trim();
    if (entryText === '') continue;
    const entry = readEntry(entryText);
    if (!entry) return { error: `"${entryText}": ${SPECIAL_TEXT_MESSAGE}` };
    reading.entries.push(entry);
    reading.texts.push(entryText);
  }
  return { value: reading };
}

/** Special hours as parseSpecialHoursText reads them: entries in their order, joined by "; ". */
export function formatSpecialHoursText(entries: readonly SpecialHours[] | null | undefined): string {
  return (entries ?? [])
    .map((entry) => {
      const dates = entry.end_date ? `${entry.date}..${entry.end_date}` : entry.date;
      return [dates, formatDayText(entry.hours), entry.label ?? ''].join(' ').trim();
    })
    .join('; ');
}
