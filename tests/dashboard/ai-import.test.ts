// The AI import screens in Chromium against the real service, with a real worker consuming the
// drafting job (pg-boss on the test file's database) and the `openai` model talking to the fake
// OpenAI server: the answers form (its limits shown, bad answers refused beside their fields),
// drafting followed live from the process's event stream (and by polling every 2 s when the
// stream cannot be had), the review (an edit refused beside its field, then saved; approve,
// reject, approve all valid), an item's drafted opening hours edited with the location editor's
// controls (each error beside its control, the item's own, the page's check and the service's
// 422), the import writing the locations, discard after a confirmation,
// another user's import as not found, a long draft drawing only the rows in view, at a phone's
// width and from another origin. axe scans each state; no page logs an error, breaks its CSP or
// reaches off this machine.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_FIELDS, MAX_DRAFTED_LOCATIONS } from '../../src/dashboard/ai-import/answer-fields.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { registerJobs } from '../../src/job-handlers.ts';
import type { UserRow } from '../../src/modules/users/users.table.ts';
import { wireLocation } from '../factories/ai-answers.ts';
import { bearer, createUser, tokenFor } from '../factories/users.ts';
import { firstWorkspaceId } from '../factories/workspaces.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../fakes/openai.ts';
import { DESKTOP, PHONE } from '../widget/helpers/browser.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { intervalGroup, setDayState, setInterval, shownWeek } from './helpers/hours-steps.ts';
import { expectAccessible, expectClean, expectFieldError, signIn } from './helpers/page-steps.ts';

let stage: DashboardStage;
let worker: Deps;
let fake: FakeOpenAi;
let owner: UserRow;
let ownerToken: string;
let workspaceId: number;

/** A browser test runs many steps; several files at once on a small machine stretch them. */
const BROWSER_TEST_TIMEOUT = 120_000;
/** pg-boss picks the job up within its polling interval; a busy machine stretches it. */
const DRAFTED_WITHIN = 45_000;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  stage = await startDashboardStage({
    env: { OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: 'gpt-test-mini' },
  });
  worker = await createDeps(stage.ctx.config, { databaseUrl: stage.ctx.database.url, role: 'worker' });
  await registerJobs(worker);
  owner = await createUser(stage.ctx.deps);
  ownerToken = await tokenFor(stage.ctx.deps, owner);
  workspaceId = await firstWorkspaceId(stage.ctx.deps, owner);
}, 180_000);

afterAll(async () => {
  // A test that failed while the model was held would leave the worker's job waiting.
  fake?.release();
  await worker?.close();
  await stage?.close();
  await fake?.close();
});

const DRAFT = [
  wireLocation({
    name: 'Corner Books Berlin',
    address: 'Karl-Marx-Allee 100',
    city: 'Berlin',
    zip: '10243',
    country: 'Germany',
    phone: '+49 30 1234567',
    website: 'https://corner.example/berlin',
    lat: 52.5186,
    lng: 13.4283,
  }),
  wireLocation({
    name: 'Corner Books London',
    address: '10 Downing Street',
    city: 'London',
    zip: 'SW1A 2AA',
    country: 'United Kingdom',
    phone: '+44 20 7925 0918',
    lat: 51.5034,
    lng: -0.1276,
  }),
  wireLocation({
    address: '5 Nowhere Lane',
    city: 'Atlantis',
    zip: '12345',
    country: 'Germany',
    lat: 52.1,
    lng: 13.1,
  }),
  wireLocation({
    name: 'Corner Books Closed',
    address: '1 Old Road',
    city: 'Springfield',
    phone: '555-0100',
    lat: 39.8,
    lng: -89.6,
  }),
];

const answers = {
  business_type: 'Book shops',
  approximate_location_count: '3-5',
  geographic_scope: 'Germany and the UK',
  customer_description: 'Readers looking for a shop nearby',
  source_notes: 'Corner Books: Karl-Marx-Allee 100 Berlin; 10 Downing Street London; ...',
};

