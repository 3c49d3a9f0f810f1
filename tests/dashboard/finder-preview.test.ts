// The finder editor's live preview: the real widget.js in the service's preview page, drawing
// the finder's current locations (one added after the last publish included, and whatever
// websites the finder lists) with the design form's unsaved settings: a colour typed shows in
// the widget before it is saved. The preview records no analytics. Another user's finder shows
// not found, with no preview and no map of its default view; the preview at 390 px.
import { eq } from 'drizzle-orm';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWidgetBuilt } from '../../scripts/build-widget.ts';
import { analyticsEventsTable } from '../../src/modules/analytics/analytics.table.ts';
import { findersTable } from '../../src/modules/finders/finders.table.ts';
import { bearer, createUser, tokenFor } from '../factories/users.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible, expectClean, waitForNotFound } from './helpers/page-steps.ts';

let stage: DashboardStage;
let token: string;
let finder: { id: number; token: string };

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

beforeAll(async () => {
  await ensureWidgetBuilt();
  stage = await startDashboardStage();
  const user = await createUser(stage.ctx.deps);
  token = await tokenFor(stage.ctx.deps, user);
  const [workspace] = await api<{ id: number }[]>('GET', '/workspaces');
  const location = (title: string, lat: number, lng: number) =>
    api<{ id: number }>('POST', '/locations', {
      workspace_id: workspace?.id,
      title,
      city: 'Berlin',
      lat,
      lng,
    });
  const alpha = await location('Alpha Roasters', 52.52, 13.405);
  const beta = await location('Beta Beans', 52.5, 13.42);
  finder = await api('POST', '/finders', { name: 'Coffee finder', workspace_id: workspace?.id });
  await api('PUT', `/finders/${finder.id}`, {
    // Tiles from the stage's tile server; a website list that does not name the service.
    settings: [{ key: 'tile_url', value: stage.tiles.urlTemplate }],
    authorized_urls: ['https://coffee.example'],
    locations: [
      { location_id: alpha.id, sort_order: 0 },
      { location_id: beta.id, sort_order: 1 },
    ],
  });
  await api('POST', `/ext/finders/details/${finder.token}/sync`);
  // Added after the publish: the preview shows it, the published copy does not have it.
  const gamma = await location('Gamma Grind', 52.51, 13.39);
  await api('PUT', `/finders/${finder.id}`, {
    locations: [
      { location_id: alpha.id, sort_order: 0 },
      { location_id: beta.id, sort_order: 1 },
      { location_id: gamma.id, sort_order: 2 },
    ],
  });
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

const FRAME = 'iframe[title="Preview of the finder’s widget"]';

function previewFrame(page: Page): Frame {
  const frame = page.frames().find((candidate) => candidate.url().includes('/app/preview'));
  if (!frame) throw new Error('no preview frame');
  return frame;
}

/** The main colour the widget in the preview draws with (its root's custom property). */
const previewColour = (page: Page) =>
  previewFrame(page).evaluate(
    "document.querySelector('[data-location-finder]')?.shadowRoot?.querySelector('.lf-root')?.style.getPropertyValue('--lf-primary') ?? ''",
  ) as Promise<string>;

async function previewShows(page: Page, title: string) {
  await page.frameLocator(FRAME).getByText(title, { exact: true }).first().waitFor();
}

describe('the finder preview', () => {
  it('lists the finder’s current locations, and shows a colour typed in the form before it is saved', async () => {
    const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=design`);
    const { page } = opened;
    await page.getByRole('heading', { name: 'Preview' }).waitFor();
    for (const title of ['Alpha Roasters', 'Beta Beans', 'Gamma Grind']) await previewShows(page, title);
    // The frame is as narrow as a phone: the widget shows its list, and its map on a press.
    await page.frameLocator(FRAME).getByRole('button', { name: 'Map', exact: true }).click();
    await page.frameLocator(FRAME).locator('img.leaflet-tile-loaded').first().waitFor();
    expect(await previewColour(page)).toBe('#1d4ed8');
    await expectAccessible(page, 'finder-preview');

    await page.locator('input[name="primary_color"]').fill('#b91c1c');
    await expect.poll(() => previewColour(page), { timeout: 15_000 }).toBe('#b91c1c');
    await previewShows(page, 'Gamma Grind');
    const [unsaved] = await stage.ctx.deps.db
      .select()
      .from(findersTable)
      .where(eq(findersTable.id, finder.id));
    expect(unsaved?.settings.some((setting) => setting.key === 'primary_color')).toBe(false);
    await expectAccessible(page, 'finder-preview-unsaved-colour');

    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const [row] = await stage.ctx.deps.db
          .select()
          .from(findersTable)
          .where(eq(findersTable.id, finder.id));
        return row?.settings;
      })
      .toEqual(expect.arrayContaining([{ key: 'primary_color', value: '#b91c1c' }]));
    expect(await previewColour(page)).toBe('#b91c1c');
    await opened.close();
    // A preview is no visit: the widget's events never reached the service.
    const events = await stage.ctx.deps.db
      .select()
      .from(analyticsEventsTable)
      .where(eq(analyticsEventsTable.finderId, finder.id));
    expect(events).toEqual([]);
    expectClean(opened);
  }, 120_000);

  it('fits a phone (390 px)', async () => {
    const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=design`, PHONE);
    const { page } = opened;
    await previewShows(page, 'Gamma Grind');
    await page.locator(FRAME).scrollIntoViewIfNeeded();
    await expectAccessible(page, 'finder-preview-phone');
    expect(
      await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth'),
    ).toBe(true);
    expectClean(opened);
    await opened.close();
  }, 90_000);

  it('says not found for another user’s finder, with no preview and no map', async () => {
    const theirs = await stage.othersFinder('Their finder');
    const opened = await stage.openSignedIn(token, `/app/finders/${theirs.finderId}?tab=design`);
    const { page } = opened;
    await waitForNotFound(page, 'Finder');
    expect(await page.locator(FRAME).count()).toBe(0);
    expect(await page.getByRole('group', { name: /Map/ }).count()).toBe(0);
    expect(await page.getByText('Their finder').count()).toBe(0);
    await expectAccessible(page, 'finder-preview-not-found');
    expectClean(opened);
    await opened.close();
  }, 60_000);
});
