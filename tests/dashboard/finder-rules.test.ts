// Two tabs of the finder editor in Chromium against the real service. Address search: a
// provider's key set (a refused one's message beside the field), replaced and removed after a
// confirmation; the service then says which keys it holds, the stored value opens to the key
// typed, and the key is in no answer the page received nor in the page. Filters: two filters
// built with the keyboard and the mouse (fields from the workspace's tags, categories and custom
// fields, a condition moved up), saved and shown again after a reload; refused values beside
// their controls, an `in` list's element included; the limits shown and enforced; another
// user's finder not found; the builder from another origin at 390 px. axe scans each state;
// no page logs an error, breaks its CSP or reaches off this machine.
import { and, eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINDER_LIMITS } from '../../src/modules/finders/finders.schemas.ts';
import { finderIntegrationsTable } from '../../src/modules/finders/finders.table.ts';
import type { UserRow } from '../../src/modules/users/users.table.ts';
import { bearer, createUser, tokenFor } from '../factories/users.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import {
  expectAccessible,
  expectClean,
  expectFieldError,
  signIn,
  waitForNotFound,
} from './helpers/page-steps.ts';

let stage: DashboardStage;
let user: UserRow;
let token: string;
let workspaceId: number;
let setId: number;

const BROWSER_TEST_TIMEOUT = 120_000;

async function api<T>(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: unknown,
  as = token,
): Promise<{ status: number; body: T; text: string }> {
  const res = await stage.ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(as),
    payload: body as object,
  });
  return { status: res.statusCode, body: (res.body ? res.json() : undefined) as T, text: res.body };
}

async function ok<T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, as = token): Promise<T> {
  const res = await api<T>(method, url, body, as);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res.body;
}

interface FinderJson {
  id: number;
  advanced_refinements: { name: string; match: string; conditions: unknown[] }[];
}

const newFinder = (name: string) => ok<FinderJson>('POST', '/finders', { name, workspace_id: workspaceId });

const refinementsOf = async (finderId: number) =>
  (await ok<FinderJson>('GET', `/finders/${finderId}`)).advanced_refinements;

