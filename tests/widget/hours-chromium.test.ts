// The opening status and its line of text answer the same in Chromium, whatever the device's
// time zone, as in Node: the widget's own code (openingStatus, localDate, openingText, the
// texts), bundled by esbuild as widget.js bundles it, runs in pages whose Playwright
// `timezoneId` (and locale) differ, under a fixed page clock, over the named cases of
// tests/helpers/hours-cases.ts and 2,000 random ones (tests/helpers/hours-random.ts). The named
// cases run again with the page's clock (Playwright's page.clock) set to each case's instant,
// the instant read from the clock in the page (Date.now(), as the widget's list row does).
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { projectRoot } from '../../src/lib/project-root.ts';
import { hoursAnswers } from '../helpers/hours-answers.ts';
import { NAMED_CASES, readableStatus } from '../helpers/hours-cases.ts';
import { randomHoursCases } from '../helpers/hours-random.ts';
import { launchChromium } from './helpers/browser.ts';

/** Device zones: the date line's +14 and -11, Lord Howe's half-hour DST, both sides of the Pacific and Europe. */
const DEVICES = [
  { timezoneId: 'Asia/Tokyo', locale: 'ja-JP' },
  { timezoneId: 'Europe/Berlin', locale: 'de-DE' },
  { timezoneId: 'America/Los_Angeles', locale: 'en-US' },
  { timezoneId: 'Pacific/Kiritimati', locale: 'en-GB' },
  { timezoneId: 'Australia/Lord_Howe', locale: 'en-AU' },
  { timezoneId: 'Pacific/Pago_Pago', locale: 'fr-FR' },
];

const cases = [
  ...NAMED_CASES.map(({ schedule, at }) => ({ schedule, now: Date.parse(at) })),
  ...randomHoursCases(20_251_127, 2000),
];

/**
 * The page's entry: hoursAnswers with its instants as arguments, and hoursAtClock, which takes
 * each case's instant from the page's clock (Date.now()) and also draws the list row's status
 * line as finder-view.ts does, `statusLine(location, Date.now(), context)`, in en-US.
 */
const PAGE_ENTRY = `
import { hoursAnswers } from './tests/helpers/hours-answers.ts';
import { statusLine } from './src/widget/hours.view.ts';
import { createTranslator } from './src/widget/i18n.ts';
const page = window as unknown as Record<string, unknown>;
page.hoursAnswers = hoursAnswers;
const context = { locale: 'en-US', t: createTranslator('en') };
page.hoursAtClock = (schedules: any[]) =>
  schedules.map((schedule) => {
    const now = Date.now();
    const [answer] = hoursAnswers([{ schedule, now }]);
    return { now, answer, line: statusLine(schedule, Date.now(), context) };
  });
`;

let browser: Browser;
let bundle: string;

