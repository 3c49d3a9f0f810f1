// A chunked finder (docs/api.md, Publishing: chunked finders) in a real headless Chromium, on
// a host page of another origin than the service, published by the service with
// PUBLISH_CHUNKED_FROM=10 so that every finder here is chunked:
// - a chain of 100,000 generated locations (written straight into the database,
//   helpers/chain.ts), on a phone: opened on a deep link to a position, the first rows are the
//   nearest (against a brute-force ranking of the generated locations in node) while the index
//   is held back, for that position, a new one and one far from every store; once the index
//   has loaded (COMPLETE_MARK) a tag filter counts what a count over the generated data says
//   and lists the nearest passing; a row opens its details; rows far down the list load; the
//   map comes before the index, deeper than its cluster summaries with the locations of the
//   areas read and a note that more are loading. On a desktop, with the index held back, the
//   map (asked for after the first list's area) draws the summaries' clusters, every location
//   counted once, hides them while a filter waits for the index, zooms in on a cluster's
//   Enter, and once the index has loaded clusters the results itself, filters included. axe
//   scans the list, the details and the summaries;
// - a finder of twelve: without a deep link, its rows in the index's order with their details
//   and its map's markers named; a deep link with a filter and a location opens the location
//   once the index has loaded; an index file that cannot be read (after the map drew the
//   cluster summaries) and an area file that is gone from the storage leave a widget that says
//   so, with no error thrown in the page and no endless requests for the missing file; and the
//   same finder on the demo page, the service's own origin, under that page's CSP, lists,
//   filters and opens details.
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishFinder } from '../../scripts/seed-finder.ts';
import { distanceKm, hasPosition, type LatLng } from '../../src/lib/geo.ts';
import { COMPLETE_MARK, MAP_RENDERED_MARK } from '../../src/widget/marks.ts';
import type { FinderLocation } from '../../src/widget/types.ts';
import { createFinderPayload } from '../fakes/widget-payload.ts';
import { tempDir } from '../helpers/temp.ts';
import { scanWidgets } from './helpers/axe.ts';
import { openPage, PHONE, screenshot, type TestPage } from './helpers/browser.ts';
import { type SeededChain, seedChain } from './helpers/chain.ts';
import { type Stage, startStage, widgetsReady } from './helpers/stage.ts';
import { hostilePage } from './helpers/static-servers.ts';

let stage: Stage;
/** Twelve locations: chunked from 10 on. */
const small = createFinderPayload({ name: 'Small chunked stores' });
/** The same twelve; its index file is overwritten with bytes that are no JSON. */
const brokenIndex = createFinderPayload({ name: 'Broken index stores' });
/** The same twelve; its (only) area file is removed from the storage. */
const brokenArea = createFinderPayload({ name: 'Broken area stores' });
const pages: TestPage[] = [];

beforeAll(async () => {
  stage = await startStage({
    widgetDir: tempDir('widget-chunked-'),
    env: { PUBLISH_CHUNKED_FROM: '10' },
    finders: ({ tiles }) => {
      for (const payload of [small, brokenIndex, brokenArea]) {
        payload.settings.push({ key: 'tile_url', value: tiles.urlTemplate });
      }
      return [
        { payload: small, published: true },
        { payload: brokenIndex, published: true },
        { payload: brokenArea, published: true },
      ];
    },
  });
}, 120_000);

afterAll(async () => {
  for (const opened of pages) await opened.close().catch(() => {});
  await stage?.close();
});

interface Published {
  manifestUrl: string;
  chunked: {
    areas: [string, number, ...number[]][];
    clusters?: { max_zoom: number; path: string };
    count: number;
    index: string;
  };
  indexUrl: string;
  areaUrls: string[];
}

/** The published manifest of a finder, as the widget reads it from the CDN. */
async function published(token: string): Promise<Published> {
  const pointerUrl = `${stage.backend.cdnUrl}/finders/${token}/config.json`;
  const pointer = (await (await fetch(pointerUrl)).json()) as { url: string };
  const manifestUrl = new URL(pointer.url, pointerUrl).href;
  const manifest = (await (await fetch(manifestUrl)).json()) as { chunked?: Published['chunked'] };
  // The finder must really be chunked, or these tests would read a single file.
  if (!manifest.chunked) throw new Error(`finder ${token} was not published chunked`);
  return {
    manifestUrl,
    chunked: manifest.chunked,
    indexUrl: new URL(manifest.chunked.index, manifestUrl).href,
    areaUrls: manifest.chunked.areas.map(([file]) => new URL(file, manifestUrl).href),
  };
}