const api = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token = ownerToken,
  payload?: object,
) =>
  stage.ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(token),
    ...(payload ? { payload } : {}),
  });

/** A batch started through the API, as the form starts one. */
async function startBatch(token = ownerToken, workspace = workspaceId): Promise<number> {
  const started = await api('POST', '/ai-location-imports', token, { workspace_id: workspace, answers });
  expect(started.statusCode, started.body).toBe(200);
  return started.json().batch.id;
}

const batchOf = async (id: number, token = ownerToken) =>
  (await api('GET', `/ai-location-imports/${id}`, token)).json();

/** The review table's row of one item, by a text it shows. */
const itemRow = (page: Page, text: string | RegExp) =>
  page.getByRole('region', { name: 'Drafted locations' }).getByRole('row').filter({ hasText: text });

const reviewButton = (row: Locator, name: string) => row.getByRole('button', { name, exact: true });

it('keeps the dashboard’s answers and their limits equal to the service’s', async () => {
  const document = (await stage.ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const answersSchema = document.components.schemas.CreateAiImportBatchInput.properties.answers;
  type Property = { maxLength?: number; anyOf?: { maxLength?: number }[] };
  const maxLength = (property: Property) =>
    property.maxLength ?? property.anyOf?.find((branch) => branch.maxLength !== undefined)?.maxLength;
  const properties = answersSchema.properties as Record<string, Property>;
  expect(Object.keys(properties).sort()).toEqual(ANSWER_FIELDS.map((field) => field.name).sort());
  for (const field of ANSWER_FIELDS) expect(maxLength(properties[field.name]!), field.name).toBe(field.max);
  expect([...answersSchema.required].sort()).toEqual(
    ANSWER_FIELDS.filter((field) => field.required)
      .map((field) => field.name)
      .sort(),
  );
  expect(MAX_DRAFTED_LOCATIONS).toBe(500);
});

it(
  'starts an import from the answers, follows the drafting live, reviews, edits and imports the items',
  async () => {
    fake.setBehaviour({ kind: 'held', answer: { kind: 'locations', locations: DRAFT } });
    const opened = await stage.openSignedIn(ownerToken, `/app/ai-imports?workspace=${workspaceId}`);
    const { page } = opened;
    const streams: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/processes\/\d+\/stream/.test(request.url())) streams.push(request.url());
    });
    await page.getByText('No AI imports in this workspace yet.').waitFor();
    await expectAccessible(page, 'ai-imports-empty');

    // The answers form: every answer with its limit; bad answers refused beside their fields.
    await page.getByRole('link', { name: 'New AI import' }).click();
    await page.getByRole('heading', { name: 'New AI import', level: 1 }).waitFor();
    await page.getByText(/Required, at most 4,000 characters\./).waitFor();
    await page.getByText(/Optional, at most 160 characters\./).waitFor();
    await page.getByLabel('Business type').fill('   ');
    await page.getByLabel('How many locations, roughly').fill('about ten');
    await page.getByLabel('Where they are').fill(answers.geographic_scope);
    await page.getByLabel('Who looks for them').fill(answers.customer_description);
    await page.getByLabel('Your notes with the locations').fill(answers.source_notes);
    await page.getByRole('button', { name: 'Draft the locations' }).click();
    await expectFieldError(page, page.getByLabel('Business type'), /business type field is required/);
    await expectFieldError(page, page.getByLabel('How many locations, roughly'), /must be a number/);
    await expectAccessible(page, 'ai-import-answers-errors');
    expect((await api('GET', `/ai-location-imports?workspace_id=${workspaceId}`)).json()).toEqual([]);

    await page.getByLabel('Business type').fill(answers.business_type);
    await page.getByLabel('How many locations, roughly').fill('600');
    await page.getByRole('button', { name: 'Draft the locations' }).click();
    await expectFieldError(page, page.getByLabel('How many locations, roughly'), /greater than 500/);
    await page.getByLabel('How many locations, roughly').fill(answers.approximate_location_count);
    await page.getByRole('button', { name: 'Draft the locations' }).click();

    // Drafting, live: the model answers only once released, so the page shows the step the stream sent.
    await page.waitForURL(/\/app\/ai-imports\/\d+$/);
    const batchId = Number(new URL(page.url()).pathname.split('/').at(-1));
    await page.getByRole('heading', { name: 'Drafting' }).waitFor();
    await page.getByText('Asking gpt-test-mini for a draft.').waitFor({ timeout: DRAFTED_WITHIN });
    expect(
      await page.getByRole('progressbar', { name: 'Drafting progress' }).getAttribute('aria-valuenow'),
    ).toBe('10');
    await expectAccessible(page, 'ai-import-drafting');
    expect(streams.length).toBeGreaterThan(0);
    fake.release();

    // The review: confidence, warnings and errors per item.
    await itemRow(page, 'Corner Books Berlin').waitFor({ timeout: DRAFTED_WITHIN });
    await page.getByRole('heading', { name: 'Review' }).waitFor();
    const nameless = itemRow(page, '5 Nowhere Lane');
    await nameless.getByText('Error: The name field is required.').waitFor();
    await nameless.getByText('Low', { exact: true }).waitFor();
    expect(await reviewButton(nameless, 'Approve').isDisabled()).toBe(true);
    await itemRow(page, 'Corner Books Closed')
      .getByText(/Warning: No zip or country/)
      .waitFor();
    await itemRow(page, 'Corner Books Berlin').getByText('High', { exact: true }).waitFor();
    await expectAccessible(page, 'ai-import-review');

    // Edit in place: the item's own error beside its field, a bad edit's 422 beside its field.
    await reviewButton(nameless, 'Edit').click();
    const editor = page.getByRole('form', { name: 'Edit (no name)' });
    await expectFieldError(page, editor.getByLabel('Name'), /name field is required/);
    await editor.getByLabel('Name').fill('Corner Books Atlantis');
    await editor.getByLabel('Latitude').fill('200');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expectFieldError(page, editor.getByLabel('Latitude'), /lat must be between -90 and 90/);
    await expectAccessible(page, 'ai-import-edit-error');
    expect((await batchOf(batchId)).items[2].user_payload).toBeNull();
    await editor.getByLabel('Latitude').fill('52.2');
    await editor.getByLabel('Tags').fill('Flagship, Café');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    await itemRow(page, 'Corner Books Atlantis').getByText('Edited by you').waitFor();
    const edited = (await batchOf(batchId)).items[2];
    expect(edited.user_payload).toMatchObject({
      name: 'Corner Books Atlantis',
      lat: 52.2,
      tags: ['Flagship', 'Café'],
    });
    expect(edited.validation_errors).toEqual([]);

    // Reject one, approve one, then approve all the valid ones left.
    await reviewButton(itemRow(page, 'Corner Books Closed'), 'Reject').click();
    await itemRow(page, 'Corner Books Closed').getByText('Rejected', { exact: true }).waitFor();
    await reviewButton(itemRow(page, 'Corner Books Berlin'), 'Approve').click();
    await itemRow(page, 'Corner Books Berlin').getByText('Approved', { exact: true }).waitFor();
    expect((await batchOf(batchId)).items.map((item: { status: string }) => item.status)).toEqual([
      'approved',
      'pending_review',
      'pending_review',
      'rejected',
    ]);
    await page.getByRole('button', { name: 'Approve all valid (2)' }).click();
    await page.getByRole('button', { name: 'Approve all valid (0)' }).waitFor();
    const reviewed = await batchOf(batchId);
    expect(reviewed.items.map((item: { status: string }) => item.status)).toEqual([
      'approved',
      'approved',
      'approved',
      'rejected',
    ]);
    expect(reviewed).toMatchObject({ approved_items: 3, rejected_items: 1 });

    // Import: the result on the page, the locations written.
    await page.getByRole('button', { name: 'Import 3 locations' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor();
    await page.getByText('3 locations imported, 0 failed.').waitFor();
    await expectAccessible(page, 'ai-import-imported');
    const locations = await api('GET', `/locations?workspace_id=${workspaceId}`);
    expect(
      locations
        .json()
        .map((location: { title: string }) => location.title)
        .sort(),
    ).toEqual(['Corner Books Atlantis', 'Corner Books Berlin', 'Corner Books London']);
    expect((await batchOf(batchId)).status).toBe('imported');

    // The address is the page: a reload shows the same result.
    await page.reload();
    await page.getByText('3 locations imported, 0 failed.').waitFor();
    await itemRow(page, 'Corner Books Atlantis').getByRole('link', { name: 'Open the location' }).waitFor();
    expectClean(opened);
    await opened.close();
  },
  BROWSER_TEST_TIMEOUT,
);

