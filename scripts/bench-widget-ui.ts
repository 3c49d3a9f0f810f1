// npm run bench:widget-ui: the widget with 10,000 locations in headless Chromium (the system's
// /usr/bin/chromium through playwright-core). Prints the time from the script's request to the
// first rendered list, the time of a filter change, of the "Open now" filter and of a new
// search position, the time of the opening status of every location in a page of its own
// (the engine's zone data, the zones' clocks, the first pass and again) and, in others, of
// whether each is open (what the "Open now" filter reads), read location by location as from a
// single file and through a chunked finder's index, the bytes, raw and gzip, of
// widget.js and of the map file it imports for the map, and the bytes opening hours add to
// widget.js (built with and without them). The service side is the real
// service of the browser tests (tests/widget/helpers/service-backend.ts): the finder's
// locations written through its routes, published to its /cdn, the page on another origin.
// Uses the server of DATABASE_URL when set (a throwaway database on it), else a throwaway
// embedded PostgreSQL. BENCH_LOCATIONS changes the size, BENCH_RUNS the number of page loads
// (median printed).
import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { PUBLISH_CHUNKED_FROM_DEFAULT } from '../src/config/config.ts';
import { projectRoot } from '../src/lib/project-root.ts';
import { publishAreas } from '../src/modules/finders/payload/chunked/chunked.areas.ts';
import {
  type ChunkedManifest,
  chunkedFiles,
  type PayloadFrame,
} from '../src/modules/finders/payload/chunked/chunked.files.ts';
import { LIST_RENDERED_MARK, MAP_RENDERED_MARK } from '../src/widget/marks.ts';
import { generateFinderPayload, PLACES } from '../tests/fakes/widget-payload.ts';
import { launchChromium, openPage } from '../tests/widget/helpers/browser.ts';
import { startServiceBackend } from '../tests/widget/helpers/service-backend.ts';
import { startHostSite, startTileServer } from '../tests/widget/helpers/static-servers.ts';
import { openBenchDatabase } from './bench-database.ts';
import {
  customerPage,
  FILTER_CHANGES,
  FILTER_TIMES,
  OPEN_NOW_TIMES,
  SEARCH_TIME,
} from './bench-widget-page.ts';
import { buildWidget, measureHoursBytes, measureWidget } from './build-widget.ts';

