// A finder's authorized_urls in a real headless Chromium, from the published CDN copy as well
// as from the API (docs/api.md, "Widget: settings keys and behaviour"): a page whose origin the
// finder does not list gets the API 403's "not enabled for this website" message in place of
// the locator (no map, no list, no location's text, no search, no analytics beacon), in
// English, German and French, at desktop and phone widths; an exact origin and a `*.`
// subdomain get the locator. And the relative pointer: the CDN served from another origin and
// base than at publish time still loads the published version, with no request to the API;
// an older absolute pointer still works; a pointer or a version file that cannot be trusted
// falls back to the API, whose rule applies. Every state gets an axe-core scan.
import { createServer } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFinderPayload } from '../fakes/widget-payload.ts';
import { tempDir } from '../helpers/temp.ts';
import { scanWidgets } from './helpers/axe.ts';
import { screenshot } from './helpers/browser.ts';
import { type OpenOptions, type Stage, startStage, widgetsReady } from './helpers/stage.ts';
import { hostilePage, listen, stop } from './helpers/static-servers.ts';

let stage: Stage;
/** Published; lists the host site's exact origin and `*.shop.localhost`. */
const listed = createFinderPayload({ name: 'Listed stores' });
/** Never published; the same list, so only the API's details route answers. */
const unpublished = createFinderPayload({ name: 'Unpublished stores' });
/** Published, open to every site: the positive control of the analytics checks, and the CDN moves. */
const open = createFinderPayload({ name: 'Open stores' });
/** Published, open; the moved CDN answers an absolute pointer for it, as publishes before wrote. */
const older = createFinderPayload({ name: 'Older pointer stores' });
/** Published, lists the host site's exact origin; the moved CDN answers a version file without the list. */
const legacy = createFinderPayload({ name: 'Legacy stores' });
/** Published, open; the moved CDN answers a pointer whose url is no string. */
const broken = createFinderPayload({ name: 'Broken pointer stores' });
/** Published open, then restricted to another site without a republish: the CDN copy is stale. */
const stale = createFinderPayload({ name: 'Stale stores' });

/** The host site's port, for its other names (`localhost`, `*.shop.localhost`). */
let port: string;
const at = (host: string) => `http://${host}:${port}`;

