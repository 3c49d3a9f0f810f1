// The built-in parser's reading of opening hours as shops write them in pasted text
// (`Mon-Fri 9-18, Sat 10-14`, `Mo-Fr 09:00-18:00`, `Mon–Sat 9am–8pm`, `Sun closed`, `24/7`,
// `daily 8-22`, `Horaires : mar-sam 10h-19h`) into a week (docs/api.md, "The built-in parser").
// Pure. It reads English, German and French day names and the usual ways of writing times, and
// refuses rather than guesses: an unknown word (`holidays`, `by appointment`), hours without
// days, days without hours, a day given twice, `9-5` (nine to five, or overnight?) and a week
// the API's rules refuse all leave the hours out, and the reviewer adds them.
import { ALL_DAY, WEEKDAYS, type WeeklyHours } from '../../../lib/hours/hours.model.ts';
import { checkWeeklyHours } from '../../../lib/hours/hours.rules.ts';

export type HoursReading = { hours: WeeklyHours } | { refused: string };

const DAY_NAMES: Record<string, number> = {};
for (const [day, names] of [
  [0, 'mon|monday|mo|montag|lun|lundi'],
  [1, 'tue|tues|tuesday|tu|di|dienstag|mar|mardi'],
  [2, 'wed|weds|wednesday|we|mi|mittwoch|mer|mercredi'],
  [3, 'thu|thur|thurs|thursday|th|do|donnerstag|jeu|jeudi'],
  [4, 'fri|friday|fr|freitag|ven|vendredi'],
  [5, 'sat|saturday|sa|samstag|sam|samedi'],
  [6, 'sun|sunday|su|so|sonntag|dim|dimanche'],
] as const) {
  for (const name of names.split('|')) DAY_NAMES[name] = day;
}
const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];
const DAY_SETS: Record<string, number[]> = {
  daily: ALL_DAYS,
  everyday: ALL_DAYS,
  'every day': ALL_DAYS,
  '7 days': ALL_DAYS,
  '7 days a week': ALL_DAYS,
  täglich: ALL_DAYS,
  tägl: ALL_DAYS,
  'tous les jours': ALL_DAYS,
  weekdays: [0, 1, 2, 3, 4],
  werktags: [0, 1, 2, 3, 4],
  weekends: [5, 6],
  weekend: [5, 6],
};
const CLOSED_WORDS = new Set(['closed', 'geschlossen', 'fermé', 'ferme', 'ruhetag']);
/** Open around the clock; with no days named, every day. */
const ALL_DAY_WORDS = new Set(['24h', '24 h', '24 hours', '24hrs', '24 hrs', '24/7']);
/** Words that say nothing about the week: labels and the like. */
const FILLER = new Set([
  'open',
  'opening',
  'hours',
  'opening hours',
  'öffnungszeiten',
  'geöffnet',
  'horaires',
  'ouvert',
  'from',
  'von',
  'de',
  'uhr',
]);
const RANGE_WORDS = new Set(['to', 'bis', 'à', 'au', 'until', 'till']);
const LIST_WORDS = new Set([',', '&', 'and', 'und', 'et', '+', '/']);
const GROUP_BREAKS = new Set([';', '|', '\n']);

type Token =
  | { kind: 'day'; day: number }
  | { kind: 'days'; days: number[] }
  | { kind: 'time'; minutes: number; suffix: 'am' | 'pm' | null; text: string }
  | { kind: 'closed' }
  | { kind: 'allDay' }
  | { kind: 'range' }
  | { kind: 'list' }
  | { kind: 'break' };

// Longest first, so "7 days a week" is one token and "24 hours" is not a time.
const PHRASES = [...Object.keys(DAY_SETS), ...ALL_DAY_WORDS, ...FILLER].sort((a, b) => b.length - a.length);
const TIME = /^(\d{1,2})(?:[:.h](\d{2}))?\s*(a\.?m\.?|p\.?m\.?|h|uhr)?(?![\p{L}\d])/iu;
const WORD = /^[\p{L}]+\.?/u;