const LOCATIONS = Number(process.env.BENCH_LOCATIONS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// Page scripts are source text: the TypeScript runner's helpers do not exist in the page.
const LOAD_TIMES = `(async () => {
  await window.__ready;
  while (performance.getEntriesByName('${MAP_RENDERED_MARK}').length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const script = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/widget.js'));
  const payload = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/v/'));
  const list = performance.getEntriesByName('${LIST_RENDERED_MARK}')[0].startTime;
  const map = performance.getEntriesByName('${MAP_RENDERED_MARK}')[0].startTime;
  return {
    fromScriptRequest: list - script.startTime,
    fromScriptArrival: list - script.responseEnd,
    fromNavigation: list,
    mapFromScriptRequest: map - script.startTime,
    payloadFetch: payload.responseEnd - payload.startTime,
    rows: document.querySelector('[data-location-finder]').shadowRoot.querySelectorAll('.lf-row').length,
  };
})()`;

// Every location's opening status (src/lib/hours/hours.status.ts, bundled as widget.js bundles
// it) in a page that has computed none yet, in steps. First the engine's Intl data, which the
// widget loads before any status whether or not locations have hours (its plural rules and the
// result count's number): shown, not counted. Then what hours add: the page's first
// Intl.DateTimeFormat with a time zone, each zone's clock, and the first pass over the locations
// (code the engine has not compiled yet); their sum is the figure. Then again at the same
// instant (median of 11) and a minute later each time, as the list's minute does (median of 11).
// `reading`: 'status', each location's whole status (what a list row shows); 'open', only
// whether it is open (isOpenAt, what the "Open now" filter reads of every location of a single
// file); 'index', whether each is open as the widget reads a chunked finder, which the service
// publishes from PUBLISH_CHUNKED_FROM_DEFAULT locations on: its index, read beforehand and not
// counted, numbers each location's schedule, and each distinct schedule is read once
// (chunked-data.ts openLocations).
const STATUS_TIMES = (reading: Reading) => `(() => {
  const now = Date.now();
  const index = ${reading === 'index' ? 'window.readIndex(window.indexBody, window.readManifestAreas(window.manifestAreas))' : 'undefined'};
  if (${reading === 'index'} && !index) throw new Error('the chunked index does not match its manifest');
  let start = performance.now();
  new Intl.PluralRules('en').select(2);
  (10000).toLocaleString('en');
  const engine = performance.now() - start;
  start = performance.now();
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', timeZoneName: 'longOffset' }).format(now);
  const intl = performance.now() - start;
  start = performance.now();
  // Each location's schedule fields, or each distinct schedule of the index.
  for (const zone of new Set((index ? index.schedules : window.locations).map((schedule) => schedule.time_zone))) {
    if (zone) window.zoneClock(zone, now);
  }
  const clocks = performance.now() - start;
  const time = (at) => {
    const start = performance.now();
    let open = 0;
    ${
      reading === 'index'
        ? `const bits = window.openLocations(index, at);
    const ms = performance.now() - start;
    for (let i = 0; i < index.count; i++) if (bits[i >> 3] & (1 << (i & 7))) open++;
    return { ms, open };`
        : `for (const location of window.locations) if (${reading === 'open' ? 'window.isOpenAt(location, at)' : "window.openingStatus(location, at).state === 'open'"}) open++;
    return { ms: performance.now() - start, open };`
    }
  };
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const first = time(now);
  const again = Array.from({ length: 11 }, () => time(now).ms);
  const later = Array.from({ length: 11 }, (_, i) => time(now + (i + 1) * 60000).ms);
  return { engine, intl, clocks, first: first.ms, open: first.open, again: median(again), later: median(later) };
})()`;

type Reading = 'status' | 'open' | 'index';

interface PublishedPayload extends PayloadFrame {
  locations: { id: number; lat: number | null; lng: number | null }[];
}

/**
 * The chunked publish of a single file's locations, cut and written by the service's own code
 * (chunked.areas.ts, chunked.files.ts) as a publish of them would be: the index file's text, the
 * manifest's areas and the number of distinct schedules the index holds.
 */
function chunkedIndexOf(payload: PublishedPayload): { index: string; areas: unknown; schedules: number } {
  const texts = new Map(payload.locations.map((location) => [location.id, JSON.stringify(location)]));
  const placed = payload.locations.flatMap(({ id, lat, lng }) =>
    lat === null || lng === null ? [] : [{ id, lat, lng }],
  );
  const unplaced = payload.locations.flatMap(({ id, lat, lng }) =>
    lat === null || lng === null ? [id] : [],
  );
  const areas = publishAreas(placed, unplaced);
  const { manifest, files } = chunkedFiles(
    payload,
    areas.map((area) => ({
      documents: Buffer.from(area.ids.map((id) => texts.get(id)).join(',')),
      bounds: area.bounds,
      radiusKm: area.radiusKm,
    })),
  );
  const { chunked } = JSON.parse(manifest.toString('utf8')) as { chunked: ChunkedManifest };
  const index = files.find((file) => file.path === chunked.index)!.body.toString('utf8');
  return {
    index,
    areas: chunked.areas,
    schedules: (JSON.parse(index) as { schedules: unknown[] }).schedules.length,
  };
}

async function statusBundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents:
        "import { isOpenAt, openingStatus } from './src/lib/hours/hours.status.ts';\n" +
        "import { zoneClock } from './src/lib/hours/hours.zone.ts';\n" +
        "import { openLocations } from './src/widget/chunked/chunked-data.ts';\n" +
        "import { readIndex } from './src/widget/chunked/index-file.ts';\n" +
        "import { readManifestAreas } from './src/widget/chunked/nearest-areas.ts';\n" +
        'Object.assign(window, { isOpenAt, openingStatus, zoneClock, openLocations, readIndex, readManifestAreas });',
      resolveDir: projectRoot,
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** The last commit before opening hours reached widget.js: what the build weighed without them. */
const BEFORE_HOURS = '436080b';

/**
 * widget.js of BEFORE_HOURS, built by that commit's own build into a temporary folder, gzip
 * (level 9) bytes; undefined where the repository's history is not at hand.
 */
function widgetGzipAt(commit: string): number | undefined {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lf-bench-widget-before-'));
  try {
    execSync(`git archive ${commit} src scripts package.json tsconfig.json | tar -x -C ${dir}`, {
      cwd: projectRoot,
      stdio: 'ignore',
    });
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'));
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-widget.ts'], {
      cwd: dir,
      stdio: 'ignore',
    });
    return gzipSync(readFileSync(path.join(dir, 'dist', 'widget', 'widget.js')), { level: 9 }).length;
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lf-bench-widget-'));
  await buildWidget(dir);
  const sizes = await measureWidget();
  const hoursBytes = await measureHoursBytes();
  const beforeHours = widgetGzipAt(BEFORE_HOURS);
  const tiles = await startTileServer();
  const site = await startHostSite();
  const payload = generateFinderPayload(LOCATIONS, {
    settings: { tile_url: tiles.urlTemplate, tile_attribution: 'Local tiles' },
  });
  const seedStart = performance.now();
  const backend = await startServiceBackend({
    widgetDir: dir,
    dataDir: path.join(dir, 'data'),
    database: await openBenchDatabase(dir, `lf_bench_widget_ui_${process.pid}`).then((db) => ({
      url: db.url,
      drop: db.close,
    })),
    finders: [{ payload, published: true }],
    places: PLACES,
    seedConcurrency: 8,
    // This part times the single file (every location in the page, the statuses of all of them);
    // the mobile part below times the chunked finders the service publishes from 5,000 on.
    env: { PUBLISH_CHUNKED_FROM: '0' },
  });
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const pointerUrl = `${backend.cdnUrl}/finders/${payload.token}/config.json`;
  const pointer = (await (await fetch(pointerUrl)).json()) as { url: string };
  // The pointer names its file relative to itself (docs/api.md, Publishing).
  const published = Buffer.from(await (await fetch(new URL(pointer.url, pointerUrl))).arrayBuffer());
  const publishedBytes = published.byteLength;
  const publishedPayload = JSON.parse(published.toString('utf8')) as PublishedPayload;
  const publishedLocations = publishedPayload.locations;
  const url = site.page('/', customerPage(backend.scriptUrl, payload.token));
  const browser = await launchChromium();

  try {
    const loads: Record<
      | 'fromScriptRequest'
      | 'fromScriptArrival'
      | 'fromNavigation'
      | 'mapFromScriptRequest'
      | 'payloadFetch'
      | 'rows',
      number
    >[] = [];
    let lastPage: Page | undefined;
    for (let run = 0; run < RUNS; run++) {
      const opened = await openPage(browser);
      await opened.page.goto(url);
      loads.push((await opened.page.evaluate(LOAD_TIMES)) as (typeof loads)[number]);
      if (run < RUNS - 1) await opened.close();
      else lastPage = opened.page;
    }
    const page = lastPage as Page;
    const filters = (await page.evaluate(FILTER_TIMES)) as { sync: number; frame: number; status: string }[];
    const openNow = (await page.evaluate(OPEN_NOW_TIMES)) as { ms: number; status: string }[];
    const bundle = await statusBundle();
    const chunked = chunkedIndexOf(publishedPayload);
    const statusTimes = async (reading: Reading) => {
      const statusPage = await openPage(browser);
      await statusPage.page.setContent(
        '<!doctype html><html><head><title>statuses</title></head><body></body></html>',
      );
      await statusPage.page.addScriptTag({
        content:
          reading === 'index'
            ? `window.indexBody = ${chunked.index}; window.manifestAreas = ${JSON.stringify(chunked.areas)};`
            : `window.locations = ${JSON.stringify(publishedLocations)};`,
      });
      await statusPage.page.addScriptTag({ content: bundle });
      const times = (await statusPage.page.evaluate(STATUS_TIMES(reading))) as {
        engine: number;
        intl: number;
        clocks: number;
        first: number;
        open: number;
        again: number;
        later: number;
      };
      await statusPage.close();
      return times;
    };
    // A first time happens once per page: RUNS fresh pages of each, interleaved, medians.
    const statusRuns: Awaited<ReturnType<typeof statusTimes>>[] = [];
    const openRuns: typeof statusRuns = [];
    const indexRuns: typeof statusRuns = [];
    for (let run = 0; run < RUNS; run++) {
      statusRuns.push(await statusTimes('status'));
      openRuns.push(await statusTimes('open'));
      indexRuns.push(await statusTimes('index'));
    }
    const search = (await page.evaluate(
      SEARCH_TIME(`#lf-${payload.token.slice(0, 8)}=q:Berlin;lat:52.52000;lng:13.40500`),
    )) as { time: number; status: string };

    const load = (name: keyof (typeof loads)[number]) => median(loads.map((entry) => entry[name]));
    console.log(
      `widget UI benchmark: ${LOCATIONS.toLocaleString('en')} locations, ${browser.version()} headless, ${RUNS} page loads`,
    );
    console.log(
      `  seeded through the service's routes and published in ${seedSeconds.toFixed(1)} s; ` +
        `published payload: ${(publishedBytes / 1024 / 1024).toFixed(2)} MB of JSON, ` +
        `fetched in ${ms(load('payloadFetch'))}; ${load('rows')} list rows in the DOM`,
    );
    console.log(
      `  first list rendered: ${ms(load('fromScriptRequest'))} after the script was requested ` +
        `(${ms(load('fromScriptArrival'))} after it arrived, ${ms(load('fromNavigation'))} after navigation start); ` +
        `median of ${RUNS}, runs: ${loads.map((entry) => entry.fromScriptRequest.toFixed(0)).join(', ')} ms   [target < 1000 ms]`,
    );
    console.log(
      `  map clusters drawn: ${ms(load('mapFromScriptRequest'))} after the script was requested (median)`,
    );
    console.log(
      `  filter change (tag checkbox, ${FILTER_CHANGES} changes): list and count ${ms(median(filters.map((f) => f.sync)))} median, ` +
        `${ms(Math.max(...filters.map((f) => f.sync)))} worst; to the second frame after (map clusters rebuilt) ` +
        `${ms(median(filters.map((f) => f.frame)))} median, ${ms(Math.max(...filters.map((f) => f.frame)))} worst   [target < 100 ms]`,
    );
    console.log(`    e.g. "${filters[0]?.status}", then "${filters[1]?.status}"`);
    console.log(
      `  "Open now" filter (every location's status, the filter, list and count): ${ms(openNow[0]!.ms)} on ("${openNow[0]!.status}"), ` +
        `${ms(openNow[1]!.ms)} off, ${ms(openNow[2]!.ms)} on again`,
    );
    console.log(
      `  new search position (distances to all, sort, list, map framing): ${ms(search.time)} ("${search.status}")`,
    );
    const statusLine = (runs: typeof statusRuns) => {
      const part = (name: keyof (typeof runs)[number]) => median(runs.map((times) => times[name]));
      const totals = runs.map((times) => times.intl + times.clocks + times.first);
      return (
        `the first time: ${ms(median(totals))} (runs ${totals.map((total) => total.toFixed(1)).join(', ')}; ` +
        `the page's first zone format ${ms(part('intl'))}, the zones' clocks ${ms(part('clocks'))}, ` +
        `the first pass ${ms(part('first'))}, code not yet compiled; before them the engine's Intl data, ` +
        `which the widget loads anyway, ${ms(part('engine'))})   [target < 20 ms]; again ${ms(part('again'))}, ` +
        `a minute later ${ms(part('later'))} (medians of 11 in each page); ${runs[0]!.open} open`
      );
    };
    console.log(
      `  opening status of all ${publishedLocations.length.toLocaleString('en')} locations, in ${RUNS} pages of ` +
        `their own (medians): ${statusLine(statusRuns)}`,
    );
    console.log(
      `  whether each of them is open (what the "Open now" filter reads of a single file), in ${RUNS} other pages: ${statusLine(openRuns)}`,
    );
    console.log(
      `  whether each of them is open through a chunked finder's index (${
        LOCATIONS >= PUBLISH_CHUNKED_FROM_DEFAULT
          ? 'as the service publishes this many by default'
          : 'this many are a single file by default'
      }; ` +
        `${chunked.schedules.toLocaleString('en')} distinct schedules), in ${RUNS} other pages: ${statusLine(indexRuns)}`,
    );
    console.log(
      `  widget.js (the loader): ${kb(sizes.widget.raw)} raw, ${kb(sizes.widget.gzip)} gzip; ` +
        `the view file it loads: ${kb(sizes.view.raw)} raw, ${kb(sizes.view.gzip)} gzip ` +
        `(together ${kb(sizes.widget.gzip + sizes.view.gzip)} gzip   [target < 40 KB gzip]); ` +
        `the map file (Leaflet, its CSS and the map's code, loaded when the map is shown): ` +
        `${kb(sizes.map.raw)} raw, ${kb(sizes.map.gzip)} gzip`,
    );
    const added = hoursBytes.with.gzip - hoursBytes.without.gzip;
    console.log(
      `  opening hours in the view file: ${added} B gzip, ${hoursBytes.with.raw - hoursBytes.without.raw} B raw ` +
        `(built with hours.view.ts, hours.i18n.ts and hours.open.ts and with them emptied: ${hoursBytes.with.gzip} and ` +
        `${hoursBytes.without.gzip} B gzip; their calls in the view's files not counted)   [target < 3 KB]` +
        // Before the view had a file of its own, widget.js held everything: the build before
        // hours is comparable with the loader and the view file together.
        (beforeHours === undefined
          ? ''
          : `; widget.js of ${BEFORE_HOURS}, before hours, was ${beforeHours} B gzip (the loader and ` +
            `view file now ${sizes.widget.gzip + sizes.view.gzip} B, chunked finders included)`),
    );
  } finally {
    await browser.close();
    await Promise.all([backend.close(), tiles.close(), site.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
