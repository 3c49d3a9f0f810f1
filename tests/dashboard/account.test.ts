// The account screen in Chromium against the real service: the profile (a name changed, a
// taken email and a missing current password beside their fields), the password (a wrong
// current password beside its field, then a change that signs out the other devices), the
// second factor (an authenticator app set up from the page's key, a wrong code refused, ten
// recovery codes downloaded, then signing in again with a code; codes by email, new recovery
// codes and the app turned off), the devices (another one signed out: its token answers 401)
// and deleting the account (the button waits for the typed sentence; afterwards every token
// of the account answers 401). axe scans each state; no page logs an error, breaks its CSP or
// reaches off this machine. Some run at a phone's width (390 px).
import { readFile } from 'node:fs/promises';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/lib/totp.ts';
import type { UserRow } from '../../src/modules/users/users.table.ts';
import { bearer, createUser, DEFAULT_PASSWORD, tokenFor } from '../factories/users.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type DashboardPage, type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import {
  expectAccessible,
  expectClean,
  expectFieldError,
  SESSION_KEY,
  signIn,
  storedToken,
} from './helpers/page-steps.ts';

let stage: DashboardStage;

beforeAll(async () => {
  stage = await startDashboardStage();
}, 180_000);

afterAll(async () => {
  await stage?.close();
});

/** A browser test runs many steps; several files at once on a small machine stretch them. */
const BROWSER_TEST_TIMEOUT = 60_000;
const RECOVERY_CODE = /^[a-z0-9]{5}-[a-z0-9]{5}$/;

/** The account screen, on a session of its own (tokenFor's: another device to the service). */
async function openAccount(user: UserRow, options: BrowserContextOptions = {}): Promise<DashboardPage> {
  const opened = await stage.openSignedIn(await tokenFor(stage.ctx.deps, user), '/app/account', options);
  await opened.page.getByRole('heading', { name: 'Your account' }).waitFor();
  return opened;
}

/**
 * Signs the user in through the form and opens the account screen from the header: the page's
 * session is then the browser's own, named by its user agent among the devices.
 */
async function signInToAccount(user: UserRow, options: BrowserContextOptions = {}): Promise<DashboardPage> {
  const opened = await stage.open('/app/sign-in', options);
  await signIn(opened.page, user.email);
  await opened.page.getByRole('heading', { name: 'Locations' }).waitFor();
  await opened.page.getByRole('link', { name: 'Account' }).click();
  await opened.page.getByRole('heading', { name: 'Your account' }).waitFor();
  return opened;
}

async function openTab(page: Page, name: string, search: string) {
  await page.getByRole('tab', { name }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe(search);
}

const me = async (token: string) =>
  stage.ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });

