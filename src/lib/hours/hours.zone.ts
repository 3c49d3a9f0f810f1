// A time zone's clock over a few weeks around an instant, and the two conversions opening hours
// need: an instant to the location's wall-clock time, and a wall-clock time to an instant,
// resolved as Temporal's `disambiguation: 'compatible'` does. Pure: the widget bundles it.
//
// The offsets come from the runtime's time zone data through Intl.DateTimeFormat (its
// 'longOffset' zone name, "GMT+05:30"), never from the device's zone. Date libraries add
// nothing here but bytes: @date-fns/tz's tzOffset makes this same Intl call, and its TZDate
// builds wall-clock times through the device's zone (compared with Temporal, it took the later
// of a repeated time and gave answers that changed with process.env.TZ: date-fns/tz#40).
// An offset read costs a few microseconds (an Intl format), too much to make several per
// status for thousands of locations, so a clock reads the zone's offsets once for three weeks
// and finds the instants they change at; the conversions are then lookups in that short list.

const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const DAY = 24 * 60 * MINUTE;

/**
 * A zone changes its offset at most once in this long. Since 1990 the closest changes of any
 * IANA zone are 167 hours apart (Brazil 2000, Palestine; tests/hours-zone.slow.test.ts checks
 * every zone through 2100), so two samples this far apart with one offset have no change between.
 */
export const SAMPLE_STEP = 2 * DAY;
/** A clock holds the offsets from COVERS_BEFORE before the instant it is made for to COVERS_AFTER after it ... */
const COVERS_BEFORE = 5 * DAY;
const COVERS_AFTER = 19 * DAY;
/**
 * ... and serves an instant while it covers REACH_BEFORE before it and REACH_AFTER after it: a
 * status reads the days from two before today to eight after, and offsets reach 14 hours.
 */
const REACH_BEFORE = 4 * DAY;
const REACH_AFTER = 12 * DAY;

export interface ZoneClock {
  from: number;
  to: number;
  /** The instants the offset changes at, ascending. */
  changes: number[];
  /** offsets[i] (milliseconds east of UTC) holds before changes[i] and from changes[i - 1]. */
  offsets: number[];
  /** The smallest and the largest of offsets. */
  min: number;
  max: number;
}

// Known zones only: an unknown one is told at once by its offset format's absence (offsetAt).
const clocks = new Map<string, ZoneClock>();

/**
 * The clock of `timeZone` from at least 4 days before `instant` to 12 days after it (kept per
 * zone and reused while it reaches that far), or undefined when the runtime does not know the zone.
 */
export function zoneClock(timeZone: string, instant: number): ZoneClock | undefined {
  // Intl cannot format an invalid instant: without this, the zone would be taken as unknown.
  if (!Number.isFinite(instant)) return undefined;
  const cached = clocks.get(timeZone);
  if (cached && cached.from <= instant - REACH_BEFORE && instant + REACH_AFTER <= cached.to) {
    return cached;
  }
  const clock = readClock(timeZone, instant);
  if (clock) clocks.set(timeZone, clock);
  return clock;
}

const offsetFormats = new Map<string, ((instant: number) => string) | null>();

/**
 * The zone's offset at an instant, in milliseconds east of UTC; NaN when the runtime does not
 * know the zone. 'longOffset' names it "GMT-05:00", "GMT-00:25:21" in a zone's old local mean
 * time, "GMT+00:00" or "GMT" at zero.
 */
export function offsetAt(timeZone: string, instant: number): number {
  let format = offsetFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).format;
    } catch {
      format = null;
    }
    offsetFormats.set(timeZone, format);
  }
  if (!format) return Number.NaN;
  const [, sign, hours = 0, minutes = 0, seconds = 0] =
    /GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/.exec(format(instant)) ?? [];
  const offset = ((+hours * 60 + +minutes) * 60 + +seconds) * SECOND;
  return sign === '-' ? -offset : offset;
}

function readClock(timeZone: string, instant: number): ZoneClock | undefined {
  // Whole seconds throughout: tz data changes offsets on a second.
  const from = Math.floor((instant - COVERS_BEFORE) / SECOND) * SECOND;
  const to = from + COVERS_BEFORE + COVERS_AFTER;
  let previous = offsetAt(timeZone, from);
  if (!Number.isFinite(previous)) return undefined;
  const changes: number[] = [];
  const offsets = [previous];
  for (let start = from; start < to; start += SAMPLE_STEP) {
    const end = Math.min(start + SAMPLE_STEP, to);
    const next = offsetAt(timeZone, end);
    if (next === previous) continue;
    // The first second with the new offset: offsetAt(low) is the old one, offsetAt(high) not.
    let low = start / SECOND;
    let high = end / SECOND;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (offsetAt(timeZone, middle * SECOND) === previous) low = middle;
      else high = middle;
    }
    changes.push(high * SECOND);
    offsets.push(next);
    previous = next;
  }
  return { from, to, changes, offsets, min: Math.min(...offsets), max: Math.max(...offsets) };
}

/** The wall-clock time at an instant, as milliseconds from 1970-01-01T00:00 on that clock (read with getUTC*). */
export function wallClockAt(clock: ZoneClock, instant: number): number {
  let index = 0;
  while (index < clock.changes.length && instant >= clock.changes[index]!) index++;
  return instant + clock.offsets[index]!;
}

/**
 * The instant a wall-clock time (as wallClockAt gives it) happens, as Temporal's
 * `disambiguation: 'compatible'` and RFC 5545 read it: a time that happens twice (the clock
 * turned back) is its earlier occurrence; a time that never happens (the clock jumped forward)
 * moves forward by the jump, 02:30 in a skipped hour reading as 03:30. With `startOfDay`, a
 * skipped time is instead the instant of the jump: the first instant at or after it on the clock.
 */
export function instantOfWallClock(clock: ZoneClock, wallClock: number, startOfDay = false): number {
  const { changes, offsets } = clock;
  // Read with offsets[index], the time is a real occurrence when it falls where that offset
  // holds, from changes[index - 1] to changes[index]; the offsets are in time order, so the
  // first such reading is the earliest. When the reading falls after changes[index] and the
  // next offset's before it, the jump there skipped the time: read with the offset before the
  // jump, it lands after the jump, moved forward by the jump's length.
  let index = 0;
  for (; index < changes.length; index++) {
    const instant = wallClock - offsets[index]!;
    const change = changes[index]!;
    if (instant >= change) {
      if (wallClock - offsets[index + 1]! < change) return startOfDay ? change : instant;
    } else if (index === 0 || instant >= changes[index - 1]!) {
      return instant;
    }
  }
  return wallClock - offsets[index]!;
}
