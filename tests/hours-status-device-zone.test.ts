// openingStatus and its texts never read the device's time zone: tests/helpers/hours-status-print.ts
// runs in processes whose TZ is each of six zones (the date line's +14, Lord Howe's half-hour
// DST, both sides of the Atlantic and the Pacific), and every process must print the same
// answers for the named cases and 3,000 random ones.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const DEVICE_ZONES = [
  'UTC',
  'America/Los_Angeles',
  'Europe/Berlin',
  'Asia/Tokyo',
  'Pacific/Kiritimati',
  'Australia/Lord_Howe',
];

interface Printed {
  deviceZone: string;
  answers: unknown[];
}

it('answers the same whatever the device’s time zone', async () => {
  const printed = await Promise.all(
    DEVICE_ZONES.map(async (zone) => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'tests/helpers/hours-status-print.ts'],
        { env: { ...process.env, TZ: zone }, maxBuffer: 64 * 1024 * 1024 },
      );
      return JSON.parse(stdout) as Printed;
    }),
  );
  // Each process did run in its zone.
  expect(printed.map(({ deviceZone }) => deviceZone)).toEqual(DEVICE_ZONES);
  const [first] = printed;
  expect(first!.answers.length).toBeGreaterThan(3000);
  for (const [index, { deviceZone, answers }] of printed.entries()) {
    const differs = answers.findIndex(
      (answer, at) => JSON.stringify(answer) !== JSON.stringify(first!.answers[at]),
    );
    expect(
      differs === -1
        ? null
        : { case: differs, [DEVICE_ZONES[0]!]: first!.answers[differs], [deviceZone]: answers[differs] },
      `answers in ${deviceZone} (${index})`,
    ).toBeNull();
  }
}, 120_000);
