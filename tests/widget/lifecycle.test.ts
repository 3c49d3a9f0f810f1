// The widget's life on a page, in a real headless Chromium. In a single-page app, a container
// that leaves the DOM takes its view with it (window and document listeners, the
// ResizeObserver, timers, requests and the map), so twenty mounts and unmounts in one page
// leave the heap where the first ten left it; a removed view no longer reacts to the page,
// its pending search is cancelled and its analytics sent; a container added again mounts
// again. The map's code is a second file, fetched once per page and only where a finder shows
// the map, from wherever widget.js came from.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetManifest } from '../../src/modules/widget-assets/widget-assets.bundle.ts';
import { MAP_LOAD_TIMEOUT_MS } from '../../src/widget/built-files.ts';
import { deepLinkKey } from '../../src/widget/deep-link.ts';
import { READY_EVENT } from '../../src/widget/marks.ts';
import { createFinderPayload } from '../fakes/widget-payload.ts';
import { tempDir } from '../helpers/temp.ts';
import { scanWidgets } from './helpers/axe.ts';
import { screenshot } from './helpers/browser.ts';
import { type Stage, startStage, widgetsReady } from './helpers/stage.ts';

let stage: Stage;
const widgetDir = tempDir('widget-lifecycle-');
const finder = createFinderPayload({ name: 'Our stores' });
const listOnly = createFinderPayload({ name: 'List only' });

beforeAll(async () => {
  stage = await startStage({
    widgetDir,
    finders: ({ tiles }) => {
      finder.settings.push({ key: 'tile_url', value: tiles.urlTemplate });
      listOnly.settings.push(
        { key: 'tile_url', value: tiles.urlTemplate },
        { key: 'show_map', value: false },
      );
      return [
        { payload: finder, published: true },
        { payload: listOnly, published: true },
      ];
    },
  });
}, 120_000);

afterAll(async () => {
  await stage?.close();
});

/**
 * A single-page app's shell: the script, and a <main> its routes render containers into
 * (`containers` of them at first, none by default).
 */
