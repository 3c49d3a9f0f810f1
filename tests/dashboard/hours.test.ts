// The location editor's opening hours in Chromium against the real service: a week with a
// split day, an interval past midnight, a day copied to Monday–Friday, 24 hours, closed and not
// known, saved and shown again after a reload; overlapping intervals caught before sending and
// the service's 422s beside their controls (an interval, the time zone); a derived time zone
// with the service's review sentence, kept, then given back to the coordinates; special days
// and a temporary closure saved and read back; the week at a phone's 390 px without sideways
// scrolling. axe scans each state, open pickers included; no page logs an error, breaks its
// CSP or reaches off this machine.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, tokenFor } from '../factories/users.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type ApiMethod, type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import {
  addSpecialDay,
  expectOptionsAccessible,
  intervalGroup,
  setDayState,
  setInterval,
  shownWeek,
  stateSelect,
} from './helpers/hours-steps.ts';
import {
  expectAccessible,
  expectClean,
  expectFieldError,
  expectSuggestionsAccessible,
  suggest,
} from './helpers/page-steps.ts';

let stage: DashboardStage;
let token: string;
let workspaceId: number;

const BROWSER_TEST_TIMEOUT = 120_000;

const api = <T>(method: ApiMethod, url: string, body?: unknown) => stage.api<T>(token, method, url, body);

interface LocationJson {
  id: number;
  time_zone: string | null;
  time_zone_derived: boolean;
  time_zone_review: string | null;
  hours: Record<string, string[]> | null;
  special_hours: { date: string; end_date: string | null; hours: string[]; label: string | null }[] | null;
  temporarily_closed: boolean;
  reopens_on: string | null;
}

const newLocation = (payload: Record<string, unknown>) =>
  api<LocationJson>('POST', '/locations', { workspace_id: workspaceId, ...payload });
const read = (id: number) => api<LocationJson>('GET', `/locations/${id}`);

beforeAll(async () => {
  stage = await startDashboardStage();
  token = await tokenFor(stage.ctx.deps, await createUser(stage.ctx.deps));
  workspaceId = (await api<{ id: number }[]>('GET', '/workspaces'))[0]?.id as number;
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

async function openEditor(id: number, title: string, options?: BrowserContextOptions) {
  const opened = await stage.openSignedIn(token, `/app/locations/${id}`, options);
  await opened.page.getByRole('heading', { name: title, level: 1 }).waitFor();
  await opened.page.getByRole('heading', { name: 'Opening hours' }).waitFor();
  return opened;
}

async function save(page: Page) {
  await page.getByRole('button', { name: 'Save' }).click();
}

const savedNotice = (page: Page) => page.getByRole('status').filter({ hasText: 'Saved.' });

/** Counts the location PUTs the page sends. */
function countPuts(page: Page) {
  const puts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && /\/api\/locations\/\d+$/.test(request.url())) puts.push(request.url());
  });
  return puts;
}

