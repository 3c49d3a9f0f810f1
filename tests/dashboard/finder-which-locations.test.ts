// The finder editor's "Which locations" section in Chromium against the real service: a finder
// without a rule says so; "All locations of the workspace" saves the rule {} and the total and
// the preview payload follow; "Those with these tags / in these categories / in these countries"
// saves the ticked tag, category and the country picked by name (a chip, removable); "None"
// removes the rule. axe scans each state (the country suggestions open included); no page logs
// an error, breaks its CSP or reaches off this machine.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/modules/users/users.table.ts';
import { createUser, tokenFor } from '../factories/users.ts';
import { type ApiMethod, type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import {
  expectAccessible,
  expectClean,
  expectSuggestionsAccessible,
  finderShows,
  pickFirstSuggestion,
  suggest,
} from './helpers/page-steps.ts';

let stage: DashboardStage;
let user: UserRow;
let token: string;
let workspaceId: number;
let cafes: number;
let parking: number;

const BROWSER_TEST_TIMEOUT = 120_000;

const api = <T>(method: ApiMethod, url: string, body?: unknown) => stage.api<T>(token, method, url, body);

interface FinderJson {
  id: number;
  token: string;
  rule: { tag_ids: number[]; set_ids: number[]; countries: string[] } | null;
}

const previewTitles = async (finder: FinderJson) =>
  (
    await api<{ locations: { title: string }[] }>('GET', `/ext/finders/details/${finder.token}/preview`)
  ).locations
    .map((location) => location.title)
    .sort();

const ruleOf = async (finder: FinderJson) => (await api<FinderJson>('GET', `/finders/${finder.id}`)).rule;

/** Saves, and waits until the service holds `rule` (a previous save's "Saved." may still show). */
async function saveRule(page: Page, finder: FinderJson, rule: FinderJson['rule']) {
  await page.getByRole('button', { name: 'Save rule' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  await expect.poll(() => ruleOf(finder), { timeout: 15_000 }).toEqual(rule);
}

beforeAll(async () => {
  stage = await startDashboardStage();
  user = await createUser(stage.ctx.deps);
  token = await tokenFor(stage.ctx.deps, user);
  const [workspace] = await api<{ id: number }[]>('GET', '/workspaces');
  workspaceId = workspace?.id as number;
  cafes = (await api<{ id: number }>('POST', '/sets', { name: 'Cafés', workspace_id: workspaceId })).id;
  const places: [string, string, string[], number[]][] = [
    ['Corner Coffee', 'DE', ['Parking'], [cafes]],
    ['Bean Bar', 'Germany', [], [cafes]],
    ['Rive Gauche', 'FR', ['Parking'], [cafes]],
    ['Harbour Books', 'DE', ['Parking'], []],
    ['Station Kiosk', 'AT', [], []],
  ];
  for (const [title, country, tags, setIds] of places)
    await api('POST', '/locations', { workspace_id: workspaceId, title, country, tags, set_ids: setIds });
  const tags = await api<{ id: number; name: string }[]>('GET', `/tags?workspace_id=${workspaceId}`);
  parking = tags.find((tag) => tag.name === 'Parking')!.id;
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

describe('the finder Locations tab, Which locations', () => {
  it(
    'saves no rule, all of the workspace, and tags, categories and countries, and the total follows',
    async () => {
      const finder = await api<FinderJson>('POST', '/finders', { name: 'Chain', workspace_id: workspaceId });
      const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=locations`);
      const { page } = opened;
      await finderShows(page, 0);
      const none = page.getByRole('radio', { name: 'None: only the categories and locations below' });
      expect(await none.isChecked()).toBe(true);
      await expectAccessible(page, 'finder-rule-none');

      // All of the workspace.
      await page.locator('label.radio', { hasText: 'All locations of the workspace' }).click();
      await saveRule(page, finder, { tag_ids: [], set_ids: [], countries: [] });
      await finderShows(page, 5);
      expect(await previewTitles(finder)).toEqual([
        'Bean Bar',
        'Corner Coffee',
        'Harbour Books',
        'Rive Gauche',
        'Station Kiosk',
      ]);
      await expectAccessible(page, 'finder-rule-all');

      // Some: a tag, a category, and a country picked by its name.
      await page
        .locator('label.radio', { hasText: 'Those with these tags, in these categories, in these countries' })
        .click();
      await page.locator('label.checkbox', { hasText: 'Parking' }).click();
      await page
        .getByRole('group', { name: 'In any of these categories' })
        .locator('label.checkbox', { hasText: 'Cafés' })
        .click();
      const country = page.getByRole('combobox', { name: 'Add a country' });
      await country.fill('germ');
      await expect
        .poll(async () => page.getByRole('option').allTextContents(), { timeout: 15_000 })
        .toEqual(['Germany']);
      await expectSuggestionsAccessible(page, 'finder-rule-countries');
      if ((await country.getAttribute('aria-expanded')) !== 'true') await country.press('ArrowDown');
      await country.press('ArrowDown');
      await country.press('Enter');
      const chosen = page.getByRole('grid', { name: 'Countries chosen' });
      await chosen.getByText('Germany').waitFor();
      await saveRule(page, finder, { tag_ids: [parking], set_ids: [cafes], countries: ['DE'] });
      // Parking, a café and in Germany: Corner Coffee only (Bean Bar has no tag, Rive Gauche is in France).
      await finderShows(page, 1);
      expect(await previewTitles(finder)).toEqual(['Corner Coffee']);
      await expectAccessible(page, 'finder-rule-some');

      // The country removed by its chip's button: any country again.
      await page.getByRole('button', { name: 'Remove Germany' }).click();
      await expect.poll(() => chosen.getByText('Germany').count()).toBe(0);
      await page.getByText('Any country').waitFor();
      await saveRule(page, finder, { tag_ids: [parking], set_ids: [cafes], countries: [] });
      await finderShows(page, 2);

      // Enter on a name no country has (the German one, in the English dashboard) adds nothing
      // and does not save the rule: the only save below is the button's.
      const saves: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'PUT' && new URL(request.url()).pathname === `/api/finders/${finder.id}`)
          saves.push(request.url());
      });
      await country.fill('Deutschland');
      await country.press('Enter');
      // The first country picked from the list opened with nothing typed, its chip removed, and
      // picked again with the keyboard: a chip each time.
      const first = await pickFirstSuggestion(country);
      await chosen.getByText(first).waitFor();
      await page.getByRole('button', { name: `Remove ${first}` }).click();
      await expect.poll(() => chosen.getByText(first).count()).toBe(0);
      await suggest(country, first.slice(0, 4), page.getByRole('option', { name: first }));
      await country.press('ArrowDown');
      await country.press('Enter');
      await chosen.getByText(first).waitFor();
      await page.getByRole('button', { name: `Remove ${first}` }).click();
      await expect.poll(() => chosen.getByText(first).count()).toBe(0);
      // Germany picked by its name.
      await suggest(country, 'germ', page.getByRole('option', { name: 'Germany' }));
      await country.press('ArrowDown');
      await country.press('Enter');
      await chosen.getByText('Germany').waitFor();
      expect(await chosen.getByRole('row').count()).toBe(1);
      await saveRule(page, finder, { tag_ids: [parking], set_ids: [cafes], countries: ['DE'] });
      expect(saves).toHaveLength(1);
      await finderShows(page, 1);

      // None: the rule goes.
      await page.locator('label.radio', { hasText: 'None: only the categories' }).click();
      await saveRule(page, finder, null);
      await finderShows(page, 0);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});
