// The locations table in Chromium against the real service, with 2,500 locations: only the rows
// in view are in the page (aria-rowcount tells the whole), the search (`q`) and the order
// (`sort`) go into the address and survive a reload, rows selected by hand get a tag and every
// location the search selects is deleted in one bulk request each, and at 390 px the page does
// not scroll sideways. axe on every state.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, createUser, tokenFor } from '../factories/users.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible } from './helpers/page-steps.ts';

let stage: DashboardStage;
let token: string;
let workspaceId: number;
const COUNT = 2500;

async function api<T>(
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
): Promise<{ status: number; json: T; total: string | undefined }> {
  const res = await stage.ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(token),
    payload: body as object,
  });
  return {
    status: res.statusCode,
    json: res.json() as T,
    total: res.headers['x-total-count'] as string | undefined,
  };
}

beforeAll(async () => {
  stage = await startDashboardStage();
  token = await tokenFor(stage.ctx.deps, await createUser(stage.ctx.deps));
  workspaceId = (await api<{ id: number }[]>('GET', '/workspaces')).json[0]?.id as number;
  const rows = Array.from(
    { length: COUNT },
    (_, i) => `Shop ${i + 1},Street ${i + 1},${i % 2 ? 'Berlin' : 'Hamburg'}`,
  );
  const csv = `title,address,city\n${rows.join('\n')}\n`;
  const res = await stage.ctx.app.inject({
    method: 'POST',
    url: '/api/locations/import',
    headers: { ...bearer(token), 'content-type': 'multipart/form-data; boundary=b' },
    payload: `--b\r\nContent-Disposition: form-data; name="workspace_id"\r\n\r\n${workspaceId}\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--b--\r\n`,
  });
  expect(res.json().created).toBe(COUNT);
  await api('POST', '/tags', { name: 'Featured', workspace_id: workspaceId });
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

const firstTitles = (page: Page, count = 3) =>
  page
    .locator('tbody tr[aria-rowindex] td:nth-child(2)')
    .evaluateAll(
      (cells: { textContent: string | null }[], n: number) =>
        cells.slice(0, n).map((cell) => cell.textContent),
      count,
    );

it('shows 2,500 locations a screenful at a time, searches, sorts and keeps both in the address', async () => {
  const opened = await stage.openSignedIn(token, `/app/locations?workspace=${workspaceId}`);
  const { page } = opened;
  await page.getByText('2,500 locations', { exact: true }).waitFor();
  const table = page.getByRole('table');
  expect(await table.getAttribute('aria-rowcount')).toBe(String(COUNT + 1));
  const drawn = await page.locator('tbody tr[aria-rowindex]').count();
  expect(drawn).toBeGreaterThan(5);
  expect(drawn).toBeLessThan(80);
  expect(await firstTitles(page)).toEqual(['Shop 1', 'Shop 2', 'Shop 3']);
  await expectAccessible(page, 'locations-table');

  // The last row, after scrolling to the end: its page is fetched when it comes into view.
  await page.locator('.table-scroller').evaluate((element: { scrollTop: number; scrollHeight: number }) => {
    element.scrollTop = element.scrollHeight;
  });
  await page
    .locator(`tbody tr[aria-rowindex="${COUNT + 1}"]`)
    .getByText(`Shop ${COUNT}`)
    .waitFor();

  await page.getByLabel('Search locations').fill('shop 24');
  await page.getByText('111 locations').waitFor();
  expect(new URL(page.url()).searchParams.get('q')).toBe('shop 24');
  await page.getByRole('button', { name: 'Name' }).click();
  await expect
    .poll(() => page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort'))
    .toBe('ascending');
  expect(new URL(page.url()).searchParams.get('sort')).toBe('title');
  await expect.poll(() => firstTitles(page)).toEqual(['Shop 24', 'Shop 240', 'Shop 2400']);
  await page.getByRole('button', { name: 'Name' }).click();
  // Descending by name, compared as text: "Shop 2499" after "Shop 249".
  await expect.poll(() => firstTitles(page)).toEqual(['Shop 2499', 'Shop 2498', 'Shop 2497']);

  await page.reload();
  await page.getByText('111 locations').waitFor();
  expect(await page.getByLabel('Search locations').inputValue()).toBe('shop 24');
  expect(await page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
  await expectAccessible(page, 'locations-search-sorted');
  expect(opened.problems).toEqual([]);
  await opened.close();
}, 90_000);

it('tags rows selected by hand, and deletes every location a search selects', async () => {
  const opened = await stage.openSignedIn(token, `/app/locations?workspace=${workspaceId}&q=shop%20100`);
  const { page } = opened;
  await page.getByText('11 locations').waitFor();
  for (const title of ['Shop 100', 'Shop 1000']) {
    await page.getByRole('checkbox', { name: `Select ${title}`, exact: true }).check();
  }
  await page.getByText('2 selected').waitFor();
  await page.getByRole('button', { name: /Tag$/ }).click();
  await page.getByRole('option', { name: 'Featured' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText('Done: 2 locations changed.').waitFor();
  const tagged = await api<{ title: string; tags: { name: string }[] }[]>(
    'GET',
    `/locations?workspace_id=${workspaceId}&q=shop%20100`,
  );
  expect(
    tagged.json
      .filter((l) => l.tags.length > 0)
      .map((l) => l.title)
      .sort(),
  ).toEqual(['Shop 100', 'Shop 1000']);
  await expectAccessible(page, 'locations-bulk-tagged');

  await page
    .locator('label.checkbox', {
      has: page.getByRole('checkbox', { name: 'Select all 11 matching locations' }),
    })
    .click();
  await page.getByText('All 11 matching locations selected').waitFor();
  await page.getByRole('button', { name: 'Delete the selected' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete 11 locations' }).click();
  await page.getByText('No location matches “shop 100”.').waitFor();
  const left = await api<unknown[]>('GET', `/locations?workspace_id=${workspaceId}&limit=1`);
  expect(left.total).toBe(String(COUNT - 11));
  expect(opened.problems).toEqual([]);
  await opened.close();
}, 90_000);

it('fits a phone: at 390 px the page does not scroll sideways', async () => {
  const opened = await stage.openSignedIn(token, `/app/locations?workspace=${workspaceId}`, PHONE);
  const { page } = opened;
  await page.getByText(/^[\d,]+ locations$/).waitFor();
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  await expectAccessible(page, 'locations-phone');
  expect(opened.problems).toEqual([]);
  await opened.close();
});
