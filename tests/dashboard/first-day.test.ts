// A business's first day, end to end in Chromium against the real service: sign up (the first
// workspace comes with the account), import a CSV file of 1,000 shops of which two rows are
// bad (shown with their row and column), design a finder (its colour, the map's tiles), put
// the workspace's locations on it, publish it, copy the embed code, paste it into a page of
// another origin, and see the widget there list the shops from the published copy. axe scans
// each screen on the way; no page logs an error, breaks its CSP or reaches off this machine.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type HostSite,
  startHostSite,
  startTileServer,
  type TileServer,
} from '../widget/helpers/static-servers.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible as expectAccessibleAs } from './helpers/page-steps.ts';

let stage: DashboardStage;
let host: HostSite;
let tiles: TileServer;

beforeAll(async () => {
  stage = await startDashboardStage();
  host = await startHostSite();
  tiles = await startTileServer();
}, 180_000);

afterAll(async () => {
  await tiles?.close();
  await host?.close();
  await stage?.close();
});

const ROWS = 1000;

/** 1,000 shops in a grid around Berlin; rows 101 and 501 of the file are bad. */
function shopsCsv(): string {
  const lines = ['title,address,city,country,lat,lng,tags'];
  for (let i = 1; i <= ROWS; i++) {
    const lat = (52.4 + (i % 40) * 0.006).toFixed(5);
    const lng = (13.2 + Math.floor(i / 40) * 0.008).toFixed(5);
    if (i === 100) lines.push(`,Nowhere ${i},Berlin,DE,${lat},${lng},coffee`);
    else if (i === 500) lines.push(`Shop ${i},Street ${i},Berlin,DE,north,${lng},coffee`);
    else lines.push(`Shop ${i},Street ${i},Berlin,DE,${lat},${lng},${i % 2 ? 'coffee' : 'tea'}`);
  }
  return `${lines.join('\n')}\n`;
}

const expectAccessible = (page: Page, name: string) => expectAccessibleAs(page, `first-day-${name}`);

it('signs up, imports 1,000 shops, designs and publishes a finder, and embeds it on another site', async () => {
  const opened = await stage.open('/app/sign-up', { permissions: ['clipboard-read', 'clipboard-write'] });
  const { page } = opened;
  // A new finder's preview draws the widget's default tiles, OpenStreetMap's, until the design
  // names its own (how soon depends on the machine's speed): the journey allows that host's
  // tiles, served here by the local tile server; a request to any other host is still a problem.
  const tile = Buffer.from(
    await (await fetch(tiles.urlTemplate.replace('{z}/{x}/{y}', '0/0/0'))).arrayBuffer(),
  );
  await page.route(/^https:\/\/tile\.openstreetmap\.org\/\d+\/\d+\/\d+\.png$/, (route) =>
    route.fulfill({ contentType: 'image/png', body: tile }),
  );

  // Sign up: the account and its first workspace.
  await page.getByLabel('Your name').fill('Ada Shopkeeper');
  await page.getByLabel('Email').fill('ada@example.test');
  await page.getByLabel('Password', { exact: true }).fill('a long enough password');
  await page.getByLabel('Password again').fill('a long enough password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('No locations yet.').waitFor();

  // Import: the file through the chooser, two bad rows reported with row and column.
  await page.getByRole('link', { name: 'Import CSV' }).click();
  await page.getByRole('heading', { name: 'Import locations' }).waitFor();
  await expectAccessible(page, 'import');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a file' }).click();
  await (await chooser).setFiles({
    name: 'shops.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(shopsCsv()),
  });
  await page.getByText('Chosen: shops.csv').waitFor();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByText('998 created, 0 updated, 2 skipped.').waitFor({ timeout: 30_000 });
  const problems = page.getByRole('table', { name: /Problems in the file/ });
  const rows = await problems.locator('tbody tr').allTextContents();
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatch(/^101title/);
  expect(rows[1]).toMatch(/^501lat/);
  await expectAccessible(page, 'import-result');

  // The table lists what was imported.
  await page.getByRole('link', { name: 'Go to the locations' }).click();
  await page.getByText('998 locations', { exact: true }).waitFor();

  // A finder, designed.
  await page.getByRole('link', { name: 'Finders' }).click();
  await page.getByText('No finder yet.').waitFor();
  await expectAccessible(page, 'finders-empty');
  await page.getByLabel('Name').fill('Our shops');
  await page.getByRole('button', { name: 'Create a finder' }).click();
  await page.getByRole('heading', { name: 'Our shops' }).waitFor();
  await page.getByLabel('Main colour', { exact: true }).first().fill('#ffcc00');
  await page.getByText(/Shown as #[0-9a-f]{6} \(contrast [4-9]\.\d:1 with white\)\./).waitFor();
  await page.getByLabel('Map tiles').fill(tiles.urlTemplate);
  await page.getByLabel('Height in pixels').fill('100');
  await page.getByRole('button', { name: 'Save' }).click();
  // The widget would ignore a height of 100: refused beside the field, nothing sent.
  await page.getByText('The widget cannot use this value.').waitFor();
  await page.getByLabel('Height in pixels').fill('640');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved.').waitFor();
  await expectAccessible(page, 'finder-design');

  // Its locations: the whole workspace.
  await page.getByRole('tab', { name: 'Locations' }).click();
  await page.getByRole('button', { name: 'Show all 998 locations of the workspace' }).click();
  await page.getByText('This finder lists 998 locations of its own.').waitFor();
  await expectAccessible(page, 'finder-locations');

  // Published, and the embed code copied.
  await page.getByRole('tab', { name: 'Publish' }).click();
  await page.getByText('Not published yet.').waitFor();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByText(/^Published .+ \(version [0-9a-f]+\)\.$/).waitFor();
  await page.getByRole('button', { name: 'Copy the code' }).click();
  await page.getByText('Copied.').waitFor();
  await expectAccessible(page, 'finder-published');
  const snippet = (await page.evaluate('navigator.clipboard.readText()')) as string;
  expect(snippet).toContain(`${stage.origin}/widget.js`);
  expect(opened.problems).toEqual([]);
  await opened.close();

  // The code pasted into a shop's page on another origin: the widget lists the shops.
  const site = await stage.open(
    '',
    {},
    host.page(
      '/stores',
      `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Our stores</title></head>
<body><main><h1>Find a shop</h1>
${snippet}
</main></body></html>`,
    ),
  );
  const widget = site.page.locator('[data-location-finder]');
  await widget.locator('.lf-row').first().waitFor({ timeout: 30_000 });
  await expect.poll(() => widget.getByText('998 locations').count()).toBeGreaterThan(0);
  expect(await widget.locator('.lf-row-title').first().textContent()).toMatch(/^Shop \d+$/);
  expect(site.problems).toEqual([]);
  await site.close();
}, 180_000);
