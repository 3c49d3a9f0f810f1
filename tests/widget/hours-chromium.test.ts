// The opening status and its line of text answer the same in Chromium, whatever the device's
// time zone, as in Node: the widget's own code (openingStatus, localDate, openingText, the
// texts), bundled by esbuild as widget.js bundles it, runs in pages whose Playwright
// `timezoneId` (and locale) differ, under a fixed page clock, over the named cases of
// tests/helpers/hours-cases.ts and 2,000 random ones (tests/helpers/hours-random.ts).
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { projectRoot } from '../../src/lib/project-root.ts';
import { hoursAnswers } from '../helpers/hours-answers.ts';
import { NAMED_CASES } from '../helpers/hours-cases.ts';
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

let browser: Browser;
let bundle: string;

beforeAll(async () => {
  const result = await build({
    stdin: {
      contents:
        "import { hoursAnswers } from './tests/helpers/hours-answers.ts';\n" +
        '(window as unknown as { hoursAnswers: unknown }).hoursAnswers = hoursAnswers;',
      resolveDir: projectRoot,
      loader: 'ts',
    },
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
