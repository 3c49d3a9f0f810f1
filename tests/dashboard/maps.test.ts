// The dashboard's maps, on the real service with tiles from the stage's tile server
// (DASHBOARD_TILE_URL, the one tile origin the page's policy admits): a location's pin placed
// by a click and moved by dragging, its lat/lng saved; typed numbers move the pin and bad ones
// show the service's error beside the field; the map's arrow keys pan it and Tab leaves it. A
// finder's default centre and zoom picked by panning and zooming ("Use this view"), from the
// other origin, saved as settings; a bad zoom or latitude refused beside its field. (Another
// user's location and finder, with no map of them: location-editor and finder-preview.)
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWidgetBuilt } from '../../scripts/build-widget.ts';
import { findersTable } from '../../src/modules/finders/finders.table.ts';
import { bearer, createUser, tokenFor } from '../factories/users.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible, expectClean, expectFieldError } from './helpers/page-steps.ts';

let stage: DashboardStage;
let token: string;
let workspaceId: number;

async function api<T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, as = token): Promise<T> {
  const res = await stage.ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(as),
    payload: body as object,
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

interface LocationJson {
  id: number;
  title: string;
  lat: number | null;
  lng: number | null;
}

beforeAll(async () => {
  // The finder editor's preview runs the real widget.js.
  await ensureWidgetBuilt();
  stage = await startDashboardStage();
  const user = await createUser(stage.ctx.deps);
  token = await tokenFor(stage.ctx.deps, user);
  const [workspace] = await api<{ id: number }[]>('GET', '/workspaces');
  workspaceId = workspace?.id as number;
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

/** The map has drawn tiles from the stage's tile server. */
async function mapDrawn(page: Page, name: RegExp) {
  const map = page.getByRole('group', { name });
  await map.waitFor();
  await map.locator('img.leaflet-tile-loaded').first().waitFor();
  // The pointer acts on what is in view.
  await map.scrollIntoViewIfNeeded();
  return map;
}

const fieldNumber = async (page: Page, label: string) =>
  Number(await page.getByLabel(label, { exact: true }).inputValue());

describe('the location editor map', () => {
  it('places the pin by a click, moves it by dragging; the fields follow and the position is saved', async () => {
    const location = await api<LocationJson>('POST', '/locations', {
      workspace_id: workspaceId,
      title: 'Pin Bakery',
    });
    const opened = await stage.openSignedIn(token, `/app/locations/${location.id}`);
    const { page } = opened;
    await page.getByRole('heading', { name: 'Pin Bakery' }).waitFor();
    const map = await mapDrawn(page, /Map: click to place the pin/);
    expect(await page.getByLabel('Latitude').inputValue()).toBe('');
    expect(await page.locator('.map-pin').count()).toBe(0);
    await expectAccessible(page, 'map-pin-empty');

    const box = (await map.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('.map-pin').waitFor();
    await expect.poll(() => page.getByLabel('Latitude').inputValue()).not.toBe('');
    const placed = { lat: await fieldNumber(page, 'Latitude'), lng: await fieldNumber(page, 'Longitude') };
    expect(Math.abs(placed.lat)).toBeLessThanOrEqual(90);
    expect(Math.abs(placed.lng)).toBeLessThanOrEqual(180);

    // Dragged to the right (east) and down (south).
    const pin = (await page.locator('.map-pin').boundingBox()) as {
      x: number;
      y: number;
      width: number;
      height: number;
    };
    await page.mouse.move(pin.x + pin.width / 2, pin.y + pin.height / 2);
    await page.mouse.down();
    await page.mouse.move(pin.x + pin.width / 2 + 40, pin.y + pin.height / 2 + 30, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => fieldNumber(page, 'Longitude')).toBeGreaterThan(placed.lng);
    const dragged = { lat: await fieldNumber(page, 'Latitude'), lng: await fieldNumber(page, 'Longitude') };
    expect(dragged.lat).toBeLessThan(placed.lat);
    await expectAccessible(page, 'map-pin-placed');

    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const saved = await api<LocationJson>('GET', `/locations/${location.id}`);
        return [saved.lat, saved.lng];
      })
      .toEqual([dragged.lat, dragged.lng]);
    expect(stage.tiles.tileRequests()).toBeGreaterThan(0);
    expectClean(opened);
    await opened.close();
  }, 90_000);

  it('moves the pin to typed numbers, shows a bad number beside its field, and lets Tab leave the map (390 px)', async () => {
    const location = await api<LocationJson>('POST', '/locations', {
      workspace_id: workspaceId,
      title: 'Typed Tea',
      lat: 52.52,
      lng: 13.405,
    });
    const opened = await stage.openSignedIn(token, `/app/locations/${location.id}`, PHONE);
    const { page } = opened;
    await page.getByRole('heading', { name: 'Typed Tea' }).waitFor();
    const map = await mapDrawn(page, /Map: click to place the pin/);
    await page.locator('.map-pin').waitFor();
    await expectAccessible(page, 'map-pin-phone');

    // The arrow keys pan the map (the pin moves on screen); Tab goes on past the map.
    const before = await page.locator('.map-pin').boundingBox();
    await map.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await page.locator('.map-pin').boundingBox())?.x).not.toBe(before?.x);
    expect(await fieldNumber(page, 'Longitude')).toBe(13.405);
    let left = false;
    for (let press = 0; press < 6 && !left; press++) {
      await page.keyboard.press('Tab');
      left = (await page.evaluate(
        "!document.activeElement.closest('.leaflet-container') && document.activeElement !== document.body",
      )) as boolean;
    }
    expect(left).toBe(true);

    // Typed numbers move the pin.
    const pinAt = await page.locator('.map-pin').boundingBox();
    await page.getByLabel('Latitude').fill('52.5205');
    await page.getByLabel('Longitude').fill('13.41');
    await expect.poll(async () => (await page.locator('.map-pin').boundingBox())?.x).not.toBe(pinAt?.x);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const saved = await api<LocationJson>('GET', `/locations/${location.id}`);
        return [saved.lat, saved.lng];
      })
      .toEqual([52.5205, 13.41]);
    // The editor shows the saved location anew, map and all.
    await page.locator('.map-pin').waitFor();

    // A latitude out of range: the service's 422 beside the field, nothing written.
    await page.getByLabel('Latitude').fill('200');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectFieldError(page, page.getByLabel('Latitude'), /90/);
    await expectAccessible(page, 'map-pin-bad-number');
    expect(await api<LocationJson>('GET', `/locations/${location.id}`)).toMatchObject({ lat: 52.5205 });
    expectClean(opened);
    await opened.close();
  }, 90_000);
});