beforeAll(async () => {
  const result = await build({
    stdin: {
      contents: PAGE_ENTRY,
      resolveDir: projectRoot,
      loader: 'ts',
    },
    // hours.view.ts imports its stylesheet as text, as widget.js does.
    loader: { '.css': 'text' },
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    logLevel: 'silent',
  });
  bundle = result.outputFiles[0]!.text;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

it('gives Node’s answers in Chromium under every device zone', async () => {
  const expected = JSON.parse(JSON.stringify(hoursAnswers(cases))) as unknown[];
  expect(expected.length).toBe(NAMED_CASES.length + 2000);
  for (const device of DEVICES) {
    const context = await browser.newContext(device);
    try {
      const page = await context.newPage();
      // A clock that stands still at an instant of no case: nothing may read it.
      await page.clock.install({ time: Date.UTC(2031, 4, 5, 6, 7, 8) });
      await page.clock.pauseAt(Date.UTC(2031, 4, 5, 6, 7, 9));
      await page.setContent('<!doctype html><html><head><title>hours</title></head><body></body></html>');
      await page.addScriptTag({ content: `window.cases = ${JSON.stringify(cases)};` });
      await page.addScriptTag({ content: bundle });
      // The page does run in the device's zone: a Date reads its offset there.
      expect(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone')).toBe(device.timezoneId);
      const answers = (await page.evaluate('window.hoursAnswers(window.cases)')) as unknown[];
      const differs = answers.findIndex(
        (answer, index) => JSON.stringify(answer) !== JSON.stringify(expected[index]),
      );
      expect(
        differs === -1 ? null : { case: cases[differs], node: expected[differs], chromium: answers[differs] },
        `answers in ${device.timezoneId}`,
      ).toBeNull();
      expect(answers.length).toBe(expected.length);
    } finally {
      await context.close();
    }
  }
}, 120_000);

/** A zone's UTC offset at an instant (NaN for a zone that does not exist), by the Temporal polyfill. */
function offsetAt(timeZone: string, instant: number): number {
  try {
    return Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(timeZone).offsetNanoseconds;
  } catch {
    return Number.NaN;
  }
}

it('gives the named cases’ answers in Chromium with the page’s clock at each case’s instant', async () => {
  // The cases by instant: one clock setting serves all the cases of an instant.
  const byInstant = new Map<number, number[]>();
  NAMED_CASES.forEach(({ at }, index) => {
    const instant = Date.parse(at);
    byInstant.set(instant, [...(byInstant.get(instant) ?? []), index]);
  });
  expect(byInstant.size).toBeGreaterThan(20);
  const node = JSON.parse(
    JSON.stringify(hoursAnswers(NAMED_CASES.map(({ schedule, at }) => ({ schedule, now: Date.parse(at) })))),
  ) as { status: unknown; texts: (string | null)[] }[];
  const wanted = NAMED_CASES.map(({ name, want }) => [name, readableStatus(want)]);
  for (const device of DEVICES) {
    const context = await browser.newContext(device);
    try {
      const page = await context.newPage();
      await page.clock.setFixedTime(Date.UTC(2031, 4, 5, 6, 7, 8));
      await page.setContent('<!doctype html><html><head><title>hours</title></head><body></body></html>');
      await page.addScriptTag({ content: `window.named = ${JSON.stringify(NAMED_CASES)};` });
      await page.addScriptTag({ content: bundle });
      expect(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone')).toBe(device.timezoneId);
      const results: { now: number; answer: (typeof node)[number]; line: string | null }[] = [];
      for (const [instant, indices] of byInstant) {
        await page.clock.setFixedTime(instant);
        const answers = (await page.evaluate(
          `window.hoursAtClock(${JSON.stringify(indices)}.map((index) => window.named[index].schedule))`,
        )) as typeof results;
        indices.forEach((caseIndex, k) => {
          results[caseIndex] = answers[k]!;
        });
      }
      // Node's answers at the case's instant; the row's line is the en-US text that says "local
      // time" when the device's offset at that instant differs from the location's.
      const expected = NAMED_CASES.map(({ schedule, at }, index) => {
        const instant = Date.parse(at);
        const zone = schedule.time_zone;
        const local = !!zone && offsetAt(zone, instant) !== offsetAt(device.timezoneId, instant);
        return { now: instant, answer: node[index]!, line: node[index]!.texts[local ? 1 : 0] ?? null };
      });
      const differs = expected.findIndex(
        (want, index) => JSON.stringify(results[index]) !== JSON.stringify(want),
      );
      expect(
        differs === -1
          ? null
          : { case: NAMED_CASES[differs]!.name, node: expected[differs], chromium: results[differs] },
        `answers at the page's clock in ${device.timezoneId}`,
      ).toBeNull();
      expect(results.length).toBe(NAMED_CASES.length);
      // And the statuses worked out by hand.
      expect(
        results.map((result, index) => [
          NAMED_CASES[index]!.name,
          readableStatus(result.answer.status as never),
        ]),
      ).toEqual(wanted);
    } finally {
      await context.close();
    }
  }
}, 120_000);
