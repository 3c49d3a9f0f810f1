// Steps on the opening hours editors (src/dashboard/hours), as a person takes them: a day's
// state picked from its select, an interval's two times typed into its time inputs, a special
// day filled in; what the week shows; and an open select's options scanned by axe.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from '../../widget/helpers/browser.ts';
import { scanPage } from './axe-page.ts';

export type DayState = 'Not known' | 'Closed' | 'Open' | 'Open 24 hours';
const STATES: DayState[] = ['Not known', 'Closed', 'Open', 'Open 24 hours'];

/**
 * The select of a day's state, inside `scope` (the page for a weekday, a special day's group):
 * React Aria names its button by the value shown and the label ("Closed Monday").
 */
export const stateSelect = (scope: Page | Locator, label: string) =>
  scope.getByRole('button', { name: new RegExp(`^(${STATES.join('|')}) ${label}$`) });

export async function setDayState(page: Page, scope: Page | Locator, label: string, state: DayState) {
  await stateSelect(scope, label).click();
  await page.getByRole('option', { name: state, exact: true }).click();
  await expect.poll(() => stateSelect(scope, label).textContent()).toContain(state);
}

/** An interval's group: "Monday, hours 2". */
export const intervalGroup = (scope: Page | Locator, name: string, number: number) =>
  scope.getByRole('group', { name: `${name}, hours ${number}` });

/** What the week editor inside `scope` shows: each day's state, and an open day's intervals as typed ("Open 09:00-13:00 14:00-18:00"). */
export async function shownWeek(scope: Page | Locator) {
  const days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
  const week: Record<string, string> = {};
  for (const day of days) {
    const state = ((await stateSelect(scope, day).textContent()) ?? '').replace('▾', '').trim();
    const intervals: string[] = [];
    for (let n = 1; (await intervalGroup(scope, day, n).count()) > 0; n++) {
      const group = intervalGroup(scope, day, n);
      intervals.push(
        `${await group.getByLabel('Opens').inputValue()}-${await group.getByLabel('Closes').inputValue()}`,
      );
    }
    week[day] = [state, ...intervals].join(' ');
  }
  return week;
}

export async function setInterval(
  scope: Page | Locator,
  name: string,
  number: number,
  open: string,
  close: string,
) {
  const group = intervalGroup(scope, name, number);
  await group.getByLabel('Opens').fill(open);
  await group.getByLabel('Closes').fill(close);
}

/** An open select's options pass axe (only they: React Aria hides the rest while it is open), kept as a screenshot. */
export async function expectOptionsAccessible(page: Page, name: string) {
  const scan = await scanPage(page, ['[role="listbox"]']);
  expect(scan.violations).toEqual([]);
  expect(scan.passes).toBeGreaterThan(3);
  await screenshot(page, name, 'dashboard-screenshots', { fullPage: false });
}

export interface SpecialDayInput {
  date: string;
  end?: string;
  state: Exclude<DayState, 'Not known'>;
  hours?: [string, string][];
  label?: string;
}

/** Adds a special day at the end of the list (it becomes "Special day {number}") and fills it in. */
export async function addSpecialDay(page: Page, number: number, day: SpecialDayInput) {
  await page.getByRole('button', { name: 'Add a special day' }).click();
  const entry = page.getByRole('group', { name: `Special day ${number}`, exact: true });
  await entry.getByLabel('Date').fill(day.date);
  if (day.end) {
    await entry.locator('label.checkbox', { hasText: 'Several days' }).click();
    await entry.getByLabel('Last day').fill(day.end);
  }
  if (day.state !== 'Closed') await setDayState(page, entry, 'Hours', day.state);
  for (const [index, [open, close]] of (day.hours ?? []).entries()) {
    if (index > 0) await entry.getByRole('button', { name: `Add hours to Special day ${number}` }).click();
    await setInterval(entry, `Special day ${number}`, index + 1, open, close);
  }
  if (day.label) await entry.getByLabel('Label (optional)').fill(day.label);
  return entry;
}
