// Opening hours in the widget, in a real headless Chromium on the hostile host page, the
// finder's stores (tests/fakes/widget-payload.ts: Berlin's zone, and London, New York and
// Tokyo) written through the service and published, the page's clock put on a Wednesday in
// Berlin: each row's status line in the location's own time, "(local time)" where the
// visitor's clock reads another offset, the details' week with today marked, closed and
// unknown days and nights past midnight, the special days of the coming 30 days, the "Open
// now" filter and its counts, and the lines and the filter following the clock past a closing
// time. On a phone (390x844, touch) and a desktop (1280x800); every state gets an axe scan and
// a screenshot.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, createFinderPayload } from '../fakes/widget-payload.ts';
import { tempDir } from '../helpers/temp.ts';
import { scanWidgets } from './helpers/axe.ts';
import { DESKTOP, PHONE, screenshot } from './helpers/browser.ts';
import { type Stage, startStage, widgetsReady } from './helpers/stage.ts';
import { hostilePage } from './helpers/static-servers.ts';

const MINUTE = 60_000;
// A visitor in New York with a 12-hour clock, one in Berlin with a 24-hour clock.
const NEW_YORK = { timezoneId: 'America/New_York', locale: 'en-US' };
const BERLIN = { timezoneId: 'Europe/Berlin', locale: 'en-GB' };
const PHONE_IN_NEW_YORK: BrowserContextOptions = { ...PHONE, ...NEW_YORK };
const DESKTOP_IN_NEW_YORK: BrowserContextOptions = { ...DESKTOP, ...NEW_YORK };

// The next Wednesday in Berlin after today: the service publishes special days from today on,
// and the page's clock is put on that day.
let wednesday = Temporal.Now.plainDateISO('Europe/Berlin').add({ days: 1 });
while (wednesday.dayOfWeek !== 3) wednesday = wednesday.add({ days: 1 });
const today = wednesday.toString();
/** An instant of that Wednesday (or a day after it) at a Berlin wall-clock time. */
const berlin = (time: string, days = 0) =>
  wednesday.add({ days }).toZonedDateTime({ timeZone: 'Europe/Berlin', plainTime: time }).epochMilliseconds;

let stage: Stage;
const finder = createFinderPayload({ name: 'Our stores', today, abroad: true });

beforeAll(async () => {
  stage = await startStage({
    widgetDir: tempDir('widget-hours-'),
    finders: ({ tiles }) => {
      finder.settings.push({ key: 'tile_url', value: tiles.urlTemplate });
      return [{ payload: finder, published: true }];
    },
  });
}, 120_000);

afterAll(async () => {
  await stage?.close();
});

async function checkState(page: Page, name: string) {
  await screenshot(page, name);
  // axe waits on timers: the clock runs for the scan, then stands still again.
  await page.clock.resume();
  const scan = await scanWidgets(page);
  await page.clock.pauseAt(((await page.evaluate('Date.now()')) as number) + 1000);
  expect(scan.errors).toEqual([]);
  expect(scan.violations).toEqual([]);
}

/** Runs the page's clock on to `time` (timers due on the way fire). */
async function runTo(page: Page, time: number) {
  await page.clock.runFor(time - ((await page.evaluate('Date.now()')) as number));
}

/** The page at `time` (its clock then stands still), the widget shown. */
async function openAt(path: string, time: number, options: BrowserContextOptions) {
  const opened = await stage.open(
    path,
    hostilePage({ scriptUrl: stage.backend.scriptUrl, token: finder.token }),
    {
      otherOrigin: true,
      clock: time,
      ...options,
    },
  );
  await widgetsReady(opened.page);
  // The map first: its file has a bound in time, which the clock's jump below would pass.
  await opened.page.waitForFunction(
    `document.querySelector('[data-location-finder]').shadowRoot.querySelector('.lf-map.leaflet-container')`,
  );
  // Half a minute on: the lines drawn at load (within that minute) stay as they are.
  await opened.page.clock.pauseAt(time + 30_000);
  return opened.page;
}

const inWidget = (page: Page, script: string) =>
  page.evaluate(
    `(async () => { const root = document.querySelector('[data-location-finder]').shadowRoot; ${script} })()`,
  );

/**
 * Each result's title and its line under the address (distance and opening status; null when
 * there is none), scrolling the virtual list through. Its scroll draws rows in an animation
 * frame, which the page's clock (standing still) gives only as it is run on: 20 ms a step.
 */