it(
  'lists the imports and discards one after a confirmation, at a phone’s width',
  async () => {
    fake.setBehaviour({ kind: 'locations', locations: DRAFT.slice(0, 2) });
    const batchId = await startBatch();
    const opened = await stage.openSignedIn(ownerToken, `/app/ai-imports?workspace=${workspaceId}`, PHONE);
    const { page } = opened;
    await page.getByRole('link', { name: `AI import #${batchId}: Book shops` }).waitFor();
    await expectAccessible(page, 'ai-imports-list-phone');
    await page.getByRole('link', { name: `AI import #${batchId}: Book shops` }).click();
    await itemRow(page, 'Corner Books London').waitFor({ timeout: DRAFTED_WITHIN });
    await expectAccessible(page, 'ai-import-review-phone');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

    await page.getByRole('button', { name: 'Discard', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Discard this AI import?' });
    await dialog.waitFor();
    await expectAccessible(page, 'ai-import-discard-confirm');
    await dialog.getByRole('button', { name: 'Discard the import' }).click();
    await page.getByRole('heading', { name: 'AI import', level: 1 }).waitFor();
    await page.waitForURL(/\/app\/ai-imports\?workspace=\d+$/);
    await expect.poll(async () => (await api('GET', `/ai-location-imports/${batchId}`)).statusCode).toBe(404);
    await page
      .getByRole('link', { name: /AI import #\d+: Book shops/ })
      .first()
      .waitFor();
    expect(await page.getByRole('link', { name: `AI import #${batchId}: Book shops` }).count()).toBe(0);
    expectClean(opened);
    await opened.close();
  },
  BROWSER_TEST_TIMEOUT,
);

it(
  'shows another user’s import as not found',
  async () => {
    fake.setBehaviour({ kind: 'locations', locations: DRAFT.slice(0, 1) });
    const batchId = await startBatch();
    const other = await createUser(stage.ctx.deps);
    const opened = await stage.openSignedIn(
      await tokenFor(stage.ctx.deps, other),
      `/app/ai-imports/${batchId}`,
    );
    const { page } = opened;
    await page.getByRole('alert').getByText('AI import batch not found.').waitFor();
    expect(await page.getByRole('region', { name: 'Drafted locations' }).count()).toBe(0);
    await expectAccessible(page, 'ai-import-not-found');
    await page.goto(`${stage.origin}/app/ai-imports/nonsense`);
    await page.getByRole('alert').getByText('This was not found, or you have no access to it.').waitFor();
    expectClean(opened);
    await opened.close();
  },
  BROWSER_TEST_TIMEOUT,
);

it(
  'follows the drafting by asking every 2 s when the stream cannot be had, from another origin',
  async () => {
    fake.setBehaviour({ kind: 'held', answer: { kind: 'locations', locations: DRAFT.slice(1, 2) } });
    const batchId = await startBatch();
    const opened = await stage.open(`/app/ai-imports/${batchId}`, {}, stage.elsewhere);
    const { page } = opened;
    // A server without the stream (an older one, a proxy that strips it) answers 404 there.
    await page.route(/\/api\/processes\/\d+\/stream/, (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: '{"message":"Not found.","code":"not_found"}',
      }),
    );
    const polls: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/processes\/\d+$/.test(new URL(request.url()).pathname)) polls.push(request.url());
    });
    await signIn(page, owner.email);
    await page.getByRole('heading', { name: 'Drafting' }).waitFor();
    expect(new URL(page.url()).origin).toBe(stage.elsewhere);
    await expectAccessible(page, 'ai-import-drafting-elsewhere');
    fake.release();
    await itemRow(page, 'Corner Books London').waitFor({ timeout: DRAFTED_WITHIN });
    expect(polls.length).toBeGreaterThan(0);
    await expectAccessible(page, 'ai-import-review-elsewhere');
    expectClean(opened);
    await opened.close();
  },
  BROWSER_TEST_TIMEOUT,
);

