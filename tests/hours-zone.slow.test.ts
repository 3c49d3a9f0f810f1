// What the zone clock (src/lib/hours/hours.zone.ts) takes for granted: no zone changes its
// offset twice within SAMPLE_STEP, so two samples that far apart with the same offset have no
// change between them. Checked for every zone the runtime knows, from 1990 to 2100.
import { Temporal } from 'temporal-polyfill';
import { expect, it } from 'vitest';
import { SAMPLE_STEP } from '../src/lib/hours/hours.zone.ts';
import { FUZZ_ZONES } from './helpers/hours-random.ts';

it('no zone changes its offset twice within the clock’s sample step, 1990-2100', () => {
  const from = Date.UTC(1990, 0, 1);
  const to = Date.UTC(2100, 0, 1);
  const tooClose: string[] = [];
  for (const zone of new Set([...Intl.supportedValuesOf('timeZone'), ...FUZZ_ZONES])) {
    let previous: number | undefined;
    let at = Temporal.Instant.fromEpochMilliseconds(from)
      .toZonedDateTimeISO(zone)
      .getTimeZoneTransition('next');
    while (at && at.epochMilliseconds < to) {
      if (previous !== undefined && at.epochMilliseconds - previous <= SAMPLE_STEP)
        tooClose.push(`${zone} ${at}`);
      previous = at.epochMilliseconds;
      at = at.getTimeZoneTransition('next');
    }
  }
  expect(tooClose).toEqual([]);
}, 300_000);
