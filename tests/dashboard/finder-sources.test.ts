// The finder editor's Locations tab in Chromium against the real service: a category (set)
// ticked is saved as the backing map's sets and its locations reach the preview payload; one
// location added by search and one removed (the finder's own list as the service then holds
// it); all removed after a confirmation; a category or location deleted meanwhile refused in a
// sentence; a finder without a map says so; another user's finder not found; the tab from another
// origin at 390 px; 10,000 own locations paged, with no search to add more. axe scans each state; no page logs an error, breaks its CSP or reaches off this machine.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finderLocationsTable } from '../../src/modules/finders/finders.table.ts';
import { locationsTable } from '../../src/modules/locations/locations.table.ts';
import type { UserRow } from '../../src/modules/users/users.table.ts';
import { createUser, tokenFor } from '../factories/users.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type ApiMethod, type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import {
  expectAccessible,
  expectClean,
  expectSuggestionsAccessible,
  finderShows,
  signIn,
  waitForNotFound,
} from './helpers/page-steps.ts';

let stage: DashboardStage;
let user: UserRow;
let token: string;
let workspaceId: number;
const sets: Record<string, number> = {};
const locations: Record<string, number> = {};

const BROWSER_TEST_TIMEOUT = 120_000;

const api = <T>(method: ApiMethod, url: string, body?: unknown, as = token) =>
  stage.api<T>(as, method, url, body);

interface FinderJson {
  id: number;
  token: string;
  maps: number[];
  locations: { location_id: number; sort_order: number }[];
}

/** A finder listing `own` of its own. */
async function newFinder(name: string, own: string[] = []) {
  const finder = await api<FinderJson>('POST', '/finders', { name, workspace_id: workspaceId });
  return api<FinderJson>('PUT', `/finders/${finder.id}`, {
    locations: own.map((title, sort_order) => ({ location_id: locations[title], sort_order })),
  });
}

const ownTitles = async (finderId: number) => {
  const finder = await api<FinderJson>('GET', `/finders/${finderId}`);
  const byId = Object.fromEntries(Object.entries(locations).map(([title, id]) => [id, title]));
  return finder.locations.map((entry) => byId[entry.location_id]);
};

const mapSetIds = async (mapId: number) =>
  (await api<{ sets: { id: number }[] }>('GET', `/maps/${mapId}`)).sets.map((set) => set.id);

const previewTitles = async (finder: FinderJson) =>
  (
    await api<{ locations: { title: string }[] }>('GET', `/ext/finders/details/${finder.token}/preview`)
  ).locations
    .map((location) => location.title)
    .sort();

/**
 * Types into the add search and picks the one suggestion by keyboard (a click could scroll the
 * page, which closes the suggestions). With `scanAs`, the open suggestions are scanned by axe
 * and kept as a screenshot under that name first.
 */
async function pick(page: Page, text: string, option: RegExp, scanAs?: string) {
  const search = page.getByRole('combobox', { name: 'Add a location' });
  await search.scrollIntoViewIfNeeded();
  await search.fill(text);
  // Only the one match is offered once the answer to this text is in. Suggestions a scroll or
  // resize closed (the full-page screenshot does) are opened again as a user does: Down arrow.
  const offered = () =>
    expect
      .poll(
        async () => {
          if ((await search.getAttribute('aria-expanded')) !== 'true') await search.press('ArrowDown');
          return (await page.getByRole('option').allTextContents()).map((text) => option.test(text));
        },
        { timeout: 15_000 },
      )
      .toEqual([true]);
  await offered();
  if (scanAs) {
    await expectSuggestionsAccessible(page, scanAs);
    await offered();
  }
  await search.press('ArrowDown');
  await search.press('Enter');
}

