// Every screen of the dashboard at a phone's width (390 px, touch), loaded with real data: the
// page never scrolls sideways, axe finds nothing, and nothing logs an error, breaks the CSP or
// reaches off this machine. Each screen's own test covers its flows; this one covers the width.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCOUNT_TABS } from '../../src/dashboard/account/settings/tabs.ts';
import { ADMIN_TABS } from '../../src/dashboard/admin/tabs.ts';
import { FINDER_TABS } from '../../src/dashboard/finders/tabs.ts';
import { ORGANIZE_TABS } from '../../src/dashboard/organize/tabs.ts';
import { createUser, tokenFor } from '../factories/users.ts';
import { type FakePaddle, startFakePaddle } from '../fakes/paddle.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible, expectClean } from './helpers/page-steps.ts';

let paddle: FakePaddle;
let stage: DashboardStage;
let token: string;
let screens: { name: string; path: string; heading: string }[];

beforeAll(async () => {
  paddle = await startFakePaddle();
  stage = await startDashboardStage({ env: paddle.env });
  // An admin, so the admin area is among the screens too.
  token = await tokenFor(stage.ctx.deps, await createUser(stage.ctx.deps, { role: 'admin' }));
  const [workspace] = await stage.api<{ id: number }[]>(token, 'GET', '/workspaces');
  const workspaceId = workspace?.id as number;
  const location = await stage.api<{ id: number }>(token, 'POST', '/locations', {
    workspace_id: workspaceId,
    // A long unbroken title and address are what push a narrow page sideways.
    title: 'Grossbuchhandlungsgesellschaftsniederlassung Nord',
    address: 'Hauptbahnhofsvorplatzunterführungsausgang 1234',
    city: 'Berlin',
    country: 'DE',
    lat: 52.52,
    lng: 13.405,
  });
  const finder = await stage.api<{ id: number }>(token, 'POST', '/finders', {
    name: 'Shops of the north',
    workspace_id: workspaceId,
  });
  await stage.api(token, 'PUT', `/finders/${finder.id}`, {
    locations: [{ location_id: location.id, sort_order: 0 }],
    // The design tab's preview draws the finder's own tiles: this machine's.
    settings: [{ key: 'tile_url', value: stage.tiles.urlTemplate }],
  });
  const inWorkspace = `workspace=${workspaceId}`;
  screens = [
    { name: 'locations', path: `/app/locations?${inWorkspace}`, heading: 'Locations' },
    { name: 'location', path: `/app/locations/${location.id}?${inWorkspace}`, heading: 'Grossbuch' },
    { name: 'location-new', path: `/app/locations/new?${inWorkspace}`, heading: 'New location' },
    { name: 'import', path: `/app/import?${inWorkspace}`, heading: 'Import' },
    ...ORGANIZE_TABS.map((tab) => ({
      name: `organize-${tab}`,
      path: `/app/organize?${inWorkspace}&tab=${tab}`,
      heading: 'Tags',
    })),
    { name: 'finders', path: `/app/finders?${inWorkspace}`, heading: 'Finders' },
    ...FINDER_TABS.map((tab) => ({
      name: `finder-${tab}`,
      path: `/app/finders/${finder.id}?tab=${tab}`,
      heading: 'Shops of the north',
    })),
    { name: 'ai-imports', path: `/app/ai-imports?${inWorkspace}`, heading: 'AI import' },
    { name: 'ai-import-new', path: `/app/ai-imports/new?${inWorkspace}`, heading: 'New AI import' },
    { name: 'processes', path: `/app/processes?${inWorkspace}`, heading: 'Activity' },
    { name: 'billing', path: `/app/billing?${inWorkspace}`, heading: 'Billing' },
    ...ADMIN_TABS.map((tab) => ({ name: `admin-${tab}`, path: `/app/admin?tab=${tab}`, heading: 'Admin' })),
    { name: 'workspaces', path: `/app/workspaces?${inWorkspace}`, heading: 'Workspaces' },
    ...ACCOUNT_TABS.map((tab) => ({
      name: `account-${tab}`,
      path: `/app/account?tab=${tab}`,
      heading: 'Account',
    })),
  ];
}, 180_000);

afterAll(async () => {
  await stage?.close();
  await paddle?.close();
});

/** Waits until nothing on the page says it is still loading (the screen's data is drawn). */
async function settled(page: Page) {
  await page.evaluate(`(async () => {
    const loading = () => [...document.querySelectorAll('body *')].some(
      (element) => element.children.length === 0 && /^Loading/.test(element.textContent ?? '') && element.checkVisibility());
    for (let i = 0; i < 200 && loading(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    if (loading()) throw new Error('the screen is still loading after 10 s');
  })()`);
}

const pageWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;

/** The deepest elements whose content reaches past their box or the right edge, named for a failure. */
const overflowing = (page: Page) =>
  page.evaluate(`[...document.querySelectorAll('body *')]
    .filter((element) => element.getBoundingClientRect().right > 391 || element.scrollWidth > element.clientWidth + 1)
    .slice(-6)
    .map((element) => element.tagName.toLowerCase() + '.' + String(element.className) + ' ' + element.scrollWidth + '/' + element.clientWidth)`) as Promise<
    string[]
  >;

it('shows every signed-out screen within 390 px', async () => {
  for (const [name, path, heading] of [
    ['sign-in', '/app/sign-in', 'Sign in'],
    ['sign-up', '/app/sign-up', 'Create your account'],
  ] as const) {
    const opened = await stage.open(path, PHONE);
    await opened.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    if ((await pageWidth(opened.page)) > 390)
      expect({ screen: name, overflowing: await overflowing(opened.page) }).toBe('within 390 px');
    await expectAccessible(opened.page, `phone-${name}`);
    expectClean(opened);
    await opened.close();
  }
}, 60_000);

it('shows every signed-in screen within 390 px, with its data', async () => {
  const opened = await stage.openSignedIn(token, '/app/locations', PHONE);
  const { page } = opened;
  for (const screen of screens) {
    await page.goto(`${stage.origin}${screen.path}`);
    await page.getByRole('heading', { name: screen.heading, level: 1 }).first().waitFor();
    await settled(page);
    if ((await pageWidth(page)) > 390)
      expect({ screen: screen.name, overflowing: await overflowing(page) }).toBe('within 390 px');
    await expectAccessible(page, `phone-${screen.name}`);
  }
  expectClean(opened);
  await opened.close();
}, 240_000);