/** The local storage's file behind a CDN URL, with its compressed forms and metadata beside it. */
function storedFiles(url: string) {
  const key = url.slice(stage.backend.cdnUrl.length + 1);
  const file = path.join(stage.dataDir, 'storage', ...key.split('/'));
  expect(existsSync(file)).toBe(true);
  const beside = (suffix: string) => path.join(path.dirname(file), `.${path.basename(file)}${suffix}`);
  return { file, forms: [beside('.gz'), beside('.br')], meta: beside('.meta.json') };
}

interface Opened {
  page: Page;
  /** Uncaught exceptions in the page. */
  errors: string[];
  /** Every URL the page requested. */
  requests: string[];
}

/**
 * The finder on the host page (another origin than the service), at `hash`; `before` runs
 * once the page exists, before it navigates (routes that hold a file back).
 */
async function openFinder(
  token: string,
  route: string,
  hash = '',
  { phone = false, before }: { phone?: boolean; before?: (page: Page) => Promise<void> } = {},
): Promise<Opened> {
  const opened = await openPage(stage.browser, phone ? PHONE : {});
  pages.push(opened);
  const { page } = opened;
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  await before?.(page);
  await page.goto(stage.site.page(route, hostilePage({ scriptUrl: stage.backend.scriptUrl, token })) + hash);
  await widgetsReady(page);
  return { page, errors, requests };
}

const inWidget = (page: Page, script: string) =>
  page.evaluate(
    `(() => { const root = document.querySelector('[data-location-finder]').shadowRoot; ${script} })()`,
  );

const statusText = (page: Page) => page.locator('.lf-status').textContent();
const waitForStatus = (page: Page, text: string) => page.locator('.lf-status', { hasText: text }).waitFor();
const isComplete = (page: Page) =>
  page.evaluate((mark) => performance.getEntriesByName(mark).length > 0, COMPLETE_MARK);
const whenComplete = (page: Page) =>
  page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, COMPLETE_MARK, {
    timeout: 30_000,
  });

async function checkState(page: Page, name: string) {
  await screenshot(page, name);
  const scan = await scanWidgets(page);
  expect(scan.errors).toEqual([]);
  expect(scan.violations).toEqual([]);
}

interface Row {
  index: number;
  title: string;
  busy: boolean;
}

/** The rows the virtual list has drawn, by their place in the list. */
const drawnRows = (page: Page) =>
  inWidget(
    page,
    `return [...root.querySelectorAll('.lf-list li')].map((li) => ({
       index: Number(li.dataset.index),
       title: li.querySelector('.lf-row-title').textContent,
       busy: li.querySelector('button').getAttribute('aria-busy') === 'true',
     })).sort((a, b) => a.index - b.index);`,
  ) as Promise<Row[]>;

/**
 * The drawn rows from list position `from` on (at most `count`), once they are a run of
 * positions with every row's details loaded.
 */
async function loadedRows(page: Page, from: number, count: number): Promise<Row[]> {
  const rows = async () =>
    (await drawnRows(page)).filter((row) => row.index >= from && row.index < from + count);
  await expect
    .poll(
      async () => {
        const drawn = await rows();
        return drawn.length > 0 && drawn.every((row, k) => row.index === from + k && !row.busy);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return rows();
}

/** Sum of what the map shows: cluster counts plus single markers (in view). */
const mapCount = (page: Page) =>
  inWidget(
    page,
    `return [...root.querySelectorAll('.lf-cluster [aria-hidden]')].reduce((sum, el) => sum + Number(el.textContent.replace(/\\D/g, '')), 0)
      + root.querySelectorAll('.lf-marker').length;`,
  ) as Promise<number>;

/** The note over the map (before the index); null while it is hidden. */
const mapNote = (page: Page) =>
  inWidget(
    page,
    `const note = root.querySelector('.lf-map-note'); return note && !note.hidden ? note.textContent : null;`,
  ) as Promise<string | null>;

/** Changes the page's hash, as a visitor following another link to the page does. */
const linkTo = (page: Page, hash: string) => page.evaluate(`location.hash = ${JSON.stringify(hash)}`);

/** Holds every request for `url` until the returned function is called. */
async function holdBack(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await route.continue().catch(() => {});
  });
  return release;
}