async function rowLines(page: Page): Promise<Record<string, string | null>> {
  const lines: [number, string, string | null][] = [];
  for (let top = 0; ; top += 300) {
    await inWidget(page, `root.querySelector('.lf-list-scroll').scrollTop = ${top};`);
    await drawScroll(page);
    lines.push(
      ...((await inWidget(
        page,
        `return [...root.querySelectorAll('.lf-row')].map((row) => [
           Number(row.closest('li').dataset.index),
           row.querySelector('.lf-row-title').textContent,
           row.querySelector('.lf-row-meta')?.textContent ?? null,
         ]);`,
      )) as [number, string, string | null][]),
    );
    if (
      top >= ((await inWidget(page, `return root.querySelector('.lf-list-scroll').scrollHeight`)) as number)
    ) {
      break;
    }
  }
  await inWidget(page, `root.querySelector('.lf-list-scroll').scrollTop = 0;`);
  await drawScroll(page);
  // In the list's order, each row as last drawn.
  return Object.fromEntries(lines.sort(([a], [b]) => a - b).map(([, title, line]) => [title, line] as const));
}

/** The browser sends the scroll event in its next frame; the list's frame is then on the clock. */
async function drawScroll(page: Page) {
  await page.waitForTimeout(100);
  await page.clock.runFor(20);
}

/** The details' opening hours: the field's label and each row's name, hours and aria-current. */
const week = (page: Page) =>
  inWidget(
    page,
    `const table = root.querySelector('.lf-details .lf-week');
     if (!table) return null;
     return {
       label: table.closest('.lf-field').querySelector('dt').textContent,
       rows: [...table.querySelectorAll('tr')].map((tr) => [
         tr.querySelector('th').textContent,
         tr.querySelector('td').textContent,
         tr.querySelector('th').getAttribute('aria-current'),
       ]),
     };`,
  ) as Promise<{ label: string; rows: [string, string, string | null][] } | null>;

const statusText = (page: Page) => page.locator('.lf-status').textContent();
const list = (page: Page) => page.getByRole('list', { name: 'Locations' });
const row = (page: Page, title: string) => list(page).getByRole('button', { name: new RegExp(`^${title}`) });
const openNow = (page: Page) =>
  page.getByRole('group', { name: 'Opening hours' }).getByRole('checkbox', { name: 'Open now' });

/** A date of the test's week as the widget's en-US texts write it ("Fri, Jun 20"). */
const dayOf = (
  days: number,
  options: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric' },
) =>
  new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' }).format(Date.parse(addDays(today, days)));

// Wednesday 10:00 in Berlin: 04:00 (or 05:00) in New York, 09:00 in London, 17:00 (or 18:00) in Tokyo.
const WEDNESDAY_MORNING_IN_NEW_YORK = {
  'Berlin Mitte': 'Open now · closes 7:00 PM (local time)',
  'Berlin Alexanderplatz': 'Closed · opens 11:00 AM (local time)',
  'Berlin Kreuzberg': 'Open now · closes 12:30 PM (local time)',
  // Its opening instant is open.
  'Potsdam Brandenburger Straße': 'Open now · closes 8:00 PM (local time)',
  'Hamburg Jungfernstieg': 'Open now · closes 7:00 PM (local time)',
  'Hamburg Altona': `Temporarily closed · reopens ${dayOf(10, { month: 'short', day: 'numeric' })}`,
  'München Marienplatz': 'Open now · closes 7:00 PM (local time)',
  'München Schwabing': 'Closed · opens 11:00 AM (local time)',
  // No hours: nothing.
  'Köln Domplatte': null,
  // Around the clock: no closing within the week.
  'Frankfurt Zeil': 'Open now',
  'Leipzig Markt': 'Open now · closes 12:30 PM (local time)',
  'Dresden Altmarkt': 'Closed · opens 11:00 AM (local time)',
  'London Covent Garden': 'Open now · closes 7:00 PM (local time)',
  // The visitor's own zone: no note.
  'New York SoHo': 'Closed · opens 11:00 AM',
  // 17:00 in Tokyo closes at 19:00; 18:00 (Berlin on winter time) counts the minutes.
  'Tokyo Shibuya':
    Temporal.Instant.fromEpochMilliseconds(berlin('10:00')).toZonedDateTimeISO('Asia/Tokyo').hour === 17
      ? 'Open now · closes 7:00 PM (local time)'
      : 'Closes in 60 min',
};

