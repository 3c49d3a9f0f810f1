// The holiday calendars tab of Tags, fields & holidays in Chromium against the real service: a calendar
// added (a taken name beside its field), its days edited with the special days editor the
// location editor uses (a mistake caught before sending, beside its control), a category and a
// location (found by search) assigned, renamed; saved, shown again after a reload, one location
// taken off again; deleted after a confirmation. Then the tab at a phone's 390 px. axe scans
// each state, the open suggestions included; no page logs an error, breaks its CSP or reaches
// off this machine.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, tokenFor } from '../factories/users.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type ApiMethod, type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { addSpecialDay, intervalGroup } from './helpers/hours-steps.ts';
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
let setId: number;
const locations: Record<string, number> = {};

const BROWSER_TEST_TIMEOUT = 120_000;

const api = <T>(method: ApiMethod, url: string, body?: unknown) => stage.api<T>(token, method, url, body);

interface CalendarJson {
  id: number;
  name: string;
  days: { date: string; end_date: string | null; hours: string[]; label: string | null }[];
  location_ids: number[];
  set_ids: number[];
}

const calendars = () => api<CalendarJson[]>('GET', `/holiday-calendars?workspace_id=${workspaceId}`);

beforeAll(async () => {
  stage = await startDashboardStage();
  token = await tokenFor(stage.ctx.deps, await createUser(stage.ctx.deps));
  workspaceId = (await api<{ id: number }[]>('GET', '/workspaces'))[0]?.id as number;
  setId = (await api<{ id: number }>('POST', '/sets', { name: 'Germany', workspace_id: workspaceId })).id;
  for (const [title, city] of [
    ['Harbour Books', 'Hamburg'],
    ['Rye Bakery', 'Berlin'],
  ] as const) {
    locations[title] = (
      await api<{ id: number }>('POST', '/locations', {
        workspace_id: workspaceId,
        title,
        city,
        time_zone: 'Europe/Berlin',
      })
    ).id;
  }
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

/** Picks a location from the search's suggestions, once the answer for `text` offers only it. */
async function pickLocation(page: Page, text: string, title: string, scanAs?: string) {
  const option = page.getByRole('option', { name: new RegExp(`^${title}`) });
  await suggest(page.getByRole('combobox', { name: 'Add a location' }), text, option);
  await expect.poll(() => page.getByRole('option').count()).toBe(1);
  if (scanAs) await expectSuggestionsAccessible(page, scanAs);
  await option.click();
}

describe('holiday calendars', () => {
  it(
    'adds a calendar, edits its days, assigns a category and a location, renames it, and deletes it',
    async () => {
      await api('POST', '/holiday-calendars', { workspace_id: workspaceId, name: 'Taken', days: [] });
      const opened = await stage.openSignedIn(token, `/app/organize?workspace=${workspaceId}&tab=calendars`);
      const { page } = opened;
      await page.getByRole('listitem').filter({ hasText: 'Taken' }).waitFor();
      await expectAccessible(page, 'calendars-list');

      const add = page.getByRole('form', { name: 'Add a holiday calendar' });
      await add.getByLabel('Calendar name').fill('Taken');
      await add.getByRole('button', { name: 'Add a holiday calendar' }).click();
      await expectFieldError(page, add.getByLabel('Calendar name'), /already exists/);
      await add.getByLabel('Calendar name').fill('Public holidays');
      await add.getByRole('button', { name: 'Add a holiday calendar' }).click();
      await page.getByRole('heading', { name: 'Public holidays', level: 2 }).waitFor();
      const id = Number(new URL(page.url()).searchParams.get('calendar'));
      expect(id).toBeGreaterThan(0);

      await addSpecialDay(page, 1, {
        date: '2027-12-25',
        end: '2027-12-26',
        state: 'Closed',
        label: 'Christmas',
      });
      const eve = await addSpecialDay(page, 2, {
        date: '2027-12-24',
        state: 'Open',
        hours: [
          ['09:00', '12:00'],
          ['11:00', '14:00'],
        ],
        label: 'Christmas Eve',
      });
      await page.locator('label.checkbox', { hasText: 'Germany' }).click();
      await pickLocation(page, 'harb', 'Harbour Books', 'calendars-location-suggestions');
      await page.getByRole('list', { name: 'Locations it applies to' }).getByText('Harbour Books').waitFor();
      await pickLocation(page, 'rye', 'Rye Bakery');
      await page.getByLabel('Calendar name').fill('Feiertage');

      // Overlapping hours are caught before sending, under their interval.
      const puts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'PUT') puts.push(request.url());
      });
      await page.getByRole('button', { name: 'Save' }).click();
      const second = intervalGroup(eve, 'Special day 2', 2);
      await expectFieldError(page, second.getByLabel('Opens'), /may not overlap/);
      expect(puts).toEqual([]);
      await expectAccessible(page, 'calendar-editor-error');
      await second.getByLabel('Opens').fill('12:30');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const expected = {
        id,
        name: 'Feiertage',
        days: [
          {
            date: '2027-12-24',
            end_date: null,
            hours: ['09:00-12:00', '12:30-14:00'],
            label: 'Christmas Eve',
          },
          { date: '2027-12-25', end_date: '2027-12-26', hours: [], label: 'Christmas' },
        ],
        location_ids: [locations['Harbour Books'], locations['Rye Bakery']],
        set_ids: [setId],
      };
      expect(await api<CalendarJson>('GET', `/holiday-calendars/${id}`)).toMatchObject(expected);
      await expectAccessible(page, 'calendar-editor-saved');

      // A reload shows what was stored, the days in date order.
      await page.reload();
      await page.getByRole('heading', { name: 'Feiertage', level: 2 }).waitFor();
      const first = page.getByRole('group', { name: 'Special day 1', exact: true });
      await first.getByLabel('Date').waitFor();
      expect(await first.getByLabel('Date').inputValue()).toBe('2027-12-24');
      expect(await first.getByLabel('Label (optional)').inputValue()).toBe('Christmas Eve');
      expect(await page.getByRole('checkbox', { name: 'Germany' }).isChecked()).toBe(true);
      const assigned = page.getByRole('list', { name: 'Locations it applies to' });
      await assigned.getByText('Rye Bakery').waitFor();
      await page.getByRole('button', { name: 'Remove Rye Bakery' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(async () => (await api<CalendarJson>('GET', `/holiday-calendars/${id}`)).location_ids)
        .toEqual([locations['Harbour Books']]);

      await page.getByRole('link', { name: 'All holiday calendars' }).click();
      const row = page.getByRole('listitem').filter({ hasText: 'Feiertage' });
      await row.getByText('2 special days, 1 location, 1 category').waitFor();
      await row.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete Feiertage?' });
      await dialog.waitFor();
      await expectAccessible(page, 'calendar-delete-confirm');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(async () => (await calendars()).map((calendar) => calendar.name)).toEqual(['Taken']);
      await expect.poll(() => row.count()).toBe(0);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'shows a calendar’s editor within 390 px',
    async () => {
      const calendar = await api<CalendarJson>('POST', '/holiday-calendars', {
        workspace_id: workspaceId,
        name: 'Schulferien Nordrhein-Westfalen',
        days: [
          {
            date: '2027-07-01',
            end_date: '2027-08-10',
            hours: ['10:00-14:00', '15:00-01:00'],
            label: 'Sommer',
          },
        ],
        location_ids: [locations['Harbour Books']],
      });
      const opened = await stage.openSignedIn(
        token,
        `/app/organize?workspace=${workspaceId}&tab=calendars&calendar=${calendar.id}`,
        PHONE,
      );
      const { page } = opened;
      await page.getByRole('list', { name: 'Locations it applies to' }).getByText('Harbour Books').waitFor();
      await page.getByText('Until 1:00 AM the next day').waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await expectAccessible(page, 'calendar-editor-phone');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});
