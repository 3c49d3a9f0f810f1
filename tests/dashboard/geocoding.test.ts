// The locations page tells how many locations wait for coordinates (GET
// /workspaces/{id}/geocoding) and lists only them on request, the filter kept in the address, so
// a person can place the rest by hand in the editor (whose map takes a pin); selecting all of
// them selects no other. axe on each state.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser, tokenFor } from '../factories/users.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible, expectClean } from './helpers/page-steps.ts';

let stage: DashboardStage;
let token: string;
let workspaceId: number;

beforeAll(async () => {
  stage = await startDashboardStage();
  token = await tokenFor(stage.ctx.deps, await createUser(stage.ctx.deps));
  workspaceId = (await stage.api<{ id: number }[]>(token, 'GET', '/workspaces'))[0]!.id;
  const add = (body: Record<string, unknown>) =>
    stage.api(token, 'POST', '/locations', { workspace_id: workspaceId, ...body });
  await add({ title: 'Placed shop', address: 'Main St 1', city: 'Leeds', lat: 53.8, lng: -1.55 });
  await add({ title: 'Lost shop', address: 'Nowhere Lane 7', city: 'Leeds' });
  await add({ title: 'Bare shop', country: 'United Kingdom' });
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

it('counts the locations without coordinates and lists only them until asked for all', async () => {
  const opened = await stage.openSignedIn(token, `/app/locations?workspace=${workspaceId}`);
  const { page } = opened;
  await page.getByText('3 locations', { exact: true }).waitFor();
  await page.getByText('2 locations wait for coordinates.').waitFor();
  await expectAccessible(page, 'locations-geocoding-notice');

  await page.getByRole('link', { name: 'List them to place by hand' }).click();
  await page.getByText('2 locations', { exact: true }).waitFor();
  expect(new URL(page.url()).searchParams.get('without_coordinates')).toBe('true');
  expect(await page.getByRole('row', { name: /Placed shop/ }).count()).toBe(0);
  await page.getByRole('row', { name: /Lost shop/ }).waitFor();
  await page.getByText('Showing the locations without coordinates.', { exact: false }).waitFor();
  await expectAccessible(page, 'locations-without-coordinates');

  // One placed by hand: opened from the list, its pin put on the editor's map, saved; back in
  // the list it is no longer counted nor listed.
  await page
    .getByRole('row', { name: /Lost shop/ })
    .getByRole('link')
    .click();
  await page.getByRole('heading', { name: 'Lost shop' }).waitFor();
  const map = page.getByRole('group', { name: /Map: click to place the pin/ });
  await map.locator('img.leaflet-tile-loaded').first().waitFor();
  await map.scrollIntoViewIfNeeded();
  const box = (await map.boundingBox()) as { x: number; y: number; width: number; height: number };
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect.poll(() => page.getByLabel('Latitude').inputValue()).not.toBe('');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved.', { exact: false }).waitFor();
  await page.goBack();
  await page.getByText('1 location', { exact: true }).waitFor();
  expect(await page.getByRole('row', { name: /Lost shop/ }).count()).toBe(0);
  await page.getByRole('link', { name: 'Show all locations' }).click();
  await page.getByText('1 location waits for coordinates.').waitFor();
  await page.getByRole('link', { name: 'List them to place by hand' }).click();

  // The filter survives a reload; selecting all selects only the listed ones (the bulk filter
  // carries it); "Show all locations" leaves it, and the notice is gone with them.
  await page.reload();
  await page.getByText('1 location', { exact: true }).waitFor();
  await page
    .locator('label.checkbox', {
      has: page.getByRole('checkbox', { name: 'Select the 1 matching location' }),
    })
    .click();
  await page.getByRole('button', { name: 'Delete the selected' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete 1 location' }).click();
  await page.getByText('Every location has coordinates.').waitFor();
  await expectAccessible(page, 'locations-without-coordinates-none-left');
  const left = await stage.api<{ title: string }[]>(token, 'GET', `/locations?workspace_id=${workspaceId}`);
  expect(left.map((location) => location.title).sort()).toEqual(['Lost shop', 'Placed shop']);
  await page.getByRole('link', { name: 'Show all locations' }).click();
  await page.getByText('2 locations', { exact: true }).waitFor();
  expect(new URL(page.url()).searchParams.get('without_coordinates')).toBeNull();
  expect(await page.getByText('wait for coordinates', { exact: false }).count()).toBe(0);
  expectClean(opened);
  await opened.close();
}, 120_000);
