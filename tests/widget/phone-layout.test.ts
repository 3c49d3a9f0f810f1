// The widget's layout by its container's width, in a real headless Chromium on the hostile host
// page (another origin than the service): on a phone (390x844, touch) the list and the map as
// two views behind a List/Map toggle (buttons with aria-pressed), a location's details as a
// panel over the whole widget whose back button returns to the list's scroll position and the
// row (or the marker) that opened it, and the filters as a panel ending in "Show N locations";
// on a desktop (1280x800) the list beside the map, and the details over the list, whole, with
// Directions in view without scrolling. On that desktop the layout still goes by the container:
// a host page with the widget in a 360-px sidebar gets the phone's layout, in a 900-px column
// the desktop's. Every state gets an axe-core scan and a screenshot.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFinderPayload } from '../fakes/widget-payload.ts';
import { tempDir } from '../helpers/temp.ts';
import { scanWidgets } from './helpers/axe.ts';
import { DESKTOP, PHONE, screenshot } from './helpers/browser.ts';
import { type Stage, startStage, widgetsReady } from './helpers/stage.ts';
import { hostilePage } from './helpers/static-servers.ts';

let stage: Stage;
const finder = createFinderPayload({ name: 'Our stores' });

beforeAll(async () => {
  stage = await startStage({
    widgetDir: tempDir('widget-phone-'),
    finders: ({ tiles }) => {
      // Berlin Mitte gets a photo: the tallest details of the finder.
      finder.locations = createFinderPayload({ imageBase: tiles.origin }).locations;
      finder.settings.push({ key: 'tile_url', value: tiles.urlTemplate });
      return [{ payload: finder, published: true }];
    },
  });
}, 120_000);

afterAll(async () => {
  await stage?.close();
});

async function checkState(page: Page, name: string) {
  await screenshot(page, name);
  const scan = await scanWidgets(page);
  expect(scan.errors).toEqual([]);
  expect(scan.violations).toEqual([]);
}

async function openFinder(
  path: string,
  options: BrowserContextOptions,
  html = hostilePage({ scriptUrl: stage.backend.scriptUrl, token: finder.token }),
) {
  const opened = await stage.open(path, html, {
    otherOrigin: true,
    ...options,
  });
  await widgetsReady(opened.page);
  return opened.page;
}

/**
 * The hostile host page laid out as a sidebar: the page's text in a column that takes the rest
 * of the window, the widget alone in a column `width` CSS pixels wide beside it. Sections and an
 * aside, not divs (the hostile CSS hides every other div); their inline styles outweigh its
 * `all: unset`.
 */
function sidebarPage(width: number): string {
  const html = hostilePage({ scriptUrl: stage.backend.scriptUrl, token: finder.token });
  const main = /<main>[\s\S]*<\/main>/;
  if (!main.test(html)) throw new Error('the host page has no <main> to lay out');
  return html.replace(
    main,
    `<main style="display: flex; gap: 24px; align-items: flex-start; padding: 16px;">
    <section style="display: block; flex: 1 1 auto; min-width: 0;">
      <h1>Find a store</h1>
      <p class="host-text">The host page's own text, beside the store finder.</p>
    </section>
    <aside style="display: block; flex: 0 0 ${width}px; width: ${width}px;">
      <div data-location-finder></div>
    </aside>
  </main>`,
  );
}

const inWidget = (page: Page, script: string) =>
  page.evaluate(
    `(() => { const root = document.querySelector('[data-location-finder]').shadowRoot; ${script} })()`,
  );

/** The page's box of a widget element (by selector), in CSS pixels of the viewport. */
const box = (page: Page, selector: string) =>
  inWidget(
    page,
    `const r = root.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
     return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };`,
  ) as Promise<{ top: number; bottom: number; left: number; right: number; width: number; height: number }>;

/** The focused element's text in the widget (a row's title, a marker's name, a button's label). */
const focused = (page: Page) =>
  inWidget(
    page,
    `const el = root.activeElement;
     return el ? (el.querySelector('.lf-row-title, .lf-sr') ?? el).textContent.trim() : null;`,
  );

const listScrollTop = (page: Page) =>
  inWidget(page, `return root.querySelector('.lf-list-scroll').scrollTop;`);

