import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, tokenFor } from '../factories/users.ts';
import { type ApiMethod, type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible } from './helpers/page-steps.ts';

let stage: DashboardStage;
let token: string;
let workspaceId: number;

const api = <T>(method: ApiMethod, url: string, body?: unknown) => stage.api<T>(token, method, url, body);

beforeAll(async () => {
  stage = await startDashboardStage();
  token = await tokenFor(stage.ctx.deps, await createUser(stage.ctx.deps));
  workspaceId = (await api<{ id: number }[]>('GET', '/workspaces'))[0]?.id as number;
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

const fieldOrder = async () =>
  (await api<{ name: string }[]>('GET', `/custom-field-definitions?workspace_id=${workspaceId}`)).map(
    (f) => f.name,
  );

describe('tags and categories', () => {
  it('adds, renames and deletes a tag; a taken name is shown beside the field', async () => {
    const opened = await stage.openSignedIn(token, `/app/organize?workspace=${workspaceId}`);
    const { page } = opened;
    await page.getByText('No tags yet.').waitFor();
    await expectAccessible(page, 'organize-tags-empty');
    const form = page.getByRole('form', { name: 'Add a tag' });
    await form.getByLabel('Tag name').fill('Espresso');
    await form.getByRole('button', { name: 'Add a tag' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Espresso' }).waitFor();

    await form.getByLabel('Tag name').fill('espresso');
    await form.getByRole('button', { name: 'Add a tag' }).click();
    await expect.poll(() => form.getByLabel('Tag name').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'organize-tags-taken');

    await page.getByRole('button', { name: 'Rename Espresso' }).click();
    const rename = page.getByRole('form', { name: 'Rename Espresso' });
    await rename.getByLabel('Tag name').fill('Filter coffee');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Filter coffee' }).waitFor();
    expect(
      (await api<{ name: string }[]>('GET', `/tags?workspace_id=${workspaceId}`)).map((tag) => tag.name),
    ).toEqual(['Filter coffee']);

    await page
      .getByRole('listitem')
      .filter({ hasText: 'Filter coffee' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No tags yet.').waitFor();
    expect(await api<unknown[]>('GET', `/tags?workspace_id=${workspaceId}`)).toEqual([]);
    expect(opened.problems).toEqual([]);
    await opened.close();
  }, 60_000);

  it('adds a category', async () => {
    const opened = await stage.openSignedIn(token, `/app/organize?workspace=${workspaceId}&tab=categories`);
    const { page } = opened;
    await page.getByText('No categories yet.').waitFor();
    await page.getByLabel('Category name').fill('Flagship stores');
    await page.getByRole('button', { name: 'Add a category' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Flagship stores' }).waitFor();
    await expectAccessible(page, 'organize-categories');
    expect(
      (await api<{ name: string }[]>('GET', `/sets?workspace_id=${workspaceId}`)).map((set) => set.name),
    ).toEqual(['Flagship stores']);
    expect(opened.problems).toEqual([]);
    await opened.close();
  });
});

describe('custom fields', () => {
  it('adds a field with options, and reorders with the buttons and by keyboard drag and drop', async () => {
    for (const name of ['seats', 'wifi']) {
      await api('POST', '/custom-field-definitions', {
        name,
        label: name.toUpperCase(),
        type: 'text',
        workspace_id: workspaceId,
      });
    }
    const opened = await stage.openSignedIn(token, `/app/organize?workspace=${workspaceId}&tab=fields`);
    const { page } = opened;
    await page.getByRole('row', { name: 'SEATS' }).waitFor();

    await page.getByLabel('Label').fill('Payment');
    await page.getByLabel('Name (CSV column)').fill('payment');
    await page.getByRole('button', { name: /Type$/ }).click();
    await page.getByRole('option', { name: 'Several of a list' }).click();
    await page.getByLabel('Options').fill('Cash, Card');
    await page.getByRole('button', { name: 'Add a custom field' }).click();
    await page.getByRole('row', { name: 'Payment' }).waitFor();
    await expectAccessible(page, 'organize-fields');
    expect(await fieldOrder()).toEqual(['seats', 'wifi', 'payment']);
    const payment = (
      await api<{ name: string; options: string[] }[]>(
        'GET',
        `/custom-field-definitions?workspace_id=${workspaceId}`,
      )
    ).at(-1);
    expect(payment?.options).toEqual(['Cash', 'Card']);

    await page.getByRole('button', { name: 'Move Payment up' }).click();
    await expect.poll(fieldOrder).toEqual(['seats', 'payment', 'wifi']);

    // Keyboard drag and drop: Enter on the handle starts, arrows walk the drop places (the two
    // beside the row itself first, which leave it where it is), Enter drops.
    await page.getByRole('button', { name: 'Drag SEATS to reorder' }).focus();
    await page.keyboard.press('Enter');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(fieldOrder).toEqual(['payment', 'seats', 'wifi']);
    await expect
      .poll(() => page.getByRole('row').allTextContents())
      .toEqual([
        expect.stringContaining('Payment'),
        expect.stringContaining('SEATS'),
        expect.stringContaining('WIFI'),
      ]);
    expect(opened.problems).toEqual([]);
    await opened.close();
  }, 60_000);
});