it(
  'draws only the review rows in view for a long draft, scrolls to the last, and keeps an edit scrolled out of view',
  async () => {
    const many = Array.from({ length: 300 }, (_, index) =>
      wireLocation({
        name: `Shop ${index + 1}`,
        address: `${index + 1} Long Street`,
        city: 'Berlin',
        zip: '10115',
        country: 'Germany',
        lat: 52.5,
        lng: 13.4,
      }),
    );
    fake.setBehaviour({ kind: 'locations', locations: many });
    const batchId = await startBatch();
    const opened = await stage.openSignedIn(ownerToken, `/app/ai-imports/${batchId}`);
    const { page } = opened;
    await itemRow(page, 'Shop 1').first().waitFor({ timeout: DRAFTED_WITHIN });
    const table = page.getByRole('region', { name: 'Drafted locations' }).getByRole('table');
    expect(await table.getAttribute('aria-rowcount')).toBe('301');
    const drawn = await table.locator('tbody tr[aria-rowindex]').count();
    expect(drawn).toBeGreaterThan(3);
    expect(drawn).toBeLessThan(60);
    await reviewButton(itemRow(page, 'Shop 1').first(), 'Edit').click();
    const editor = page.getByRole('form', { name: 'Edit Shop 1' });
    await editor.getByLabel('City').fill('Potsdam');
    const scroller = page.getByRole('region', { name: 'Drafted locations' });
    await scroller.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await itemRow(page, 'Shop 300').waitFor();
    expect(await table.locator('tbody tr[aria-rowindex]').count()).toBeLessThan(60);
    // The editor's row counts: 300 items, the header and the editor.
    expect(await table.getAttribute('aria-rowcount')).toBe('302');
    expect(await itemRow(page, 'Shop 300').getAttribute('aria-rowindex')).toBe('302');
    // The open editor is still drawn, out of view, and holds what was typed, unsaved.
    expect(await editor.getByLabel('City').inputValue()).toBe('Potsdam');
    await scroller.evaluate((element) => {
      element.scrollTop = 0;
    });
    await editor.getByLabel('City').waitFor();
    expect(await editor.getByLabel('City').inputValue()).toBe('Potsdam');
    // Saved with Enter while scrolled away: the row comes back into view and its Edit button
    // has the focus again.
    await editor.getByLabel('City').focus();
    await scroller.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await page.keyboard.press('Enter');
    const edit = reviewButton(itemRow(page, 'Shop 1').first(), 'Edit');
    await expect
      .poll(() => edit.evaluate((button) => button.ownerDocument.activeElement === button), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await itemRow(page, 'Shop 1').first().textContent()).toContain('Potsdam');
    await expectAccessible(page, 'ai-import-review-long-editing');
    expectClean(opened);
    await opened.close();
  },
  BROWSER_TEST_TIMEOUT,
);

