// Everything a browser test of the widget stands on: the widget built into a temporary folder,
// the real service with the test finders written through its routes (service-backend.ts), a
// tile server, a host site, and one Chromium. `open(html)` serves a page on the host site and opens it in a new
// browser context; `close()` stops it all.
import type { Browser, BrowserContextOptions, Page, Request } from 'playwright-core';
import { buildWidget } from '../../../scripts/build-widget.ts';
import { PLACES } from '../../fakes/widget-payload.ts';
import { createTestDatabase } from '../../helpers/database.ts';
import { tempDir } from '../../helpers/temp.ts';
import { launchChromium, openPage, type TestPage } from './browser.ts';
import { type ServiceBackend, type StageFinder, startServiceBackend } from './service-backend.ts';
import { type HostSite, startHostSite, startTileServer, type TileServer } from './static-servers.ts';

export interface OpenOptions extends BrowserContextOptions {
  /** Open it on the host site's other origin (`localhost` instead of `127.0.0.1`). */
  otherOrigin?: boolean;
  /** Or on any origin that reaches the host site (`http://www.shop.localhost:<port>`). */
  origin?: string;
  /** Sees every request of the page from the first one on. */
  onRequest?: (request: Request) => void;
  /**
   * The page's timers on Playwright's clock from the start, so a test can move time on
   * (page.clock); a number starts that clock at this instant (epoch milliseconds).
   */
  clock?: boolean | number;
}

export interface Stage {
  backend: ServiceBackend;
  /** The service's data directory: the local storage driver keeps the published files under its storage/. */
  dataDir: string;
  /** The file's database, for writing rows straight into it (tests/widget/helpers/chain.ts). */
  databaseUrl: string;
  tiles: TileServer;
  site: HostSite;
  browser: Browser;
  /** Serves `html` at `path` (which may end in a #hash) on the host site (or its other origin) and opens it. */
  open(path: string, html: string, options?: OpenOptions): Promise<TestPage>;
  close(): Promise<void>;
}

export async function startStage(options: {
  widgetDir: string;
  /** Made once the tile server (tile_url, image URLs) and the host site (allowed origins) run. */
  finders: (servers: { tiles: TileServer; site: HostSite }) => StageFinder[];
  /** More of the service's environment (PUBLISH_CHUNKED_FROM, ...). */
  env?: Record<string, string>;
}): Promise<Stage> {
  await buildWidget(options.widgetDir);
  const tiles = await startTileServer();
  const site = await startHostSite();
  const dataDir = tempDir('widget-data-');
  const database = await createTestDatabase();
  const backend = await startServiceBackend({
    widgetDir: options.widgetDir,
    dataDir,
    database,
    finders: options.finders({ tiles, site }),
    places: PLACES,
    env: options.env,
  });
  const browser = await launchChromium();
  const pages: TestPage[] = [];

  return {
    backend,
    dataDir,
    databaseUrl: database.url,
    tiles,
    site,
    browser,
    async open(path, html, { otherOrigin, origin, onRequest, clock, ...contextOptions } = {}) {
      const [route = path, hash] = path.split('#');
      const url = site.page(route, html) + (hash === undefined ? '' : `#${hash}`);
      const opened = await openPage(browser, contextOptions);
      pages.push(opened);
      if (onRequest) opened.page.on('request', onRequest);
      if (clock !== undefined && clock !== false) {
        await opened.page.clock.install(typeof clock === 'number' ? { time: clock } : {});
      }
      const at = origin ?? (otherOrigin ? site.otherOrigin : site.origin);
      await opened.page.goto(url.replace(site.origin, at));
      return opened;
    },
    async close() {
      for (const opened of pages) await opened.close().catch(() => {});
      await browser.close();
      await Promise.all([backend.close(), tiles.close(), site.close()]);
    },
  };
}

/** Resolves once every widget on the page has rendered its list (or `count` of them). */
export async function widgetsReady(page: Page, count = 1): Promise<void> {
  await page.waitForFunction(
    `document.querySelectorAll('[data-location-finder]').length >= ${count} &&
     [...document.querySelectorAll('[data-location-finder]')].slice(0, ${count})
       .every((host) => host.shadowRoot && host.shadowRoot.querySelector('.lf-list, .lf-message--error'))`,
  );
}
