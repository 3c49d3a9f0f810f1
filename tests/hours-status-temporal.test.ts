// openingStatus against the Temporal reference (tests/helpers/hours-reference.ts) on 10,000
// random cases in 40 zones; `npm run test:slow` runs 100,000 more
// (hours-status-temporal.slow.test.ts). HOURS_SEED=<n> tries other cases; a failure lists the
// first cases that differ, with the seed to run them again.
import { expect, it } from 'vitest';
import { randomHoursCases } from './helpers/hours-random.ts';
import { mismatchesWithReference } from './helpers/hours-reference.ts';

const seed = Number(process.env.HOURS_SEED ?? 20_250_601);

it(`answers as the Temporal reference on 10,000 random cases (seed ${seed})`, () => {
  expect(mismatchesWithReference(randomHoursCases(seed, 10_000))).toEqual([]);
}, 120_000);