const WEEKDAYS_OPEN = ['09:00-18:00'];
const HOURS_DRAFT = [
  wireLocation({
    name: 'Corner Books Paris',
    address: '1 Rue de Rivoli',
    city: 'Paris',
    zip: '75001',
    country: 'France',
    phone: '+33 1 23 45 67 89',
    lat: 48.8566,
    lng: 2.3522,
    time_zone: 'Europe/Paris',
    hours: {
      mon: WEEKDAYS_OPEN,
      tue: WEEKDAYS_OPEN,
      wed: WEEKDAYS_OPEN,
      thu: WEEKDAYS_OPEN,
      fri: WEEKDAYS_OPEN,
      sat: ['10:00-14:00'],
      sun: [],
    },
    special_hours: [{ date: '2026-12-24', end_date: null, hours: ['09:00-13:00'], label: 'Christmas Eve' }],
  }),
  // The model's hours overlap: the item's own validation error, at hours.mon.1.
  wireLocation({
    name: 'Corner Books Lyon',
    address: '2 Place Bellecour',
    city: 'Lyon',
    zip: '69002',
    country: 'France',
    phone: '+33 4 12 34 56 78',
    lat: 45.7578,
    lng: 4.832,
    time_zone: 'Europe/Paris',
    hours: { mon: ['09:00-13:00', '12:00-18:00'] },
  }),
];