describe('opening hours in the location editor', () => {
  it(
    'edits a week with a split day, past midnight, copied to Monday–Friday, 24 hours, closed and not known; a reload shows it',
    async () => {
      const location = await newLocation({ title: 'Night Owl', time_zone: 'Europe/Berlin' });
      const opened = await openEditor(location.id, 'Night Owl');
      const { page } = opened;
      await expectAccessible(page, 'hours-empty');

      await setDayState(page, page, 'Monday', 'Open');
      await setInterval(page, 'Monday', 1, '09:00', '13:00');
      await page.getByRole('button', { name: 'Add hours to Monday' }).click();
      await setInterval(page, 'Monday', 2, '14:00', '18:00');
      await page.getByRole('button', { name: 'Copy Monday to Monday–Friday' }).click();
      await page.getByRole('status').filter({ hasText: 'Monday copied to Monday–Friday.' }).waitFor();
      // Friday runs past midnight: said under its closing time.
      await intervalGroup(page, 'Friday', 2).getByLabel('Closes').fill('02:00');
      await intervalGroup(page, 'Friday', 2).getByText('Until 2:00 AM the next day').waitFor();
      await setDayState(page, page, 'Thursday', 'Not known');
      await setDayState(page, page, 'Saturday', 'Closed');
      await stateSelect(page, 'Sunday').click();
      await page.getByRole('option', { name: 'Open 24 hours' }).waitFor();
      await expectOptionsAccessible(page, 'hours-day-state-options');
      await page.getByRole('option', { name: 'Open 24 hours' }).click();
      await expectAccessible(page, 'hours-week');

      await save(page);
      await savedNotice(page).waitFor();
      expect((await read(location.id)).hours).toEqual({
        mon: ['09:00-13:00', '14:00-18:00'],
        tue: ['09:00-13:00', '14:00-18:00'],
        wed: ['09:00-13:00', '14:00-18:00'],
        fri: ['09:00-13:00', '14:00-02:00'],
        sat: [],
        sun: ['00:00-24:00'],
      });

      const expected = {
        Monday: 'Open 09:00-13:00 14:00-18:00',
        Tuesday: 'Open 09:00-13:00 14:00-18:00',
        Wednesday: 'Open 09:00-13:00 14:00-18:00',
        Thursday: 'Not known',
        Friday: 'Open 09:00-13:00 14:00-02:00',
        Saturday: 'Closed',
        Sunday: 'Open 24 hours',
      };
      expect(await shownWeek(page)).toEqual(expected);
      await page.reload();
      await page.getByRole('heading', { name: 'Opening hours' }).waitFor();
      expect(await shownWeek(page)).toEqual(expected);

      // "Copy to every day" copies a day's state too, and a close at midnight is the day's end.
      await setInterval(page, 'Monday', 2, '14:00', '00:00');
      await intervalGroup(page, 'Monday', 2).getByText('Until midnight').waitFor();
      await page.getByRole('button', { name: /^Monday Copy the hours of$/ }).click();
      await page.getByRole('option', { name: 'Saturday' }).click();
      await page.getByRole('button', { name: 'Copy Saturday to every day' }).click();
      await expect.poll(async () => Object.values(await shownWeek(page))).toEqual(Array(7).fill('Closed'));
      await setDayState(page, page, 'Monday', 'Open 24 hours');
      await save(page);
      await expect
        .poll(async () => (await read(location.id)).hours)
        .toEqual({
          mon: ['00:00-24:00'],
          tue: [],
          wed: [],
          thu: [],
          fri: [],
          sat: [],
          sun: [],
        });
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'catches overlapping intervals before sending; shows the service’s 422s beside the interval and the time zone',
    async () => {
      const location = await newLocation({ title: 'Corner Shop' });
      const opened = await openEditor(location.id, 'Corner Shop');
      const { page } = opened;
      const puts = countPuts(page);

      await setDayState(page, page, 'Monday', 'Open');
      await setInterval(page, 'Monday', 1, '09:00', '13:00');
      await page.getByRole('button', { name: 'Add hours to Monday' }).click();
      await setInterval(page, 'Monday', 2, '12:00', '18:00');
      await save(page);
      const second = intervalGroup(page, 'Monday', 2);
      await expectFieldError(page, second.getByLabel('Opens'), /may not overlap/);
      await expectFieldError(page, second.getByLabel('Closes'), /may not overlap/);
      expect(
        await intervalGroup(page, 'Monday', 1).getByLabel('Opens').getAttribute('aria-invalid'),
      ).toBeNull();
      expect(puts).toEqual([]);
      await expectAccessible(page, 'hours-overlap');
      // Editing the day takes its error away.
      await second.getByLabel('Opens').fill('14:00');
      await expect.poll(() => second.getByLabel('Opens').getAttribute('aria-invalid')).toBeNull();

      // A location with hours needs a time zone: this one has neither a zone nor a position.
      await save(page);
      const zone = page.getByRole('combobox', { name: 'Time zone' });
      await expectFieldError(page, zone, /time zone field is required when hours/);
      expect(puts).toHaveLength(1);
      await expectAccessible(page, 'hours-time-zone-required');

      // The service's own path reaches the same interval: the body is altered on its way as an
      // older client's would be, so the service, not the page, refuses it.
      await page.route(/\/api\/locations\/\d+$/, async (route) => {
        const body = JSON.parse(route.request().postData() ?? '{}');
        body.hours.mon = ['09:00-13:00', '12:00-18:00'];
        await route.continue({ postData: JSON.stringify(body) });
      });
      await suggest(zone, 'paris', page.getByRole('option', { name: 'Europe/Paris' }));
      await expectSuggestionsAccessible(page, 'hours-time-zone-suggestions');
      await page.getByRole('option', { name: 'Europe/Paris' }).click();
      await save(page);
      await expectFieldError(page, second.getByLabel('Opens'), /may not overlap/);
      await page.unrouteAll();
      expect(await zone.getAttribute('aria-invalid')).toBeNull();

      await second.getByLabel('Opens').fill('14:30');
      await save(page);
      await savedNotice(page).waitFor();
      expect(await read(location.id)).toMatchObject({
        time_zone: 'Europe/Paris',
        time_zone_derived: false,
        hours: { mon: ['09:00-13:00', '14:30-18:00'] },
      });
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'shows a derived time zone with the service’s review sentence; keeps it by hand, then derives it again',
    async () => {
      // Tornio lies in Finland; a country of Sweden makes the service ask for a look.
      const location = await newLocation({
        title: 'Border Store',
        lat: 65.8481,
        lng: 24.1466,
        country: 'Sweden',
      });
      expect(location.time_zone_review).toMatch(/not one of SE/);
      const opened = await openEditor(location.id, 'Border Store');
      const { page } = opened;
      const zone = page.getByRole('combobox', { name: 'Time zone' });
      expect(await zone.inputValue()).toBe('Europe/Helsinki');
      await page.getByText('Derived from the coordinates.').waitFor();
      const review = page.locator('.notice.warning');
      expect(await review.textContent()).toContain(location.time_zone_review);
      // The sentence is read out with the field.
      expect(await zone.getAttribute('aria-describedby')).toContain(await review.getAttribute('id'));
      await expectAccessible(page, 'hours-time-zone-review');

      // Moved to Stockholm, the store's zone is derived again on save: the stored one is neither
      // shown as derived nor offered to keep, nor is its review sentence.
      const latitude = page.getByLabel('Latitude');
      const longitude = page.getByLabel('Longitude');
      await latitude.fill('59.3293');
      await longitude.fill('18.0686');
      await page.getByText('Derived from the coordinates when you save.').waitFor();
      expect(await zone.inputValue()).toBe('');
      expect(await page.getByRole('button', { name: 'Keep Europe/Helsinki' }).count()).toBe(0);
      expect(await review.count()).toBe(0);
      // Back where it was derived, it is shown again.
      await latitude.fill('65.8481');
      await longitude.fill('24.1466');
      await page.getByText('Derived from the coordinates.').waitFor();
      expect(await zone.inputValue()).toBe('Europe/Helsinki');
      // So is another country: the save checks the zone against it again.
      const country = page.getByLabel('Country', { exact: true });
      await country.fill('Finland');
      await page.getByText('Derived from the coordinates when you save.').waitFor();
      expect(await review.count()).toBe(0);
      await country.fill('Sweden');
      await page.getByText('Derived from the coordinates.').waitFor();
      expect(await review.count()).toBe(1);

      // In view first, as a person sees what they press: React Aria closes the list on a scroll.
      const showAll = page.getByRole('button', { name: 'Show all time zones' });
      await showAll.scrollIntoViewIfNeeded();
      await showAll.click();
      await page.getByRole('option', { name: 'Europe/Helsinki' }).waitFor();
      await expectSuggestionsAccessible(page, 'hours-time-zone-all');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Keep Europe/Helsinki' }).click();
      await page.getByText('Chosen by hand.').waitFor();
      expect(await review.count()).toBe(0);
      await save(page);
      await savedNotice(page).waitFor();
      expect(await read(location.id)).toMatchObject({
        time_zone: 'Europe/Helsinki',
        time_zone_derived: false,
        time_zone_review: null,
      });

      await page.reload();
      await page.getByText('Chosen by hand.').waitFor();
      await page.getByRole('button', { name: 'Derive it from the coordinates' }).click();
      await page.getByText('Derived from the coordinates when you save.').waitFor();
      expect(await zone.inputValue()).toBe('');
      await save(page);
      await page.getByText('Derived from the coordinates.').waitFor();
      expect(await zone.inputValue()).toBe('Europe/Helsinki');
      expect(await read(location.id)).toMatchObject({
        time_zone_derived: true,
        time_zone_review: expect.stringMatching(/not one of SE/),
      });
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'saves special days (one day with hours, a closed range) and a temporary closure; a reload shows them; one removed',
    async () => {
      const location = await newLocation({ title: 'Harbour Tea', time_zone: 'Europe/Berlin' });
      const opened = await openEditor(location.id, 'Harbour Tea');
      const { page } = opened;
      await page.getByText('No special days.').waitFor();
      await addSpecialDay(page, 1, {
        date: '2027-12-24',
        state: 'Open',
        hours: [['09:00', '14:00']],
        label: 'Christmas Eve',
      });
      const range = await addSpecialDay(page, 2, {
        date: '2027-12-25',
        end: '2027-12-20',
        state: 'Closed',
        label: 'Christmas',
      });
      await page.locator('label.checkbox', { hasText: 'Temporarily closed' }).click();
      await page.getByLabel('Reopens on (optional)').fill('2027-03-01');
      await expectAccessible(page, 'hours-special-days');

      // A range ending before it starts: caught before sending, under its last day.
      await save(page);
      await expectFieldError(page, range.getByLabel('Last day'), /may not be before the date/);
      await expectAccessible(page, 'hours-special-days-error');
      await range.getByLabel('Last day').fill('2027-12-26');
      await save(page);
      await savedNotice(page).waitFor();
      const saved = await read(location.id);
      expect(saved).toMatchObject({
        temporarily_closed: true,
        reopens_on: '2027-03-01',
        special_hours: [
          { date: '2027-12-24', end_date: null, hours: ['09:00-14:00'], label: 'Christmas Eve' },
          { date: '2027-12-25', end_date: '2027-12-26', hours: [], label: 'Christmas' },
        ],
      });

      await page.reload();
      const first = page.getByRole('group', { name: 'Special day 1', exact: true });
      const second = page.getByRole('group', { name: 'Special day 2', exact: true });
      await first.getByLabel('Date').waitFor();
      expect(await first.getByLabel('Date').inputValue()).toBe('2027-12-24');
      expect(await intervalGroup(first, 'Special day 1', 1).getByLabel('Closes').inputValue()).toBe('14:00');
      expect(await first.getByLabel('Label (optional)').inputValue()).toBe('Christmas Eve');
      expect(await second.getByLabel('Last day').inputValue()).toBe('2027-12-26');
      expect(await stateSelect(second, 'Hours').textContent()).toContain('Closed');
      expect(await page.getByRole('checkbox', { name: 'Temporarily closed' }).isChecked()).toBe(true);
      expect(await page.getByLabel('Reopens on (optional)').inputValue()).toBe('2027-03-01');

      await page.getByRole('button', { name: 'Remove special day 1' }).click();
      await page.locator('label.checkbox', { hasText: 'Temporarily closed' }).click();
      await save(page);
      await expect
        .poll(async () => {
          const { special_hours, temporarily_closed, reopens_on } = await read(location.id);
          return { special_hours, temporarily_closed, reopens_on };
        })
        .toEqual({
          special_hours: [{ date: '2027-12-25', end_date: '2027-12-26', hours: [], label: 'Christmas' }],
          temporarily_closed: false,
          reopens_on: null,
        });
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'fits the week and the special days into 390 px without sideways scrolling',
    async () => {
      const location = await newLocation({
        title: 'Pocket Store',
        // A link the browser lists under its older name (Asia/Calcutta): the stored name is offered too.
        time_zone: 'Asia/Kolkata',
        hours: { mon: ['09:00-13:00', '14:00-18:00'], fri: ['09:00-12:00', '19:00-02:00'], sun: [] },
        special_hours: [
          { date: '2027-12-24', end_date: '2027-12-31', hours: ['10:00-14:00'], label: 'Holidays' },
        ],
      });
      const opened = await openEditor(location.id, 'Pocket Store', PHONE);
      const { page } = opened;
      await page.getByText('Until 2:00 AM the next day').waitFor();
      expect(await page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('Asia/Kolkata');
      // An error under an interval is the widest thing a day shows.
      await intervalGroup(page, 'Monday', 2).getByLabel('Opens').fill('12:00');
      await save(page);
      await expectFieldError(page, intervalGroup(page, 'Monday', 2).getByLabel('Opens'), /overlap/);
      const widths = (await page.evaluate(`(() => {
        const week = document.querySelector('fieldset.week');
        return { page: document.documentElement.scrollWidth, week: week.scrollWidth, weekBox: week.clientWidth };
      })()`)) as { page: number; week: number; weekBox: number };
      expect(widths.page).toBeLessThanOrEqual(390);
      expect(widths.week).toBeLessThanOrEqual(widths.weekBox);
      await expectAccessible(page, 'hours-phone');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});
