// The zone clock under openingStatus (src/lib/hours/hours.zone.ts) against Temporal at every
// offset change of 40 zones from 2020 to 2030: the wall-clock time either side of each change,
// and wall-clock times from two hours before to three after it back to instants ('compatible',
// and the start-of-day reading of a skipped time), with the change near either end of the
// clock's reach.
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { DAY, instantOfWallClock, wallClockAt, zoneClock } from '../src/lib/hours/hours.zone.ts';
import { FUZZ_ZONES, zoneTransitions } from './helpers/hours-random.ts';

const MINUTE = 60_000;
const FROM = Date.UTC(2020, 0, 1);
const TO = Date.UTC(2031, 0, 1);

/** A PlainDateTime as wall-clock milliseconds (read with getUTC*, as the clock gives them). */
const wallClockOf = (dateTime: Temporal.PlainDateTime) =>
  Temporal.PlainDateTime.from(dateTime).toZonedDateTime('UTC').epochMilliseconds;

describe('zoneClock', () => {
  it.each(FUZZ_ZONES)('%s matches Temporal around each offset change from 2020 to 2030', (zone) => {
    const differences: string[] = [];
    for (const change of zoneTransitions(zone).filter((instant) => instant >= FROM && instant < TO)) {
      const instants = [change - 1000, change, change + 1000];
      const local = Temporal.Instant.fromEpochMilliseconds(change).toZonedDateTimeISO(zone).toPlainDateTime();
      const wallClocks: { wallClock: number; compatible: number; start: number }[] = [];
      for (let minutes = -150; minutes <= 180; minutes += 15) {
        const dateTime = local.add({ minutes }).round({ smallestUnit: 'minute', roundingIncrement: 15 });
        const compatible = dateTime.toZonedDateTime(zone, { disambiguation: 'compatible' });
        const exists = compatible.toPlainDateTime().equals(dateTime);
        // A skipped time's start-of-day reading: the change itself.
        const start = exists
          ? compatible.epochMilliseconds
          : dateTime.toZonedDateTime(zone, { disambiguation: 'earlier' }).getTimeZoneTransition('next')!
              .epochMilliseconds;
        wallClocks.push({
          wallClock: wallClockOf(dateTime),
          compatible: compatible.epochMilliseconds,
          start,
        });
      }
      // The clock made 11 days before the change, and 3 days after it.
      for (const madeAt of [change - 11 * DAY, change + 3 * DAY]) {
        const clock = zoneClock(zone, madeAt)!;
        for (const instant of instants) {
          const want = wallClockOf(
            Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone).toPlainDateTime(),
          );
          if (wallClockAt(clock, instant) !== want) differences.push(`wall clock at ${instant}`);
        }
        for (const { wallClock, compatible, start } of wallClocks) {
          if (instantOfWallClock(clock, wallClock) !== compatible)
            differences.push(`instant of ${new Date(wallClock).toISOString()}`);
          if (instantOfWallClock(clock, wallClock, true) !== start)
            differences.push(`start of ${new Date(wallClock).toISOString()}`);
        }
      }
    }
    expect(differences).toEqual([]);
  });

  it('day starts match Temporal’s startOfDay on days whose midnight is skipped', () => {
    // Santiago and Havana move their clocks at midnight; Apia skipped 30 December 2011.
    for (const [zone, date] of [
      ['America/Santiago', '2025-09-07'],
      ['America/Havana', '2025-03-09'],
      ['Pacific/Apia', '2011-12-30'],
      ['Pacific/Apia', '2011-12-31'],
    ] as const) {
      const start = Temporal.PlainDate.from(date).toZonedDateTime(zone).epochMilliseconds;
      const clock = zoneClock(zone, start)!;
      expect(instantOfWallClock(clock, Date.parse(`${date}T00:00:00Z`), true), `${zone} ${date}`).toBe(start);
    }
  });

  it('has no clock for a zone the runtime does not know', () => {
    expect(zoneClock('Mars/Olympus_Mons', Date.UTC(2025, 0, 1))).toBeUndefined();
    expect(zoneClock('', Date.UTC(2025, 0, 1))).toBeUndefined();
  });

  it('has no clock at an invalid instant, and the zone keeps its clock for valid ones', () => {
    expect(zoneClock('Asia/Tokyo', Number.NaN)).toBeUndefined();
    expect(zoneClock('Asia/Tokyo', Date.UTC(2025, 0, 1))?.offsets).toEqual([9 * 60 * MINUTE]);
  });

  it('keeps a zone without changes to one offset', () => {
    const clock = zoneClock('Asia/Kolkata', Date.UTC(2025, 0, 1))!;
    expect(clock.changes).toEqual([]);
    expect(clock.offsets).toEqual([330 * MINUTE]);
  });
});
