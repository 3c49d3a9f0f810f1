// The mobile profile of npm run bench:widget-ui: the widget as a phone on a mobile network gets
// it. Chromium at a phone's size with Lighthouse's mobile throttling (1.6 Mbps down, 750 Kbps
// up, 150 ms round trip, the CPU slowed 4x), against finders of 10,000 and 100,000 locations
// published by the service and read from its /cdn route, which compresses as a CDN would; the
// page on another origin, opened on a deep link to a search position (a visitor sent to "stores
// near me"). Prints, per size, medians of BENCH_MOBILE_RUNS page loads, each in a fresh context
// (nothing cached):
// - the time from navigation start to the first list, and the bytes transferred before it (as
//   received, headers included; the map file and tiles come later);
// - a filter change (a tag checkbox: the filter, the list and the count), a new search
//   position (the deep link changed) and "Open now" on, off and on again (every location's
//   status at the instant, the first time in the page), all on the slowed CPU;
// - the floor: a page of no widget that fetches only what the nearest 20 locations need and
//   lists them, from the same origin and through the same network, so the widget's time reads
//   against what the format allows (a chunked finder: the manifest and the nearest areas).
// BENCH_CHUNKED_FROM publishes chunked from that many locations (PUBLISH_CHUNKED_FROM).
// The chains are written straight into the database (tests/widget/helpers/chain.ts; the
// service's routes create the finder, its set and its map link, and publish): locations of
// tests/fakes/widget-payload.ts, with their tags, custom fields and opening hours.
// BENCH_MOBILE_SIZES changes the sizes.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, CDPSession } from 'playwright-core';
import postgres from 'postgres';
import { projectRoot } from '../src/lib/project-root.ts';
import { COMPLETE_MARK, LIST_RENDERED_MARK } from '../src/widget/marks.ts';
import { generateFinderPayload, PLACES } from '../tests/fakes/widget-payload.ts';
import { launchChromium, openPage, PHONE } from '../tests/widget/helpers/browser.ts';
import { seedChain } from '../tests/widget/helpers/chain.ts';
import { type ServiceBackend, startServiceBackend } from '../tests/widget/helpers/service-backend.ts';
import { type HostSite, startHostSite, startTileServer } from '../tests/widget/helpers/static-servers.ts';
import { openBenchDatabase } from './bench-database.ts';
import { customerPage, FILTER_TIMES, OPEN_NOW_TIMES, SEARCH_TIME } from './bench-widget-page.ts';
import { buildWidget } from './build-widget.ts';
import { publishFinder } from './seed-finder.ts';