beforeAll(async () => {
  stage = await startDashboardStage();
  user = await createUser(stage.ctx.deps);
  token = await tokenFor(stage.ctx.deps, user);
  const [workspace] = await ok<{ id: number }[]>('GET', '/workspaces');
  workspaceId = workspace?.id as number;
  await ok('POST', '/tags', { name: 'Espresso', workspace_id: workspaceId });
  setId = (await ok<{ id: number }>('POST', '/sets', { name: 'Flagship stores', workspace_id: workspaceId }))
    .id;
  for (const definition of [
    { name: 'seats', label: 'Seats', type: 'number' },
    { name: 'wifi', label: 'Free Wi-Fi', type: 'boolean' },
    { name: 'payment', label: 'Payment', type: 'multiselect', options: ['Cash', 'Card'] },
  ])
    await ok('POST', '/custom-field-definitions', { ...definition, workspace_id: workspaceId });
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

/** Opens a select by its label (its button is named by its value, then its label) and picks. */
async function choose(scope: Locator, label: string, option: string) {
  await scope.getByRole('button', { name: new RegExp(` ${label}$`) }).click();
  const page = scope.page();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

const filter = (page: Page, n: number) => page.getByRole('group', { name: `Filter ${n}`, exact: true });
const condition = (page: Page, filterN: number, n: number) =>
  filter(page, filterN).getByRole('group', { name: `Condition ${n}`, exact: true });
/** The legend of the fieldset around the focused element, and the element's own name or text. */
const focused = (page: Page) =>
  page.evaluate(
    `(() => { const el = document.activeElement; return [el?.closest('fieldset')?.querySelector('legend')?.textContent, el?.tagName, el?.getAttribute('name') ?? el?.textContent]; })()`,
  ) as Promise<[string | undefined, string, string]>;

describe('provider keys', () => {
  it(
    'sets, replaces and removes a key; the key is never in the page nor in an answer',
    async () => {
      const finder = await newFinder('Keys');
      const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=keys`);
      const { page } = opened;
      const answers: Promise<string>[] = [];
      page.on('response', (response) => answers.push(response.text().catch(() => '')));

      const google = page.getByRole('region', { name: 'Google Places' });
      await google.getByText('No key.').waitFor();
      expect(await page.locator('main section').getByText('No key.').count()).toBe(5);
      await expectAccessible(page, 'finder-keys-none');

      // Refused by the service (a space), beside the field; nothing stored.
      const field = google.getByLabel('Google Places key', { exact: true });
      expect(await field.getAttribute('type')).toBe('password');
      await field.fill('has space');
      await google.getByRole('button', { name: 'Save the key' }).click();
      await expectFieldError(page, field, /printable ASCII characters without spaces/);
      await expectAccessible(page, 'finder-keys-refused');
      expect(await stage.ctx.deps.db.select().from(finderIntegrationsTable)).toEqual([]);

      const first = 'gk-first-SECRET-7f3a9c21';
      await field.fill(first);
      await google.getByRole('button', { name: 'Save the key' }).click();
      await google.getByRole('status').filter({ hasText: 'The Google Places key is saved.' }).waitFor();
      await google.getByText('Key set.').waitFor();
      const replaceField = google.getByLabel('New Google Places key', { exact: true });
      expect(await replaceField.inputValue()).toBe('');
      expect(await replaceField.getAttribute('aria-invalid')).toBeNull();
      const listed = await api<{ provider: string; has_api_key: boolean }[]>(
        'GET',
        `/finders/${finder.id}/integrations`,
      );
      expect(listed.body.find((entry) => entry.provider === 'google')).toEqual({
        provider: 'google',
        has_api_key: true,
      });
      expect(listed.body.filter((entry) => entry.has_api_key)).toHaveLength(1);
      const stored = async () =>
        (
          await stage.ctx.deps.db
            .select()
            .from(finderIntegrationsTable)
            .where(
              and(
                eq(finderIntegrationsTable.finderId, finder.id),
                eq(finderIntegrationsTable.provider, 'google'),
              ),
            )
        )[0];
      const sealed = (await stored())?.apiKeyEncrypted as string;
      expect(sealed).not.toContain(first);
      expect(stage.ctx.deps.secretBox.decrypt(sealed)).toBe(first);
      await expectAccessible(page, 'finder-keys-set');

      // Replaced: the new key is stored, the old one is gone.
      const second = 'gk-second-SECRET-0b1e55ed';
      await replaceField.fill(second);
      await google.getByRole('button', { name: 'Replace the key' }).click();
      await page.waitForResponse(
        (response) => response.url().endsWith('/integrations') && response.request().method() === 'GET',
      );
      await google.getByRole('status').filter({ hasText: 'The Google Places key is saved.' }).waitFor();
      expect(await replaceField.inputValue()).toBe('');
      expect(stage.ctx.deps.secretBox.decrypt((await stored())?.apiKeyEncrypted as string)).toBe(second);

      // Removing asks first; Cancel keeps the key.
      await google.getByRole('button', { name: 'Remove the key' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Remove the Google Places key?' });
      await dialog.getByText('stops using Google Places').waitFor();
      await expectAccessible(page, 'finder-keys-remove-confirm');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await stored()).toBeDefined();
      await google.getByRole('button', { name: 'Remove the key' }).click();
      await dialog.getByRole('button', { name: 'Remove the key' }).click();
      await google.getByRole('status').filter({ hasText: 'The Google Places key is removed.' }).waitFor();
      await google.getByText('No key.').waitFor();
      expect(await stored()).toBeUndefined();
      expect(
        (await api<{ has_api_key: boolean }[]>('GET', `/finders/${finder.id}/integrations`)).body.every(
          (entry) => !entry.has_api_key,
        ),
      ).toBe(true);
      await expectAccessible(page, 'finder-keys-removed');

      const bodies = await Promise.all(answers);
      expect(bodies.some((body) => body.includes('"has_api_key":true'))).toBe(true);
      for (const secret of [first, second]) {
        expect(bodies.filter((body) => body.includes(secret))).toEqual([]);
        expect(await page.content()).not.toContain(secret);
        expect((await api('GET', `/finders/${finder.id}`)).text).not.toContain(secret);
      }
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe('filters', () => {
  it(
    'builds two filters with conditions, saves them, and shows them again after a reload',
    async () => {
      const finder = await newFinder('Cafés');
      const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=filters`);
      const { page } = opened;
      await page.getByText('No filters yet.').waitFor();
      await page.getByText('0 of at most 50 filters.').waitFor();
      await expectAccessible(page, 'finder-filters-empty');

      // Filter 1 with the keyboard: the new filter's name takes the focus, then each new
      // condition's field.
      await page.getByRole('button', { name: 'Add a filter' }).focus();
      await page.keyboard.press('Enter');
      await filter(page, 1).waitFor();
      expect(await focused(page)).toEqual(['Filter 1', 'INPUT', 'advanced_refinements.0.name']);
      await page.keyboard.type('Open late espresso');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      await page.getByRole('option', { name: 'any condition' }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await filter(page, 1)
        .getByRole('button', { name: 'any condition A location passes when it meets' })
        .waitFor();
      await filter(page, 1).getByRole('button', { name: 'Add a condition' }).focus();
      await page.keyboard.press('Enter');
      await condition(page, 1, 1).waitFor();
      expect((await focused(page))[0]).toBe('Condition 1');
      // A new condition tests tags, and starts on the workspace's first tag.
      await condition(page, 1, 1).getByRole('button', { name: 'Espresso Value' }).waitFor();
      await filter(page, 1).getByRole('button', { name: 'Add a condition' }).click();
      await choose(condition(page, 1, 2), 'Field', 'Free Wi-Fi');
      // Yes or no offers no "one of" nor "contains".
      await condition(page, 1, 2)
        .getByRole('button', { name: / Test$/ })
        .click();
      expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual([
        'is',
        'is not',
        'has a value',
      ]);
      await page.keyboard.press('Escape');
      await condition(page, 1, 2).getByRole('button', { name: 'Yes Value' }).waitFor();

      // Filter 2 with the mouse: a number, a text that contains, categories "one of".
      await page.getByRole('button', { name: 'Add a filter' }).click();
      await filter(page, 2).getByLabel('Name shown to visitors').fill('Big cafés');
      await filter(page, 2).getByRole('button', { name: 'Add a condition' }).click();
      await choose(condition(page, 2, 1), 'Field', 'Seats');
      await condition(page, 2, 1).getByLabel('Value', { exact: true }).fill('40');
      await filter(page, 2).getByRole('button', { name: 'Add a condition' }).click();
      await choose(condition(page, 2, 2), 'Field', 'City');
      await choose(condition(page, 2, 2), 'Test', 'contains');
      await condition(page, 2, 2).getByLabel('Value', { exact: true }).fill('berl');
      await filter(page, 2).getByRole('button', { name: 'Add a condition' }).click();
      await choose(condition(page, 2, 3), 'Field', 'Categories');
      await choose(condition(page, 2, 3), 'Test', 'include one of');
      // React Aria's checkboxes are labels around a visually hidden input: pressed as a user does.
      await condition(page, 2, 3).locator('label.checkbox', { hasText: 'Flagship stores' }).click();
      expect(await condition(page, 2, 3).getByRole('checkbox', { name: 'Flagship stores' }).isChecked()).toBe(
        true,
      );
      // Moved up from the keyboard; the focus stays on the moved condition.
      await condition(page, 2, 3).getByRole('button', { name: 'Move up' }).focus();
      await page.keyboard.press('Enter');
      await condition(page, 2, 2).getByRole('checkbox', { name: 'Flagship stores' }).waitFor();
      expect(await focused(page)).toEqual(['Condition 2', 'BUTTON', 'Move up']);
      expect(await filter(page, 2).getByRole('button', { name: 'Move up' }).first().isDisabled()).toBe(true);
      await expectAccessible(page, 'finder-filters-built');

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const expected = [
        {
          name: 'Open late espresso',
          match: 'any',
          conditions: [
            { field: 'tag', op: 'eq', value: 'espresso' },
            { field: 'custom_field.wifi', op: 'eq', value: true },
          ],
        },
        {
          name: 'Big cafés',
          match: 'all',
          conditions: [
            { field: 'custom_field.seats', op: 'eq', value: 40 },
            { field: 'set', op: 'in', value: [setId] },
            { field: 'city', op: 'contains', value: 'berl' },
          ],
        },
      ];
      expect(await refinementsOf(finder.id)).toEqual(expected);

      await page.reload();
      await filter(page, 2).waitFor();
      expect(await filter(page, 1).getByLabel('Name shown to visitors').inputValue()).toBe(
        'Open late espresso',
      );
      await filter(page, 1)
        .getByRole('button', { name: 'any condition A location passes when it meets' })
        .waitFor();
      await condition(page, 1, 1).getByRole('button', { name: 'Tags Field' }).waitFor();
      await condition(page, 1, 1).getByRole('button', { name: 'include Test' }).waitFor();
      await condition(page, 1, 1).getByRole('button', { name: 'Espresso Value' }).waitFor();
      await condition(page, 1, 2).getByRole('button', { name: 'Yes Value' }).waitFor();
      expect(await filter(page, 2).getByLabel('Name shown to visitors').inputValue()).toBe('Big cafés');
      expect(await condition(page, 2, 1).getByLabel('Value', { exact: true }).inputValue()).toBe('40');
      expect(await condition(page, 2, 2).getByRole('checkbox', { name: 'Flagship stores' }).isChecked()).toBe(
        true,
      );
      await condition(page, 2, 3).getByRole('button', { name: 'contains Test' }).waitFor();
      expect(await condition(page, 2, 3).getByLabel('Value', { exact: true }).inputValue()).toBe('berl');
      await page.getByText('2 of at most 50 filters.').waitFor();
      await expectAccessible(page, 'finder-filters-reloaded');

      // Removing a condition and a filter, then saving, leaves the rest as it was.
      await condition(page, 2, 3).getByRole('button', { name: 'Remove' }).click();
      expect((await focused(page))[2]).toBe('Add a condition');
      await filter(page, 1).getByRole('button', { name: 'Remove this filter' }).click();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(await refinementsOf(finder.id)).toEqual([
        { ...expected[1], conditions: expected[1]?.conditions.slice(0, 2) },
      ]);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'shows each refused value beside its control, an element of a list included, and writes nothing',
    async () => {
      const finder = await newFinder('Refused');
      const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=filters`);
      const { page } = opened;
      await page.getByRole('button', { name: 'Add a filter' }).click();
      await filter(page, 1).getByLabel('Name shown to visitors').fill('Sunday');
      await filter(page, 1).getByRole('button', { name: 'Add a condition' }).click();
      await choose(condition(page, 1, 1), 'Field', 'City');
      const tooLong = 'x'.repeat(FINDER_LIMITS.conditionTextLength + 1);
      await condition(page, 1, 1).getByLabel('Value', { exact: true }).fill(tooLong);
      await page.getByRole('button', { name: 'Add a filter' }).click();
      await filter(page, 2).getByLabel('Name shown to visitors').fill('sunday');
      await filter(page, 2).getByRole('button', { name: 'Add a condition' }).click();
      await choose(condition(page, 2, 1), 'Field', 'City');
      await choose(condition(page, 2, 1), 'Test', 'is one of');
      await condition(page, 2, 1).getByLabel('Values, one per line').fill(`Berlin\n${tooLong}`);
      await filter(page, 2).getByRole('button', { name: 'Add a condition' }).click();
      await choose(condition(page, 2, 2), 'Field', 'Seats');

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expectFieldError(
        page,
        condition(page, 1, 1).getByLabel('Value', { exact: true }),
        /The value may not be greater than 255 characters/,
      );
      await expectFieldError(
        page,
        condition(page, 2, 1).getByLabel('Values, one per line'),
        /Value 2: The value may not be greater than 255 characters/,
      );
      await expectFieldError(
        page,
        condition(page, 2, 2).getByLabel('Value', { exact: true }),
        /non-empty string, a number or a boolean/,
      );
      // The others are not marked.
      expect(
        await filter(page, 1).getByLabel('Name shown to visitors').getAttribute('aria-invalid'),
      ).toBeNull();
      expect(
        await condition(page, 2, 2)
          .getByRole('button', { name: / Field$/ })
          .getAttribute('aria-invalid'),
      ).toBeNull();
      await page.getByRole('alert').filter({ hasText: 'Some fields need your attention.' }).waitFor();
      await expectAccessible(page, 'finder-filters-refused');
      expect(await refinementsOf(finder.id)).toEqual([]);

      // An edit takes its field's message away.
      const value = condition(page, 1, 1).getByLabel('Value', { exact: true });
      await value.fill('Hamburg');
      await expect.poll(() => value.getAttribute('aria-invalid')).toBeNull();
      await condition(page, 2, 1).getByLabel('Values, one per line').fill('Berlin\nPotsdam');
      await condition(page, 2, 2).getByLabel('Value', { exact: true }).fill('12');
      // The names are compared once every filter reads well: the same name, in another case.
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expectFieldError(
        page,
        filter(page, 2).getByLabel('Name shown to visitors'),
        /The name "sunday" is used by another refinement/,
      );
      expect(await refinementsOf(finder.id)).toEqual([]);
      await filter(page, 2).getByLabel('Name shown to visitors').fill('Saturday');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(await refinementsOf(finder.id)).toEqual([
        { name: 'Sunday', match: 'all', conditions: [{ field: 'city', op: 'eq', value: 'Hamburg' }] },
        {
          name: 'Saturday',
          match: 'all',
          conditions: [
            { field: 'city', op: 'in', value: ['Berlin', 'Potsdam'] },
            { field: 'custom_field.seats', op: 'eq', value: 12 },
          ],
        },
      ]);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'shows the limits, and adds nothing past them',
    async () => {
      const finder = await newFinder('Full');
      const many = Array.from({ length: FINDER_LIMITS.refinements }, (_, index) => ({
        name: `F${index + 1}`,
        match: 'all',
        conditions:
          index === 0
            ? Array.from({ length: FINDER_LIMITS.conditions }, () => ({
                field: 'city',
                op: 'eq',
                value: 'Berlin',
              }))
            : [],
      }));
      await ok('PUT', `/finders/${finder.id}`, { advanced_refinements: many });
      const opened = await stage.openSignedIn(token, `/app/finders/${finder.id}?tab=filters`);
      const { page } = opened;
      const add = page.getByRole('button', { name: 'Add a filter' });
      await add.waitFor();
      expect(await add.isDisabled()).toBe(true);
      // The sentence says why, and is what the button is described by.
      const full = `This finder has ${FINDER_LIMITS.refinements} filters, the most it can have. Remove one to add another.`;
      await page.getByText(full).waitFor();
      expect(await add.getAttribute('aria-describedby')).toBe('rules-limit');
      const addCondition = filter(page, 1).getByRole('button', { name: 'Add a condition' });
      expect(await addCondition.isDisabled()).toBe(true);
      await filter(page, 1)
        .getByText(`This filter has ${FINDER_LIMITS.conditions} conditions, the most it can have.`)
        .waitFor();
      expect(
        await filter(page, 1)
          .getByRole('group', { name: /^Condition/ })
          .count(),
      ).toBe(FINDER_LIMITS.conditions);
      expect(await filter(page, 2).getByRole('button', { name: 'Add a condition' }).isDisabled()).toBe(false);
      await expectAccessible(page, 'finder-filters-limits');

      await filter(page, FINDER_LIMITS.refinements)
        .getByRole('button', { name: 'Remove this filter' })
        .click();
      await page.getByText(`49 of at most ${FINDER_LIMITS.refinements} filters.`).waitFor();
      expect(await add.isDisabled()).toBe(false);
      // Removing the last filter puts the focus on the button that adds one.
      expect((await focused(page))[2]).toBe('Add a filter');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe('access and other origins', () => {
  it(
    "says not found for another user's finder, on both tabs",
    async () => {
      const theirs = await stage.othersFinder('Not yours');
      await ok(
        'PUT',
        `/finders/${theirs.finderId}/integrations/mapbox`,
        { api_key: 'their-key-123' },
        theirs.token,
      );
      for (const tab of ['filters', 'keys']) {
        const opened = await stage.openSignedIn(token, `/app/finders/${theirs.finderId}?tab=${tab}`);
        const { page } = opened;
        await waitForNotFound(page, 'Finder');
        expect(await page.getByText('Not yours').count()).toBe(0);
        expect(await page.getByRole('tab').count()).toBe(0);
        await expectAccessible(page, `finder-${tab}-not-found`);
        expectClean(opened);
        await opened.close();
      }
      expect((await api('GET', `/finders/${theirs.finderId}/integrations`)).status).toBe(404);
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'builds a filter and sets a key from another origin on a 390 px screen',
    async () => {
      const finder = await newFinder('Phone');
      const opened = await stage.open(`/app/finders/${finder.id}?tab=filters`, PHONE, stage.elsewhere);
      const { page } = opened;
      await signIn(page, user.email);
      await page.getByText('No filters yet.').waitFor();
      expect(new URL(page.url()).origin).toBe(stage.elsewhere);
      await page.getByRole('button', { name: 'Add a filter' }).click();
      await filter(page, 1).getByLabel('Name shown to visitors').fill('Card payments');
      await filter(page, 1).getByRole('button', { name: 'Add a condition' }).click();
      await choose(condition(page, 1, 1), 'Field', 'Payment');
      await choose(condition(page, 1, 1), 'Value', 'Card');
      await filter(page, 1).getByRole('button', { name: 'Add a condition' }).click();
      await choose(condition(page, 1, 2), 'Test', 'are not empty');
      expect(await condition(page, 1, 2).getByLabel(/Value/).count()).toBe(0);
      // Nothing is wider than the screen.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await expectAccessible(page, 'finder-filters-phone');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(await refinementsOf(finder.id)).toEqual([
        {
          name: 'Card payments',
          match: 'all',
          conditions: [
            { field: 'custom_field.payment', op: 'eq', value: 'Card' },
            { field: 'tag', op: 'exists', value: null },
          ],
        },
      ]);

      await page.getByRole('tab', { name: 'Address search' }).click();
      const mapbox = page.getByRole('region', { name: 'Mapbox' });
      await mapbox.getByLabel('Mapbox key', { exact: true }).fill('pk.phone-SECRET-42');
      await mapbox.getByRole('button', { name: 'Save the key' }).click();
      await mapbox.getByText('Key set.').waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await expectAccessible(page, 'finder-keys-phone');
      expect(await page.content()).not.toContain('pk.phone-SECRET-42');
      expect(
        (
          await ok<{ provider: string; has_api_key: boolean }[]>('GET', `/finders/${finder.id}/integrations`)
        ).find((entry) => entry.provider === 'mapbox')?.has_api_key,
      ).toBe(true);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});