const statusText = (page: Page) => page.locator('.lf-status').textContent();
const list = (page: Page) => page.getByRole('list', { name: 'Locations' });
const row = (page: Page, title: string) => list(page).getByRole('button', { name: new RegExp(`^${title}`) });
const viewButton = (page: Page, name: 'List' | 'Map') =>
  page.getByRole('group', { name: 'Show results as' }).getByRole('button', { name, exact: true });
const map = (page: Page) => page.getByRole('group', { name: 'Map of locations' });
/** The List/Map toggle's pressed button, and the one view it shows. */
async function expectView(page: Page, shown: 'List' | 'Map') {
  expect(await viewButton(page, 'List').getAttribute('aria-pressed')).toBe(String(shown === 'List'));
  expect(await viewButton(page, 'Map').getAttribute('aria-pressed')).toBe(String(shown === 'Map'));
  expect(await list(page).isVisible()).toBe(shown === 'List');
  expect(await map(page).isVisible()).toBe(shown === 'Map');
}

/**
 * The name of a location drawn as a marker of its own: a small map shows clusters only, so the
 * first cluster is pressed (Enter zooms in to where its members split) until one is.
 */
async function singleMarker(page: Page): Promise<string> {
  const drawn = () =>
    inWidget(
      page,
      `return [...root.querySelectorAll('.lf-marker .lf-sr, .lf-cluster .lf-sr')].map((el) => el.textContent).join('|')`,
    ) as Promise<string>;
  await expect.poll(drawn).not.toBe('');
  for (let presses = 0; (await page.locator('.lf-marker').count()) === 0; presses++) {
    expect(presses).toBeLessThan(6);
    const before = await drawn();
    await page.locator('.lf-cluster').first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(drawn, { timeout: 5000 }).not.toBe(before);
  }
  return (await page.locator('.lf-marker .lf-sr').first().textContent()) ?? '';
}

