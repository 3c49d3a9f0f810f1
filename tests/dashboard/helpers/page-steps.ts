// Steps the dashboard's browser tests share: an accessible state checked and kept as a
// screenshot, signing in, what a field's description and errors read out, and the token the
// page holds.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEFAULT_PASSWORD } from '../../factories/users.ts';
import { screenshot } from '../../widget/helpers/browser.ts';
import { scanPage } from './axe-page.ts';
import { type DashboardPage, SESSION_KEY } from './dashboard-stage.ts';

export { SESSION_KEY };

/** axe finds nothing on the page (and really ran), and the state is kept as a screenshot. */
export async function expectAccessible(page: Page, name: string) {
  const scan = await scanPage(page);
  expect(scan.violations).toEqual([]);
  expect(scan.passes).toBeGreaterThan(10);
  await screenshot(page, name, 'dashboard-screenshots');
}

/**
 * An open combo box's input and suggestions pass axe, kept as a screenshot. Only they are
 * scanned: while the suggestions are open, React Aria hides the rest of the page from assistive
 * technology on purpose (aria-hidden, so a screen reader reaches the suggestions portalled to the
 * page's end), which whole-page rules read as hidden focusable content outside any landmark.
 */
export async function expectSuggestionsAccessible(page: Page, name: string) {
  const scan = await scanPage(page, ['[role="combobox"][aria-expanded="true"]', '[role="listbox"]']);
  expect(scan.violations).toEqual([]);
  expect(scan.passes).toBeGreaterThan(5);
  // The view only: a full-page screenshot resizes the page, which closes the suggestions.
  await screenshot(page, name, 'dashboard-screenshots', { fullPage: false });
}

/**
 * Types `text` into a combo box and waits until its suggestions are open and offer `option`.
 * React Aria closes suggestions on any scroll of the page (a field scrolled into view, a
 * full-page screenshot), so they are opened again as a person would, with the Down arrow.
 */
export async function suggest(box: Locator, text: string, option: Locator) {
  await box.scrollIntoViewIfNeeded();
  await box.fill(text);
  await expect
    .poll(
      async () => {
        if ((await box.getAttribute('aria-expanded')) !== 'true') await box.press('ArrowDown');
        return option.isVisible();
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

/**
 * Opens a combo box's suggestions with nothing typed (the Down arrow, which highlights the
 * first), picks the highlighted one with Enter, and answers its name.
 */
export async function pickFirstSuggestion(box: Locator): Promise<string> {
  await box.fill('');
  await expect
    .poll(
      async () => {
        if ((await box.getAttribute('aria-expanded')) !== 'true') await box.press('ArrowDown');
        return box.getAttribute('aria-activedescendant');
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  const highlighted = await box.getAttribute('aria-activedescendant');
  const name = await box.page().locator(`[id="${highlighted}"]`).textContent();
  await box.press('Enter');
  return name ?? '';
}

/** No console error, CSP violation, page error or request off this machine. */
export function expectClean(opened: DashboardPage) {
  expect(opened.problems).toEqual([]);
}

export async function signIn(page: Page, email: string, password = DEFAULT_PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * The screen says the service's "<what> not found." (another user's data answers as if it did
 * not exist).
 */
export async function waitForNotFound(page: Page, what: 'Finder' | 'Location') {
  await page
    .getByRole('alert')
    .filter({ hasText: `${what} not found.` })
    .waitFor();
}

/** What a field's aria-describedby names: its description and its errors, as read out. */
async function describedText(page: Page, field: Locator): Promise<string> {
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  if (ids.length === 0) return '';
  const texts = await page.locator(ids.map((id) => `[id="${id}"]`).join(',')).allTextContents();
  return texts.join(' ');
}

/**
 * The field is marked invalid and its error, as read out, matches. Many of these answers wait
 * for an argon2 password check, which a machine running several browser files at once stretches
 * past expect.poll's default second.
 */
export async function expectFieldError(page: Page, field: Locator, message: RegExp) {
  await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
  expect(await describedText(page, field)).toMatch(message);
}

// Source text: the root tsconfig has no DOM types, and the page has its own globals.
export const storedToken = async (page: Page) =>
  (await page.evaluate(`JSON.parse(localStorage.getItem('${SESSION_KEY}') ?? '{}').token`)) as string;

/** Waits until a finder's Locations tab says it shows `count` locations in all. */
export const finderShows = (page: Page, count: number) =>
  page
    .getByRole('status')
    .filter({ hasText: `The finder shows ${count} ${count === 1 ? 'location' : 'locations'} in all` })
    .waitFor();