describe('on a phone (390x844, touch) in New York', () => {
  it('says each location’s status in its own time, and the week in the details', async () => {
    const page = await openAt('/hours-phone', berlin('10:00'), PHONE_IN_NEW_YORK);
    expect(await rowLines(page)).toEqual(WEDNESDAY_MORNING_IN_NEW_YORK);
    // The line is part of the row's name, whole even where the row cuts it short.
    expect(await row(page, 'Berlin Mitte').ariaSnapshot()).toBe(
      '- button "Berlin Mitte Unter den Linden 1, 10117 Berlin Open now · closes 7:00 PM (local time)"',
    );
    await checkState(page, 'hours-phone-list');

    await row(page, 'Berlin Mitte').tap();
    const panel = page.getByRole('article', { name: 'Berlin Mitte' });
    await panel.waitFor();
    expect(await week(page)).toEqual({
      label: 'Opening hours (local time)',
      rows: [
        ['Monday', '9:00 AM – 7:00 PM', null],
        ['Tuesday', '9:00 AM – 7:00 PM', null],
        ['Wednesday', '9:00 AM – 7:00 PM', 'date'],
        ['Thursday', '9:00 AM – 7:00 PM', null],
        ['Friday', '9:00 AM – 7:00 PM', null],
        ['Saturday', '10:00 AM – 6:00 PM', null],
        ['Sunday', 'Closed', null],
        // The special days of the next 30 days (not the one 45 days ahead), labels after the hours.
        [dayOf(2), '10:00 AM – 2:00 PM · Stocktaking', null],
        [dayOf(9), 'Closed', null],
      ],
    });
    // Today, for screen readers: the row header of Wednesday is the current date.
    expect(await panel.getByRole('rowheader', { name: 'Wednesday' }).getAttribute('aria-current')).toBe(
      'date',
    );
    // Directions stay on screen below the longer card.
    const directions = await panel
      .getByRole('link', { name: 'Directions (opens in a new tab)' })
      .boundingBox();
    expect(directions!.y + directions!.height).toBeLessThanOrEqual(844);
    await checkState(page, 'hours-phone-details');

    // Late hours: the nights past midnight name the day they end on; a special night too.
    await panel.getByRole('button', { name: 'Back to results' }).tap();
    await row(page, 'Berlin Alexanderplatz').tap();
    await page.getByRole('article', { name: 'Berlin Alexanderplatz' }).waitFor();
    const late = await week(page);
    expect(late?.rows.slice(4)).toEqual([
      ['Friday', '11:00 AM – Sat 2:00 AM', null],
      ['Saturday', '11:00 AM – Sun 2:00 AM', null],
      ['Sunday', '12:00 PM – 10:00 PM', null],
      [dayOf(1), `6:00 PM – ${dayOf(2, { weekday: 'short' })} 3:00 AM · Late night shopping`, null],
    ]);
    await checkState(page, 'hours-phone-details-late');
  }, 90_000);

  it('states unknown days and a temporary closure, and shows no hours where there are none', async () => {
    const page = await openAt('/hours-phone-unknown', berlin('10:00'), PHONE_IN_NEW_YORK);
    await row(page, 'Potsdam Brandenburger Straße').tap();
    await page.getByRole('article', { name: 'Potsdam Brandenburger Straße' }).waitFor();
    expect((await week(page))?.rows.at(-1)).toEqual(['Sunday', 'Not known', null]);
    await page.keyboard.press('Escape');

    await row(page, 'Köln Domplatte').tap();
    const cologne = page.getByRole('article', { name: 'Köln Domplatte' });
    await cologne.waitFor();
    expect(await week(page)).toBeNull();
    expect(await cologne.getByText('Opening hours').count()).toBe(0);
    await checkState(page, 'hours-phone-details-unknown');
    await page.keyboard.press('Escape');

    // A temporary closure heads (and names) the week, which is not read as open.
    await row(page, 'Hamburg Altona').tap();
    const altona = page.getByRole('article', { name: 'Hamburg Altona' });
    await altona.waitFor();
    const closure = `Temporarily closed · reopens ${dayOf(10, { month: 'short', day: 'numeric' })}`;
    expect(await altona.getByRole('table', { name: closure }).count()).toBe(1);
    expect((await week(page))?.rows).toHaveLength(7);
    await checkState(page, 'hours-phone-details-closed');
  }, 60_000);

  it('filters to the locations open now, with the counts', async () => {
    const page = await openAt('/hours-phone-filter', berlin('10:00'), PHONE_IN_NEW_YORK);
    expect(await statusText(page)).toBe('15 locations');
    await page.getByRole('button', { name: 'Filters', exact: true }).tap();
    await openNow(page).tap();
    const open = [
      'Berlin Mitte',
      'Berlin Kreuzberg',
      'Potsdam Brandenburger Straße',
      'Hamburg Jungfernstieg',
      'München Marienplatz',
      'Frankfurt Zeil',
      'Leipzig Markt',
      'London Covent Garden',
      'Tokyo Shibuya',
    ];
    await page.locator('.lf-status', { hasText: '9 locations' }).waitFor();
    expect(await page.getByRole('button', { name: 'Filters (1 active)' }).isVisible()).toBe(true);
    const show = page.getByRole('button', { name: 'Show 9 locations' });
    await checkState(page, 'hours-phone-filter');

    await show.tap();
    expect(Object.keys(await rowLines(page))).toEqual(open);
    await checkState(page, 'hours-phone-filter-applied');

    // "Clear filters" clears it too.
    await page.getByRole('button', { name: 'Filters (1 active)' }).tap();
    await page.getByRole('button', { name: 'Clear filters' }).tap();
    expect(await openNow(page).isChecked()).toBe(false);
    await page.locator('.lf-status', { hasText: '15 locations' }).waitFor();
  }, 60_000);
});

