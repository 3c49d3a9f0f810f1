// The workspaces screen in Chromium against the real service: the caller's workspaces with
// their member counts and never another user's; create (a blank name refused beside its
// field), rename and delete (the name typed out first), each reflected in the workspace
// switcher; the plan's limit shown as an upgrade prompt; a member's rename refused as a
// sentence; and an admin's invitation, whose mailed link signs the invitee up into the
// workspace. axe scans each state; no page logs an error, breaks its CSP or reaches off this
// machine.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/modules/users/users.table.ts';
import { bearer, createUser, tokenFor } from '../factories/users.ts';
import { addMember, createWorkspace, firstWorkspaceId } from '../factories/workspaces.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type DashboardPage, type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible, expectClean, expectFieldError, signIn } from './helpers/page-steps.ts';

let stage: DashboardStage;

beforeAll(async () => {
  stage = await startDashboardStage();
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

/** A browser test runs many steps; several files at once on a small machine stretch them. */
const BROWSER_TEST_TIMEOUT = 60_000;

/** Signs the user in and opens the workspaces screen from the header. */
async function openWorkspaces(user: UserRow, options: BrowserContextOptions = {}): Promise<DashboardPage> {
  const opened = await stage.open('/app/sign-in', options);
  await signIn(opened.page, user.email);
  await opened.page.getByRole('heading', { name: 'Locations' }).waitFor();
  await opened.page.getByRole('link', { name: 'Workspaces' }).click();
  await opened.page.getByRole('heading', { name: 'Workspaces', level: 1 }).waitFor();
  return opened;
}

const item = (page: Page, name: string) =>
  page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });

/** The names the header's workspace switcher offers. */
async function switcherNames(page: Page): Promise<string[]> {
  await page
    .getByRole('button', { name: /Workspace/ })
    .first()
    .click();
  const options = page.getByRole('listbox').getByRole('option');
  await options.first().waitFor();
  const names = await options.allTextContents();
  await page.keyboard.press('Escape');
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  return names;
}

const workspacesOf = async (token: string) =>
  (
    (
      await stage.ctx.app.inject({ method: 'GET', url: '/api/workspaces', headers: bearer(token) })
    ).json() as { name: string }[]
  ).map((workspace) => workspace.name);

