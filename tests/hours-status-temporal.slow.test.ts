// The long run of hours-status-temporal.test.ts: 100,000 random cases of another seed.
import { expect, it } from 'vitest';
import { randomHoursCases } from './helpers/hours-random.ts';
import { mismatchesWithReference } from './helpers/hours-reference.ts';

const seed = Number(process.env.HOURS_SEED ?? 20_250_602);

it(`answers as the Temporal reference on 100,000 random cases (seed ${seed})`, () => {
  expect(mismatchesWithReference(randomHoursCases(seed, 100_000))).toEqual([]);
}, 600_000);