describe('profile', () => {
  it(
    'changes the name, and shows a taken email and a missing password beside their fields',
    async () => {
      const user = await createUser(stage.ctx.deps);
      const other = await createUser(stage.ctx.deps);
      const opened = await openAccount(user);
      const { page } = opened;
      expect(await page.getByRole('tab', { name: 'Profile' }).getAttribute('aria-selected')).toBe('true');
      await expectAccessible(page, 'account-profile');

      const form = page.getByRole('form', { name: 'Name and email' });
      await form.getByLabel('Name').fill('Grace Renamed');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect((await me(await storedToken(page))).json().name).toBe('Grace Renamed');

      // Another account's address, with the right password: the service refuses it on `email`.
      await form.getByLabel('Email').fill(other.email.toUpperCase());
      await form.getByLabel('Current password').fill(DEFAULT_PASSWORD);
      await form.getByRole('button', { name: 'Save' }).click();
      await expectFieldError(page, form.getByLabel('Email'), /already been taken/);
      await page.getByRole('alert').filter({ hasText: 'Some fields need your attention.' }).waitFor();
      await expectAccessible(page, 'account-profile-email-taken');

      // A free address without the current password: asked for beside the password field.
      await form.getByLabel('Email').fill(`renamed-${user.id}@example.test`);
      await form.getByLabel('Current password').fill('');
      await form.getByRole('button', { name: 'Save' }).click();
      await expectFieldError(page, form.getByLabel('Current password'), /current password is required/);
      expect((await me(await storedToken(page))).json().email).toBe(user.email);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe('password', () => {
  it(
    'names a wrong current password beside its field; the right one signs out other devices',
    async () => {
      const user = await createUser(stage.ctx.deps);
      const elsewhere = await tokenFor(stage.ctx.deps, user);
      const opened = await openAccount(user, PHONE);
      const { page } = opened;
      const form = page.getByRole('form', { name: 'Password' });
      await form.getByLabel('Current password').fill('not my password');
      await form.getByLabel('New password', { exact: true }).fill('a brand new password');
      await form.getByLabel('New password again').fill('a brand new password');
      await form.getByRole('button', { name: 'Change password' }).click();
      await expectFieldError(page, form.getByLabel('Current password'), /current password is incorrect/);
      await expectAccessible(page, 'account-password-wrong');
      expect((await me(elsewhere)).statusCode).toBe(200);

      await form.getByLabel('Current password').fill(DEFAULT_PASSWORD);
      await form.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
      // The form is emptied, the other device is signed out, this one is not.
      expect(await form.getByLabel('New password', { exact: true }).inputValue()).toBe('');
      expect((await me(elsewhere)).statusCode).toBe(401);
      expect((await me(await storedToken(page))).statusCode).toBe(200);
      const login = await stage.ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: 'a brand new password' },
      });
      expect(login.statusCode).toBe(200);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe('second factor', () => {
  it(
    'sets up an authenticator app, downloads ten recovery codes, and signs in again with a code',
    async () => {
      const user = await createUser(stage.ctx.deps);
      const opened = await openAccount(user, PHONE);
      const { page } = opened;
      await openTab(page, 'Second factor', 'security');
      await page.getByText('Off. With an authenticator app').waitFor();
      await expectAccessible(page, 'account-second-factor-off');

      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const qr = page.getByRole('img', { name: 'QR code holding the key for your authenticator app' });
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
      // The image really drew (the page's policy admits data: images).
      await expect
        .poll(() => page.evaluate(`document.querySelector('img.qr-code').naturalWidth`))
        .toBeGreaterThan(0);
      const secret = ((await page.locator('.secret').textContent()) ?? '').replace(/\s+/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expectAccessible(page, 'account-totp-setup');

      await page.getByLabel('Code from the app').fill('000000');
      await page.getByRole('button', { name: 'Turn on', exact: true }).click();
      await expectFieldError(page, page.getByLabel('Code from the app'), /The code is invalid/);
      await expectAccessible(page, 'account-totp-wrong-code');

      await page.getByLabel('Code from the app').fill(totpCode(secret));
      await page.getByRole('button', { name: 'Turn on', exact: true }).click();
      await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
      const shown = await page.locator('.recovery-codes li').allTextContents();
      expect(shown).toHaveLength(10);
      for (const code of shown) expect(code).toMatch(RECOVERY_CODE);
      await expectAccessible(page, 'account-recovery-codes');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('store-locator-recovery-codes.txt');
      const file = await readFile(await download.path(), 'utf8');
      const inFile = file.split('\n').filter((line) => RECOVERY_CODE.test(line));
      expect(inFile).toEqual(shown);
      expect(file).toContain(user.email);

      await page.getByRole('button', { name: 'I have saved them' }).click();
      await page.getByText('On: signing in asks for a code from your authenticator app.').waitFor();
      expect((await me(await storedToken(page))).json().two_factor).toEqual({
        totp_enabled: true,
        email_enabled: false,
      });

      // Signed out and in again: the second step takes a code of the next step (the one used to
      // confirm is spent).
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await signIn(page, user.email);
      await page.getByRole('heading', { name: 'Second step' }).waitFor();
      await page.getByLabel('Code').fill(totpCode(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('heading', { name: 'Locations' }).waitFor();
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'turns codes by email on, makes new recovery codes, and turns the app off after confirming',
    async () => {
      const user = await createUser(stage.ctx.deps);
      const token = await tokenFor(stage.ctx.deps, user);
      const setup = await stage.ctx.app.inject({
        method: 'POST',
        url: '/api/me/2fa/totp/setup',
        headers: bearer(token),
      });
      const { secret } = setup.json() as { secret: string };
      const confirmed = await stage.ctx.app.inject({
        method: 'POST',
        url: '/api/me/2fa/totp/confirm',
        headers: bearer(token),
        payload: { code: totpCode(secret) },
      });
      const firstCodes = (confirmed.json() as { recovery_codes: string[] }).recovery_codes;

      const opened = await stage.open('/app/account?tab=security');
      const { page } = opened;
      await signIn(page, user.email);
      await page.getByLabel('Code').fill(firstCodes[0]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      // Back where the link pointed, on its tab.
      await page.getByRole('heading', { name: 'Authenticator app' }).waitFor();
      await page.getByText('On: signing in asks for a code from your authenticator app.').waitFor();
      await expectAccessible(page, 'account-second-factor-on');

      await page.getByRole('button', { name: 'Turn on codes by email' }).click();
      await page.getByText(`On: signing in sends a code to ${user.email}.`).waitFor();

      await page.getByRole('button', { name: 'Make new recovery codes' }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText('Your current recovery codes will stop working.').waitFor();
      await expectAccessible(page, 'account-recovery-renew-confirm');
      await dialog.getByRole('button', { name: 'Make new recovery codes' }).click();
      await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
      const renewed = await page.locator('.recovery-codes li').allTextContents();
      expect(renewed).toHaveLength(10);
      expect(renewed).not.toContain(firstCodes[1]);
      await page.getByRole('button', { name: 'I have saved them' }).click();

      await page.getByRole('button', { name: 'Turn off the authenticator app' }).click();
      await page
        .getByRole('alertdialog')
        .getByRole('button', { name: 'Turn off the authenticator app' })
        .click();
      await page.getByText('Off. With an authenticator app').waitFor();
      expect((await me(await storedToken(page))).json().two_factor).toEqual({
        totp_enabled: false,
        email_enabled: true,
      });
      await expectAccessible(page, 'account-second-factor-email-only');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe('devices', () => {
  it(
    'lists the sessions with this one marked, and signs out another: its token answers 401',
    async () => {
      const user = await createUser(stage.ctx.deps);
      const other = await tokenFor(stage.ctx.deps, user);
      const opened = await signInToAccount(user);
      const { page } = opened;
      await openTab(page, 'Devices', 'sessions');
      const items = page.getByRole('main').getByRole('listitem');
      await items.nth(1).waitFor();
      expect(await items.count()).toBe(2);
      // Case counts: each other device's button says “Sign out this device”.
      const current = items.filter({ hasText: /This device/ });
      expect(await current.count()).toBe(1);
      expect(await current.getByRole('button').count()).toBe(0);
      const vitest = items.filter({ hasText: 'vitest' });
      expect(await vitest.textContent()).toContain('127.0.0.1');
      await expectAccessible(page, 'account-devices');

      await vitest.getByRole('button', { name: 'Sign out this device' }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText('Sign out vitest? It must sign in again.').waitFor();
      await expectAccessible(page, 'account-devices-confirm');
      await dialog.getByRole('button', { name: 'Sign out this device' }).click();
      await vitest.waitFor({ state: 'detached' });
      expect(await items.count()).toBe(1);
      expect((await me(other)).statusCode).toBe(401);
      expect((await me(await storedToken(page))).statusCode).toBe(200);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe('delete account', () => {
  it(
    'waits for the typed sentence and the password, then deletes the account and signs out',
    async () => {
      const user = await createUser(stage.ctx.deps);
      const elsewhere = await tokenFor(stage.ctx.deps, user);
      const opened = await openAccount(user, PHONE);
      const { page } = opened;
      await openTab(page, 'Delete account', 'delete');
      const button = page.getByRole('button', { name: 'Delete my account' });
      const phrase = page.getByLabel('Type DELETE MY ACCOUNT to confirm');
      expect(await button.isDisabled()).toBe(true);
      await page.getByLabel('Your password').fill('not my password');
      await phrase.fill('DELETE MY');
      expect(await button.isDisabled()).toBe(true);
      await phrase.fill('delete my account');
      expect(await button.isDisabled()).toBe(true);
      await expectAccessible(page, 'account-delete-untyped');
      await phrase.fill('DELETE MY ACCOUNT');
      expect(await button.isDisabled()).toBe(false);

      // A wrong password: refused beside its field, nothing deleted.
      await button.click();
      await expectFieldError(page, page.getByLabel('Your password'), /password is incorrect/);
      await expectAccessible(page, 'account-delete-wrong-password');
      expect((await me(elsewhere)).statusCode).toBe(200);

      await page.getByLabel('Your password').fill(DEFAULT_PASSWORD);
      await button.click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByText('Your account has been deleted.').waitFor();
      expect(new URL(page.url()).search).toBe('?deleted=true');
      expect(await page.evaluate(`localStorage.getItem('${SESSION_KEY}')`)).toBeNull();
      await expectAccessible(page, 'account-deleted');
      expect((await me(elsewhere)).statusCode).toBe(401);
      const login = await stage.ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: DEFAULT_PASSWORD },
      });
      expect(login.statusCode).toBe(401);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});