describe('the finder’s default view', () => {
  it('is picked on the map from the other origin and saved; bad numbers are refused beside their fields', async () => {
    const finder = await api<{ id: number }>('POST', '/finders', {
      name: 'Map picks',
      workspace_id: workspaceId,
    });
    // The preview draws the finder's own tiles: the stage's, so nothing leaves the machine.
    await api('PUT', `/finders/${finder.id}`, {
      settings: [{ key: 'tile_url', value: stage.tiles.urlTemplate }],
    });
    const opened = await stage.openSignedIn(token, '/app/sign-in');
    const { page } = opened;
    // The same session, on the dashboard hosted elsewhere.
    await page.goto(`${stage.elsewhere}/app/sign-in`);
    await page.evaluate(
      `localStorage.setItem('lf-dashboard-session', ${JSON.stringify(JSON.stringify({ token, expiresAt: Date.now() + 3_600_000 }))})`,
    );
    await page.goto(`${stage.elsewhere}/app/finders/${finder.id}?tab=design`);
    const map = await mapDrawn(page, /Map: pan and zoom/);
    expect(await page.getByLabel('Default centre latitude').inputValue()).toBe('');
    await expectAccessible(page, 'map-view-empty');

    // Zoomed in twice and dragged, each view taken once the map rests there.
    const useView = page.getByRole('button', { name: 'Use this view' });
    const taken = async (label: string) => {
      await useView.click();
      return page.getByLabel(label, { exact: true }).inputValue();
    };
    for (const zoom of ['3', '4']) {
      await map.getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(() => taken('Default zoom')).toBe(zoom);
    }
    const centreBefore = await fieldNumber(page, 'Default centre latitude');
    const box = (await map.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 80, box.y + box.height / 2 + 40, { steps: 8 });
    await page.mouse.up();
    await expect
      .poll(async () => Number(await taken('Default centre latitude')))
      .toBeGreaterThan(centreBefore);
    expect(await page.getByLabel('Default zoom').inputValue()).toBe('4');
    const lat = await fieldNumber(page, 'Default centre latitude');
    const lng = await fieldNumber(page, 'Default centre longitude');
    expect(lng).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: /saved/i }).waitFor();
    const [row] = await stage.ctx.deps.db.select().from(findersTable).where(eq(findersTable.id, finder.id));
    expect(row?.settings).toEqual(
      expect.arrayContaining([
        { key: 'default_center', value: { lat, lng } },
        { key: 'default_zoom', value: 4 },
        { key: 'tile_url', value: stage.tiles.urlTemplate },
      ]),
    );

    // Typed numbers are kept as typed; ones the widget cannot read are refused, nothing sent.
    await page.getByLabel('Default zoom').fill('25');
    await page.getByLabel('Default centre latitude').fill('200');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectFieldError(page, page.getByLabel('Default zoom'), /cannot use this value/);
    await expectFieldError(page, page.getByLabel('Default centre latitude'), /cannot use this value/);
    expect(await page.getByLabel('Default centre longitude').getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(page, 'map-view-refused');
    await page.getByLabel('Default zoom').fill('6');
    await page.getByLabel('Default centre latitude').fill('48.1374');
    await page.getByLabel('Default centre longitude').fill('11.5755');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const [saved] = await stage.ctx.deps.db
          .select()
          .from(findersTable)
          .where(eq(findersTable.id, finder.id));
        return saved?.settings;
      })
      .toEqual(
        expect.arrayContaining([
          { key: 'default_center', value: { lat: 48.1374, lng: 11.5755 } },
          { key: 'default_zoom', value: 6 },
        ]),
      );
    expectClean(opened);
    await opened.close();
  }, 120_000);
});
