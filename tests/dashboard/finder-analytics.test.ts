import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser, tokenFor } from '../factories/users.ts';
import { type ApiMethod, type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible } from './helpers/page-steps.ts';

let stage: DashboardStage;
let token: string;

const api = <T>(method: ApiMethod, url: string, body?: unknown) => stage.api<T>(token, method, url, body);

beforeAll(async () => {
  stage = await startDashboardStage();
  token = await tokenFor(stage.ctx.deps, await createUser(stage.ctx.deps));
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

it('shows totals, the daily chart and table, top searches and locations, per period', async () => {
  const [workspace] = await api<{ id: number }[]>('GET', '/workspaces');
  const location = await api<{ id: number }>('POST', '/locations', {
    workspace_id: workspace?.id,
    title: 'Corner Coffee',
  });
  const finder = await api<{ id: number; token: string }>('POST', '/finders', {
    name: 'Shops',
    workspace_id: workspace?.id,
  });
  await api('PUT', `/finders/${finder.id}`, { locations: [{ location_id: location.id, sort_order: 0 }] });
  const sent = await stage.ctx.app.inject({
    method: 'POST',
    url: '/api/analytics',
    headers: { 'content-type': 'application/json' },
    payload: {
      finder_token: finder.token,
      events: [
        { type: 'view', session_id: 'visitor1' },
        { type: 'view', session_id: 'visitor2' },
        { type: 'search', query: 'Berlin', session_id: 'visitor1' },
        { type: 'search', query: 'Berlin', session_id: 'visitor2' },
        { type: 'location_select', location_id: location.id, session_id: 'visitor1' },
        { type: 'click', location_id: location.id, session_id: 'visitor1' },
      ],
    },
  });
  expect(sent.json()).toEqual({ received: 6 });

  const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=analytics`);
  const { page } = opened;
  const totals = page.locator('.totals');
  await totals.getByText('Views').waitFor();
  expect(await totals.locator('div').allTextContents()).toEqual([
    'Views2',
    'Visitors (sessions)2',
    'Searches2',
    'Clicks1',
    'Locations opened1',
  ]);
  await page
    .getByRole('img', {
      name: /Daily views, searches and clicks over the last 30 days: 2 views, 2 searches, 1 clicks/,
    })
    .waitFor();
  expect(await page.locator('.daily-chart canvas').count()).toBe(1);
  expect(
    await page.getByRole('table', { name: 'Top searches' }).locator('tbody tr').allTextContents(),
  ).toEqual(['Berlin2']);
  // Selections and clicks together (docs/api.md, Widget analytics).
  expect(
    await page.getByRole('table', { name: 'Most chosen locations' }).locator('tbody tr').allTextContents(),
  ).toEqual(['Corner Coffee2']);
  await page.getByText('The daily numbers as a table').click();
  expect(await page.locator('details table tbody tr').count()).toBe(30);
  await expectAccessible(page, 'analytics-thirty-days');

  const asked = page.waitForRequest((request) => request.url().includes('/analytics?days=7'));
  await page.getByRole('button', { name: /Period/ }).click();
  await page.getByRole('option', { name: 'The last 7 days' }).click();
  await asked;
  await page.getByRole('img', { name: /over the last 7 days/ }).waitFor();
  expect(await page.locator('details table tbody tr').count()).toBe(7);
  await expectAccessible(page, 'analytics-seven-days');
  expect(opened.problems).toEqual([]);
  await opened.close();
}, 60_000);
