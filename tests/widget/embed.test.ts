// The embed in a real headless Chromium, as a customer pastes it: on a page whose CSS attacks
// everything, with several containers, published and unpublished finders, a page origin the
// finder does not allow, and the German, French and right-to-left layouts. Every state gets an
// axe-core scan (zero violations) and a screenshot under .data/widget-screenshots/.
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contrastRatio } from '../../src/lib/color-contrast.ts';
import { createFinderPayload } from '../fakes/widget-payload.ts';
import { tempDir } from '../helpers/temp.ts';
import { scanWidgets } from './helpers/axe.ts';
import { openPage, screenshot } from './helpers/browser.ts';
import { type Stage, startStage, widgetsReady } from './helpers/stage.ts';
import { hostilePage } from './helpers/static-servers.ts';

let stage: Stage;
const published = createFinderPayload({ name: 'Our stores' });
const restricted = createFinderPayload({ name: 'Partner stores' });
const german = createFinderPayload({ name: 'Unsere Filialen' });
const french = createFinderPayload({ name: 'Nos magasins' });

beforeAll(async () => {
  stage = await startStage({
    widgetDir: tempDir('widget-embed-'),
    finders: ({ tiles, site }) => {
      const tileSettings = { key: 'tile_url', value: tiles.urlTemplate };
      published.settings.push(tileSettings);
      restricted.settings.push(tileSettings);
      restricted.authorized_urls = [site.origin];
      german.settings.push(
        tileSettings,
        { key: 'language', value: 'auto' },
        { key: 'direction', value: 'auto' },
      );
      french.settings.push(
        tileSettings,
        { key: 'language', value: 'fr' },
        { key: 'direction', value: 'rtl' },
        { key: 'units', value: 'mi' },
        { key: 'primary_color', value: '#ffcc00' },
      );
      return [
        { payload: published, published: true },
        { payload: restricted, published: false },
        { payload: german, published: true },
        { payload: french, published: false },
      ];
    },
  });
}, 120_000);

afterAll(async () => {
  await stage?.close();
});

/** A screenshot of the state, then axe: nothing violated, nothing skipped by an error. */
async function checkState(page: Page, name: string) {
  await screenshot(page, name);
  const scan = await scanWidgets(page);
  expect(scan.errors).toEqual([]);
  expect(scan.violations).toEqual([]);
  return scan;
}

const shadow = (page: Page, script: string) =>
  page.evaluate(
    `(() => { const root = document.querySelector('[data-location-finder]').shadowRoot; ${script} })()`,
  );