const SIZES = (process.env.BENCH_MOBILE_SIZES ?? '10000,100000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_MOBILE_RUNS ?? 3);
/** Lighthouse's mobile throttling ("Slow 4G"), in bytes per second and milliseconds. */
const NETWORK = {
  offline: false,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
  latency: 150,
};
const CPU_SLOWDOWN = 4;
const NEAREST = 20;
/** The visitor's position: Berlin, where the generated chain has stores. */
const HERE = { label: 'Berlin', lat: 52.52, lng: 13.405 };
const ELSEWHERE = { label: 'Paris', lat: 48.8566, lng: 2.3522 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const hashOf = (token: string, place: typeof HERE) =>
  `#lf-${token.slice(0, 8)}=q:${place.label};lat:${place.lat.toFixed(5)};lng:${place.lng.toFixed(5)}`;

/** A phone page on the mobile network and CPU, recording what it receives. */
async function mobilePage(browser: Browser) {
  const opened = await openPage(browser, PHONE);
  const cdp: CDPSession = await opened.page.context().newCDPSession(opened.page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  // CDP stamps events on a monotonic clock; a request's wallTime ties it to the page's epoch.
  let monotonicToEpoch: number | undefined;
  const received: { at: number; bytes: number; url: string }[] = [];
  const urls = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (event) => {
    monotonicToEpoch ??= (event.wallTime - event.timestamp) * 1000;
    urls.set(event.requestId, event.request.url);
  });
  cdp.on('Network.loadingFinished', (event) => {
    received.push({
      at: event.timestamp * 1000 + (monotonicToEpoch ?? 0),
      bytes: event.encodedDataLength,
      url: urls.get(event.requestId) ?? '',
    });
  });
  return {
    ...opened,
    received,
    /** Bytes of the responses complete by `epoch` (milliseconds). */
    bytesBy: (epoch: number) =>
      received.filter((entry) => entry.at <= epoch).reduce((sum, entry) => sum + entry.bytes, 0),
  };
}

/** Navigation start to the first list, as epoch milliseconds and from navigation start. */
const LIST_TIME = `(async () => {
  await window.__ready;
  const list = performance.getEntriesByName('${LIST_RENDERED_MARK}')[0].startTime;
  const root = document.querySelector('[data-location-finder]').shadowRoot;
  return { list, epoch: performance.timeOrigin + list, status: root.querySelector('.lf-status').textContent };
})()`;

/**
 * The floor page: fetches the pointer and the file it names and lists the nearest 20 to the
 * position; no widget, no map. A single file's locations are ranked all; a chunked finder's
 * manifest is read area by area (src/widget/chunked/nearest-areas.ts, bundled into the page).
 */
async function floorPage(cdnUrl: string, token: string): Promise<string> {
  const bundle = await build({
    stdin: {
      contents: `import { nearestInAreas, readManifestAreas } from './src/widget/chunked/nearest-areas.ts';
import { distanceKm } from './src/lib/geo.ts';
window.__floor = (async () => {
  const here = ${JSON.stringify(HERE)};
  const pointerUrl = ${JSON.stringify(`${cdnUrl}/finders/${token}/config.json`)};
  const pointer = await (await fetch(pointerUrl)).json();
  const fileUrl = new URL(pointer.url, pointerUrl);
  const file = await (await fetch(fileUrl)).json();
  let nearest;
  if (file.chunked) {
    const areas = readManifestAreas(file.chunked.areas);
    const load = async (area) => (await fetch(new URL(area.path, fileUrl))).json();
    nearest = (await nearestInAreas(areas, here, ${NEAREST}, load)).nearest;
  } else {
    nearest = file.locations.filter((l) => l.lat != null).map((location) => ({ location, km: distanceKm(here, location) }))
      .sort((a, b) => a.km - b.km).slice(0, ${NEAREST});
  }
  document.getElementById('list').append(...nearest.map(({ location, km }) => {
    const item = document.createElement('li');
    item.textContent = location.title + ', ' + location.address + ' (' + km.toFixed(1) + ' km)';
    return item;
  }));
  const list = performance.now();
  return { list, epoch: performance.timeOrigin + list, status: nearest.length + ' listed' };
})();`,
      resolveDir: projectRoot,
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    logLevel: 'silent',
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Floor</title></head><body><ol id="list"></ol><script>${bundle.outputFiles[0]!.text}</script></body></html>`;
}

/** BENCH_MOBILE_TRACE=1: each load's requests (start-end) and marks, in ms from navigation start. */
const RESOURCE_TRACE = `[...performance.getEntriesByType('resource'), ...performance.getEntriesByType('mark')]
  .sort((a, b) => a.startTime - b.startTime)
  .map((entry) => '      ' + entry.startTime.toFixed(0) + (entry.entryType === 'mark' ? ' mark ' : '-' + entry.responseEnd.toFixed(0) + ' ms ') +
    entry.name.replace(/^.*\\/(?=[^/]+\\/[^/]+$)/, '')).join('\\n')`;

interface Load {
  list: number;
  bytes: number;
  status: string;
}

/** One cold load of `url`; `script` answers when its list is shown. */
async function load(browser: Browser, url: string, script: string): Promise<Load> {
  const page = await mobilePage(browser);
  try {
    await page.page.goto(url);
    const result = (await page.page.evaluate(script)) as { list: number; epoch: number; status: string };
    if (process.env.BENCH_MOBILE_TRACE) {
      console.log(await page.page.evaluate(RESOURCE_TRACE));
      for (const entry of page.received)
        console.log(`      ${entry.bytes} B received: ${entry.url.slice(-60)}`);
    }
    // Responses that finish in the same millisecond as the list count as before it.
    return { list: result.list, bytes: page.bytesBy(result.epoch + 1), status: result.status };
  } finally {
    await page.close();
  }
}

async function interactions(browser: Browser, url: string, token: string) {
  const page = await mobilePage(browser);
  await page.page.goto(url);
  await page.page.evaluate(LIST_TIME);
  // Filters and new positions are measured on the whole finder: a chunked one's index loaded.
  await page.page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, COMPLETE_MARK, {
    timeout: 120_000,
  });
  const complete = (await page.page.evaluate(
    (mark) => performance.getEntriesByName(mark)[0]!.startTime,
    COMPLETE_MARK,
  )) as number;
  const filters = (await page.page.evaluate(FILTER_TIMES)) as { sync: number; status: string }[];
  // Close the filters panel: on a phone it covers the list.
  await page.page.keyboard.press('Escape');
  const search = (await page.page.evaluate(SEARCH_TIME(hashOf(token, ELSEWHERE)))) as {
    time: number;
    status: string;
  };
  // "Open now" last, in the panel opened again: it stays on, and the search above is timed
  // without it, as before it was measured.
  await page.page.evaluate(
    `document.querySelector('[data-location-finder]').shadowRoot.querySelector('[aria-controls^="lf-filters"]').click()`,
  );
  const openNow = (await page.page.evaluate(OPEN_NOW_TIMES)) as { ms: number; status: string }[];
  await page.close();
  return { filter: median(filters.map((entry) => entry.sync)), openNow, search, complete };
}

async function measureSize(
  browser: Browser,
  site: HostSite,
  backend: ServiceBackend,
  sql: postgres.Sql,
  count: number,
) {
  const seedStart = performance.now();
  const { token } = await seedChain(backend, sql, count);
  const seeded = (performance.now() - seedStart) / 1000;
  const publishStart = performance.now();
  await publishFinder(backend.ownerApi, token);
  const published = (performance.now() - publishStart) / 1000;
  const widgetUrl =
    site.page(`/chain-${count}`, customerPage(backend.scriptUrl, token)) + hashOf(token, HERE);
  const floorUrl = site.page(`/floor-${count}`, await floorPage(backend.cdnUrl, token));
  const widget: Load[] = [];
  const floor: Load[] = [];
  // Interleaved, so that the machine's moods fall on both alike.
  for (let round = 0; round < RUNS; round++) {
    widget.push(await load(browser, widgetUrl, LIST_TIME));
    floor.push(await load(browser, floorUrl, 'window.__floor'));
  }
  const { filter, openNow, search, complete } = await interactions(browser, widgetUrl, token);
  const widgetList = median(widget.map((load) => load.list));
  const floorList = median(floor.map((load) => load.list));
  console.log(
    `  ${count.toLocaleString('en')} locations (seeded in ${seeded.toFixed(1)} s, published in ${published.toFixed(1)} s):`,
  );
  console.log(
    `    first list ${ms(widgetList)} after navigation start (runs ${widget.map((load) => load.list.toFixed(0)).join(', ')}), ` +
      `${kb(median(widget.map((load) => load.bytes)))} received before it; "${widget[0]?.status}"`,
  );
  console.log(
    `    floor page (pointer, its file, the nearest areas of a chunked one; nearest ${NEAREST} listed): ${ms(floorList)} (runs ${floor.map((load) => load.list.toFixed(0)).join(', ')}), ` +
      `${kb(median(floor.map((load) => load.bytes)))} received; the widget takes ${(widgetList / floorList).toFixed(2)}x the floor`,
  );
  console.log(
    `    every location known (a chunked finder's index loaded) ${ms(complete)} after navigation start; ` +
      `filter change (tag checkbox: filter, list, count) ${ms(filter)} median of 10; new search position ${ms(search.time)} ("${search.status}")`,
  );
  console.log(
    `    "Open now" (every location's status at the instant, the filter, list and count): ${ms(openNow[0]!.ms)} on, ` +
      `the first time ("${openNow[0]!.status}"), ${ms(openNow[1]!.ms)} off, ${ms(openNow[2]!.ms)} on again`,
  );
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lf-bench-widget-mobile-'));
  await buildWidget(dir);
  const tiles = await startTileServer();
  const site = await startHostSite();
  const payload = generateFinderPayload(20, {
    settings: { tile_url: tiles.urlTemplate, tile_attribution: 'Local tiles' },
  });
  const database = await openBenchDatabase(dir, `lf_bench_widget_mobile_${process.pid}`);
  const backend = await startServiceBackend({
    widgetDir: dir,
    dataDir: path.join(dir, 'data'),
    database: { url: database.url, drop: database.close },
    finders: [{ payload, published: true }],
    places: PLACES,
    // A chunked publish from this many locations (docs/api.md, Publishing); unset: the service's default.
    env: process.env.BENCH_CHUNKED_FROM ? { PUBLISH_CHUNKED_FROM: process.env.BENCH_CHUNKED_FROM } : {},
  });
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const browser = await launchChromium();
  try {
    console.log(
      `widget UI benchmark, mobile profile: ${browser.version()} headless at 390x844, ${(NETWORK.downloadThroughput * 8) / 1e6} Mbps down, ` +
        `${(NETWORK.uploadThroughput * 8) / 1e3} Kbps up, ${NETWORK.latency} ms round trip, CPU ${CPU_SLOWDOWN}x slower; ` +
        `medians of ${RUNS} cold loads, widget and floor interleaved`,
    );
    for (const count of SIZES) await measureSize(browser, site, backend, sql, count);
  } finally {
    await browser.close();
    await sql.end();
    await backend.close();
    await site.close();
    await tiles.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
