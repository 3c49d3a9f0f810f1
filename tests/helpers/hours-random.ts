// Random opening schedules and instants for comparing openingStatus with the Temporal reference
// (tests/helpers/hours-reference.ts). Cases come in scenes: one zone and one instant, often a
// change of the zone's offset, with schedules whose times and special days cluster around it,
// and instants a few days either side. That aims the cases at gaps, repeats and day edges, and
// lets the reference's memory of Temporal answers serve a scene's cases (Temporal's polyfill
// takes about 0.1 ms a conversion). One seed always gives the same cases.
import { Temporal } from 'temporal-polyfill';
import { Random } from '../../scripts/fuzz/random.ts';
import {
  type Interval,
  type OpeningSchedule,
  type SpecialDay,
  WEEKDAYS,
  type WeeklyHours,
} from '../../src/lib/hours/hours.model.ts';

/**
 * Forty zones: the usual ones, the odd offsets (+05:30, +05:45, +08:45, +12:45, -09:30, -03:30),
 * the date line (+14, -11, Apia's skipped day in 2011), half-hour and two-hour DST (Lord Howe,
 * Troll), changes at midnight (Santiago, Havana, Asuncion, Beirut, Cairo, São Paulo until 2019),
 * DST suspended for Ramadan (Casablanca), negative DST in the tz source (Dublin), and zones that
 * moved their standard offset (Moscow, Pyongyang, Caracas, Nuuk, Scoresbysund, Mexico City).
 */
export const FUZZ_ZONES = [
  'America/Los_Angeles',
  'America/New_York',
  'Europe/Berlin',
  'Europe/Paris',
  'Asia/Tokyo',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Pacific/Apia',
  'Pacific/Chatham',
  'America/St_Johns',
  'Asia/Tehran',
  'Africa/Casablanca',
  'Asia/Gaza',
  'America/Havana',
  'America/Asuncion',
  'Europe/London',
  'Europe/Dublin',
  'Australia/Sydney',
  'Australia/Adelaide',
  'Pacific/Auckland',
  'America/Sao_Paulo',
  'America/Nuuk',
  'Europe/Moscow',
  'Asia/Pyongyang',
  'America/Caracas',
  'Antarctica/Troll',
  'Australia/Eucla',
  'Pacific/Marquesas',
  'America/Scoresbysund',
  'Europe/Chisinau',
  'America/Mexico_City',
  'Asia/Beirut',
  'Pacific/Norfolk',
  'Africa/Cairo',
  'Asia/Amman',
  'UTC',
] as const;