function appShell(
  token: string,
  options: { containers?: number; scriptUrl?: string; scriptAttributes?: string } = {},
): string {
  const containers = '<div data-location-finder></div>'.repeat(options.containers ?? 0);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A single-page app</title></head>
<body>
  <main>${containers}</main>
  <script src="${options.scriptUrl ?? stage.backend.scriptUrl}" data-finder="${token}"
    ${options.scriptAttributes ?? ''} async></script>
</body>
</html>`;
}

// Page scripts are source text: the test runner's transform would add helpers the page lacks.
/**
 * What a route change does: the first container (if any) removed, a new one added, and the
 * new view waited for until its list is drawn and, unless the finder has no map, its map's
 * markers and tiles.
 */
const remount = (map = true) => `(async () => {
  document.querySelector('main [data-location-finder]')?.remove();
  const host = document.createElement('div');
  host.setAttribute('data-location-finder', '');
  const ready = new Promise((resolve) => host.addEventListener('${READY_EVENT}', resolve, { once: true }));
  document.querySelector('main').append(host);
  await ready;
  while (${map} && (!host.shadowRoot.querySelector('.lf-marker, .lf-cluster')
    || host.shadowRoot.querySelector('.leaflet-tile:not(.leaflet-tile-loaded)'))) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
})()`;
const REMOUNT = remount();

/**
 * The page's live heap: V8's and Blink's (where DOM nodes, observers and listeners live), the
 * least of a few full collections, since Blink frees some objects only in a later one.
 */
async function liveHeap(cdp: CDPSession): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 4; i++) {
    await cdp.send('HeapProfiler.collectGarbage');
    const usage = await cdp.send('Runtime.getHeapUsage');
    least = Math.min(least, usage.usedSize + usage.embedderHeapUsedSize);
  }
  return least;
}

/** How many listeners of each type `expression` (window, document) has, as DevTools lists them. */
async function listenerCounts(cdp: CDPSession, expression: string): Promise<Record<string, number>> {
  const { result } = await cdp.send('Runtime.evaluate', { expression, objectGroup: 'listeners' });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', {
    objectId: result.objectId as string,
  });
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'listeners' });
  const counts: Record<string, number> = {};
  for (const { type } of listeners) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/** Live objects whose prototype is `prototype` (e.g. ResizeObserver.prototype), after a collection. */
async function liveObjects(cdp: CDPSession, prototype: string): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { result } = await cdp.send('Runtime.evaluate', { expression: prototype, objectGroup: 'live' });
  const { objects } = await cdp.send('Runtime.queryObjects', {
    prototypeObjectId: result.objectId as string,
    objectGroup: 'live',
  });
  const { result: length } = await cdp.send('Runtime.callFunctionOn', {
    objectId: objects.objectId as string,
    functionDeclaration: 'function () { return this.length; }',
    returnByValue: true,
  });
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'live' });
  return length.value as number;
}

/** The listeners the widget holds on the page: window's and document's, by type. */
async function pageListeners(cdp: CDPSession) {
  const onWindow = await listenerCounts(cdp, 'window');
  const onDocument = await listenerCounts(cdp, 'document');
  return {
    hashchange: onWindow.hashchange ?? 0,
    pagehide: onWindow.pagehide ?? 0,
    visibilitychange: onDocument.visibilitychange ?? 0,
  };
}

async function openShell(path: string): Promise<{ page: Page; cdp: CDPSession }> {
  const { page } = await stage.open(path, appShell(finder.token));
  // The script has run once window.load fired; its first mutation observer is in place.
  await page.waitForLoadState('load');
  return { page, cdp: await page.context().newCDPSession(page) };
}

describe('unmounting', () => {
  it('keeps the heap flat over twenty mounts and unmounts in one page', async () => {
    const { page, cdp } = await openShell('/spa-heap');
    // The first mounts warm the page up: V8's heap grows while its optimising compilers take
    // up the widget's code (with them turned off it does not), then settles.
    for (let cycle = 1; cycle <= 10; cycle++) await page.evaluate(REMOUNT);
    const before = await liveHeap(cdp);
    for (let cycle = 1; cycle <= 20; cycle++) await page.evaluate(REMOUNT);
    const after = await liveHeap(cdp);
    // One view mounted then as now. A view weighs some hundreds of kilobytes, so twenty left
    // behind would add megabytes; the bound is a few views, since on a loaded machine V8's
    // compilers still add some hundreds of kilobytes of code after the warm-up.
    expect(after - before).toBeLessThan(2 * 1024 * 1024);
    expect(await pageListeners(cdp)).toEqual({ hashchange: 1, pagehide: 1, visibilitychange: 1 });
    expect(await liveObjects(cdp, 'ResizeObserver.prototype')).toBe(1);
    expect(await liveObjects(cdp, 'ShadowRoot.prototype')).toBe(1);
  }, 90_000);

  it('releases a removed view even while the page still holds its container', async () => {
    const { page, cdp } = await openShell('/spa-removed');
    await page.evaluate(REMOUNT);
    // The app keeps the removed element (a cache of rendered routes, a detached subtree).
    await page.evaluate(`window.kept = document.querySelector('main [data-location-finder]')`);
    await page.evaluate(REMOUNT);
    expect(await pageListeners(cdp)).toEqual({ hashchange: 1, pagehide: 1, visibilitychange: 1 });
    expect(await liveObjects(cdp, 'ResizeObserver.prototype')).toBe(1);

    // A deep link selects a location in the mounted view; the removed one stays empty.
    const [first] = finder.locations;
    const id = stage.backend.serviceLocationId(finder.token, first?.id as number);
    await page.evaluate(`location.hash = '${deepLinkKey(finder.token)}=loc:${id}'`);
    await page.locator('.lf-details-title', { hasText: first?.title }).waitFor();
    expect(
      await page.evaluate(
        `({ kept: window.kept.shadowRoot.childNodes.length,
            shown: document.querySelector('main [data-location-finder]').shadowRoot
              .querySelectorAll('.lf-details').length })`,
      ),
    ).toEqual({ kept: 0, shown: 1 });
  });

  it('cancels its pending place search and sends its analytics batch when removed', async () => {
    const failed: string[] = [];
    const { page } = await openShell('/spa-pending');
    // The service's requests only: map tiles still loading on a slow machine are aborted by
    // the unmount too, which is right and not what this test is about.
    page.on('requestfailed', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) failed.push(`${pathname} ${request.failure()?.errorText}`);
    });
    // The page's clock stands still, so the batch's timer (4 s) cannot fire however slow the
    // machine: only the search box's debounce is let run, and whatever sends the view's
    // event is the unmount.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    // Suggestions that never come: the request stays open until someone cancels it.
    await page.route('**/api/mapping/autocomplete?**', () => {});
    await page.evaluate(remount(false));
    const batches: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/analytics')) batches.push(request);
    });
    const asked = page.waitForRequest(/\/api\/mapping\/autocomplete\?/);
    await page.getByRole('combobox', { name: 'Find locations near' }).fill('berlin');
    await page.clock.runFor(1000);
    await asked;
    expect(batches).toHaveLength(0);
    await page.evaluate(`document.querySelector('main').replaceChildren()`);

    await expect.poll(() => failed).toEqual(['/api/mapping/autocomplete net::ERR_ABORTED']);
    await expect.poll(() => batches.length).toBe(1);
    expect(batches[0]?.postDataJSON().events).toMatchObject([{ type: 'view' }]);
  });

  it('mounts a container again when it comes back, and unmounts every view when all leave', async () => {
    const { page, cdp } = await openShell('/spa-back');
    await page.evaluate(REMOUNT);
    await page.evaluate(`(async () => {
      const host = document.querySelector('main [data-location-finder]');
      host.remove();
      await new Promise((resolve) => setTimeout(resolve, 50));
      window.mountedAgain = false;
      host.addEventListener('${READY_EVENT}', () => { window.mountedAgain = true; }, { once: true });
      document.querySelector('main').append(host);
    })()`);
    await page.waitForFunction('window.mountedAgain', undefined, { timeout: 10_000 });
    expect(await page.locator('.lf-row').count()).toBeGreaterThan(0);
    expect(await pageListeners(cdp)).toEqual({ hashchange: 1, pagehide: 1, visibilitychange: 1 });

    await page.evaluate(`document.querySelector('main').replaceChildren()`);
    await expect.poll(() => pageListeners(cdp)).toEqual({ hashchange: 0, pagehide: 0, visibilitychange: 0 });
    expect(await liveObjects(cdp, 'ResizeObserver.prototype')).toBe(0);
  });
});

describe('the map file, fetched on demand', () => {
  const isMapFile = (request: Request) => /\/widget-map\.[0-9a-f]{16}\.js$/.test(request.url());
  /** Markers or clusters drawn in every container on the page. */
  const mapsDrawn = (page: Page, count: number) =>
    page.waitForFunction(
      `[...document.querySelectorAll('[data-location-finder]')].filter((host) =>
        host.shadowRoot?.querySelector('.leaflet-container .lf-marker, .leaflet-container .lf-cluster')).length === ${count}`,
    );

  it('is not requested for a finder that does not show the map: no Leaflet in the page', async () => {
    const scripts: Request[] = [];
    const { page } = await stage.open('/no-map', appShell(listOnly.token, { containers: 1 }), {
      onRequest: (request) => {
        if (request.resourceType() === 'script') scripts.push(request);
      },
    });
    await widgetsReady(page);
    await page.waitForLoadState('networkidle');
    // Nor mounted again.
    await page.evaluate(remount(false));
    await page.waitForLoadState('networkidle');
    expect(await page.locator('.lf-row').count()).toBeGreaterThan(0);
    expect(await page.locator('.lf-map, .leaflet-container').count()).toBe(0);
    // widget.js and its view file, nothing more.
    const urls = scripts.map((request) => request.url());
    expect(urls).toHaveLength(2);
    expect(urls[0]).toBe(stage.backend.scriptUrl);
    expect(urls[1]).toMatch(/\/widget-view\.[0-9a-f]{16}\.js$/);
    const code = (await (await scripts[1]?.response())?.body())?.toString() ?? '';
    // Booleans: a failure would print the whole script.
    expect(code.includes('lf-root')).toBe(true);
    expect(code.includes('Leaflet 1.9.4')).toBe(false);
    expect(
      await page.evaluate(
        `[...document.querySelector('[data-location-finder]').shadowRoot.querySelectorAll('style')]
          .some((style) => style.textContent.includes('.leaflet-pane'))`,
      ),
    ).toBe(false);
  });

  it('is requested once, compressed, for a page showing the map in two containers and mounting again', async () => {
    const mapRequests: Request[] = [];
    const { page } = await stage.open('/two-maps', appShell(finder.token, { containers: 2 }), {
      onRequest: (request) => {
        if (isMapFile(request)) mapRequests.push(request);
      },
    });
    await widgetsReady(page, 2);
    await mapsDrawn(page, 2);
    for (let cycle = 0; cycle < 3; cycle++) await page.evaluate(REMOUNT);
    await mapsDrawn(page, 2);
    const { map } = JSON.parse(readFileSync(path.join(widgetDir, 'manifest.json'), 'utf8')) as WidgetManifest;
    expect(mapRequests.map((request) => request.url())).toEqual([
      `${new URL(stage.backend.scriptUrl).origin}/${map.file}`,
    ]);
    const response = await mapRequests[0]?.response();
    expect(response?.status()).toBe(200);
    expect(await response?.headerValue('content-encoding')).toBe('br');
    // Leaflet's stylesheet came with it: its panes are laid out.
    expect(
      await page.evaluate(
        `getComputedStyle(document.querySelector('[data-location-finder]').shadowRoot
          .querySelector('.leaflet-pane')).position`,
      ),
    ).toBe('absolute');
    await page.locator('img.leaflet-tile-loaded').first().waitFor();
  });

  it('comes from wherever widget.js came from', async () => {
    // The service under another name (a CDN in front of it would be the same), the data
    // still read from the service's own address.
    const service = new URL(stage.backend.scriptUrl);
    const scriptUrl = `http://localhost:${service.port}/widget.js`;
    const mapRequests: string[] = [];
    const { page } = await stage.open(
      '/map-elsewhere',
      appShell(finder.token, {
        containers: 1,
        scriptUrl,
        scriptAttributes: `data-api="${stage.backend.apiUrl}" data-cdn="${stage.backend.cdnUrl}"`,
      }),
      {
        onRequest: (request) => {
          if (isMapFile(request)) mapRequests.push(request.url());
        },
      },
    );
    await widgetsReady(page);
    await mapsDrawn(page, 1);
    expect(mapRequests).toHaveLength(1);
    expect(mapRequests[0]).toMatch(new RegExp(`^http://localhost:${service.port}/widget-map\\.`));
  });

  it('leaves the list usable and says so when the map file cannot be loaded', async () => {
    const { page } = await stage.open('/map-failed', appShell(finder.token, { containers: 1 }));
    await page.route(/\/widget-map\./, (route) => route.abort());
    await page.reload();
    await widgetsReady(page);
    const message = page.getByRole('group', { name: 'Map of locations' }).getByRole('status');
    expect(await message.textContent()).toBe('The map could not be loaded. The list shows every location.');
    await page.getByRole('list', { name: 'Locations' }).getByRole('button').first().click();
    await page.locator('.lf-details-title').waitFor();
    await screenshot(page, 'map-file-failed');
    const scan = await scanWidgets(page);
    expect(scan.errors).toEqual([]);
    expect(scan.violations).toEqual([]);
  });

  it('gives up on a map file that never arrives, after its bound', async () => {
    const { page } = await stage.open('/map-hangs', appShell(finder.token, { containers: 1 }));
    // The clock stands still from before the page loads, so only runFor below moves the bound.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.route(/\/widget-map\./, () => {});
    const asked = page.waitForRequest(/\/widget-map\./);
    await page.reload();
    await widgetsReady(page);
    await asked;
    const message = page.getByRole('group', { name: 'Map of locations' }).getByRole('status');
    await page.clock.runFor(MAP_LOAD_TIMEOUT_MS - 1000);
    expect(await message.count()).toBe(0);
    await page.clock.runFor(2000);
    await expect
      .poll(() => message.textContent())
      .toBe('The map could not be loaded. The list shows every location.');
    await page.getByRole('list', { name: 'Locations' }).getByRole('button').first().click();
    await page.locator('.lf-details-title').waitFor();
  });
});
