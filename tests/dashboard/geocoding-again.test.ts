// With a geocoder configured, the locations page offers to look up again the addresses that were
// not placed (the geocoder failed, found nothing, or nothing precise) while no geocoding runs:
// the button sends POST /workspaces/{id}/geocoding for all three statuses, and the notice then
// says they are being geocoded, with no button; a refusal (503) is said beside the button,
// which stays; the list of those without coordinates follows the counts. No worker runs here:
// the lookups themselves are tests/geocoding.test.ts's. axe on each state, the button's at a
// phone's width too.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser, tokenFor } from '../factories/users.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible } from './helpers/page-steps.ts';

let stage: DashboardStage;
let token: string;
let workspaceId: number;

interface GeocodingState {
  pending: number;
  not_found: number;
  failed: number;
  imprecise: number;
  process: { id: number; status: string } | null;
}

const geocoding = () => stage.api<GeocodingState>(token, 'GET', `/workspaces/${workspaceId}/geocoding`);

beforeAll(async () => {
  // Never asked: no worker takes the process's job.
  stage = await startDashboardStage({ env: { GEOCODER: 'photon', GEOCODER_BASE_URL: 'http://127.0.0.1:9' } });
  token = await tokenFor(stage.ctx.deps, await createUser(stage.ctx.deps));
  workspaceId = (await stage.api<{ id: number }[]>(token, 'GET', '/workspaces'))[0]!.id;
  const add = (title: string, address: string) =>
    stage.api<{ id: number }>(token, 'POST', '/locations', {
      workspace_id: workspaceId,
      title,
      address,
      city: 'Leeds',
    });
  const lost = await add('Lost shop', 'Nowhere Lane 7');
  const vague = await add('Vague shop', 'High Street');
  await add('Placed shop', 'Main St 1');
  // As a finished run leaves them: one found nowhere, one only roughly, one placed; the process over.
  const { db } = stage.ctx.deps;
  await db.execute(sql`update locations set geocode_status = 'not_found' where id = ${lost.id}`);
  await db.execute(sql`update locations set geocode_status = 'imprecise' where id = ${vague.id}`);
  await db.execute(
    sql`update locations set geocode_status = null, lat = 53.8, lng = -1.55 where title = 'Placed shop'`,
  );
  await db.execute(
    sql`update processes set status = 'completed', finished_at = now() where type = 'geocoding' and related_id = ${workspaceId}`,
  );
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

it('looks up again the addresses that were not placed, and then says they are being geocoded', async () => {
  expect(await geocoding()).toMatchObject({
    pending: 0,
    not_found: 1,
    imprecise: 1,
    failed: 0,
    process: null,
  });
  const opened = await stage.openSignedIn(token, `/app/locations?workspace=${workspaceId}`);
  const { page } = opened;
  await page.getByText('2 locations wait for coordinates.').waitFor();
  const again = page.getByRole('button', { name: 'Look up the addresses of 2 locations again' });
  await again.waitFor();
  await expectAccessible(page, 'locations-geocoding-again');
  // At a phone's width the button fits the screen.
  const desktop = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  const box = (await again.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await expectAccessible(page, 'locations-geocoding-again-phone');
  await page.setViewportSize(desktop);

  // A service that cannot queue the job now: the notice says why and keeps the button.
  const geocodingUrl = new RegExp(`/api/workspaces/${workspaceId}/geocoding$`);
  let answer = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  await page.route(geocodingUrl, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    await answered;
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: '{"message":"The job queue is unavailable. Try again shortly.","code":"unavailable"}',
    });
  });
  await again.click();
  // While the request runs the button takes no second press, and says it is working.
  const working = page.getByRole('button', { name: 'Working…' });
  await working.waitFor();
  expect(await working.isDisabled()).toBe(true);
  answer();
  await page.getByRole('alert').getByText('The job queue is unavailable. Try again shortly.').waitFor();
  expect(await again.isEnabled()).toBe(true);
  await expectAccessible(page, 'locations-geocoding-again-refused');
  expect(await geocoding()).toMatchObject({ not_found: 1, imprecise: 1, process: null });
  await page.unroute(geocodingUrl);

  const sent = page.waitForRequest(
    (request) =>
      request.method() === 'POST' && request.url().endsWith(`/workspaces/${workspaceId}/geocoding`),
  );
  await again.click();
  expect((await sent).postDataJSON()).toEqual({ retry: ['failed', 'not_found', 'imprecise'] });
  await page.getByText('2 locations wait for coordinates. 2 of them are being geocoded.').waitFor();
  expect(await again.count()).toBe(0);
  expect(await page.getByRole('alert').count()).toBe(0);
  const state = await geocoding();
  expect(state).toMatchObject({ pending: 2, not_found: 0, imprecise: 0 });
  expect(state.process?.status).toBe('pending');
  await expectAccessible(page, 'locations-geocoding-again-sent');

  // The list of those without coordinates follows the geocoding: one placed (as the worker
  // would place it) leaves the list once the notice's next reading counts it.
  await page.getByRole('link', { name: 'List them to place by hand' }).click();
  await page.getByRole('row', { name: /Lost shop/ }).waitFor();
  await page.getByRole('row', { name: /Vague shop/ }).waitFor();
  await stage.ctx.deps.db.execute(
    sql`update locations set geocode_status = null, lat = 53.79, lng = -1.54 where title = 'Lost shop'`,
  );
  await expect.poll(() => page.getByRole('row', { name: /Lost shop/ }).count(), { timeout: 25_000 }).toBe(0);
  expect(await page.getByRole('row', { name: /Vague shop/ }).count()).toBe(1);
  // Nothing else went wrong: Chromium logs the refused request itself.
  expect(opened.problems).toEqual([
    'console: Failed to load resource: the server responded with a status of 503 (Service Unavailable)',
  ]);
}, 60_000);