describe('on a phone (390x844, touch)', () => {
  it('shows the list, or the map, a whole view each, behind a List/Map toggle', async () => {
    const page = await openFinder('/phone-views', PHONE);
    const listButton = viewButton(page, 'List');
    await expectView(page, 'List');

    // Within the screen, and the list the widget's whole lower part: more than four rows.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const root = await box(page, '.lf-root');
    expect(root.right).toBeLessThanOrEqual(390);
    const listBox = await box(page, '.lf-list-scroll');
    expect(listBox.height).toBeGreaterThan(4 * 76);
    expect(root.bottom - listBox.bottom).toBeLessThan(4);
    await checkState(page, 'phone-list');

    // The toggle with the keyboard: one tab stop per button, Space presses.
    await listButton.focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Map');
    await page.keyboard.press('Space');
    await expectView(page, 'Map');
    // The map in the list's place, as large, with its markers.
    const mapBox = await box(page, '.lf-map');
    expect(Math.abs(mapBox.top - listBox.top)).toBeLessThan(2);
    expect(mapBox.height).toBeGreaterThanOrEqual(listBox.height);
    await page.locator('img.leaflet-tile-loaded').first().waitFor();
    await page.locator('.lf-marker, .lf-cluster').first().waitFor();
    await checkState(page, 'phone-map');

    // And back by touch.
    await listButton.tap();
    await expectView(page, 'List');
  });

  it('opens a location as a panel over the widget; Back returns to the list’s place and the row', async () => {
    const page = await openFinder('/phone-details', PHONE);
    // The visitor has scrolled down the list, then taps a row.
    await inWidget(page, `root.querySelector('.lf-list-scroll').scrollTop = 300;`);
    await expect.poll(() => listScrollTop(page)).toBe(300);
    const target = row(page, 'München Marienplatz');
    await target.tap();

    const panel = page.getByRole('article', { name: 'München Marienplatz' });
    await panel.waitFor();
    expect(await focused(page)).toBe('München Marienplatz');
    // The panel covers the widget; what it covers is out of sight and out of the tab order.
    const root = await box(page, '.lf-root');
    const slot = await box(page, '.lf-details-slot');
    expect(Math.abs(slot.top - root.top)).toBeLessThan(2);
    expect(Math.abs(slot.bottom - root.bottom)).toBeLessThan(2);
    expect(slot.width).toBeGreaterThan(root.width - 4);
    expect(await page.getByRole('combobox', { name: 'Find locations near' }).isVisible()).toBe(false);
    expect(await list(page).isVisible()).toBe(false);
    expect(await viewButton(page, 'Map').isVisible()).toBe(false);
    // Back and Directions on screen without scrolling.
    const back = panel.getByRole('button', { name: 'Back to results' });
    expect(await back.isVisible()).toBe(true);
    const directions = await panel
      .getByRole('link', { name: 'Directions (opens in a new tab)' })
      .boundingBox();
    expect(directions).not.toBeNull();
    expect(directions!.y + directions!.height).toBeLessThanOrEqual(Math.min(844, slot.bottom));
    expect(directions!.x + directions!.width).toBeLessThanOrEqual(390);
    await checkState(page, 'phone-details');

    await back.tap();
    expect(await panel.count()).toBe(0);
    expect(await list(page).isVisible()).toBe(true);
    expect(await listScrollTop(page)).toBe(300);
    expect(await focused(page)).toBe('München Marienplatz');
    expect(await inWidget(page, `return root.activeElement.classList.contains('lf-row')`)).toBe(true);
  });

  it('opens a marker’s location from the map view; Escape returns to the map and the marker', async () => {
    const page = await openFinder('/phone-map-details', PHONE);
    await viewButton(page, 'Map').tap();
    const name = await singleMarker(page);
    const marker = page.getByRole('button', { name, exact: true });
    await marker.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('article', { name });
    await panel.waitFor();
    expect(await focused(page)).toBe(name);
    expect(await map(page).isVisible()).toBe(false);
    await checkState(page, 'phone-details-from-map');

    await page.keyboard.press('Escape');
    expect(await panel.count()).toBe(0);
    expect(await map(page).isVisible()).toBe(true);
    expect(await viewButton(page, 'Map').getAttribute('aria-pressed')).toBe('true');
    expect(await inWidget(page, `return root.activeElement?.classList.contains('lf-marker')`)).toBe(true);
    expect(await focused(page)).toBe(name);
  });

  it('shows the filters as a panel over the results, and “Show N locations” goes back to the list', async () => {
    const page = await openFinder('/phone-filters', PHONE);
    const toggle = page.getByRole('button', { name: 'Filters', exact: true });
    await toggle.tap();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const panel = page.locator('.lf-filters');
    expect(await panel.isVisible()).toBe(true);
    // The panel takes the results' place: the list and the view toggle are out of sight.
    expect(await list(page).isVisible()).toBe(false);
    expect(await viewButton(page, 'List').isVisible()).toBe(false);
    const show = page.getByRole('button', { name: 'Show 12 locations' });
    expect(await show.isVisible()).toBe(true);

    await page.getByRole('checkbox', { name: 'Free Wi-Fi' }).tap();
    await page.locator('.lf-status', { hasText: '6 locations' }).waitFor();
    const showSix = page.getByRole('button', { name: 'Show 6 locations' });
    // The action stays on screen, inside the widget, however long the panel.
    const action = await showSix.boundingBox();
    const root = await box(page, '.lf-root');
    expect(action).not.toBeNull();
    expect(action!.y + action!.height).toBeLessThanOrEqual(Math.min(844, root.bottom));
    expect(await page.getByRole('button', { name: 'Filters (1 active)' }).isVisible()).toBe(true);
    await checkState(page, 'phone-filters');

    await showSix.tap();
    expect(await panel.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Filters (1 active)' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
    expect(await list(page).isVisible()).toBe(true);
    expect(await list(page).getByRole('listitem').count()).toBe(6);
    expect(await statusText(page)).toBe('6 locations');
    // Focus on the first result.
    expect(await focused(page)).toBe('Berlin Mitte');
    await checkState(page, 'phone-filters-applied');

    // Opened from the map view, the panel covers the map; Escape closes it, back on the button.
    await viewButton(page, 'Map').tap();
    const filters = page.getByRole('button', { name: 'Filters (1 active)' });
    await filters.tap();
    expect(await panel.isVisible()).toBe(true);
    expect(await map(page).isVisible()).toBe(false);
    await page.getByRole('checkbox', { name: 'Free Wi-Fi' }).focus();
    await page.keyboard.press('Escape');
    expect(await panel.isVisible()).toBe(false);
    expect(await filters.getAttribute('aria-expanded')).toBe('false');
    expect(await focused(page)).toBe('Filters (1 active)');
    expect(await map(page).isVisible()).toBe(true);
  });
});

describe('on a desktop (1280x800)', () => {
  it('shows the list beside the map, the details over the list whole with Directions in view, and back', async () => {
    const page = await openFinder('/desktop', DESKTOP);
    expect(await list(page).isVisible()).toBe(true);
    expect(await map(page).isVisible()).toBe(true);
    expect(await page.getByRole('group', { name: 'Show results as' }).isVisible()).toBe(false);
    const listBox = await box(page, '.lf-list-scroll');
    const mapBox = await box(page, '.lf-map');
    expect(mapBox.left).toBeGreaterThanOrEqual(listBox.right - 1);
    await page.locator('img.leaflet-tile-loaded').first().waitFor();
    await checkState(page, 'desktop-list');

    await row(page, 'Berlin Mitte').click();
    const panel = page.getByRole('article', { name: 'Berlin Mitte' });
    await panel.waitFor();
    const image = panel.getByRole('img', { name: 'Photo of Berlin Mitte' });
    await expect
      .poll(() => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    // The panel is the list's whole column, from the widget's top to its bottom.
    const root = await box(page, '.lf-root');
    const slot = await box(page, '.lf-details-slot');
    expect(Math.abs(slot.top - root.top)).toBeLessThan(2);
    expect(Math.abs(slot.bottom - root.bottom)).toBeLessThan(2);
    expect(slot.height).toBeGreaterThan(500);
    expect(Math.abs(slot.right - mapBox.left)).toBeLessThan(2);
    expect(await map(page).isVisible()).toBe(true);
    // Directions on screen and inside the panel, with the panel not scrolled.
    expect(await inWidget(page, `return root.querySelector('.lf-details-slot').scrollTop`)).toBe(0);
    const directions = await panel
      .getByRole('link', { name: 'Directions (opens in a new tab)' })
      .boundingBox();
    expect(directions).not.toBeNull();
    expect(directions!.y).toBeGreaterThanOrEqual(slot.top);
    expect(directions!.y + directions!.height).toBeLessThanOrEqual(Math.min(800, slot.bottom));
    expect(await panel.getByRole('link', { name: '+49 30 5550100' }).isVisible()).toBe(true);
    await checkState(page, 'desktop-details');

    // Everything of the card is reachable by scrolling the panel, down to its last chip.
    await inWidget(
      page,
      `const slot = root.querySelector('.lf-details-slot'); slot.scrollTop = slot.scrollHeight;`,
    );
    const lastChip = await box(page, '.lf-chips li:last-child');
    const scrolledDirections = await panel.getByRole('link', { name: /^Directions/ }).boundingBox();
    expect(lastChip.bottom).toBeLessThanOrEqual(scrolledDirections!.y);
    await checkState(page, 'desktop-details-scrolled');

    await panel.getByRole('button', { name: 'Back to results' }).click();
    expect(await panel.count()).toBe(0);
    expect(await focused(page)).toBe('Berlin Mitte');

    // From further down the list: back where the visitor was.
    await inWidget(page, `root.querySelector('.lf-list-scroll').scrollTop = 150;`);
    await expect.poll(() => listScrollTop(page)).toBe(150);
    await row(page, 'München Marienplatz').click();
    await page.getByRole('article', { name: 'München Marienplatz' }).waitFor();
    await page.keyboard.press('Escape');
    expect(await listScrollTop(page)).toBe(150);
    expect(await focused(page)).toBe('München Marienplatz');
  });

  it('keeps the list in view beside an open filters panel, without the phone’s “Show” action', async () => {
    const page = await openFinder('/desktop-filters', DESKTOP);
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Open late' }).check();
    await page.locator('.lf-status', { hasText: '4 locations' }).waitFor();
    expect(await list(page).isVisible()).toBe(true);
    expect(await list(page).getByRole('listitem').count()).toBe(4);
    expect(await page.getByRole('button', { name: /^Show \d+ locations?$/ }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Clear filters' }).isVisible()).toBe(true);
    await checkState(page, 'desktop-filters');
  });
});

describe('on a desktop (1280x800) with the widget in a sidebar', () => {
  it('gives a 360-px column the phone’s layout: the List/Map toggle, and the details as a panel with Back', async () => {
    const page = await openFinder('/sidebar-narrow', DESKTOP, sidebarPage(360));
    // The window is a desktop's, wider than the layout's 640 px: only the container is narrow.
    expect(await page.evaluate('[innerWidth, matchMedia("(max-width: 639px)").matches]')).toEqual([
      1280,
      false,
    ]);
    const root = await box(page, '.lf-root');
    expect(root.width).toBeGreaterThan(355);
    expect(root.width).toBeLessThanOrEqual(360);
    // In the sidebar, right of the page's text.
    expect(root.left).toBeGreaterThan(640);
    const listButton = viewButton(page, 'List');
    const mapButton = viewButton(page, 'Map');
    expect(await listButton.isVisible()).toBe(true);
    await expectView(page, 'List');
    // The list is the widget's whole width, its whole lower part.
    const listBox = await box(page, '.lf-list-scroll');
    expect(listBox.width).toBeGreaterThan(root.width - 4);
    expect(root.bottom - listBox.bottom).toBeLessThan(4);
    await checkState(page, 'sidebar-list');

    // The toggle with the mouse: the map in the list's place, then the list again.
    await mapButton.click();
    await expectView(page, 'Map');
    const mapBox = await box(page, '.lf-map');
    expect(Math.abs(mapBox.top - listBox.top)).toBeLessThan(2);
    expect(mapBox.width).toBeGreaterThan(root.width - 4);
    await page.locator('img.leaflet-tile-loaded').first().waitFor();
    await page.locator('.lf-marker, .lf-cluster').first().waitFor();
    await checkState(page, 'sidebar-map');
    await listButton.click();
    await expectView(page, 'List');

    // A row opens the details over the whole widget, not over a list column beside the map.
    await row(page, 'Berlin Mitte').click();
    const panel = page.getByRole('article', { name: 'Berlin Mitte' });
    await panel.waitFor();
    expect(await focused(page)).toBe('Berlin Mitte');
    const slot = await box(page, '.lf-details-slot');
    expect(Math.abs(slot.top - root.top)).toBeLessThan(2);
    expect(Math.abs(slot.bottom - root.bottom)).toBeLessThan(2);
    expect(slot.width).toBeGreaterThan(root.width - 4);
    expect(await page.getByRole('combobox', { name: 'Find locations near' }).isVisible()).toBe(false);
    expect(await list(page).isVisible()).toBe(false);
    expect(await map(page).isVisible()).toBe(false);
    expect(await viewButton(page, 'Map').isVisible()).toBe(false);
    const back = panel.getByRole('button', { name: 'Back to results' });
    expect(await back.isVisible()).toBe(true);
    await checkState(page, 'sidebar-details');

    await back.click();
    expect(await panel.count()).toBe(0);
    expect(await list(page).isVisible()).toBe(true);
    expect(await listButton.isVisible()).toBe(true);
    expect(await focused(page)).toBe('Berlin Mitte');
  });

  it('gives the same page with a 900-px column the desktop’s layout: the list beside the map, no toggle', async () => {
    const page = await openFinder('/sidebar-wide', DESKTOP, sidebarPage(900));
    const root = await box(page, '.lf-root');
    expect(root.width).toBeGreaterThan(895);
    expect(root.width).toBeLessThanOrEqual(900);
    expect(await page.getByRole('group', { name: 'Show results as' }).isVisible()).toBe(false);
    expect(await list(page).isVisible()).toBe(true);
    expect(await map(page).isVisible()).toBe(true);
    const listBox = await box(page, '.lf-list-scroll');
    const mapBox = await box(page, '.lf-map');
    expect(mapBox.left).toBeGreaterThanOrEqual(listBox.right - 1);
    // The details over the list's column only, the map still beside them.
    await row(page, 'Berlin Mitte').click();
    await page.getByRole('article', { name: 'Berlin Mitte' }).waitFor();
    const slot = await box(page, '.lf-details-slot');
    expect(Math.abs(slot.right - mapBox.left)).toBeLessThan(2);
    expect(await map(page).isVisible()).toBe(true);
    await checkState(page, 'sidebar-wide-details');
  });
});
