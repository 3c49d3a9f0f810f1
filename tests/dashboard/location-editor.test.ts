import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, tokenFor } from '../factories/users.ts';
import { solidPng } from '../fakes/png.ts';
import { type ApiMethod, type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import {
  expectAccessible,
  expectSuggestionsAccessible,
  pickFirstSuggestion,
  suggest,
  waitForNotFound,
} from './helpers/page-steps.ts';

let stage: DashboardStage;
let token: string;
let workspaceId: number;

const api = <T>(method: ApiMethod, url: string, body?: unknown, as = token) =>
  stage.api<T>(as, method, url, body);

beforeAll(async () => {
  stage = await startDashboardStage();
  const user = await createUser(stage.ctx.deps);
  token = await tokenFor(stage.ctx.deps, user);
  const [workspace] = await api<{ id: number }[]>('GET', '/workspaces');
  workspaceId = workspace?.id as number;
  await api('POST', '/tags', { name: 'Espresso', workspace_id: workspaceId });
  await api('POST', '/sets', { name: 'Flagship stores', workspace_id: workspaceId });
  await api('POST', '/custom-field-definitions', {
    name: 'seats',
    label: 'Seats',
    type: 'number',
    workspace_id: workspaceId,
  });
  await api('POST', '/custom-field-definitions', {
    name: 'wifi',
    label: 'Free Wi-Fi',
    type: 'boolean',
    workspace_id: workspaceId,
  });
  await api('POST', '/custom-field-definitions', {
    name: 'payment',
    label: 'Payment',
    type: 'multiselect',
    options: ['Cash', 'Card'],
    workspace_id: workspaceId,
  });
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

interface LocationJson {
  id: number;
  title: string;
  city: string | null;
  lat: number | null;
  tags: { name: string }[];
  sets: { name: string }[];
  custom_fields: Record<string, unknown>;
  image_url: string | null;
}

describe('the location editor', () => {
  it('creates a location with tags, a category and custom fields; the 422 shows beside its field', async () => {
    const opened = await stage.openSignedIn(token, `/app/locations?workspace=${workspaceId}`);
    const { page } = opened;
    const tagsLoaded = page.waitForResponse((response) => response.url().includes('/api/tags?'));
    await page.getByRole('link', { name: 'Add a location' }).click();
    await page.getByRole('heading', { name: 'New location' }).waitFor();
    await tagsLoaded;
    await expectAccessible(page, 'location-new');

    await page.getByLabel('Name').fill('Corner Coffee');
    await page.getByLabel('City').fill('Berlin');
    await page.getByLabel('Latitude').fill('200');
    await page.getByLabel('Longitude').fill('13.405');
    // A tag picked from the suggestions, and a new one typed.
    const tagInput = page.getByRole('combobox', { name: 'Add a tag' });
    await tagInput.pressSequentially('esp');
    await page.getByRole('option', { name: 'Espresso' }).waitFor();
    await expectSuggestionsAccessible(page, 'location-tag-suggestions');
    // Typed again from an empty box, as a user would if the suggestions closed meanwhile.
    await tagInput.fill('');
    await tagInput.pressSequentially('esp');
    // Picked with the keyboard: the highlighted suggestion, not the letters typed.
    await page.getByRole('option', { name: 'Espresso' }).waitFor();
    if ((await tagInput.getAttribute('aria-expanded')) !== 'true') await tagInput.press('ArrowDown');
    await tagInput.press('ArrowDown');
    await tagInput.press('Enter');
    await page.getByRole('row', { name: 'Espresso' }).waitFor();
    expect(await page.getByRole('row', { name: 'esp', exact: true }).count()).toBe(0);
    await tagInput.pressSequentially('Oat milk');
    await tagInput.press('Enter');
    await page.getByRole('row', { name: 'Oat milk' }).waitFor();
    // React Aria's checkboxes are labels around a visually hidden input: pressed as a user does.
    for (const name of ['Flagship stores', 'Free Wi-Fi', 'Card']) {
      await page.locator('label.checkbox', { hasText: name }).click();
      expect(await page.getByRole('checkbox', { name }).isChecked()).toBe(true);
    }
    await page.getByLabel('Seats').fill('24');
    await page.getByRole('button', { name: 'Save' }).click();

    const latitude = page.getByLabel('Latitude');
    await expect.poll(() => latitude.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'location-new-error');
    await latitude.fill('52.52');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Corner Coffee' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/app\/locations\/\d+$/);
    // The new address's editor says so too.
    await page.getByRole('status').getByText('Saved.').waitFor();

    const id = Number(new URL(page.url()).pathname.split('/').at(-1));
    const saved = await api<LocationJson>('GET', `/locations/${id}`);
    expect(saved.lat).toBe(52.52);
    expect(saved.tags.map((tag) => tag.name)).toEqual(['Espresso', 'Oat milk']);
    expect(saved.sets.map((set) => set.name)).toEqual(['Flagship stores']);
    expect(saved.custom_fields).toEqual({ seats: 24, wifi: true, payment: ['Card'] });

    // Saved again: the form stays, says so, and shows what was stored.
    await page.getByLabel('City').fill('  Potsdam ');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await api<LocationJson>('GET', `/locations/${id}`)).city).toBe('Potsdam');
    await expect.poll(() => page.getByLabel('City').inputValue()).toBe('Potsdam');
    expect(await page.getByRole('status').getByText('Saved.').count()).toBe(1);
    expect(opened.problems).toEqual([]);
    await opened.close();
  }, 60_000);

  it('picks a tag again once its chip is removed, and drops a refused tag’s error when the tags change', async () => {
    const location = await api<LocationJson>('POST', '/locations', {
      workspace_id: workspaceId,
      title: 'Tag Corner',
    });
    const opened = await stage.openSignedIn(token, `/app/locations/${location.id}`);
    const { page } = opened;
    await page.getByRole('heading', { name: 'Tag Corner' }).waitFor();
    const tagInput = page.getByRole('combobox', { name: 'Add a tag' });
    const pickEspresso = async () => {
      await suggest(tagInput, 'esp', page.getByRole('option', { name: 'Espresso' }));
      await tagInput.press('ArrowDown');
      await tagInput.press('Enter');
    };
    const chip = page.getByRole('row', { name: 'Espresso' });
    // The first suggestion (Espresso, by name) picked from the list opened with nothing typed.
    expect(await pickFirstSuggestion(tagInput)).toBe('Espresso');
    await chip.waitFor();
    await page.getByRole('button', { name: 'Remove the tag Espresso' }).click();
    await expect.poll(() => chip.count()).toBe(0);
    // The same suggestion picked again with the keyboard is a chip again at once, and the box
    // is empty for the next one.
    await pickEspresso();
    await chip.waitFor();
    expect(await tagInput.inputValue()).toBe('');

    // A tag the service refuses (over 80 characters): its message stays beside the picker
    // until the tags change, then goes, as a named field's does once edited.
    const long = 'L'.repeat(81);
    await tagInput.fill(long);
    await tagInput.press('Enter');
    await page.getByRole('row', { name: long }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    const message = page.getByText('A tag may not be greater than 80 characters.');
    await message.waitFor();
    expect(await tagInput.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'location-tag-refused');
    await page.getByRole('button', { name: `Remove the tag ${long}` }).click();
    await expect.poll(() => message.count()).toBe(0);
    expect(await tagInput.getAttribute('aria-invalid')).not.toBe('true');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    const saved = await api<LocationJson>('GET', `/locations/${location.id}`);
    expect(saved.tags.map((tag) => tag.name)).toEqual(['Espresso']);
    expect(opened.problems).toEqual([]);
    await opened.close();
  }, 60_000);

  it('uploads an image with its preview, and refuses one over 5 MB before sending it', async () => {
    const location = await api<LocationJson>('POST', '/locations', {
      workspace_id: workspaceId,
      title: 'Harbour Tea',
    });
    const opened = await stage.openSignedIn(token, `/app/locations/${location.id}`);
    const { page } = opened;
    await page.getByRole('heading', { name: 'Harbour Tea' }).waitFor();
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/image')) uploads.push(request.method());
    });

    const big = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose an image' }).click();
    await (await big).setFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(6 * 1024 * 1024, 1),
    });
    await page.getByText('This image is 6 MB; the limit is 5 MB.').waitFor();
    expect(uploads).toEqual([]);

    const small = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose an image' }).click();
    await (await small).setFiles({
      name: 'shop.png',
      mimeType: 'image/png',
      buffer: solidPng(64, 48, [20, 90, 160]),
    });
    const preview = page.getByRole('img', { name: 'Image of Harbour Tea' });
    await preview.waitFor();
    await expect
      .poll(() => preview.evaluate((image: { naturalWidth: number }) => image.naturalWidth))
      .toBe(64);
    expect(uploads).toEqual(['POST']);
    expect((await api<LocationJson>('GET', `/locations/${location.id}`)).image_url).toMatch(/\.png$/);
    await expectAccessible(page, 'location-image');
    expect(opened.problems).toEqual([]);
    await opened.close();
  }, 60_000);

  it('deletes a location after confirmation', async () => {
    const location = await api<LocationJson>('POST', '/locations', {
      workspace_id: workspaceId,
      title: 'Closing Down',
    });
    const opened = await stage.openSignedIn(token, `/app/locations/${location.id}`);
    const { page } = opened;
    await page.getByRole('button', { name: 'Delete this location' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Delete “Closing Down”?').waitFor();
    await expectAccessible(page, 'location-delete-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(
      (
        await stage.ctx.app.inject({
          method: 'GET',
          url: `/api/locations/${location.id}`,
          headers: bearer(token),
        })
      ).statusCode,
    ).toBe(200);

    await page.getByRole('button', { name: 'Delete this location' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete this location' }).click();
    await page.getByRole('heading', { name: 'Locations' }).waitFor();
    const gone = await stage.ctx.app.inject({
      method: 'GET',
      url: `/api/locations/${location.id}`,
      headers: bearer(token),
    });
    expect(gone.statusCode).toBe(404);
    expect(opened.problems).toEqual([]);
    await opened.close();
  }, 60_000);

  it('says not found for another user’s location, with no map of it', async () => {
    const other = await stage.otherUser();
    // Placed, so a leak would draw its map.
    const theirs = await api<LocationJson>(
      'POST',
      '/locations',
      { workspace_id: other.workspaceId, title: 'Not yours', lat: 48.1, lng: 11.5 },
      other.token,
    );
    const opened = await stage.openSignedIn(token, `/app/locations/${theirs.id}`);
    const { page } = opened;
    await waitForNotFound(page, 'Location');
    expect(await page.getByRole('group', { name: /Map/ }).count()).toBe(0);
    expect(await page.getByText('Not yours').count()).toBe(0);
    await expectAccessible(page, 'location-not-found');
    expect(opened.problems).toEqual([]);
    await opened.close();
  }, 60_000);
});