/** The text as tokens, or the first part that is none of them. */
function tokenize(text: string): Token[] | string {
  const tokens: Token[] = [];
  let rest = text.toLowerCase().replace(/[–—]/g, '-').replace(/\r\n?/g, '\n');
  while (rest.length > 0) {
    const space = /^[ \t]+/.exec(rest);
    if (space) {
      rest = rest.slice(space[0].length);
      continue;
    }
    const phrase = PHRASES.find(
      (candidate) => rest.startsWith(candidate) && !/^[\p{L}\d]/u.test(rest.slice(candidate.length)),
    );
    if (phrase) {
      if (phrase in DAY_SETS) tokens.push({ kind: 'days', days: DAY_SETS[phrase]! });
      else if (ALL_DAY_WORDS.has(phrase)) tokens.push({ kind: 'allDay' });
      rest = rest.slice(phrase.length).replace(/^\s*:/, '');
      continue;
    }
    const time = TIME.exec(rest);
    if (time) {
      const hour = Number(time[1]);
      const minute = time[2] === undefined ? 0 : Number(time[2]);
      const suffix = time[3]?.startsWith('a') ? 'am' : time[3]?.startsWith('p') ? 'pm' : null;
      if (minute > 59 || hour > 24 || (suffix && (hour === 0 || hour > 12))) return time[0];
      const hours24 = suffix === null ? hour : (hour % 12) + (suffix === 'pm' ? 12 : 0);
      tokens.push({ kind: 'time', minutes: hours24 * 60 + minute, suffix, text: time[0] });
      rest = rest.slice(time[0].length);
      continue;
    }
    const word = WORD.exec(rest);
    if (word) {
      const bare = word[0].replace(/\.$/, '');
      if (bare in DAY_NAMES) tokens.push({ kind: 'day', day: DAY_NAMES[bare]! });
      else if (CLOSED_WORDS.has(bare)) tokens.push({ kind: 'closed' });
      else if (RANGE_WORDS.has(bare)) tokens.push({ kind: 'range' });
      else if (LIST_WORDS.has(bare)) tokens.push({ kind: 'list' });
      else return word[0];
      rest = rest.slice(word[0].length).replace(/^\s*:/, '');
      continue;
    }
    const mark = rest[0]!;
    if (mark === '-') tokens.push({ kind: 'range' });
    else if (LIST_WORDS.has(mark)) tokens.push({ kind: 'list' });
    else if (GROUP_BREAKS.has(mark)) tokens.push({ kind: 'break' });
    else if (mark !== ':' && mark !== '.') return mark;
    rest = rest.slice(1);
  }
  return tokens;
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

type Time = Extract<Token, { kind: 'time' }>;

const NOON = 12 * 60;
const MIDNIGHT = 24 * 60;

/**
 * An interval of two times, `HH:MM-HH:MM`, or why it is not read. Without am/pm the clock is
 * 24-hour, and an end not after the start runs past midnight only from an afternoon or
 * evening start (`18-2`, from 13:00 on); `9-5` and `12-5` are refused. An am/pm on the end
 * alone is the start's too when that keeps the start first (`7-11pm`), else the other half of
 * the day (`9-5pm`, `11-1pm`); an end at midnight (`12am`, `0`, `24`) puts a bare start in the
 * afternoon or evening (`6-12am`: 18:00-24:00).
 */
function intervalOf(from: Time, to: Time): string | { refused: string } {
  const end = to.minutes === 0 || to.minutes === MIDNIGHT ? MIDNIGHT : to.minutes;
  let start = from.minutes;
  if (from.suffix === null && to.suffix !== null) {
    const morning = from.minutes % NOON;
    if (end === MIDNIGHT) start = morning + NOON;
    else {
      const sameHalf = morning + (to.suffix === 'pm' ? NOON : 0);
      start = sameHalf < end ? sameHalf : morning + (to.suffix === 'pm' ? 0 : NOON);
    }
  }
  if (start >= MIDNIGHT) return { refused: `${from.text}: an opening cannot start at midnight's end` };
  // Past midnight only when the end says so (`8pm-2am`) or from an afternoon or evening start
  // (`18-2`); a bare start in the noon hour is not one (`12-5`: noon to five, or overnight?).
  if (end <= start && to.suffix === null && (from.suffix !== null || start < NOON + 60)) {
    return {
      refused: `${from.text}-${to.text}: the end is not after the start (morning to morning, or overnight?)`,
    };
  }
  return `${hhmm(start)}-${hhmm(end)}`;
}

const isDays = (token: Token | undefined) => token?.kind === 'day' || token?.kind === 'days';
const isHours = (token: Token | undefined) =>
  token?.kind === 'time' || token?.kind === 'closed' || token?.kind === 'allDay';

/** Days a run of day tokens names: ranges (wrapping past Sunday) and lists. */
function daysOf(tokens: Token[]): number[] | { refused: string } {
  const days: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'days') days.push(...token.days);
    else if (token.kind === 'day') {
      const next = tokens[i + 1];
      const last = tokens[i + 2];
      if (next?.kind === 'range' && last?.kind === 'day') {
        for (let day = token.day; ; day = (day + 1) % 7) {
          days.push(day);
          if (day === last.day) break;
        }
        i += 2;
      } else days.push(token.day);
    } else if (token.kind !== 'list') return { refused: 'the days are not a list or a range of days' };
  }
  return days;
}