describe('a chain of 100,000 locations, on a phone', () => {
  const BERLIN = { label: 'Berlin', lat: 52.52, lng: 13.405 };
  const PARIS = { label: 'Paris', lat: 48.8566, lng: 2.3522 };
  /** Mid-Atlantic, about 3,000 km from the nearest store of the chain (all in Europe). */
  const OCEAN = { label: 'Mid-Atlantic', lat: 40, lng: -40 };
  /** Rows compared with the brute-force ranking: the early list's length at most. */
  const COMPARED = 20;
  let chain: SeededChain;
  let files: Published;
  const byTitle = new Map<string, FinderLocation>();

  beforeAll(async () => {
    const sql = postgres(stage.databaseUrl, { max: 2, onnotice: () => {} });
    try {
      chain = await seedChain(stage.backend, sql, 100_000);
    } finally {
      await sql.end();
    }
    await publishFinder(stage.backend.ownerApi, chain.token);
    for (const location of chain.locations) byTitle.set(location.title, location);
    files = await published(chain.token);
    expect(files.chunked.count).toBe(100_000);
    expect(files.areaUrls.length).toBeGreaterThan(100);
  }, 180_000);

  const hashOf = (place: typeof BERLIN) =>
    `#lf-${chain.token.slice(0, 8)}=q:${place.label};lat:${place.lat.toFixed(5)};lng:${place.lng.toFixed(5)}`;

  /** Every generated location passing `passes`, by distance to `point` (kilometres, ascending). */
  const ranking = (point: LatLng, passes: (location: FinderLocation) => boolean = () => true) =>
    chain.locations
      .filter(passes)
      .map((location) => distanceKm(point, location as LatLng))
      .sort((a, b) => a - b);

  /**
   * The rows from list position `from` on are the nearest to `point` of the locations passing
   * `passes`, in order: each row's distance (its title's generated position) equals the
   * brute-force ranking's at its place, to `digits` (6: 1e-6 km; ties could swap titles only).
   */
  async function expectNearest(
    page: Page,
    point: LatLng,
    {
      from = 0,
      passes,
      digits = 6,
    }: { from?: number; passes?: (location: FinderLocation) => boolean; digits?: number } = {},
  ) {
    const rows = await loadedRows(page, from, COMPARED);
    // A phone's list shows seven rows or more, with the list's margin drawn around them.
    expect(rows.length).toBeGreaterThanOrEqual(7);
    const shown = rows.map((row) => {
      const location = byTitle.get(row.title);
      if (!location) throw new Error(`row ${row.index} is no location of the chain: ${row.title}`);
      if (passes) expect(passes(location)).toBe(true);
      return distanceKm(point, location as LatLng);
    });
    const expected = ranking(point, passes).slice(from, from + rows.length);
    expect(shown).toEqual(expected.map((km) => expect.closeTo(km, digits)));
    return rows;
  }

  it('lists the nearest to a linked position from the nearest areas before the index, for a new position and a remote one too', async () => {
    let release = () => {};
    const { page, errors } = await openFinder(chain.token, '/chain-early', hashOf(BERLIN), {
      phone: true,
      before: async (page) => {
        release = await holdBack(page, files.indexUrl);
      },
    });
    try {
      await waitForStatus(page, 'near Berlin');
      expect(await statusText(page)).toBe('100,000 locations near Berlin, nearest first');
      const rows = await expectNearest(page, BERLIN);
      // The distance shown is the row's own.
      const nearest = distanceKm(BERLIN, byTitle.get(rows[0]!.title) as LatLng);
      expect(await page.locator('.lf-row-distance').first().textContent()).toBe(`${nearest.toFixed(1)} km`);
      // All of it without the index. The map too, framed on Berlin: deeper than the cluster
      // summaries go, it draws the locations of the areas read and says more are loading.
      expect(await isComplete(page)).toBe(false);
      await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, MAP_RENDERED_MARK);
      expect(await mapNote(page)).toBe('Loading locations…');
      await expect.poll(() => mapCount(page)).toBeGreaterThan(0);
      await checkState(page, 'chunked-phone-list-early');

      // A new position (a changed link) reads its own nearest areas.
      await linkTo(page, hashOf(PARIS));
      await waitForStatus(page, 'near Paris');
      expect(await statusText(page)).toBe('100,000 locations near Paris, nearest first');
      await expectNearest(page, PARIS);

      // Far from every store: the search reads on until it has the nearest, never "no locations".
      await linkTo(page, hashOf(OCEAN));
      await waitForStatus(page, 'near Mid-Atlantic');
      expect(await statusText(page)).toBe('100,000 locations near Mid-Atlantic, nearest first');
      await expectNearest(page, OCEAN);
      expect(await page.getByText('No locations match').isVisible()).toBe(false);
      expect(await isComplete(page)).toBe(false);

      // The index arrives: the same nearest, now ranked over every location, and the map's clusters.
      release();
      await whenComplete(page);
      expect(await statusText(page)).toBe('100,000 locations near Mid-Atlantic, nearest first');
      await expectNearest(page, OCEAN);
      await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, MAP_RENDERED_MARK);
      await expect.poll(() => mapCount(page)).toBeGreaterThan(0);

      await linkTo(page, hashOf(PARIS));
      await waitForStatus(page, 'near Paris');
      await expectNearest(page, PARIS);
      expect(errors).toEqual([]);
    } finally {
      release();
    }
  }, 60_000);

  it('draws the cluster summaries on the map before the index, and its own clusters once it has loaded', async () => {
    const placed = chain.locations.filter((location) => hasPosition(location)).length;
    expect(placed).toBeGreaterThan(99_000);
    const withWifi = chain.locations.filter(
      (location) => hasPosition(location) && location.tags.includes('free-wi-fi'),
    ).length;
    const summariesUrl = new URL(files.chunked.clusters!.path, files.manifestUrl).href;
    let release = () => {};
    const { page, errors, requests } = await openFinder(chain.token, '/chain-summaries', '', {
      before: async (page) => {
        release = await holdBack(page, files.indexUrl);
      },
    });
    try {
      await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, MAP_RENDERED_MARK);
      expect(await isComplete(page)).toBe(false);
      expect(requests).toContain(files.indexUrl);
      // The map's file and the summaries were asked for once the first list's area had arrived.
      const timing = (await page.evaluate(
        ([summaries, area]) => {
          const entries = performance.getEntriesByType('resource') as unknown as {
            name: string;
            startTime: number;
            responseEnd: number;
          }[];
          const find = (test: (name: string) => boolean) => entries.find((entry) => test(entry.name));
          return {
            area: find((name) => name === area)?.responseEnd,
            summaries: find((name) => name === summaries)?.startTime,
            map: find((name) => /\/widget-map\.[0-9a-f]+\.js$/.test(name))?.startTime,
          };
        },
        [summariesUrl, files.areaUrls[0]!],
      )) as { area?: number; summaries?: number; map?: number };
      expect(timing.area).toBeGreaterThan(0);
      expect(timing.summaries).toBeGreaterThanOrEqual(timing.area!);
      expect(timing.map).toBeGreaterThanOrEqual(timing.area!);

      // Framed on every location: the clusters count each once, named as the map's own are.
      expect(await page.locator('.lf-marker').count()).toBe(0);
      expect(await mapCount(page)).toBe(placed);
      expect(await mapNote(page)).toBeNull();
      const names = (await inWidget(
        page,
        `return [...root.querySelectorAll('.lf-cluster')].map((el) => [el.querySelector('[aria-hidden]').textContent, el.querySelector('.lf-sr').textContent]);`,
      )) as [string, string][];
      expect(names.length).toBeGreaterThan(1);
      for (const [shown, name] of names) expect(name).toBe(`${shown} locations, zoom in`);
      await checkState(page, 'chunked-summaries');

      // A filter needs the index: the summaries (of every location) give way to the note.
      await page.getByRole('button', { name: 'Filters', exact: true }).click();
      const wifi = page.getByRole('checkbox', { name: 'Free Wi-Fi' });
      await wifi.check();
      await expect.poll(() => mapNote(page)).toBe('Loading locations…');
      expect(await mapCount(page)).toBe(0);
      await wifi.uncheck();
      await expect.poll(() => mapCount(page)).toBe(placed);
      expect(await mapNote(page)).toBeNull();

      // A cluster's Enter zooms in: fewer locations in view, still the summaries.
      await page.locator('.lf-cluster').first().focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => mapCount(page)).toBeLessThan(placed);
      expect(await mapCount(page)).toBeGreaterThan(0);
      // Deeper than the summaries: the note says more are loading.
      for (let k = 0; k < 12 && (await mapNote(page)) === null; k++) {
        await page.locator('.leaflet-control-zoom-in').click();
        await page.waitForTimeout(400);
      }
      expect(await mapNote(page)).toBe('Loading locations…');
      expect(await isComplete(page)).toBe(false);
      await checkState(page, 'chunked-summaries-deeper');

      // The index arrives: the map clusters the results itself, in view and filtered.
      release();
      await whenComplete(page);
      await expect.poll(() => mapNote(page)).toBeNull();
      await expect.poll(() => mapCount(page)).toBeGreaterThan(0);
      for (let k = 0; k < 12 && (await mapCount(page)) !== placed; k++) {
        await page.locator('.leaflet-control-zoom-out').click();
        await page.waitForTimeout(400);
      }
      expect(await mapCount(page)).toBe(placed);
      await wifi.check();
      await expect.poll(() => mapCount(page)).toBe(withWifi);
      expect(await mapNote(page)).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      release();
    }
  }, 90_000);

  it('filters over the index by a tag, opens a row’s details, and loads rows far down the list', async () => {
    const { page, errors } = await openFinder(chain.token, '/chain-complete', hashOf(BERLIN), {
      phone: true,
    });
    await whenComplete(page);
    await expectNearest(page, BERLIN);

    // A tag (any of the chosen ones, the finder's default), over the index's bitsets.
    const wifi = (location: FinderLocation) => location.tags.includes('free-wi-fi');
    const withWifi = chain.locations.filter(wifi).length;
    expect(withWifi).toBeGreaterThan(1000);
    expect(withWifi).toBeLessThan(100_000);
    await page.getByRole('button', { name: 'Filters', exact: true }).tap();
    await page.getByRole('checkbox', { name: 'Free Wi-Fi' }).tap();
    const show = page.getByRole('button', { name: `Show ${withWifi.toLocaleString('en')} locations` });
    await show.waitFor();
    await show.tap();
    expect(await statusText(page)).toBe(
      `${withWifi.toLocaleString('en')} locations near Berlin, nearest first`,
    );
    await expectNearest(page, BERLIN, { passes: wifi });

    // A row's details: its own title and address.
    const [first] = await loadedRows(page, 0, 1);
    const location = byTitle.get(first!.title)!;
    await page.locator('.lf-list li[data-index="0"] button').tap();
    const card = page.getByRole('article', { name: location.title });
    await card.waitFor();
    expect(await card.getByRole('heading', { name: location.title }).isVisible()).toBe(true);
    const address = await inWidget(
      page,
      `const field = [...root.querySelectorAll('.lf-field')].find((field) => field.querySelector('dt').textContent === 'Address');
       return field && field.querySelector('dd').innerText;`,
    );
    expect(address).toBe(`${location.address}\n${location.zip} ${location.city}\n${location.country}`);
    await checkState(page, 'chunked-phone-details');
    await page.getByRole('button', { name: 'Back to results' }).tap();
    await card.waitFor({ state: 'detached' });

    // Far down the list: rows ranked and their areas read as they come into view.
    await page.getByRole('button', { name: 'Filters (1 active)' }).tap();
    await page.getByRole('checkbox', { name: 'Free Wi-Fi' }).tap();
    await page.getByRole('button', { name: 'Show 100,000 locations' }).tap();
    const far = 60_000;
    await inWidget(page, `root.querySelector('.lf-list-scroll').scrollTop = ${far * 76};`);
    // Ranked from the index's positions (to about a metre): equal to 5 metres.
    await expectNearest(page, BERLIN, { from: far, digits: 2 });
    expect((await drawnRows(page)).filter((row) => row.busy)).toEqual([]);
    await checkState(page, 'chunked-phone-list-far');
    expect(errors).toEqual([]);
  }, 60_000);
});