describe('the embed on a customer page', () => {
  it('renders in an open shadow root on a page with hostile CSS, and leaves the page alone', async () => {
    const requests: string[] = [];
    const scriptRequests: Request[] = [];
    const html = hostilePage({ scriptUrl: stage.backend.scriptUrl, token: published.token });
    const { page, outsideRequests } = await stage.open('/hostile', html, {
      onRequest: (request) => {
        requests.push(request.url());
        if (request.url() === stage.backend.scriptUrl) scriptRequests.push(request);
      },
    });
    await widgetsReady(page);
    // The script came compressed: the build's compressed head with the service's CDN_URL in a
    // stored tail, which Chromium decodes like any other.
    const scriptResponse = await scriptRequests[0]?.response();
    expect(['gzip', 'br']).toContain(await scriptResponse?.headerValue('content-encoding'));

    expect(await page.evaluate(`document.querySelector('[data-location-finder]').shadowRoot?.mode`)).toBe(
      'open',
    );
    await page.getByRole('region', { name: 'Store locator: Our stores' }).waitFor();
    expect(await page.getByRole('list', { name: 'Locations' }).isVisible()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Find locations near' }).isVisible()).toBe(true);
    expect(await page.getByRole('status').filter({ hasText: 'locations' }).textContent()).toBe(
      '12 locations',
    );

    // The page's type, spacing and resets did not reach inside.
    const inside = (await shadow(
      page,
      `const row = root.querySelector('.lf-row'); const style = getComputedStyle(row);
       const box = root.querySelector('.lf-root').getBoundingClientRect();
       return { font: style.fontSize, spacing: style.letterSpacing, transform: style.textTransform,
                italic: style.fontStyle, height: Math.round(box.height), width: Math.round(box.width),
                rowHeight: Math.round(row.getBoundingClientRect().height),
                setsize: row.parentElement.getAttribute('aria-setsize') };`,
    )) as Record<string, unknown>;
    expect(inside).toEqual({
      font: '15px',
      spacing: 'normal',
      transform: 'none',
      italic: 'normal',
      height: 600,
      width: expect.any(Number),
      rowHeight: 76,
      setsize: '12',
    });
    expect(inside.width).toBeGreaterThan(900);

    // And nothing of the widget reached out: the page's styles and globals are as they were.
    expect(
      await page.evaluate(`(() => { const style = getComputedStyle(document.querySelector('.host-text'));
        return [style.color, style.fontSize]; })()`),
    ).toEqual(['rgb(255, 0, 255)', '20px']);
    expect(
      await page.evaluate(
        `Object.getOwnPropertyNames(window).filter((name) => !window.__globalsBefore.includes(name)
          && name !== '__globalsBefore')`,
      ),
    ).toEqual([]);

    // Published: read from the CDN, the API's details route untouched; tiles from the local server.
    const cdn = `${stage.backend.cdnUrl}/finders/${published.token}`;
    expect(requests).toContain(`${cdn}/config.json`);
    expect(requests.some((url) => url.startsWith(`${cdn}/v/`))).toBe(true);
    expect(requests.some((url) => url.includes('/ext/finders/details/'))).toBe(false);
    await page.locator('img.leaflet-tile-loaded').first().waitFor();
    expect(stage.tiles.tileRequests()).toBeGreaterThan(0);
    expect(outsideRequests).toEqual([]);

    const scan = await checkState(page, 'embed-hostile-page');
    expect(scan.shadowRules).toEqual(
      expect.arrayContaining(['color-contrast', 'list', 'listitem', 'button-name']),
    );
  });

  it('mounts several containers, each with its own token, falling back to the API when unpublished', async () => {
    const requests: { url: string; origin: string | undefined }[] = [];
    const html = hostilePage({
      scriptUrl: stage.backend.scriptUrl,
      token: published.token,
      containers: ['', `data-finder="${restricted.token}"`, 'data-finder="no-such-finder"'],
    });
    const { page } = await stage.open('/several', html, {
      onRequest: (request) => requests.push({ url: request.url(), origin: request.headers().origin }),
    });
    await widgetsReady(page, 3);

    await page.getByRole('region', { name: 'Store locator: Our stores' }).waitFor();
    await page.getByRole('region', { name: 'Store locator: Partner stores' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(
      'This store locator does not exist or is no longer available.',
    );
    expect(await page.getByRole('list', { name: 'Locations' }).count()).toBe(2);

    // Never published: config.json answered 404, the details route answered for this origin.
    const details = requests.filter((request) =>
      request.url.includes(`/ext/finders/details/${restricted.token}`),
    );
    expect(details).toEqual([
      { url: `${stage.backend.apiUrl}/ext/finders/details/${restricted.token}`, origin: stage.site.origin },
    ]);
    await checkState(page, 'embed-several-containers');
  });

  it('tells the visitor clearly when the page’s origin is not authorized for the finder', async () => {
    const html = hostilePage({ scriptUrl: stage.backend.scriptUrl, token: restricted.token });
    const { page } = await stage.open('/refused', html, { otherOrigin: true });
    await widgetsReady(page);

    const alert = page.getByRole('region', { name: 'Store locator', exact: true }).getByRole('alert');
    expect(await alert.textContent()).toBe(
      `This store locator is not enabled for this website (${stage.site.otherOrigin}). ` +
        'The site owner can allow it in the finder settings.',
    );
    expect(await alert.isVisible()).toBe(true);
    expect(await page.getByRole('list', { name: 'Locations' }).count()).toBe(0);
    await checkState(page, 'embed-origin-refused');
  });
});

describe('languages and direction', () => {
  it('follows a German right-to-left page when the finder says auto', async () => {
    const html = hostilePage({
      scriptUrl: stage.backend.scriptUrl,
      token: german.token,
      lang: 'de',
      dir: 'rtl',
    });
    const { page } = await stage.open('/de-rtl', html);
    await widgetsReady(page);

    await page.getByRole('region', { name: 'Filialsuche: Unsere Filialen' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Standorte finden in der Nähe von' }).isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('button', { name: 'Meinen Standort verwenden' }).isVisible()).toBe(true);
    expect(await page.getByRole('status').filter({ hasText: 'Standorte' }).textContent()).toBe(
      '12 Standorte',
    );

    const layout = (await shadow(
      page,
      `const panel = root.querySelector('.lf-panel').getBoundingClientRect();
       const map = root.querySelector('.lf-map').getBoundingClientRect();
       const title = root.querySelector('.lf-row-title').getBoundingClientRect();
       return { dir: root.querySelector('.lf-root').getAttribute('dir'), lang: root.querySelector('.lf-root').lang,
                panelRight: panel.left > map.left, titleAtRight: panel.right - title.right < 30,
                mapDir: root.querySelector('.lf-map').getAttribute('dir') };`,
    )) as Record<string, unknown>;
    expect(layout).toEqual({ dir: 'rtl', lang: 'de', panelRight: true, titleAtRight: true, mapDir: 'ltr' });
    await checkState(page, 'i18n-german-rtl');

    await page.getByRole('button', { name: /^Berlin Mitte/ }).click();
    await page.getByRole('heading', { name: 'Berlin Mitte' }).waitFor();
    expect(await page.getByRole('button', { name: 'Zurück zu den Ergebnissen' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: /^Route planen/ }).isVisible()).toBe(true);
    expect(await page.getByText('Telefon', { exact: true }).isVisible()).toBe(true);
    await checkState(page, 'i18n-german-rtl-details');
  });

  it('speaks French right to left in miles on a left-to-right page, its yellow darkened to AA', async () => {
    const html = hostilePage({ scriptUrl: stage.backend.scriptUrl, token: french.token });
    const { page } = await stage.open('/fr', html, {
      geolocation: { latitude: 52.52, longitude: 13.405 },
      permissions: ['geolocation'],
    });
    await widgetsReady(page);

    expect(await page.getByRole('status').filter({ hasText: 'adresses' }).textContent()).toBe('12 adresses');
    await page.getByRole('button', { name: 'Utiliser ma position' }).click();
    await page.getByText('12 adresses près de Ma position, les plus proches d’abord').waitFor();
    expect(await page.locator('.lf-row-distance').first().textContent()).toMatch(/^\d+(,\d)?\smi$/);

    const colors = (await shadow(
      page,
      `const root2 = root.querySelector('.lf-root');
       return { dir: root2.getAttribute('dir'), primary: root2.style.getPropertyValue('--lf-primary') };`,
    )) as { dir: string; primary: string };
    expect(colors.dir).toBe('rtl');
    expect(colors.primary).not.toBe('#ffcc00');
    expect(contrastRatio(colors.primary, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    await checkState(page, 'i18n-french-rtl-miles');
  });
});

describe('the demo page of npm run demo', () => {
  it('renders the widget and its map under the page’s own Content-Security-Policy, with nothing blocked', async () => {
    const opened = await openPage(stage.browser);
    const problems: string[] = [];
    opened.page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    opened.page.on('pageerror', (error) => problems.push(error.message));
    try {
      const origin = new URL(stage.backend.apiUrl).origin;
      const response = await opened.page.goto(`${origin}/demo/${published.token}`);
      expect(response?.status()).toBe(200);
      // Locator waits only: widgetsReady evaluates a string, which this page's CSP refuses.
      await opened.page.getByRole('region', { name: 'Store locator: Our stores' }).waitFor();
      await opened.page.locator('.lf-row').first().waitFor();
      expect(await opened.page.locator('.lf-row').count()).toBeGreaterThan(0);
      // The map file is a module script from the service, as widget.js is: script-src 'self'.
      await opened.page.locator('.lf-marker, .lf-cluster').first().waitFor();
      await opened.page.locator('img.leaflet-tile-loaded').first().waitFor();
      // Only a screenshot: axe is injected as an inline script, which this page's CSP refuses
      // (rightly); the widget's states are scanned on the host pages above.
      await screenshot(opened.page, 'demo-page');
      expect(problems).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
