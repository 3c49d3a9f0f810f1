// The widget in a single-page app, in a real headless Chromium: a container that leaves the
// DOM takes its view with it (window and document listeners, the ResizeObserver, timers,
// requests and the map), so twenty mounts and unmounts in one page leave the heap where the
// first ten left it; a removed view no longer reacts to the page, its pending search is
// cancelled and its analytics sent; a container added again mounts again.
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepLinkKey } from '../../src/widget/deep-link.ts';
import { LIST_RENDERED_MARK, READY_EVENT } from '../../src/widget/marks.ts';
import { createFinderPayload } from '../fakes/widget-payload.ts';
import { tempDir } from '../helpers/temp.ts';
import { type Stage, startStage } from './helpers/stage.ts';

let stage: Stage;
const finder = createFinderPayload({ name: 'Our stores' });

beforeAll(async () => {
  stage = await startStage({
    widgetDir: tempDir('widget-lifecycle-'),
    finders: ({ tiles }) => {
      finder.settings.push({ key: 'tile_url', value: tiles.urlTemplate });
      return [{ payload: finder, published: true }];
    },
  });
}, 120_000);

afterAll(async () => {
  await stage?.close();
});

/** A single-page app's shell: the script, and a <main> its routes render containers into. */
function appShell(token: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A single-page app</title></head>
<body>
  <main></main>
  <script src="${stage.backend.scriptUrl}" data-finder="${token}" async></script>
</body>
</html>`;
}

// Page scripts are source text: the test runner's transform would add helpers the page lacks.
/**
 * What a route change does: the current container (if any) removed, a new one added, and the
 * new view waited for until its list and its map's markers are drawn.
 */
const REMOUNT = `(async () => {
  document.querySelector('main [data-location-finder]')?.remove();
  const host = document.createElement('div');
  host.setAttribute('data-location-finder', '');
  const ready = new Promise((resolve) => host.addEventListener('${READY_EVENT}', resolve, { once: true }));
  document.querySelector('main').append(host);
  await ready;
  while (!host.shadowRoot.querySelector('.lf-marker, .lf-cluster')
    || host.shadowRoot.querySelector('.leaflet-tile:not(.leaflet-tile-loaded)')) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
})()`;

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
    // One view mounted then as now: twenty views left behind would add megabytes.
    expect(after - before).toBeLessThan(256 * 1024);
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
    page.on('requestfailed', (request) =>
      failed.push(`${new URL(request.url()).pathname} ${request.failure()?.errorText}`),
    );
    // Suggestions that never come: the request stays open until someone cancels it.
    await page.route('**/api/mapping/autocomplete?**', () => {});
    await page.evaluate(REMOUNT);
    const asked = page.waitForRequest(/\/api\/mapping\/autocomplete\?/);
    await page.getByRole('combobox', { name: 'Find locations near' }).fill('berlin');
    await asked;
    await page.evaluate(`document.querySelector('main').replaceChildren()`);

    await expect.poll(() => failed).toEqual(['/api/mapping/autocomplete net::ERR_ABORTED']);
    // The view event went out with the unmount, not when its batch's timer (4 s) would have.
    const sent = async () =>
      (await page.evaluate(
        `performance.getEntriesByType('resource').filter((entry) => entry.initiatorType === 'beacon')
          .map((entry) => entry.startTime - performance.getEntriesByName('${LIST_RENDERED_MARK}')[0].startTime)`,
      )) as number[];
    await expect.poll(sent, { timeout: 5000 }).toHaveLength(1);
    expect((await sent())[0]).toBeLessThan(4000);
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