/** The intervals of `closed`, `24h` or `9-12, 14-18`. */
function intervalsOf(tokens: Token[]): string[] | { refused: string } {
  if (tokens.length === 1 && tokens[0]!.kind === 'closed') return [];
  if (tokens.length === 1 && tokens[0]!.kind === 'allDay') return [ALL_DAY];
  const notIntervals = { refused: 'the hours are not intervals such as 9-18' };
  const intervals: string[] = [];
  for (let i = 0; i < tokens.length; i += 4) {
    const [from, range, to, after] = tokens.slice(i, i + 4);
    if (from?.kind !== 'time' || range?.kind !== 'range' || to?.kind !== 'time') return notIntervals;
    if (after !== undefined && after.kind !== 'list') return notIntervals;
    const interval = intervalOf(from, to);
    if (typeof interval !== 'string') return interval;
    intervals.push(interval);
  }
  return intervals.length > 0 ? intervals : notIntervals;
}

/** One group: days then hours (`Mon-Fri 9-18`, `Sun closed`), or hours then days (`9am-5pm Mon-Fri`). */
function readGroup(group: Token[], week: Map<number, string[]>): string | undefined {
  const firstHours = group.findIndex(isHours);
  if (firstHours < 0) return 'days without hours';
  let dayTokens = group.slice(0, firstHours);
  let hourTokens = group.slice(firstHours);
  if (dayTokens.length === 0) {
    const trailing = hourTokens.findIndex(isDays);
    if (trailing >= 0) {
      dayTokens = hourTokens.slice(trailing);
      hourTokens = hourTokens.slice(0, trailing);
    }
  }
  let days = daysOf(dayTokens);
  if (!Array.isArray(days)) return days.refused;
  if (days.length === 0) {
    // "24/7" or "open 24 hours" alone: every day.
    if (!(hourTokens.length === 1 && hourTokens[0]!.kind === 'allDay')) return 'hours without days';
    days = ALL_DAYS;
  }
  const intervals = intervalsOf(hourTokens);
  if (!Array.isArray(intervals)) return intervals.refused;
  for (const day of new Set(days)) {
    if (week.has(day)) return `${WEEKDAYS[day]} is given twice`;
    week.set(day, intervals);
  }
  return undefined;
}

/**
 * Groups of days and hours: a group ends at `;`, `|` or a line break, and where days follow
 * the hours of a group that began with days (`Mon-Fri 9-18, Sat 10-14`, or without the comma).
 */
function groupsOf(tokens: Token[]): Token[][] {
  const groups: Token[][] = [];
  let group: Token[] = [];
  const close = () => {
    if (group.length > 0) groups.push(group);
    group = [];
  };
  tokens.forEach((token, i) => {
    const complete = isDays(group[0]) && group.some(isHours);
    if (token.kind === 'break') close();
    else if (token.kind === 'list' && complete && isDays(tokens[i + 1])) close();
    else {
      if (isDays(token) && complete) close();
      group.push(token);
    }
  });
  close();
  return groups;
}

/**
 * A text of opening hours as a week: the days it names, each with its intervals (`closed`: []),
 * the days it does not name not known. Refused, with the reason, unless every part is read and
 * the week passes the API's rules.
 */
export function readOpeningHours(text: string): HoursReading {
  const tokens = tokenize(text);
  if (typeof tokens === 'string') return { refused: `"${tokens}" is not read as opening hours` };
  const week = new Map<number, string[]>();
  for (const group of groupsOf(tokens)) {
    const refused = readGroup(group, week);
    if (refused) return { refused };
  }
  if (week.size === 0) return { refused: 'no opening hours' };
  const hours: WeeklyHours = {};
  for (const [index, day] of WEEKDAYS.entries()) {
    const intervals = week.get(index);
    if (intervals) hours[day] = intervals;
  }
  const problems = checkWeeklyHours(hours);
  if (problems.length > 0) return { refused: problems[0]!.message };
  return { hours };
}