describe('a finder of twelve', () => {
  /** The titles in the index's order: the area files' locations, one file after another. */
  async function indexOrder(token: string): Promise<string[]> {
    const { areaUrls } = await published(token);
    const titles: string[] = [];
    for (const url of areaUrls) {
      const area = (await (await fetch(url)).json()) as FinderLocation[];
      titles.push(...area.map((location) => location.title));
    }
    return titles;
  }

  /** The list shows `expected` in order, each row with its details (scrolled down to the last). */
  async function expectIndexOrder(page: Page, expected: string[]): Promise<Row[]> {
    const rows = await loadedRows(page, 0, expected.length);
    // A desktop list shows eleven rows.
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(rows.map((row) => row.title)).toEqual(expected.slice(0, rows.length));
    await inWidget(page, `root.querySelector('.lf-list-scroll').scrollTop = 1e6;`);
    const last = await loadedRows(page, expected.length - 1, 1);
    expect(last.map((row) => row.title)).toEqual(expected.slice(-1));
    await inWidget(page, `root.querySelector('.lf-list-scroll').scrollTop = 0;`);
    return rows;
  }

  it('lists its locations in the index’s order with their details, then names its markers', async () => {
    const expected = await indexOrder(small.token);
    expect([...expected].sort()).toEqual(small.locations.map((location) => location.title).sort());
    const { page, errors } = await openFinder(small.token, '/small');
    expect(await statusText(page)).toBe('12 locations');
    await expectIndexOrder(page, expected);

    await whenComplete(page);
    // Every location on the map (all in view), each marker with its name.
    await expect.poll(() => mapCount(page)).toBe(12);
    const names = () =>
      inWidget(
        page,
        `return [...root.querySelectorAll('.lf-marker .lf-sr')].map((el) => el.textContent);`,
      ) as Promise<string[]>;
    await expect.poll(async () => (await names()).length).toBeGreaterThan(0);
    await expect.poll(async () => (await names()).every((name) => expected.includes(name))).toBe(true);
    await checkState(page, 'chunked-small-list');
    expect(errors).toEqual([]);
  });

  it('opens a linked location, with a filter, once the index has loaded', async () => {
    const target = small.locations.find((location) => location.title === 'Berlin Alexanderplatz')!;
    const id = stage.backend.serviceLocationId(small.token, target.id);
    const { page, errors } = await openFinder(
      small.token,
      '/small-linked',
      `#lf-${small.token.slice(0, 8)}=loc:${id};t:free-wi-fi`,
    );
    await page.getByRole('heading', { name: 'Berlin Alexanderplatz' }).waitFor();
    expect(await isComplete(page)).toBe(true);
    expect(await statusText(page)).toBe('6 locations');
    expect(await page.getByRole('checkbox', { name: 'Free Wi-Fi', includeHidden: true }).isChecked()).toBe(
      true,
    );
    expect(await page.locator('.lf-row[aria-current="true"] .lf-row-title').textContent()).toBe(
      'Berlin Alexanderplatz',
    );
    expect(await page.evaluate('location.hash')).toBe(
      `#lf-${small.token.slice(0, 8)}=loc:${id};t:free-wi-fi`,
    );
    await checkState(page, 'chunked-small-linked');
    expect(errors).toEqual([]);
  });

  // The page, the widget and the chunked files all on the service's origin: the files are
  // same-origin requests (no CORS mode, Sec-Fetch-Site: same-origin), where the host page's are
  // cross-origin. Under the demo page's own CSP, which refuses the scripts that evaluate strings
  // and axe, the checks are locators only and a screenshot; a second run without the CSP scans
  // the same state with axe.
  it.each([
    ['under its own Content-Security-Policy', false],
    ['with axe (the CSP bypassed)', true],
  ])('works the same on a page of the service’s own origin, the demo page, %s', async (_, bypassCSP) => {
    const opened = await openPage(stage.browser, { bypassCSP });
    pages.push(opened);
    const { page } = opened;
    const problems: string[] = [];
    const responses: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('response', (response) => responses.push(`${response.status()} ${response.url()}`));
    const origin = new URL(stage.backend.apiUrl).origin;
    const { manifestUrl, indexUrl, areaUrls } = await published(small.token);
    expect(new URL(manifestUrl).origin).toBe(origin);

    await page.goto(`${origin}/demo/${small.token}`);
    await waitForStatus(page, '12 locations');
    // The rows in the index's order, each with its details (read from the area files).
    const expected = await indexOrder(small.token);
    const titles = page.locator('.lf-list li .lf-row-title');
    await expect.poll(async () => (await titles.allTextContents()).slice(0, 8)).toEqual(expected.slice(0, 8));
    // A tag needs the index: its count says the index has loaded.
    const withWifi = small.locations.filter((location) => location.tags.includes('free-wi-fi')).length;
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Free Wi-Fi' }).check();
    await page.locator('.lf-status', { hasText: new RegExp(`^${withWifi} locations$`) }).waitFor();
    for (const url of [manifestUrl, indexUrl, ...areaUrls]) expect(responses).toContain(`200 ${url}`);
    // A row's details.
    const first = (await titles.first().textContent())!;
    expect(small.locations.find((location) => location.title === first)?.tags).toContain('free-wi-fi');
    await page.locator('.lf-list li[data-index="0"] button').click();
    await page.getByRole('heading', { name: first }).waitFor();
    if (bypassCSP) await checkState(page, 'chunked-small-same-origin');
    else await screenshot(page, 'chunked-small-same-origin-csp');
    expect(problems).toEqual([]);
  });

  it('says it could not load when the index file cannot be read, and keeps the list it has', async () => {
    const { indexUrl } = await published(brokenIndex.token);
    const stored = storedFiles(indexUrl);
    for (const form of stored.forms) await rm(form, { force: true });
    await writeFile(stored.file, '{"id": [1, 2');
    // The index held back until the map draws the cluster summaries: they give way to the
    // message a map without the index shows.
    let release = () => {};
    const { page, errors, requests } = await openFinder(brokenIndex.token, '/broken-index', '', {
      before: async (page) => {
        release = await holdBack(page, indexUrl);
      },
    });
    await expect.poll(() => mapCount(page)).toBe(12);
    expect(await page.locator('.lf-marker').count()).toBe(0);
    release();
    const failed = 'The store locator could not be loaded. Please try again later.';
    await waitForStatus(page, failed);
    expect(await page.locator('.lf-cluster, .lf-marker, .leaflet-pane').count()).toBe(0);
    expect(requests).toContain(indexUrl);
    // The first rows came from the area file: listed, with their details, and they open.
    const rows = await expectIndexOrder(page, await indexOrder(brokenIndex.token));
    expect(
      await page.getByText('The map could not be loaded. The list shows every location.').isVisible(),
    ).toBe(true);
    expect(await isComplete(page)).toBe(false);
    await page.locator('.lf-list li[data-index="1"] button').click();
    await page.getByRole('heading', { name: rows[1]!.title }).waitFor();
    await checkState(page, 'chunked-broken-index');
    // A filter needs the index: the list is empty and the status says why, rather than "Loading".
    await page.getByRole('button', { name: 'Back to results' }).click();
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Free Wi-Fi' }).check();
    await expect.poll(() => drawnRows(page)).toEqual([]);
    expect(await statusText(page)).toBe(failed);
    expect(errors).toEqual([]);
  });

  it('keeps the rows of an area file that is gone as placeholders, says so, and does not ask for it again and again', async () => {
    const { areaUrls } = await published(brokenArea.token);
    expect(areaUrls).toHaveLength(1);
    const stored = storedFiles(areaUrls[0]!);
    for (const file of [...stored.forms, stored.file, stored.meta]) await rm(file, { force: true });
    const { page, errors, requests } = await openFinder(brokenArea.token, '/broken-area');
    await whenComplete(page);
    // The map's markers ask for the file too (for their names).
    await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, MAP_RENDERED_MARK);
    const rows = await drawnRows(page);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(rows.every((row) => row.busy && row.title === 'Loading locations…')).toBe(true);
    // The rows and the markers asked for the file a few times in all, then stopped (before the
    // fix: about 25 times a second, for as long as the page stayed open).
    await page.waitForTimeout(1000);
    const asked = () => requests.filter((url) => url === areaUrls[0]).length;
    const before = asked();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThanOrEqual(8);
    await page.waitForTimeout(2000);
    expect(asked()).toBe(before);
    expect(await statusText(page)).toBe('The store locator could not be loaded. Please try again later.');
    await checkState(page, 'chunked-broken-area');
    expect(errors).toEqual([]);
  });
});