it(
  'edits an item’s drafted opening hours, each error beside its control, at a phone’s and a desktop’s width',
  async () => {
    fake.setBehaviour({ kind: 'locations', locations: HOURS_DRAFT });
    const batchId = await startBatch();
    await expect.poll(async () => (await batchOf(batchId)).items.length, { timeout: DRAFTED_WITHIN }).toBe(2);
    const drafted = (await batchOf(batchId)).items;
    expect(drafted[1].validation_errors).toEqual([
      { field: 'hours.mon.1', message: expect.stringMatching(/may not overlap/) },
    ]);

    // The item's own error, beside the interval it names, at a phone's width.
    const phone = await stage.openSignedIn(ownerToken, `/app/ai-imports/${batchId}`, PHONE);
    await itemRow(phone.page, 'Corner Books Lyon').waitFor({ timeout: DRAFTED_WITHIN });
    await reviewButton(itemRow(phone.page, 'Corner Books Lyon'), 'Edit').click();
    const lyon = phone.page.getByRole('form', { name: 'Edit Corner Books Lyon' });
    await expectFieldError(
      phone.page,
      intervalGroup(lyon, 'Monday', 2).getByLabel('Opens'),
      /may not overlap/,
    );
    expect(
      await intervalGroup(lyon, 'Monday', 1).getByLabel('Opens').getAttribute('aria-invalid'),
    ).toBeNull();
    await expectAccessible(phone.page, 'ai-import-hours-item-error-phone');
    expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expectClean(phone);
    await phone.close();

    const opened = await stage.openSignedIn(ownerToken, `/app/ai-imports/${batchId}`, DESKTOP);
    const { page } = opened;
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.url());
    });
    await itemRow(page, 'Corner Books Paris').waitFor({ timeout: DRAFTED_WITHIN });
    expect(await reviewButton(itemRow(page, 'Corner Books Lyon'), 'Approve').isDisabled()).toBe(true);

    // The drafted hours, as the location editor shows a location's.
    await reviewButton(itemRow(page, 'Corner Books Paris'), 'Edit').click();
    const editor = page.getByRole('form', { name: 'Edit Corner Books Paris' });
    await editor.getByRole('heading', { name: 'Opening hours', level: 3 }).waitFor();
    expect(await editor.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('Europe/Paris');
    expect(await shownWeek(editor)).toEqual({
      Monday: 'Open 09:00-18:00',
      Tuesday: 'Open 09:00-18:00',
      Wednesday: 'Open 09:00-18:00',
      Thursday: 'Open 09:00-18:00',
      Friday: 'Open 09:00-18:00',
      Saturday: 'Open 10:00-14:00',
      Sunday: 'Closed',
    });
    const eve = editor.getByRole('group', { name: 'Special day 1', exact: true });
    expect(await eve.getByLabel('Date').inputValue()).toBe('2026-12-24');
    expect(await eve.getByLabel('Label (optional)').inputValue()).toBe('Christmas Eve');
    expect(await intervalGroup(eve, 'Special day 1', 1).getByLabel('Closes').inputValue()).toBe('13:00');
    await expectAccessible(page, 'ai-import-hours-editor');

    // A day changed: an overlapping interval is caught before sending, beside that interval.
    await setInterval(editor, 'Monday', 1, '10:00', '19:00');
    await editor.getByRole('button', { name: 'Add hours to Monday' }).click();
    await setInterval(editor, 'Monday', 2, '18:00', '20:00');
    await setDayState(page, editor, 'Saturday', 'Closed');
    await editor.getByRole('button', { name: 'Save' }).click();
    const second = intervalGroup(editor, 'Monday', 2);
    await expectFieldError(page, second.getByLabel('Opens'), /may not overlap/);
    await expectFieldError(page, second.getByLabel('Closes'), /may not overlap/);
    expect(
      await intervalGroup(editor, 'Monday', 1).getByLabel('Opens').getAttribute('aria-invalid'),
    ).toBeNull();
    expect(patches).toEqual([]);
    await expectAccessible(page, 'ai-import-hours-overlap');
    await second.getByLabel('Opens').fill('19:30');
    await expect.poll(() => second.getByLabel('Opens').getAttribute('aria-invalid')).toBeNull();

    // The service's 422 paths (payload.hours.mon.1, payload.special_hours.0.date) reach the same
    // controls: the body is altered on its way, so the service, not the page, refuses it.
    await page.route(/\/api\/ai-location-imports\/\d+\/items\/\d+$/, async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}');
      body.payload.hours.mon = ['10:00-19:00', '18:00-20:00'];
      body.payload.special_hours[0].date = '2026-02-30';
      await route.continue({ postData: JSON.stringify(body) });
    });
    await editor.getByRole('button', { name: 'Save' }).click();
    await expectFieldError(page, second.getByLabel('Opens'), /may not overlap/);
    await expectFieldError(page, eve.getByLabel('Date'), /date must be a date written YYYY-MM-DD/);
    expect(patches).toHaveLength(1);
    await expectAccessible(page, 'ai-import-hours-service-errors');
    await page.unrouteAll();
    expect((await batchOf(batchId)).items[0].user_payload).toBeNull();

    // Saved: the item holds what the form showed.
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    const paris = (await batchOf(batchId)).items[0];
    expect(paris.user_payload).toMatchObject({
      time_zone: 'Europe/Paris',
      hours: {
        mon: ['10:00-19:00', '19:30-20:00'],
        tue: WEEKDAYS_OPEN,
        wed: WEEKDAYS_OPEN,
        thu: WEEKDAYS_OPEN,
        fri: WEEKDAYS_OPEN,
        sat: [],
        sun: [],
      },
      special_hours: [{ date: '2026-12-24', end_date: null, hours: ['09:00-13:00'], label: 'Christmas Eve' }],
    });
    expect(paris.validation_errors).toEqual([]);
    await reviewButton(itemRow(page, 'Corner Books Paris'), 'Edit').click();
    expect((await shownWeek(editor)).Monday).toBe('Open 10:00-19:00 19:30-20:00');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await editor.waitFor({ state: 'detached' });

    // The item's own error goes once its interval is fixed and saved; the item can be approved.
    await reviewButton(itemRow(page, 'Corner Books Lyon'), 'Edit').click();
    const lyonEditor = page.getByRole('form', { name: 'Edit Corner Books Lyon' });
    const overlapping = intervalGroup(lyonEditor, 'Monday', 2);
    await expectFieldError(page, overlapping.getByLabel('Opens'), /may not overlap/);
    await overlapping.getByLabel('Opens').fill('13:00');
    await lyonEditor.getByRole('button', { name: 'Save' }).click();
    await lyonEditor.waitFor({ state: 'detached' });
    const fixed = (await batchOf(batchId)).items[1];
    expect(fixed.user_payload.hours).toEqual({ mon: ['09:00-13:00', '13:00-18:00'] });
    expect(fixed.validation_errors).toEqual([]);
    expect(await reviewButton(itemRow(page, 'Corner Books Lyon'), 'Approve').isDisabled()).toBe(false);
    expectClean(opened);
    await opened.close();
  },
  BROWSER_TEST_TIMEOUT,
);