export interface HoursCase {
  schedule: OpeningSchedule;
  now: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const FROM = Date.UTC(2000, 0, 1);
const TO = Date.UTC(2038, 0, 1);
const LABELS = ['Christmas Eve', 'Summer hours', 'Stocktaking'];

const transitionsOfZone = new Map<string, number[]>();

/** The instants the zone's offset changes at from 2000 to 2037, by Temporal. */
export function zoneTransitions(zone: string): number[] {
  let transitions = transitionsOfZone.get(zone);
  if (!transitions) {
    transitions = [];
    let at = Temporal.Instant.fromEpochMilliseconds(FROM)
      .toZonedDateTimeISO(zone)
      .getTimeZoneTransition('next');
    while (at && at.epochMilliseconds < TO) {
      transitions.push(at.epochMilliseconds);
      at = at.getTimeZoneTransition('next');
    }
    transitionsOfZone.set(zone, transitions);
  }
  return transitions;
}

export function randomHoursCases(seed: number, count: number, casesPerScene = 100): HoursCase[] {
  const random = new Random(seed);
  const cases: HoursCase[] = [];
  while (cases.length < count) {
    const scene = randomScene(random);
    for (let index = 0; index < casesPerScene && cases.length < count; index++) {
      cases.push(randomCase(random, scene));
    }
  }
  return cases;
}

interface Scene {
  zone: string;
  base: number;
  /** Minutes after midnight the scene's intervals use (0 to 1440). */
  times: number[];
  /** Local dates around the base, for special days and reopenings. */
  dates: string[];
}

function randomScene(random: Random): Scene {
  const zone = random.pick(FUZZ_ZONES);
  const transitions = zoneTransitions(zone);
  const base =
    transitions.length > 0 && random.chance(0.6)
      ? random.pick(transitions)
      : FROM + Math.floor(random.next() * (TO - FROM - 30 * DAY)) + 15 * DAY;
  const local = Temporal.Instant.fromEpochMilliseconds(base).toZonedDateTimeISO(zone);
  // Times around the base's wall-clock time (a change's skipped or repeated hour), midnight,
  // 24:00, quarter hours and a few odd minutes.
  const around = local.hour * 60 + local.minute;
  const times = new Set([0, 24 * 60]);
  while (times.size < 14) {
    const time = random.weighted({ around: 5, quarter: 4, odd: 1 });
    if (time === 'around') times.add(clampMinutes(around + random.int(-6, 6) * 15));
    else if (time === 'quarter') times.add(random.int(0, 96) * 15);
    else times.add(random.int(0, 1440));
  }
  const today = local.toPlainDate();
  const dates: string[] = [];
  for (let day = -6; day <= 13; day++) dates.push(today.add({ days: day }).toString());
  return { zone, base, times: [...times].sort((a, b) => a - b), dates };
}

function randomCase(random: Random, scene: Scene): HoursCase {
  let now = scene.base + random.int(-3 * DAY, 4 * DAY);
  // On a quarter hour, so that many instants are exactly an opening or a closing.
  if (random.chance(0.4)) now = Math.floor(now / (15 * MINUTE)) * 15 * MINUTE;
  const temporarilyClosed = random.chance(0.06);
  const schedule: OpeningSchedule = {
    time_zone: random.chance(0.01) ? null : random.chance(0.005) ? 'Mars/Olympus_Mons' : scene.zone,
    hours: random.chance(0.02) ? null : randomWeek(random, scene),
    special_days: randomSpecialDays(random, scene),
    temporarily_closed: temporarilyClosed,
    reopens_on: randomReopening(random, scene, temporarilyClosed),
  };
  return { schedule, now };
}

function randomWeek(random: Random, scene: Scene): WeeklyHours {
  const allWeek = random.chance(0.04);
  const week: WeeklyHours = {};
  for (const weekday of WEEKDAYS) {
    if (allWeek) {
      week[weekday] = ['00:00-24:00'];
      continue;
    }
    const kind = random.weighted({ unknown: 10, closed: 12, allDay: 8, intervals: 70 });
    if (kind === 'unknown') continue;
    week[weekday] =
      kind === 'closed' ? [] : kind === 'allDay' ? ['00:00-24:00'] : randomIntervals(random, scene);
  }
  return week;
}

/**
 * One to three intervals from the scene's times, in order, the last often past midnight; now
 * and then one that is not valid (its day is then unknown).
 */
function randomIntervals(random: Random, scene: Scene): Interval[] {
  const count = random.int(1, 3);
  const picked = random
    .shuffle(scene.times)
    .slice(0, count * 2)
    .sort((a, b) => a - b);
  const pairs: [number, number][] = [];
  for (let index = 0; index + 1 < picked.length; index += 2) pairs.push([picked[index]!, picked[index + 1]!]);
  const last = pairs[pairs.length - 1]!;
  const earlier = scene.times.filter((time) => time < last[0]);
  if (earlier.length > 0 && random.chance(0.35)) last[1] = random.pick(earlier);
  const intervals = pairs.map(([open, close]) => `${hhmm(open)}-${hhmm(close)}`);
  if (random.chance(0.01)) intervals.push(random.pick(['10:00-10:00', '9-17', '25:00-26:00', '24:00-02:00']));
  return intervals;
}

function randomSpecialDays(random: Random, scene: Scene): SpecialDay[] | undefined {
  if (random.chance(0.3)) return undefined;
  const days: SpecialDay[] = [];
  for (const date of scene.dates) {
    if (!random.chance(0.12)) continue;
    const kind = random.weighted({ closed: 35, allDay: 10, intervals: 55 });
    const hours =
      kind === 'closed' ? [] : kind === 'allDay' ? ['00:00-24:00'] : randomIntervals(random, scene);
    days.push(random.chance(0.4) ? [date, hours, random.pick(LABELS)] : [date, hours]);
  }
  return days;
}

function randomReopening(random: Random, scene: Scene, temporarilyClosed: boolean): string | null {
  if (temporarilyClosed ? random.chance(0.3) : random.chance(0.8)) return null;
  if (random.chance(0.05)) return random.pick(['2025-02-30', 'soon']);
  return random.pick(scene.dates.slice(1, 13));
}

function clampMinutes(minutes: number): number {
  return Math.min(24 * 60, Math.max(0, minutes));
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