beforeAll(async () => {
  stage = await startDashboardStage();
  user = await createUser(stage.ctx.deps);
  token = await tokenFor(stage.ctx.deps, user);
  const [workspace] = await api<{ id: number }[]>('GET', '/workspaces');
  workspaceId = workspace?.id as number;
  for (const name of ['Cafés', 'Bakeries'])
    sets[name] = (await api<{ id: number }>('POST', '/sets', { name, workspace_id: workspaceId })).id;
  const places: [string, string, string[]][] = [
    ['Corner Coffee', 'Berlin', ['Cafés']],
    ['Bean Bar', 'Hamburg', ['Cafés']],
    ['Rye Bakery', 'Berlin', ['Bakeries']],
    ['Harbour Books', 'Hamburg', []],
    ['Station Kiosk', 'Munich', []],
  ];
  for (const [title, city, setNames] of places)
    locations[title] = (
      await api<{ id: number }>('POST', '/locations', {
        workspace_id: workspaceId,
        title,
        city,
        set_ids: setNames.map((name) => sets[name]),
      })
    ).id;
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

describe('the finder Locations tab', () => {
  it(
    'shows a ticked category’s locations and adds, removes and clears its own',
    async () => {
      const finder = await newFinder('Shops', ['Harbour Books', 'Rye Bakery']);
      const mapId = finder.maps[0] as number;
      const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=locations`);
      const { page } = opened;
      await finderShows(page, 2);
      const own = page.getByRole('list', { name: 'Locations of its own' });
      await own.getByText('Harbour Books').waitFor();
      expect(await own.locator('li').allTextContents()).toEqual([
        'Harbour Books · HamburgRemove',
        'Rye Bakery · BerlinRemove',
      ]);
      const cafes = page.getByRole('checkbox', { name: 'Cafés' });
      expect(await cafes.isChecked()).toBe(false);
      await expectAccessible(page, 'finder-sources');

      // A category: its locations are shown from then on.
      await page.locator('label.checkbox', { hasText: 'Cafés' }).click();
      await page.getByRole('button', { name: 'Save categories' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(await mapSetIds(mapId)).toEqual([sets.Cafés]);
      await finderShows(page, 4);
      expect(await previewTitles(finder)).toEqual([
        'Bean Bar',
        'Corner Coffee',
        'Harbour Books',
        'Rye Bakery',
      ]);
      await expectAccessible(page, 'finder-sources-category-saved');

      // One more by search: only the workspace's locations not yet listed are offered (the open
      // suggestions scanned by axe).
      await pick(page, 'kios', /Station Kiosk/, 'finder-sources-suggestions');
      await page.getByRole('status').filter({ hasText: 'Added Station Kiosk.' }).waitFor();
      expect(await ownTitles(finder.id)).toEqual(['Harbour Books', 'Rye Bakery', 'Station Kiosk']);
      await own.getByText('Station Kiosk').waitFor();
      await finderShows(page, 5);

      // One removed: the others keep their order.
      await page.getByRole('button', { name: 'Remove Rye Bakery' }).click();
      await page.getByRole('status').filter({ hasText: 'Removed Rye Bakery.' }).waitFor();
      expect(await ownTitles(finder.id)).toEqual(['Harbour Books', 'Station Kiosk']);
      expect(await own.getByText('Rye Bakery').count()).toBe(0);
      await expectAccessible(page, 'finder-sources-removed');

      // All removed, only after the confirmation; the category's locations stay shown.
      await page.getByRole('button', { name: 'Remove all' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Remove all its own locations?' });
      await dialog.getByText('its 2 locations of its own').waitFor();
      await expectAccessible(page, 'finder-sources-remove-all');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(await ownTitles(finder.id)).toEqual(['Harbour Books', 'Station Kiosk']);
      await page.getByRole('button', { name: 'Remove all' }).click();
      await dialog.getByRole('button', { name: 'Remove all' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'The finder lists no locations of its own now.' })
        .waitFor();
      expect(await ownTitles(finder.id)).toEqual([]);
      await page.getByText('The finder lists no locations of its own.').waitFor();
      await finderShows(page, 2);
      expect(await previewTitles(finder)).toEqual(['Bean Bar', 'Corner Coffee']);
      await expectAccessible(page, 'finder-sources-none-own');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'says in a sentence that a category or a location deleted meanwhile was refused, and saves nothing',
    async () => {
      const stall = await api<{ id: number }>('POST', '/locations', {
        workspace_id: workspaceId,
        title: 'Pop-up Stall',
      });
      locations['Pop-up Stall'] = stall.id;
      const finder = await newFinder('Refused', ['Harbour Books', 'Pop-up Stall']);
      const mapId = finder.maps[0] as number;
      const doomed = await api<{ id: number }>('POST', '/sets', {
        name: 'Closing soon',
        workspace_id: workspaceId,
      });
      const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=locations`);
      const { page } = opened;
      await page.getByRole('checkbox', { name: 'Closing soon' }).waitFor();
      await api('DELETE', `/sets/${doomed.id}`);
      await page.locator('label.checkbox', { hasText: 'Bakeries' }).click();
      await page.locator('label.checkbox', { hasText: 'Closing soon' }).click();
      await page.getByRole('button', { name: 'Save categories' }).click();
      await page
        .getByText(`These sets do not exist or are not in a workspace you are a member of: ${doomed.id}.`)
        .waitFor();
      // The group names the refusal as its error, read out with it.
      const group = page.getByRole('group', { name: 'Categories shown' });
      const described = ((await group.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
      expect(
        (await page.locator(described.map((id) => `[id="${id}"]`).join(',')).allTextContents()).join(' '),
      ).toContain('These sets do not exist');
      expect(await mapSetIds(mapId)).toEqual([]);
      await expectAccessible(page, 'finder-sources-refused');

      // The page still lists the deleted location: removing another sends it back, refused.
      await page.getByRole('list', { name: 'Locations of its own' }).getByText('Pop-up Stall').waitFor();
      await api('DELETE', `/locations/${stall.id}`);
      await page.getByRole('button', { name: 'Remove Harbour Books' }).click();
      await page
        .getByRole('alert')
        .filter({
          hasText: `These locations do not exist or are not in the finder's workspace: ${stall.id}.`,
        })
        .waitFor();
      expect(await ownTitles(finder.id)).toEqual(['Harbour Books']);
      // The list is read again: the deleted one goes, the refusal stays.
      await page.getByText('This finder lists 1 location of its own.').waitFor();
      expect(
        await page.getByRole('list', { name: 'Locations of its own' }).locator('li').allTextContents(),
      ).toEqual(['Harbour Books · HamburgRemove']);
      expect(await page.getByRole('alert').filter({ hasText: 'These locations do not exist' }).count()).toBe(
        1,
      );
      await expectAccessible(page, 'finder-sources-refused-location');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'says plainly when the finder has no map, and another user’s finder is not found',
    async () => {
      const finder = await newFinder('Mapless', ['Corner Coffee']);
      await api('DELETE', `/maps/${finder.maps[0]}`);
      let opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=locations`);
      let { page } = opened;
      await page.getByText('This finder has no map any more').waitFor();
      expect(await page.getByRole('checkbox').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Save categories' }).count()).toBe(0);
      await page.getByRole('list', { name: 'Locations of its own' }).getByText('Corner Coffee').waitFor();
      await expectAccessible(page, 'finder-sources-no-map');
      expectClean(opened);
      await opened.close();

      const stranger = await stage.otherUser();
      opened = await stage.openSignedIn(stranger.token, `/app/finders/${finder.id}?tab=locations`);
      ({ page } = opened);
      await waitForNotFound(page, 'Finder');
      expect(await page.getByText('Corner Coffee').count()).toBe(0);
      await expectAccessible(page, 'finder-sources-not-found');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'adds a location from another origin on a 390 px screen',
    async () => {
      const finder = await newFinder('Phone', ['Harbour Books']);
      const opened = await stage.open(`/app/finders/${finder.id}?tab=locations`, PHONE, stage.elsewhere);
      const { page } = opened;
      await signIn(page, user.email);
      await finderShows(page, 1);
      expect(new URL(page.url()).origin).toBe(stage.elsewhere);
      await pick(page, 'Bean', /Bean Bar/);
      await page.getByRole('status').filter({ hasText: 'Added Bean Bar.' }).waitFor();
      expect(await ownTitles(finder.id)).toEqual(['Harbour Books', 'Bean Bar']);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await expectAccessible(page, 'finder-sources-phone');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  // Last: its 10,000 locations would crowd the searches above.
  it(
    'pages through 10,000 own locations and offers no search to add more',
    async () => {
      const finder = await newFinder('Full');
      const { db } = stage.ctx.deps;
      for (let chunk = 0; chunk < 10; chunk++) {
        const rows = await db
          .insert(locationsTable)
          .values(
            Array.from({ length: 1000 }, (_, i) => ({
              workspaceId,
              title: `Filler ${chunk * 1000 + i + 1}`,
            })),
          )
          .returning({ id: locationsTable.id });
        await db
          .insert(finderLocationsTable)
          .values(
            rows.map((row, i) => ({ finderId: finder.id, locationId: row.id, sortOrder: chunk * 1000 + i })),
          );
      }
      const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=locations`);
      const { page } = opened;
      await page.getByText('This finder lists 10,000 locations of its own.').waitFor();
      const own = page.getByRole('list', { name: 'Locations of its own' });
      await own.getByText('Filler 25', { exact: true }).waitFor();
      expect(await own.locator('li').count()).toBe(25);
      await page.getByText('1–25 of 10,000').waitFor();
      const search = page.getByRole('combobox', { name: 'Add a location' });
      expect(await search.isDisabled()).toBe(true);
      await page
        .getByText('A finder lists at most 10,000 locations of its own: remove one to add another.')
        .waitFor();
      await page.getByText(/^The workspace has 10,0\d\d locations; a finder lists at most 10,000/).waitFor();
      expect(await page.getByRole('button', { name: /^Show all/ }).count()).toBe(0);
      // The next page's 25 names come in one list request by id, not 25 reads of one location.
      const reads: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/locations')) reads.push(`${url.pathname}${url.search}`);
      });
      await page.getByRole('button', { name: 'Next page' }).click();
      await own.getByText('Filler 26', { exact: true }).waitFor();
      expect(reads.filter((read) => read.startsWith('/api/locations/'))).toEqual([]);
      expect(reads.filter((read) => read.includes('ids='))).toHaveLength(1);
      await page.getByText('26–50 of 10,000').waitFor();
      await expectAccessible(page, 'finder-sources-full');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});
