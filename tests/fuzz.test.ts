// The fuzzer of `npm run fuzz` (scripts/fuzz/) at a small budget on every test run: requests
// generated from /openapi.json (valid ones for every operation as anonymous, user and admin,
// then mutated ones) against the app with its fakes, so a change that brings back a 500 for
// some body, string or parameter fails here, with the request that got it.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Fuzzer, preview } from '../scripts/fuzz/run.ts';
import { startWorld, type World } from '../scripts/fuzz/world.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { tempDir } from './helpers/temp.ts';

const SEED = 1;
const BUDGET = 1_500;

let database: TestDatabase;
let world: World;
beforeAll(async () => {
  database = await createTestDatabase();
  world = await startWorld({ databaseUrl: database.url, dataDir: path.join(tempDir('fuzz-'), 'data') });
});
afterAll(async () => {
  await world?.close();
  await database?.drop();
});

it(`answers ${BUDGET} generated requests (seed ${SEED}) without a 5xx`, { timeout: 300_000 }, async () => {
  const fuzzer = new Fuzzer(world, SEED);
  const report = await fuzzer.run({ seed: SEED, budget: BUDGET });
  const failures = report.failures.map(
    (failure) =>
      `${failure.method} ${failure.path} -> ${failure.status} ${failure.code ?? ''} x${failure.count}: ` +
      `${failure.request.caller} ${failure.request.mode} ${failure.request.note} ${failure.request.url} ` +
      `body ${preview(failure.request.payload, 300)}; reproduce: npm run fuzz -- --seed ${SEED} --budget ${failure.index}`,
  );
  expect(failures).toEqual([]);
  expect(report.requests).toBe(BUDGET);
  // Every operation was reached, and valid requests got through: the run tested real code paths.
  expect(Object.keys(report.byOperation)).toHaveLength(fuzzer.operationCount);
  expect(fuzzer.operationCount).toBeGreaterThan(100);
  expect(report.byClass['2xx']).toBeGreaterThan(BUDGET / 10);
});