describe('on a desktop (1280x800)', () => {
  it('follows the clock: minutes counted down, then closed, and the open-now filter’s results', async () => {
    const page = await openAt('/hours-desktop-clock', berlin('18:30'), DESKTOP_IN_NEW_YORK);
    // Counting the setTimeout calls, to see the minute's timer stop with the widget.
    await page.evaluate(`(() => {
      const set = window.setTimeout;
      window.timeoutsSet = 0;
      window.setTimeout = function (...args) { window.timeoutsSet++; return set.apply(this, args); };
    })()`);
    const lines = await rowLines(page);
    expect(lines['Berlin Mitte']).toBe('Closes in 30 min');
    expect(lines['London Covent Garden']).toBe('Open now · closes 7:00 PM (local time)');
    await checkState(page, 'hours-desktop-list');

    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await openNow(page).check();
    // Open at 18:30 in Berlin: the shops till 19:00, the late ones, Potsdam (till 20:00),
    // Frankfurt (always), London (17:30 there) and New York (12:30).
    await page.locator('.lf-status', { hasText: '10 locations' }).waitFor();
    await checkState(page, 'hours-desktop-filter');

    await runTo(page, berlin('18:59:30'));
    expect((await rowLines(page))['Berlin Mitte']).toBe('Closes in 1 min');
    expect(await statusText(page)).toBe('10 locations');

    // 19:00:30 in Berlin: the three shops have closed; London closes at 19:00 its time.
    await runTo(page, berlin('19:00:30'));
    await page.locator('.lf-status', { hasText: '7 locations' }).waitFor();
    const after = await rowLines(page);
    expect(Object.keys(after)).toEqual([
      'Berlin Alexanderplatz',
      'Potsdam Brandenburger Straße',
      'München Schwabing',
      'Frankfurt Zeil',
      'Dresden Altmarkt',
      'London Covent Garden',
      'New York SoHo',
    ]);
    // Drawn at 19:00:00, an hour before London's closing: not yet counting the minutes.
    expect(after['London Covent Garden']).toBe('Open now · closes 7:00 PM (local time)');
    await checkState(page, 'hours-desktop-filter-later');

    await openNow(page).uncheck();
    await page.locator('.lf-status', { hasText: '15 locations' }).waitFor();
    expect((await rowLines(page))['Berlin Mitte']).toBe('Closed · opens Thu 9:00 AM (local time)');

    // The widget leaves the page: its minute's timer goes with it.
    await page.evaluate(`document.querySelector('[data-location-finder]').remove()`);
    await page.clock.runFor(MINUTE);
    const before = await page.evaluate('window.timeoutsSet');
    await page.clock.runFor(5 * MINUTE);
    expect(await page.evaluate('window.timeoutsSet')).toBe(before);
  }, 90_000);

  it('in the visitor’s own zone and clock, says no "local time" but of other zones', async () => {
    const page = await openAt('/hours-desktop-berlin', berlin('10:00'), { ...DESKTOP, ...BERLIN });
    const lines = await rowLines(page);
    expect(lines['Berlin Mitte']).toBe('Open now · closes 19:00');
    expect(lines['Berlin Alexanderplatz']).toBe('Closed · opens 11:00');
    expect(lines['London Covent Garden']).toBe('Open now · closes 19:00 (local time)');
    expect(lines['New York SoHo']).toBe('Closed · opens 11:00 (local time)');

    await row(page, 'Berlin Mitte').click();
    await page.getByRole('article', { name: 'Berlin Mitte' }).waitFor();
    const details = await week(page);
    expect(details?.label).toBe('Opening hours');
    expect(details?.rows[0]).toEqual(['Monday', '09:00 – 19:00', null]);
    await checkState(page, 'hours-desktop-details');
  }, 60_000);
});
