// What a visitor does with the widget, in a real headless Chromium on the hostile host page:
// place search by keyboard alone (ARIA combobox), the search's failure messages, "use my
// location", filters by tags, sets and refinements, the map and the list in step, the details
// card, deep links surviving a reload, and the analytics events reaching the backend by beacon.
// Every state gets an axe-core scan (zero violations) and a screenshot.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepLinkKey } from '../../src/widget/deep-link.ts';
import { createFinderPayload } from '../fakes/widget-payload.ts';
import { tempDir } from '../helpers/temp.ts';
import { scanWidgets } from './helpers/axe.ts';
import { screenshot } from './helpers/browser.ts';
import { type Stage, startStage, widgetsReady } from './helpers/stage.ts';
import { hostilePage } from './helpers/static-servers.ts';

let stage: Stage;
const finder = createFinderPayload({ name: 'Our stores' });
const allTags = createFinderPayload({ name: 'All tags' });
// Its own finder, so events that other tests' pages send later cannot mix in.
const counted = createFinderPayload({ name: 'Counted' });
// Mounted twice on one page: its own finder for the same reason.
const twice = createFinderPayload({ name: 'Twice' });

beforeAll(async () => {
  stage = await startStage({
    widgetDir: tempDir('widget-visitor-'),
    finders: ({ tiles }) => {
      const base = createFinderPayload({ imageBase: tiles.origin });
      finder.locations = base.locations;
      finder.settings.push({ key: 'tile_url', value: tiles.urlTemplate });
      allTags.settings.push(
        { key: 'tile_url', value: tiles.urlTemplate },
        { key: 'tag_filter_mode', value: 'all' },
      );
      counted.settings.push({ key: 'tile_url', value: tiles.urlTemplate });
      twice.settings.push({ key: 'tile_url', value: tiles.urlTemplate });
      return [
        { payload: finder, published: true },
        { payload: allTags, published: true },
        { payload: counted, published: true },
        { payload: twice, published: true },
      ];
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

const inWidget = (page: Page, script: string) =>
  page.evaluate(
    `(() => { const root = document.querySelector('[data-location-finder]').shadowRoot; ${script} })()`,
  );

const statusText = (page: Page) => page.locator('.lf-status').textContent();
const rowTitles = (page: Page) => page.locator('.lf-row-title').allTextContents();
const input = (page: Page) => page.getByRole('combobox', { name: 'Find locations near' });
/** A row of the result list (a marker of the same name is a button too). */
const row = (page: Page, title: string) =>
  page.getByRole('list', { name: 'Locations' }).getByRole('button', { name: new RegExp(`^${title}`) });

async function openFinder(path: string, token = finder.token, options: Parameters<Stage['open']>[2] = {}) {
  const opened = await stage.open(path, hostilePage({ scriptUrl: stage.backend.scriptUrl, token }), options);
  await widgetsReady(opened.page);
  return opened;
}

async function waitForStatus(page: Page, text: string) {
  await page.locator('.lf-status', { hasText: text }).waitFor();
}

/** Sum of what the map shows: cluster counts plus single markers (all of them are in view). */
const mapCount = (page: Page) =>
  inWidget(
    page,
    `return [...root.querySelectorAll('.lf-cluster [aria-hidden]')].reduce((sum, el) => sum + Number(el.textContent), 0)
      + root.querySelectorAll('.lf-marker').length;`,
  );

describe('search', () => {
  it('finds a place with the keyboard alone and lists the nearest first', async () => {
    const autocomplete: string[] = [];
    const { page } = await openFinder('/search', finder.token, {
      onRequest: (request) => {
        if (request.url().includes('/mapping/autocomplete')) autocomplete.push(request.url());
      },
    });
    const box = input(page);

    await page.keyboard.press('Tab');
    expect(await inWidget(page, `return root.activeElement?.getAttribute('role')`)).toBe('combobox');
    // The page's clock stands still while typing, so however slow the machine, the keystrokes
    // fall within the search box's pause (250 ms); then it runs past the pause once.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.keyboard.type('berl', { delay: 30 });
    expect(autocomplete).toHaveLength(0);
    await page.clock.runFor(300);
    await page.clock.resume();
    await page.getByRole('option').first().waitFor();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      'Berlin Hauptbahnhof, Berlin, Germany',
      'Berlin Alexanderplatz, Berlin, Germany',
    ]);
    // Typing quickly asks once, after the pause.
    expect(autocomplete).toHaveLength(1);
    expect(new URL(autocomplete[0] as string).searchParams.get('finder_key')).toBe(finder.token);
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBeNull();

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const second = page.getByRole('option', { name: 'Berlin Alexanderplatz, Berlin, Germany' });
    expect(await second.getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await second.getAttribute('id'));
    await page.keyboard.press('ArrowUp');
    const first = page.getByRole('option', { name: 'Berlin Hauptbahnhof, Berlin, Germany' });
    expect(await first.getAttribute('aria-selected')).toBe('true');
    expect(await second.getAttribute('aria-selected')).toBe('false');
    await checkState(page, 'search-suggestions-open');

    await page.keyboard.press('Enter');
    await waitForStatus(page, 'near Berlin Hauptbahnhof');
    expect(await statusText(page)).toBe(
      '12 locations near Berlin Hauptbahnhof, Berlin, Germany, nearest first',
    );
    expect(await box.inputValue()).toBe('Berlin Hauptbahnhof, Berlin, Germany');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect((await rowTitles(page)).slice(0, 3)).toEqual([
      'Berlin Mitte',
      'Berlin Alexanderplatz',
      'Berlin Kreuzberg',
    ]);
    expect(await page.locator('.lf-row-distance').first().textContent()).toBe('1.6 km');
    expect(await page.evaluate('location.hash')).toContain(
      `${deepLinkKey(finder.token)}=q:Berlin%20Hauptbahnhof%2C%20Berlin%2C%20Germany;lat:52.52510;lng:13.36940`,
    );
    await checkState(page, 'search-nearest-first');

    // Escape closes the suggestions and keeps the text; a second Escape clears the search.
    await page.keyboard.type(' x');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(await box.inputValue()).toBe('Berlin Hauptbahnhof, Berlin, Germany');
    await page.keyboard.press('Escape');
    await expect.poll(() => box.inputValue()).toBe('');
    await waitForStatus(page, '12 locations');
    expect(await statusText(page)).toBe('12 locations');
    expect(await page.evaluate('location.hash')).toBe('');
  });

  it.each([
    [429, 'Too many searches. Please wait a moment and try again.'],
    [502, 'Address search is unavailable right now. Use your location or browse the list.'],
  ])('explains an autocomplete answer of %i and leaves the list usable', async (status, message) => {
    const { page } = await openFinder(`/search-${status}`);
    if (status === 429) {
      // The service's own 429 (30 searches a minute per IP, plugins/rate-limit.ts) would also
      // throttle the other tests of this file, which share the address: the page gets that
      // answer, byte for byte, from the browser's request routing instead.
      await page.route('**/api/mapping/autocomplete?**', (route) =>
        route.fulfill({
          status: 429,
          contentType: 'application/json; charset=utf-8',
          headers: { 'retry-after': '30', 'access-control-allow-origin': '*' },
          body: JSON.stringify({ message: 'Too many requests.', code: 'rate_limited' }),
        }),
      );
    } else {
      // Photon answers 500: the service's own 502 provider_unavailable reaches the widget.
      stage.backend.failPlaceSearch(true);
    }
    try {
      await input(page).fill('hamb');
      await page.getByText(message).waitFor();
      expect(await input(page).getAttribute('aria-expanded')).toBe('false');
      expect(await statusText(page)).toBe('12 locations');
      await row(page, 'Hamburg Altona').click();
      await page.getByRole('heading', { name: 'Hamburg Altona' }).waitFor();
      await checkState(page, `search-failure-${status}`);
    } finally {
      stage.backend.failPlaceSearch(false);
    }
  });

  it('uses the visitor’s position, and keeps it out of the URL', async () => {
    const { page } = await openFinder('/locate', finder.token, {
      geolocation: { latitude: 48.14, longitude: 11.58 },
      permissions: ['geolocation'],
    });
    await page.getByRole('button', { name: 'Use my location' }).click();
    await waitForStatus(page, 'near My location');
    expect(await statusText(page)).toBe('12 locations near My location, nearest first');
    expect((await rowTitles(page)).slice(0, 2)).toEqual(['München Marienplatz', 'München Schwabing']);
    expect(await page.evaluate('location.hash')).toBe('');
  });
});

describe('filters', () => {
  it('filters by tags (any), sets and refinements, in the list, the count and the map', async () => {
    const { page } = await openFinder('/filters');
    const toggle = page.getByRole('button', { name: 'Filters', exact: true });
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByText('Locations with any of the selected features').isVisible()).toBe(true);

    // With the keyboard: the checkbox takes Space.
    await page.getByRole('checkbox', { name: 'Free Wi-Fi' }).focus();
    await page.keyboard.press('Space');
    await waitForStatus(page, '6 locations');
    await page.getByRole('checkbox', { name: 'Open late' }).check();
    await waitForStatus(page, '8 locations');
    expect(await rowTitles(page)).toEqual([
      'Berlin Mitte',
      'Berlin Alexanderplatz',
      'Hamburg Jungfernstieg',
      'Hamburg Altona',
      'München Marienplatz',
      'München Schwabing',
      'Köln Domplatte',
      'Dresden Altmarkt',
    ]);
    await expect.poll(() => mapCount(page)).toBe(8);
    expect(await page.getByRole('button', { name: 'Filters (2 active)' }).isVisible()).toBe(true);
    await checkState(page, 'filters-tags');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitForStatus(page, '12 locations');
    await page.getByRole('checkbox', { name: 'Outlet' }).check();
    await waitForStatus(page, '4 locations');
    expect(await rowTitles(page)).toEqual([
      'Berlin Alexanderplatz',
      'Hamburg Altona',
      'München Schwabing',
      'Frankfurt Zeil',
    ]);
    await page.getByRole('checkbox', { name: 'Outlet' }).uncheck();

    await page.getByRole('checkbox', { name: 'Repair service' }).check();
    await waitForStatus(page, '4 locations');
    await page.getByRole('checkbox', { name: 'Berlin area' }).check();
    await waitForStatus(page, '2 locations');
    expect(await rowTitles(page)).toEqual(['Berlin Mitte', 'Berlin Kreuzberg']);
    await expect.poll(() => mapCount(page)).toBe(2);
    expect(await page.evaluate('location.hash')).toBe(`#${deepLinkKey(finder.token)}=r:0,1`);
    await checkState(page, 'filters-refinements');

    await page.getByRole('checkbox', { name: 'Step-free access' }).check();
    await waitForStatus(page, '1 location');
    expect(await rowTitles(page)).toEqual(['Berlin Mitte']);
  });

  it('combines tags with AND when the finder says so, and says it has no match', async () => {
    const { page } = await openFinder('/filters-all', allTags.token);
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    expect(await page.getByText('Locations with all of the selected features').isVisible()).toBe(true);
    await page.getByRole('checkbox', { name: 'Free Wi-Fi' }).check();
    await page.getByRole('checkbox', { name: 'Open late' }).check();
    await waitForStatus(page, '2 locations');
    expect(await rowTitles(page)).toEqual(['Berlin Alexanderplatz', 'Dresden Altmarkt']);
    await page.getByRole('checkbox', { name: 'Drive-thru' }).check();
    await waitForStatus(page, '0 locations');
    expect(await page.getByText('No locations match. Try removing a filter.').isVisible()).toBe(true);
    await checkState(page, 'filters-no-match');
  });
});

describe('map, list and details', () => {
  it('keeps the map and the list in step both ways', async () => {
    const { page } = await openFinder('/sync');

    // A marker, pressed with the keyboard, selects its location in the list.
    const marker = page.getByRole('button', { name: 'Köln Domplatte', exact: true });
    await marker.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Köln Domplatte' }).waitFor();
    const current = page.locator('.lf-row[aria-current="true"]');
    expect(await current.locator('.lf-row-title').textContent()).toBe('Köln Domplatte');
    const inView = (await inWidget(
      page,
      `const row = root.querySelector('.lf-row[aria-current="true"]').getBoundingClientRect();
       const view = root.querySelector('.lf-list-scroll').getBoundingClientRect();
       return row.top >= view.top - 1 && row.bottom <= view.bottom + 1;`,
    )) as boolean;
    expect(inView).toBe(true);
    await checkState(page, 'sync-marker-selects-row');

    // The details cover the list; going back gives focus to the marker that opened them.
    await page.keyboard.press('Escape');
    expect(await inWidget(page, `return root.activeElement?.textContent`)).toBe('Köln Domplatte');

    // A row selects its marker: highlighted and brought to the middle of the map.
    await row(page, 'Hamburg Altona').click();
    await page.getByRole('heading', { name: 'Hamburg Altona' }).waitFor();
    const centred = () =>
      inWidget(
        page,
        `const marker = root.querySelector('.lf-marker--selected');
         if (!marker || !marker.textContent.includes('Hamburg Altona')) return false;
         const m = marker.getBoundingClientRect();
         const map = root.querySelector('.lf-map').getBoundingClientRect();
         return Math.abs(m.left + m.width / 2 - (map.left + map.width / 2)) < 20
           && Math.abs(m.top + m.height / 2 - (map.top + map.height / 2)) < 20;`,
      );
    await expect.poll(centred, { timeout: 5000 }).toBe(true);
    expect(await page.locator('.lf-marker--selected').count()).toBe(1);
    await checkState(page, 'sync-row-selects-marker');
  });

  it('zooms a cluster pressed with the keyboard in to where its members split', async () => {
    const { page } = await openFinder('/cluster');
    // The map's tiles then come from a deeper zoom, and no group of that size is left.
    const tileZoom = () =>
      inWidget(
        page,
        `const zooms = [...root.querySelectorAll('img.leaflet-tile')].map((tile) => Number(new URL(tile.src).pathname.split('/')[1]));
         return Math.max(...zooms);`,
      ) as Promise<number>;
    const cluster = page.getByRole('button', { name: /^\d+ locations, zoom in$/ }).first();
    const [label, zoomBefore] = [(await cluster.locator('.lf-sr').textContent()) ?? '', await tileZoom()];
    const members = Number(/^\d+/.exec(label)?.[0]);
    expect(members).toBeGreaterThan(1);
    await cluster.focus();
    await page.keyboard.press('Enter');
    await expect.poll(tileZoom, { timeout: 5000 }).toBeGreaterThan(zoomBefore);
    await expect
      .poll(() => page.getByRole('button', { name: new RegExp(`^${members} locations, zoom in$`) }).count())
      .toBe(0);
    expect(await mapCount(page)).toBeGreaterThanOrEqual(members);
  });

  it('shows a location’s details and gives focus back to its row', async () => {
    const { page } = await openFinder('/details');
    await row(page, 'Berlin Mitte').click();
    const card = page.getByRole('article', { name: 'Berlin Mitte' });
    await card.waitFor();
    expect(await inWidget(page, `return root.activeElement?.textContent`)).toBe('Berlin Mitte');

    expect(await card.getByRole('link', { name: '+49 30 5550100' }).getAttribute('href')).toBe(
      'tel:+49305550100',
    );
    expect(await card.getByRole('link', { name: 'store101@shop.example' }).getAttribute('href')).toBe(
      'mailto:store101@shop.example',
    );
    const website = card.getByRole('link', { name: 'shop.example/stores/101 (opens in a new tab)' });
    expect(await website.getAttribute('href')).toBe('https://www.shop.example/stores/101');
    expect(await website.getAttribute('target')).toBe('_blank');
    expect(await website.getAttribute('rel')).toBe('noopener noreferrer');
    expect(
      await card.getByRole('link', { name: 'Directions (opens in a new tab)' }).getAttribute('href'),
    ).toBe('https://www.google.com/maps/dir/?api=1&destination=52.517,13.3889');
    const fields = await inWidget(
      page,
      `return [...root.querySelectorAll('.lf-field')].map((field) =>
         [field.querySelector('dt').textContent, field.querySelector('dd').innerText]);`,
    );
    // The opening hours after the address (their content: tests/widget/hours-widget.test.ts).
    const [address, hours, ...rest] = fields as [string, string][];
    expect(hours?.[0]).toMatch(/^Opening hours/);
    expect(hours?.[1]).toMatch(/^Monday\t/);
    expect([address, ...rest]).toEqual([
      ['Address', 'Unter den Linden 1\n10117 Berlin\nDE'],
      ['Phone', '+49 30 5550100'],
      ['Email', 'store101@shop.example'],
      // The "opens in a new tab" note is visually hidden (positioned), hence its own line here.
      ['Website', 'shop.example/stores/101\n(opens in a new tab)'],
      ['Notes', 'Entrance on Friedrichstraße.\nBicycle racks at the back.'],
      ['Seats', '120'],
      ['Services', 'repair, rental'],
      ['Book an appointment', 'https://book.example/berlin-mitte\n(opens in a new tab)'],
      ['Step-free access', 'Yes'],
    ]);
    expect(await card.locator('.lf-chips li').allTextContents()).toEqual([
      'Flagship',
      'Drive-thru',
      'Free Wi-Fi',
    ]);
    const image = card.getByRole('img', { name: 'Photo of Berlin Mitte' });
    await expect
      .poll(() => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await checkState(page, 'details');

    await page.keyboard.press('Escape');
    expect(await card.count()).toBe(0);
    expect(
      await inWidget(page, `return root.activeElement?.querySelector('.lf-row-title')?.textContent`),
    ).toBe('Berlin Mitte');
    // The list is one tab stop that arrows walk through; Enter opens the next location.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Berlin Alexanderplatz' }).waitFor();
  });
});

describe('deep links', () => {
  // Three page loads with a search, filters and a selection each: up to 19 s on a loaded CI machine.
  it('restores the search, the filters and the selected location after a reload and in a new page', async () => {
    const { page } = await openFinder('/deep-link#top');
    await input(page).fill('berlin hau');
    await page.getByRole('option', { name: 'Berlin Hauptbahnhof, Berlin, Germany' }).click();
    await waitForStatus(page, 'near Berlin Hauptbahnhof');
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Free Wi-Fi' }).check();
    await waitForStatus(page, '6 locations near');
    await row(page, 'Berlin Alexanderplatz').click();
    await page.getByRole('heading', { name: 'Berlin Alexanderplatz' }).waitFor();
    const hash = (await page.evaluate('location.hash')) as string;
    expect(hash).toBe(
      `#top&${deepLinkKey(finder.token)}=loc:${stage.backend.serviceLocationId(finder.token, 102)};q:Berlin%20Hauptbahnhof%2C%20Berlin%2C%20Germany;` +
        'lat:52.52510;lng:13.36940;t:free-wi-fi',
    );

    const expectRestored = async (restored: Page) => {
      await restored.getByRole('heading', { name: 'Berlin Alexanderplatz' }).waitFor();
      // Under the details panel, as the filters below.
      const search = restored.getByRole('combobox', { name: 'Find locations near', includeHidden: true });
      expect(await search.inputValue()).toBe('Berlin Hauptbahnhof, Berlin, Germany');
      expect(await statusText(restored)).toBe(
        '6 locations near Berlin Hauptbahnhof, Berlin, Germany, nearest first',
      );
      // The filter panel starts closed; its checkbox is there, checked.
      const wifi = restored.getByRole('checkbox', { name: 'Free Wi-Fi', includeHidden: true });
      expect(await wifi.isChecked()).toBe(true);
      const filters = restored.getByRole('button', { name: 'Filters (1 active)', includeHidden: true });
      expect(await filters.getAttribute('aria-expanded')).toBe('false');
      expect(await restored.locator('.lf-row[aria-current="true"] .lf-row-title').textContent()).toBe(
        'Berlin Alexanderplatz',
      );
      expect(await restored.locator('.lf-row-distance').first().textContent()).toBe('1.6 km');
      expect(await restored.evaluate('location.hash')).toBe(hash);
    };

    await page.reload();
    await widgetsReady(page);
    await expectRestored(page);
    await checkState(page, 'deep-link-restored');

    const shared = await openFinder(`/deep-link-shared${hash}`);
    await expectRestored(shared.page);
  }, 60_000);
});

describe('analytics', () => {
  it('sends view, search, location_select and click events by beacon, with one session id, into the database', async () => {
    const stored = async () =>
      (await stage.backend.analyticsEvents()).filter((event) => event.finder_token === counted.token);
    const { page } = await openFinder('/analytics', counted.token);
    await input(page).fill('berlin hau');
    await page.getByRole('option', { name: 'Berlin Hauptbahnhof, Berlin, Germany' }).click();
    await waitForStatus(page, 'near Berlin Hauptbahnhof');
    await row(page, 'Berlin Mitte').click();
    await page.getByRole('link', { name: '+49 30 5550100' }).click();
    // Leaving the page flushes the batch (pagehide) before the 4-second timer would.
    await page.goto('about:blank');

    await expect.poll(async () => (await stored()).length, { timeout: 5000 }).toBe(4);
    const events = await stored();
    expect(events.map(({ type, location_id, query }) => ({ type, location_id, query }))).toEqual([
      { type: 'view', location_id: undefined, query: undefined },
      { type: 'search', location_id: undefined, query: 'Berlin Hauptbahnhof, Berlin, Germany' },
      { type: 'location_select', location_id: 101, query: undefined },
      { type: 'click', location_id: 101, query: undefined },
    ]);
    const sessions = new Set(events.map((event) => event.session_id));
    expect(sessions.size).toBe(1);
    expect([...sessions][0]).toMatch(/^[0-9a-f]{32}$/);
    for (const event of events) expect(Number.isNaN(Date.parse(event.occurred_at))).toBe(false);
    // Beacons: CORS-safelisted text/plain, sent in no-cors mode, so no preflight; all stored.
    const requests = stage.backend
      .analyticsRequests()
      .filter((request) => request.finderToken === counted.token);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(request).toMatchObject({
        contentType: 'text/plain;charset=utf-8',
        fetchMode: 'no-cors',
        status: 200,
      });
    }
  });

  it('sends one view per page load for a finder mounted in two containers', async () => {
    const sent: { type: string; session_id: string }[] = [];
    const html = hostilePage({
      scriptUrl: stage.backend.scriptUrl,
      token: twice.token,
      containers: ['', ''],
    });
    const { page } = await stage.open('/analytics-twice', html, {
      clock: true,
      onRequest: (request) => {
        const body = new URL(request.url()).pathname === '/api/analytics' ? request.postData() : null;
        if (body) sent.push(...JSON.parse(body).events);
      },
    });
    await widgetsReady(page, 2);
    expect(await page.getByRole('list', { name: 'Locations' }).count()).toBe(2);

    // The batch goes 4 s after its first event, while the page is still open (its requests seen):
    // the page's clock gets there at once.
    await page.clock.fastForward(4_000);
    await expect.poll(() => sent.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(500);
    expect(sent.map((event) => event.type)).toEqual(['view']);
    const stored = async () =>
      (await stage.backend.analyticsEvents()).filter((event) => event.finder_token === twice.token);
    await expect.poll(async () => (await stored()).length, { timeout: 5000 }).toBe(1);
    expect((await stored()).map((event) => [event.type, event.session_id])).toEqual([
      ['view', sent[0]!.session_id],
    ]);
  });
});