describe('the list, create, rename and delete', () => {
  it(
    'lists only the caller’s workspaces with their members, and keeps the switcher in step',
    async () => {
      const user = await createUser(stage.ctx.deps, {
        name: 'Bronze Owner',
        subscriptionTier: 'bronze',
        subscriptionStatus: 'active',
      });
      await addMember(
        stage.ctx.deps,
        await firstWorkspaceId(stage.ctx.deps, user),
        await createUser(stage.ctx.deps),
      );
      await createUser(stage.ctx.deps, { name: 'Stranger' });
      const token = await tokenFor(stage.ctx.deps, user);

      const opened = await openWorkspaces(user);
      const { page } = opened;
      const mine = item(page, "Bronze Owner's workspace");
      await mine.getByText('2 members').waitFor();
      expect(await page.getByRole('main').getByRole('listitem').count()).toBe(1);
      expect(await page.getByText('Stranger').count()).toBe(0);
      // Invitations are an admin's: a user is not offered them.
      expect(await page.getByRole('button', { name: 'Invite someone' }).count()).toBe(0);
      await expectAccessible(page, 'workspaces');

      // A blank name: refused by the service beside the field.
      const create = page.getByRole('form', { name: 'Create a workspace' });
      await create.getByLabel('Name').fill('   ');
      await create.getByRole('button', { name: 'Create a workspace' }).click();
      await expectFieldError(page, create.getByLabel('Name'), /name field is required/i);
      await expectAccessible(page, 'workspaces-create-blank');

      await create.getByLabel('Name').fill('Harbour shops');
      await create.getByRole('button', { name: 'Create a workspace' }).click();
      await page.getByRole('status').filter({ hasText: 'Workspace “Harbour shops” created.' }).waitFor();
      await item(page, 'Harbour shops').getByText('1 member').waitFor();
      expect(await create.getByLabel('Name').inputValue()).toBe('');
      expect(await switcherNames(page)).toContain('Harbour shops');

      // Rename, in its dialog.
      await item(page, 'Harbour shops').getByRole('button', { name: 'Rename' }).click();
      const rename = page.getByRole('alertdialog', { name: 'Rename “Harbour shops”' });
      await expectAccessible(page, 'workspaces-rename');
      await rename.getByLabel('Name', { exact: true }).fill('Harbour stores');
      await rename.getByRole('button', { name: 'Save' }).click();
      await rename.waitFor({ state: 'detached' });
      await item(page, 'Harbour stores').waitFor();
      expect(await switcherNames(page)).toContain('Harbour stores');
      expect(await workspacesOf(token)).toContain('Harbour stores');

      // Delete: the button waits for the name, typed exactly.
      await item(page, 'Harbour stores').getByRole('button', { name: 'Delete workspace' }).click();
      const remove = page.getByRole('alertdialog', { name: 'Delete “Harbour stores”?' });
      const confirm = remove.getByRole('button', { name: 'Delete workspace' });
      const typed = remove.getByLabel('Type the workspace’s name, Harbour stores, to confirm');
      expect(await confirm.isDisabled()).toBe(true);
      await typed.fill('harbour stores');
      expect(await confirm.isDisabled()).toBe(true);
      await expectAccessible(page, 'workspaces-delete-untyped');
      await typed.fill('Harbour stores');
      expect(await confirm.isDisabled()).toBe(false);
      await confirm.click();
      await remove.waitFor({ state: 'detached' });
      await item(page, 'Harbour stores').waitFor({ state: 'detached' });
      expect(await switcherNames(page)).not.toContain('Harbour stores');
      expect(await workspacesOf(token)).not.toContain('Harbour stores');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'shows the plan’s limit as a prompt to upgrade, with a link to billing',
    async () => {
      // A free plan allows one workspace of one's own, which the account already has.
      const user = await createUser(stage.ctx.deps);
      const opened = await openWorkspaces(user, PHONE);
      const { page } = opened;
      const create = page.getByRole('form', { name: 'Create a workspace' });
      await create.getByLabel('Name').fill('Second');
      await create.getByRole('button', { name: 'Create a workspace' }).click();
      const prompt = page
        .getByRole('alert')
        .filter({ hasText: 'Your plan allows no more workspaces of your own.' });
      await prompt.waitFor();
      expect(
        await prompt.getByRole('link', { name: 'Upgrade your plan to create more' }).getAttribute('href'),
      ).toBe('/app/billing');
      expect(await page.getByRole('main').getByRole('listitem').count()).toBe(1);
      await expectAccessible(page, 'workspaces-plan-limit');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'shows a member’s refused rename as the service’s sentence',
    async () => {
      const owner = await createUser(stage.ctx.deps, { name: 'Owner' });
      const workspaceId = await createWorkspace(stage.ctx.deps, owner, 'Owned elsewhere');
      const member = await createUser(stage.ctx.deps);
      await addMember(stage.ctx.deps, workspaceId, member);
      const opened = await openWorkspaces(member);
      const { page } = opened;
      await item(page, 'Owned elsewhere').getByRole('button', { name: 'Rename' }).click();
      const rename = page.getByRole('alertdialog');
      await rename.getByLabel('Name', { exact: true }).fill('Taken over');
      await rename.getByRole('button', { name: 'Save' }).click();
      await rename
        .getByRole('alert')
        .filter({ hasText: 'Only an owner of the workspace may do this.' })
        .waitFor();
      await expectAccessible(page, 'workspaces-rename-refused');
      await rename.getByRole('button', { name: 'Cancel' }).click();
      await item(page, 'Owned elsewhere').waitFor();
      expect(await workspacesOf(await tokenFor(stage.ctx.deps, owner))).toContain('Owned elsewhere');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

/** The link of the newest invitation mailed to the address (no SMTP_URL: DATA_DIR/mail/*.eml). */
async function mailedLink(email: string): Promise<string> {
  const dir = path.join(stage.ctx.config.dataDir, 'mail');
  for (const file of (await readdir(dir)).sort().reverse()) {
    const mail = await simpleParser(await readFile(path.join(dir, file)));
    const to = Array.isArray(mail.to) ? mail.to : [mail.to];
    if (!to.some((address) => address?.value.some((entry) => entry.address === email))) continue;
    const link = mail.text?.match(/https?:\/\/\S+\/register\/[A-Za-z0-9_-]+/)?.[0];
    if (link) return link;
  }
  throw new Error(`no invitation mailed to ${email}`);
}

describe('invitations', () => {
  it(
    'an admin invites someone from the workspace’s dialog; an address with an account is refused',
    async () => {
      const admin = await createUser(stage.ctx.deps, { name: 'Ada Admin', role: 'admin' });
      const taken = await createUser(stage.ctx.deps);
      const opened = await openWorkspaces(admin);
      const { page } = opened;
      await item(page, "Ada Admin's workspace").getByRole('button', { name: 'Invite someone' }).click();
      const dialog = page.getByRole('alertdialog', { name: /Invite someone to/ });

      await dialog.getByLabel('Their email').fill(taken.email);
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await expectFieldError(page, dialog.getByLabel('Their email'), /already has an account/);
      await expectAccessible(page, 'workspaces-invite-refused');

      const email = `grace-${Date.now()}@example.test`;
      await dialog.getByLabel('Their email').fill(email);
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await dialog
        .getByRole('status')
        .filter({ hasText: `Invitation sent to ${email}.` })
        .waitFor();
      expect(await dialog.getByLabel('Their email').inputValue()).toBe('');
      await expectAccessible(page, 'workspaces-invite-sent');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      // The mail went out, with the registration link of this service.
      expect(new URL(await mailedLink(email)).origin).toBe(stage.origin);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'the mailed link signs the invitee up into the workspace, and says so once it is spent',
    async () => {
      const admin = await createUser(stage.ctx.deps, { name: 'Bea Admin', role: 'admin' });
      const adminToken = await tokenFor(stage.ctx.deps, admin);
      const workspaceId = await firstWorkspaceId(stage.ctx.deps, admin);
      const email = `hopper-${Date.now()}@example.test`;
      const sent = await stage.ctx.app.inject({
        method: 'POST',
        url: '/api/invite/send',
        headers: bearer(adminToken),
        payload: { email, workspace_id: workspaceId },
      });
      expect(sent.statusCode).toBe(201);

      // The mail carries {APP_URL}/app/register/{token}, the dashboard's page: opened as it is.
      const link = new URL(await mailedLink(email));
      expect(link.origin).toBe(stage.origin);
      expect(link.pathname).toMatch(/^\/app\/register\/[A-Za-z0-9_-]+$/);
      const opened = await stage.open(link.pathname, PHONE);
      const { page } = opened;
      await page.getByRole('heading', { name: "Join Bea Admin's workspace" }).waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe(email);
      await expectAccessible(page, 'invite-sign-up');

      await page.getByLabel('Your name').fill('Grace Invited');
      await page.getByLabel('Password', { exact: true }).fill('a long enough password');
      await page.getByLabel('Password again').fill('another password');
      await page.getByRole('button', { name: 'Create account and join' }).click();
      await expectFieldError(
        page,
        page.getByLabel('Password', { exact: true }),
        /confirmation does not match/,
      );
      await expectAccessible(page, 'invite-sign-up-errors');

      await page.getByLabel('Password again').fill('a long enough password');
      await page.getByRole('button', { name: 'Create account and join' }).click();
      await page.getByRole('heading', { name: 'Locations' }).waitFor();
      // The switcher shows the invitation's workspace: the new account has none of its own.
      await page.getByRole('button', { name: /Bea Admin's workspace/ }).waitFor();
      const detail = await stage.ctx.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}`,
        headers: bearer(adminToken),
      });
      expect(detail.json().members_count).toBe(2);

      await page.goto(`${stage.origin}${link.pathname}`);
      await page.getByRole('alert').filter({ hasText: 'Invite not found or expired.' }).waitFor();
      await expectAccessible(page, 'invite-used');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});
