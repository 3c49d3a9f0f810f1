// The admin screen in Chromium against the real service: the header's admin link for admins
// only; users a page at a time, searched, edited (a bad email refused beside its field, the
// change written) and deleted after their email is typed out; a user deleted by someone else
// meanwhile (not found); the audit log with its filters (a date the service cannot read
// refused beside its field); the AI log, every workspace and every finder of every user; and a
// non-admin's visit answered with the service's refusal. axe scans each state; no page logs an
// error, breaks its CSP or reaches off this machine.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UserRow, usersTable } from '../../src/modules/users/users.table.ts';
import { workspacesTable } from '../../src/modules/workspaces/workspaces.table.ts';
import { bearer, createUser, tokenFor } from '../factories/users.ts';
import { firstWorkspaceId } from '../factories/workspaces.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible, expectClean, expectFieldError, signIn } from './helpers/page-steps.ts';

let stage: DashboardStage;
let admin: UserRow;
let adminToken: string;
let adminEmail: string;

beforeAll(async () => {
  stage = await startDashboardStage();
  admin = await createUser(stage.ctx.deps, { name: 'Ada Admin', role: 'admin' });
  adminEmail = admin.email;
  adminToken = await tokenFor(stage.ctx.deps, admin);
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

const BROWSER_TEST_TIMEOUT = 120_000;

const userRow = async (id: number) =>
  (await stage.ctx.deps.db.select().from(usersTable).where(eq(usersTable.id, id)))[0]!;

const userRowOf = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

async function search(page: Page, q: string) {
  await page.getByLabel('Name or email').fill(q);
  await page.getByRole('button', { name: 'Search users' }).click();
}

/** Picks an option of a select field (its button is named by the value shown, then the label). */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('button', { name: new RegExp(` ${label}$`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('users', () => {
  it(
    'pages through users, searches, edits one (a bad email refused beside its field) and deletes one after typing its email',
    async () => {
      const tag = `pager${Date.now()}`;
      // Written in one insert (with the admin's password hash): these never sign in, and
      // hashing 52 passwords would take most of a minute on a small machine.
      const { passwordHash } = await userRow(admin.id);
      await stage.ctx.deps.db.insert(usersTable).values(
        Array.from({ length: 52 }, (_, index) => ({
          name: `Paged ${index}`,
          email: `${tag}-${index}@example.test`,
          passwordHash,
          role: 'user' as const,
          subscriptionStatus: 'trialing' as const,
          subscriptionTier: 'free' as const,
        })),
      );
      const target = await createUser(stage.ctx.deps, { name: 'Tess Target' });
      const doomed = await createUser(stage.ctx.deps, { name: 'Dora Doomed' });

      const opened = await stage.openSignedIn(adminToken, '/app/locations');
      const { page } = opened;
      await page.getByRole('link', { name: 'Admin' }).click();
      await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/app/admin');
      await page.getByRole('tab', { name: 'Users', selected: true }).waitFor();
      await search(page, tag);
      await page.getByText('Showing 1–50 of 52').waitFor();
      expect(await page.getByRole('table', { name: 'Users' }).getByRole('row').count()).toBe(51);
      await expectAccessible(page, 'admin-users');
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.getByText('Showing 51–52 of 52').waitFor();
      expect(
        await page.getByRole('table', { name: 'Users' }).getByRole('rowheader').allTextContents(),
      ).toEqual(['Paged 50', 'Paged 51']);
      await expect.poll(() => page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);

      await search(page, 'Tess Target');
      const row = userRowOf(page, 'Tess Target');
      await page.getByText('Showing 1–1 of 1').waitFor();
      expect(await row.getByRole('cell').nth(1).textContent()).toBe('User');
      await row.getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Edit Tess Target' });
      await dialog.getByLabel('Email').fill('not an email');
      await choose(page, 'Role', 'Admin');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expectFieldError(page, dialog.getByLabel('Email'), /valid email/i);
      await expectAccessible(page, 'admin-user-edit-error');
      expect((await userRow(target.id)).role).toBe('user');
      await dialog.getByLabel('Email').fill(`tess-${Date.now()}@example.test`);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(async () => (await userRow(target.id)).role).toBe('admin');
      expect((await userRow(target.id)).email).toMatch(/^tess-\d+@example\.test$/);
      await expect.poll(() => row.getByRole('cell').nth(1).textContent()).toBe('Admin');

      await search(page, 'Dora Doomed');
      const doomedRow = userRowOf(page, 'Dora Doomed');
      await doomedRow.getByRole('button', { name: 'Delete user' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete Dora Doomed' });
      const deleteButton = confirm.getByRole('button', { name: 'Delete user' });
      expect(await deleteButton.isDisabled()).toBe(true);
      await confirm.getByLabel(`Type the email ${doomed.email} to confirm`).fill(doomed.email.toUpperCase());
      expect(await deleteButton.isDisabled()).toBe(true);
      await confirm.getByLabel(`Type the email ${doomed.email} to confirm`).fill(doomed.email);
      await expectAccessible(page, 'admin-user-delete');
      await deleteButton.click();
      await confirm.waitFor({ state: 'detached' });
      await page.getByText('No users match.').waitFor();
      expect((await userRow(doomed.id)).deletedAt).not.toBeNull();
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'says a user deleted meanwhile by someone else is not found, and changes nothing',
    async () => {
      const gone = await createUser(stage.ctx.deps, { name: 'Gina Gone' });
      const opened = await stage.openSignedIn(adminToken, '/app/admin?tab=users');
      const { page } = opened;
      await search(page, 'Gina Gone');
      await userRowOf(page, 'Gina Gone').getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Edit Gina Gone' });
      await dialog.getByLabel('Name').fill('Gina Renamed');
      const deleted = await stage.ctx.app.inject({
        method: 'DELETE',
        url: `/api/users/${gone.id}`,
        headers: bearer(adminToken),
      });
      expect(deleted.statusCode).toBe(200);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByRole('alert').getByText('User not found.').waitFor();
      await expectAccessible(page, 'admin-user-not-found');
      expect((await userRow(gone.id)).name).toBe('Gina Gone');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe('the audit log, the AI log, every workspace and finder', () => {
  it(
    'filters the audit log (a bad date refused beside its field) and lists every user’s AI drafts, workspaces and finders',
    async () => {
      const owner = await createUser(stage.ctx.deps, { name: 'Olga Owner' });
      const ownerToken = await tokenFor(stage.ctx.deps, owner);
      const workspaceId = await firstWorkspaceId(stage.ctx.deps, owner);
      const finder = await stage.ctx.app.inject({
        method: 'POST',
        url: '/api/finders',
        headers: bearer(ownerToken),
        payload: { workspace_id: workspaceId, name: 'Olga’s finder' },
      });
      expect(finder.statusCode).toBe(201);
      const drafted = await stage.ctx.app.inject({
        method: 'POST',
        url: '/api/ai-location-imports',
        headers: bearer(ownerToken),
        payload: {
          workspace_id: workspaceId,
          answers: {
            business_type: 'Book shops',
            approximate_location_count: '3-8',
            geographic_scope: 'Germany',
            customer_description: 'Readers',
            source_notes: 'Hartley’s, Hauptstraße 1, Berlin',
          },
        },
      });
      expect(drafted.statusCode).toBe(200);
      const batchId = drafted.json().batch.id as number;

      const opened = await stage.openSignedIn(adminToken, '/app/admin?tab=audit');
      const { page } = opened;
      await page.getByRole('tab', { name: 'Audit log', selected: true }).waitFor();
      await page.getByRole('table', { name: 'Audit log' }).waitFor();
      await choose(page, 'Method', 'POST');
      await page.getByLabel('User ID').fill(String(owner.id));
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('Showing 1–2 of 2').waitFor();
      const requests = await page.getByRole('table', { name: 'Audit log' }).locator('code').allTextContents();
      expect(requests.sort()).toEqual(['POST /api/ai-location-imports', 'POST /api/finders']);
      await expectAccessible(page, 'admin-audit');

      await page.getByLabel('From', { exact: true }).fill('yesterday');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expectFieldError(page, page.getByLabel('From', { exact: true }), /ISO 8601/);
      await page.getByLabel('From', { exact: true }).fill('2030-01-02');
      await page.getByLabel('Until (not included)').fill('2030-01-01');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expectFieldError(page, page.getByLabel('Until (not included)'), /after from/);
      await expectAccessible(page, 'admin-audit-bad-filter');
      await page.getByLabel('Until (not included)').fill('2030-02-01');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No entries match.').waitFor();

      await page.getByRole('tab', { name: 'AI log' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('ai-logs');
      const draft = page.getByRole('row', { name: new RegExp(`Draft #${batchId}\\b`) });
      await draft.waitFor();
      expect(await draft.getByRole('cell').first().textContent()).toContain(owner.email);
      await expectAccessible(page, 'admin-ai-logs');

      await page.getByRole('tab', { name: 'Workspaces' }).click();
      // Every user's workspace, by id: the newest (Olga's) is on the last page.
      const workspaces = await stage.ctx.deps.db.select({ id: workspacesTable.id }).from(workspacesTable);
      const lastPage = Math.floor((workspaces.length - 1) / 50);
      await page.getByText(`Showing 1–${Math.min(50, workspaces.length)} of ${workspaces.length}`).waitFor();
      for (let index = 0; index < lastPage; index += 1) {
        await page.getByRole('button', { name: 'Next page' }).click();
        await page.getByText(`Showing ${(index + 1) * 50 + 1}–`).waitFor();
      }
      await page.getByRole('rowheader', { name: "Olga Owner's workspace" }).waitFor();
      await page.getByRole('tab', { name: 'Finders' }).click();
      const finderRow = page
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'Olga’s finder' }) });
      await finderRow.waitFor();
      expect(await finderRow.getByRole('cell').allTextContents()).toContain(String(workspaceId));
      await expectAccessible(page, 'admin-finders');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe('who may', () => {
  it(
    'shows a non-admin the service’s refusal and no admin link',
    async () => {
      const user = await createUser(stage.ctx.deps);
      const opened = await stage.openSignedIn(await tokenFor(stage.ctx.deps, user), '/app/admin?tab=audit');
      const { page } = opened;
      await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
      await page
        .getByRole('alert')
        .getByText('You do not have permission to access this resource.')
        .waitFor();
      expect(await page.getByRole('tab').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await expectAccessible(page, 'admin-not-allowed');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'serves an admin on a phone from another origin, the users table scrolling within its region',
    async () => {
      const opened = await stage.open('/app/admin', PHONE, stage.elsewhere);
      const { page } = opened;
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await signIn(page, adminEmail);
      await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
      expect(new URL(page.url()).origin).toBe(stage.elsewhere);
      await userRowOf(page, 'Ada Admin').waitFor();
      await expectAccessible(page, 'admin-phone-elsewhere');
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});