beforeAll(async () => {
  stage = await startStage({
    widgetDir: tempDir('widget-origins-'),
    finders: ({ tiles, site }) => {
      for (const payload of [listed, unpublished, open, older, legacy, broken, stale]) {
        payload.settings.push({ key: 'tile_url', value: tiles.urlTemplate });
      }
      listed.authorized_urls = [site.origin, '*.shop.localhost'];
      unpublished.authorized_urls = [site.origin, '*.shop.localhost'];
      legacy.authorized_urls = [site.origin];
      return [
        { payload: listed, published: true },
        { payload: unpublished, published: false },
        { payload: open, published: true },
        { payload: older, published: true },
        { payload: legacy, published: true },
        { payload: broken, published: true },
        { payload: stale, published: true, authorizedUrlsAfterPublish: ['https://partner.example'] },
      ];
    },
  });
  port = new URL(stage.site.origin).port;
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

interface Opened {
  page: Page;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Console errors and failed requests. */
  problems: string[];
}

async function openFinder(
  path: string,
  token: string,
  options: OpenOptions & { lang?: string; scriptAttributes?: string } = {},
): Promise<Opened> {
  const { lang, scriptAttributes, ...openOptions } = options;
  const requests: string[] = [];
  const html = hostilePage({ scriptUrl: stage.backend.scriptUrl, token, lang, scriptAttributes });
  const { page } = await stage.open(path, html, {
    ...openOptions,
    onRequest: (request) => requests.push(request.url()),
  });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('requestfailed', (request) => problems.push(`${request.url()} ${request.failure()?.errorText}`));
  await widgetsReady(page);
  return { page, requests, problems };
}

const refusal = {
  en: (origin: string) =>
    `This store locator is not enabled for this website (${origin}). The site owner can allow it in the finder settings.`,
  de: (origin: string) =>
    `Diese Filialsuche ist für diese Website (${origin}) nicht freigegeben. Der Betreiber kann sie in den Einstellungen erlauben.`,
  fr: (origin: string) =>
    `Ce localisateur n’est pas autorisé sur ce site (${origin}). Le propriétaire peut l’autoriser dans les réglages.`,
};

/** The refusal and nothing else: no locator, none of the payload's text, no search. */
async function expectRefused(page: Page, text: string, region = 'Store locator') {
  const alert = page.getByRole('region', { name: region, exact: true }).getByRole('alert');
  expect(await alert.textContent()).toBe(text);
  expect(await alert.isVisible()).toBe(true);
  const inside = (await page.evaluate(
    `(() => { const root = document.querySelector('[data-location-finder]').shadowRoot;
      return { text: root.querySelector('.lf-frame').textContent,
               rows: root.querySelectorAll('.lf-row, .lf-list, .lf-map, .leaflet-container, input').length }; })()`,
  )) as { text: string; rows: number };
  expect(inside).toEqual({ text, rows: 0 });
  expect(await page.getByRole('list', { name: 'Locations' }).count()).toBe(0);
}

const detailsRequests = (requests: string[], token: string) =>
  requests.filter((url) => url.includes(`/ext/finders/details/${token}`));
const cdnFile = (token: string) => `${stage.backend.cdnUrl}/finders/${token}`;

describe('a site the finder does not list', () => {
  it('is refused from the published copy: the message in place of the locator, no API call, no beacon', async () => {
    const refused = await openFinder('/refused', listed.token, { otherOrigin: true });
    await expectRefused(refused.page, refusal.en(stage.site.otherOrigin));
    // It read the CDN's copy and decided there: the API's details route was never asked.
    expect(refused.requests).toContain(`${cdnFile(listed.token)}/config.json`);
    expect(refused.requests.some((url) => url.startsWith(`${cdnFile(listed.token)}/v/`))).toBe(true);
    expect(detailsRequests(refused.requests, listed.token)).toEqual([]);
    expect(refused.requests.filter((url) => /\/api\/(analytics|mapping)/.test(url))).toEqual([]);
    expect(refused.problems).toEqual([]);
    await checkState(refused.page, 'origins-refused-cdn');

    // Leaving flushes any queued events (pagehide): the open finder's view arrives, the
    // refused one sent nothing.
    const allowed = await openFinder('/refused-control', open.token, { otherOrigin: true });
    await allowed.page.getByRole('list', { name: 'Locations' }).waitFor();
    await refused.page.goto('about:blank');
    await allowed.page.goto('about:blank');
    const tokens = async () => (await stage.backend.analyticsEvents()).map((event) => event.finder_token);
    await expect.poll(tokens, { timeout: 5000 }).toContain(open.token);
    expect(await tokens()).not.toContain(listed.token);
    expect(
      stage.backend.analyticsRequests().filter((request) => request.finderToken === listed.token),
    ).toEqual([]);
  });

  it('is refused on the bare domain of a *. rule', async () => {
    const { page } = await openFinder('/bare-domain', listed.token, { origin: at('shop.localhost') });
    await expectRefused(page, refusal.en(at('shop.localhost')));
  });

  it('is refused by the API when nothing is published: its 403, the same message', async () => {
    const { page, requests } = await openFinder('/refused-api', unpublished.token, { otherOrigin: true });
    await expectRefused(page, refusal.en(stage.site.otherOrigin));
    expect(detailsRequests(requests, unpublished.token)).toEqual([
      `${stage.backend.apiUrl}/ext/finders/details/${unpublished.token}`,
    ]);
    await checkState(page, 'origins-refused-api');
  });

  it('reads the message in German and in French on pages in those languages', async () => {
    const german = await openFinder('/refused-de', listed.token, { otherOrigin: true, lang: 'de' });
    await expectRefused(german.page, refusal.de(stage.site.otherOrigin), 'Filialsuche');
    await checkState(german.page, 'origins-refused-de');
    const french = await openFinder('/refused-fr', unpublished.token, { otherOrigin: true, lang: 'fr-FR' });
    await expectRefused(french.page, refusal.fr(stage.site.otherOrigin), 'Localisateur de magasins');
    await checkState(french.page, 'origins-refused-fr');
  });

  it('fits a phone: the whole message on screen, nothing overflowing', async () => {
    const { page } = await openFinder('/refused-phone', listed.token, {
      otherOrigin: true,
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    await expectRefused(page, refusal.en(stage.site.otherOrigin));
    const box = await page.getByRole('alert').boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    // The text stays inside its box, and the box inside the widget, on both axes.
    expect(
      await page.evaluate(
        `(() => { const shadow = document.querySelector('[data-location-finder]').shadowRoot;
          const overflow = (el) => [el.scrollWidth - el.clientWidth, el.scrollHeight - el.clientHeight];
          return [overflow(shadow.querySelector('.lf-root')), overflow(shadow.querySelector('[role=alert]'))]; })()`,
      ),
    ).toEqual([
      [0, 0],
      [0, 0],
    ]);
    await checkState(page, 'origins-refused-phone');
  });
});

describe('a published copy older than the list', () => {
  it('still shows the locator it holds, and its search says the site is not enabled (the API 403)', async () => {
    const { page } = await openFinder('/stale', stale.token);
    await page.getByRole('region', { name: 'Store locator: Stale stores' }).waitFor();
    await page.getByRole('combobox', { name: 'Find locations near' }).fill('berlin');
    const said = page.locator('.lf-search-message', { hasText: 'not enabled' });
    await said.waitFor();
    expect(await said.textContent()).toBe(refusal.en(stage.site.origin));
    expect(await said.getAttribute('role')).toBe('status');
    await checkState(page, 'origins-stale-copy-search');
  });
});

describe('a site the finder lists', () => {
  it.each([
    ['its exact origin', () => stage.site.origin],
    ['a subdomain of a *. rule', () => at('www.shop.localhost')],
    ['a subdomain at depth', () => at('a.b.shop.localhost')],
  ])('shows the locator from the published copy on %s', async (_case, origin) => {
    const { page, requests, problems } = await openFinder('/listed', listed.token, { origin: origin() });
    await page.getByRole('region', { name: 'Store locator: Listed stores' }).waitFor();
    expect(await page.locator('.lf-status').textContent()).toBe('12 locations');
    expect(detailsRequests(requests, listed.token)).toEqual([]);
    expect(problems).toEqual([]);
    await checkState(page, `origins-listed-${new URL(origin()).hostname}`);
  });

  it('shows it from the API when nothing is published, and on a phone', async () => {
    const { page, requests } = await openFinder('/listed-api-phone', unpublished.token, {
      origin: at('www.shop.localhost'),
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    await page.getByRole('region', { name: 'Store locator: Unpublished stores' }).waitFor();
    expect(await page.locator('.lf-status').textContent()).toBe('12 locations');
    expect(detailsRequests(requests, unpublished.token)).toHaveLength(1);
    await checkState(page, 'origins-listed-api-phone');
  });
});

/**
 * The CDN as it may be served after a move: another origin (port) and another base path
 * (`/static/lf`), passing the service's stored files through; `overrides` answer some paths
 * (after the base) with other bodies, as files written by an older publish would be.
 */
async function startMovedCdn(target: string) {
  const overrides = new Map<string, string>();
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://cdn').pathname;
    const headers = { 'access-control-allow-origin': '*', 'content-type': 'application/json; charset=utf-8' };
    if (!path.startsWith('/static/lf/')) return void response.writeHead(404, headers).end();
    const rest = path.slice('/static/lf/'.length);
    const override = overrides.get(rest);
    if (override !== undefined) return void response.writeHead(200, headers).end(override);
    const upstream = await fetch(`${target}/${rest}`);
    response.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
  });
  const base = `http://127.0.0.1:${await listen(server)}/static/lf`;
  return { base, overrides, close: () => stop(server) };
}

describe('the pointer, wherever the CDN is served from', () => {
  let cdn: Awaited<ReturnType<typeof startMovedCdn>>;
  const hashOf = async (token: string) =>
    ((await (await fetch(`${cdnFile(token)}/config.json`)).json()) as { hash: string }).hash;

  beforeAll(async () => {
    cdn = await startMovedCdn(stage.backend.cdnUrl);
    // Written before pointers were relative: an absolute URL at the service's own /cdn.
    const olderHash = await hashOf(older.token);
    cdn.overrides.set(
      `finders/${older.token}/config.json`,
      JSON.stringify({
        hash: olderHash,
        published_at: '2026-01-01T00:00:00.000Z',
        url: `${cdnFile(older.token)}/v/${olderHash}.json`,
      }),
    );
    // Written before payloads carried authorized_urls: the same file without the list.
    const legacyHash = await hashOf(legacy.token);
    const legacyFile = (await (
      await fetch(`${cdnFile(legacy.token)}/v/${legacyHash}.json`)
    ).json()) as Record<string, unknown>;
    delete legacyFile.authorized_urls;
    cdn.overrides.set(`finders/${legacy.token}/v/${legacyHash}.json`, JSON.stringify(legacyFile));
    cdn.overrides.set(`finders/${broken.token}/config.json`, JSON.stringify({ hash: 'x', url: 42 }));
  });
  afterAll(async () => {
    await cdn?.close();
  });

  const moved = (token: string, options: OpenOptions = {}) =>
    openFinder(`/moved-${token.slice(0, 6)}`, token, {
      ...options,
      scriptAttributes: `data-cdn="${cdn.base}"`,
    });

  it('loads the published version from the new base and origin, never asking the API', async () => {
    const hash = await hashOf(open.token);
    const { page, requests, problems } = await moved(open.token);
    await page.getByRole('region', { name: 'Store locator: Open stores' }).waitFor();
    expect(await page.locator('.lf-status').textContent()).toBe('12 locations');
    expect(requests.filter((url) => url.includes(open.token))).toEqual([
      `${cdn.base}/finders/${open.token}/config.json`,
      `${cdn.base}/finders/${open.token}/v/${hash}.json`,
    ]);
    // Nothing from where the files were at publish time, nothing from the API's payload route.
    expect(requests.filter((url) => url.startsWith(stage.backend.cdnUrl))).toEqual([]);
    expect(requests.filter((url) => url.includes('/ext/finders/details/'))).toEqual([]);
    expect(problems).toEqual([]);
    await checkState(page, 'origins-cdn-moved');
  });

  it('follows an older absolute pointer where it points', async () => {
    const { page, requests } = await moved(older.token);
    await page.getByRole('region', { name: 'Store locator: Older pointer stores' }).waitFor();
    expect(requests.filter((url) => url.includes(older.token))).toEqual([
      `${cdn.base}/finders/${older.token}/config.json`,
      `${cdnFile(older.token)}/v/${await hashOf(older.token)}.json`,
    ]);
  });

  // Two origins' pages, each loaded twice: up to 15 s on a loaded CI machine.
  it('does not trust a version file without authorized_urls: the API decides, for and against', async () => {
    const refused = await moved(legacy.token, { otherOrigin: true });
    await expectRefused(refused.page, refusal.en(stage.site.otherOrigin));
    expect(detailsRequests(refused.requests, legacy.token)).toHaveLength(1);
    await checkState(refused.page, 'origins-legacy-file-refused');
    const shown = await moved(legacy.token);
    await shown.page.getByRole('region', { name: 'Store locator: Legacy stores' }).waitFor();
    expect(detailsRequests(shown.requests, legacy.token)).toHaveLength(1);
  }, 60_000);

  it('falls back to the API on a pointer whose url is no string', async () => {
    const { page, requests } = await moved(broken.token);
    await page.getByRole('region', { name: 'Store locator: Broken pointer stores' }).waitFor();
    expect(requests.filter((url) => url.includes(broken.token))).toEqual([
      `${cdn.base}/finders/${broken.token}/config.json`,
      `${stage.backend.apiUrl}/ext/finders/details/${broken.token}`,
    ]);
  });
});
