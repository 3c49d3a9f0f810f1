// The billing screen in Chromium against the real service, its payment provider the fake Paddle
// server: the plan, status and trial end of the account; a checkout that takes the browser to
// the provider's checkout (a transaction for the chosen price written at Paddle), the payment
// seen at once through "refresh from the provider", the customer portal, and the invoices with
// their PDFs; a checkout refused because a subscription arrived meanwhile, an invoice that is
// not the caller's (not found), the provider failing and coming back; and a lapsed account on
// a phone from another origin, which the workspace routes refuse but billing still serves.
// The provider's own pages are answered in the browser by a stand-in (they are not on this
// machine); everything else is the service. axe scans each state; no page logs an error,
// breaks its CSP or reaches off this machine.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { usersTable } from '../../src/modules/users/users.table.ts';
import { createUser, tokenFor } from '../factories/users.ts';
import { type FakePaddle, startFakePaddle } from '../fakes/paddle.ts';
import { PHONE } from '../widget/helpers/browser.ts';
import { type DashboardStage, startDashboardStage } from './helpers/dashboard-stage.ts';
import { expectAccessible, expectClean, signIn } from './helpers/page-steps.ts';

let paddle: FakePaddle;
let stage: DashboardStage;

beforeAll(async () => {
  paddle = await startFakePaddle();
  stage = await startDashboardStage({ env: paddle.env });
}, 180_000);

afterAll(async () => {
  await stage?.close();
  await paddle?.close();
});

afterEach(() => paddle.clearFailures());

const BROWSER_TEST_TIMEOUT = 90_000;

/** Where the fake Paddle sends the browser: its checkout link, its portal, its invoice PDFs. */
const PROVIDER_PAGES = [
  /^https:\/\/shop\.example\//,
  /^https:\/\/customer-portal\.paddle\.test\//,
  /^https:\/\/invoices\.paddle\.test\//,
];

/**
 * Stands in for the provider's pages in this tab (they are not on this machine), recording
 * each address the dashboard sent the browser to.
 */
async function standInForProvider(page: Page): Promise<string[]> {
  const visited: string[] = [];
  for (const pattern of PROVIDER_PAGES) {
    await page.route(pattern, (route) => {
      visited.push(route.request().url());
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><title>Payment provider</title><h1>Payment provider</h1></html>',
      });
    });
  }
  return visited;
}

const userRow = async (id: number) =>
  (await stage.ctx.deps.db.select().from(usersTable).where(eq(usersTable.id, id)))[0]!;

/** A value of the plan's facts, by its term. */
const fact = (page: Page, term: string) => page.locator(`dt:text-is("${term}") + dd`);

/** A user who has a Paddle customer already (after a first checkout). */
async function customerUser() {
  const user = await createUser(stage.ctx.deps);
  const customer = paddle.addCustomer({ email: user.email, customData: { user_id: String(user.id) } });
  await stage.ctx.deps.db
    .update(usersTable)
    .set({ paddleCustomerId: customer.id })
    .where(eq(usersTable.id, user.id));
  return { user, customer, token: await tokenFor(stage.ctx.deps, user) };
}

describe('the plan, checkout, refresh, portal and invoices', () => {
  it(
    'shows the trial, checks out at the provider, shows the payment after a refresh, opens the portal and an invoice PDF',
    async () => {
      const user = await createUser(stage.ctx.deps, { name: 'Trial Owner' });
      const token = await tokenFor(stage.ctx.deps, user);
      const opened = await stage.openSignedIn(token, '/app/locations');
      const { page } = opened;
      const visited = await standInForProvider(page);
      await page.getByRole('link', { name: 'Billing' }).click();
      await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
      await page.getByText('No invoices yet.').waitFor();
      expect(await fact(page, 'Plan').textContent()).toBe('Free trial');
      expect(await fact(page, 'Status').textContent()).toBe('Trial');
      expect(await fact(page, 'Trial ends').textContent()).toBe(
        new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(user.trialEndsAt!),
      );
      expect(await page.getByRole('button', { name: 'Open the customer portal' }).count()).toBe(0);
      // Not an admin: the header has no admin link.
      expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Choose Premium' }).waitFor();
      await expectAccessible(page, 'billing-trial');

      await page.getByRole('button', { name: 'Choose Bronze' }).click();
      await page.waitForURL(/^https:\/\/shop\.example\/pay\?_ptxn=txn_/);
      const customerId = (await userRow(user.id)).paddleCustomerId!;
      expect(customerId).toMatch(/^ctm_/);
      const [transaction] = [...paddle.transactions.values()].filter((txn) => txn.customer_id === customerId);
      expect(transaction!.items).toEqual([{ price_id: paddle.prices.bronze, quantity: 1 }]);
      expect(visited).toEqual([`https://shop.example/pay?_ptxn=${transaction!.id}`]);

      // The customer pays at Paddle; the webhook has not arrived yet.
      Object.assign(transaction!, { status: 'completed', billed_at: new Date().toISOString() });
      paddle.addSubscription({ customerId, priceId: paddle.prices.bronze, status: 'active' });
      await page.goBack();
      await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
      expect(await fact(page, 'Plan').textContent()).toBe('Free trial');
      await page.getByRole('button', { name: 'Refresh from the payment provider' }).click();
      await page.getByText('Your plan is up to date with the payment provider.').waitFor();
      expect(await fact(page, 'Plan').textContent()).toBe('Bronze');
      expect(await fact(page, 'Status').textContent()).toBe('Active');
      expect(await fact(page, 'Next bill').count()).toBe(1);
      const stored = await userRow(user.id);
      expect([stored.subscriptionTier, stored.subscriptionStatus]).toEqual(['bronze', 'active']);
      // A live subscription changes through the portal, not a second checkout.
      await page.getByText('You have a subscription. Change or cancel it in the customer portal.').waitFor();
      expect(await page.getByRole('button', { name: /^Choose / }).count()).toBe(0);
      const invoice = page.getByRole('row', { name: /\$9\.00/ });
      await invoice.waitFor();
      expect(await invoice.getByRole('cell').allTextContents()).toEqual(['$9.00', 'Paid', 'PDF']);
      await expectAccessible(page, 'billing-subscribed');

      await page.getByRole('button', { name: 'Open the customer portal' }).click();
      await page.waitForURL(/^https:\/\/customer-portal\.paddle\.test\/cpl_/);
      expect(
        paddle.requestsTo('POST', new RegExp(`^/customers/${customerId}/portal-sessions$`)),
      ).toHaveLength(1);
      await page.goBack();
      await page.getByRole('button', { name: /^PDF of the invoice of / }).click();
      await page.waitForURL(
        new RegExp(`^https://invoices\\.paddle\\.test/invoices/${transaction!.id}\\.pdf\\?token=`),
      );
      expect(visited).toHaveLength(3);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe('refusals and failures', () => {
  it(
    'refuses a checkout once a subscription has arrived, as the service words it, and then offers the portal',
    async () => {
      const { user, token } = await customerUser();
      const opened = await stage.openSignedIn(token, '/app/billing');
      const { page } = opened;
      await page.getByRole('button', { name: 'Choose Premium' }).waitFor();
      // The webhook arrives while the page is open.
      await stage.ctx.deps.db
        .update(usersTable)
        .set({ paddleSubscriptionId: 'sub_01h0000000000000000000000a', paddleStatus: 'active' })
        .where(eq(usersTable.id, user.id));
      const before = paddle.requests.length;
      await page.getByRole('button', { name: 'Choose Premium' }).click();
      await page
        .getByRole('alert')
        .getByText('There is already a subscription. Change or cancel it in the customer portal.')
        .waitFor();
      expect(paddle.requests.slice(before)).toEqual([]);
      await page.getByText('You have a subscription. Change or cancel it in the customer portal.').waitFor();
      expect(page.url()).toBe(`${stage.origin}/app/billing`);
      await expectAccessible(page, 'billing-checkout-refused');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'says an invoice that is not the caller’s is not found, and opens nothing',
    async () => {
      const { customer, token } = await customerUser();
      const other = await customerUser();
      const invoice = paddle.addTransaction({ customerId: customer.id, status: 'billed', amount: 2900 });
      const opened = await stage.openSignedIn(token, '/app/billing');
      const { page } = opened;
      const visited = await standInForProvider(page);
      const row = page.getByRole('row', { name: /\$29\.00/ });
      await row.waitFor();
      expect(await row.getByRole('cell').nth(1).textContent()).toBe('Due');
      // Paddle now holds the transaction as another customer's (another user's invoice).
      invoice.customer_id = other.customer.id;
      await row.getByRole('button', { name: /^PDF of the invoice of / }).click();
      await page.getByRole('alert').getByText('Invoice not found.').waitFor();
      expect(visited).toEqual([]);
      expect(page.url()).toBe(`${stage.origin}/app/billing`);
      await expectAccessible(page, 'billing-invoice-not-found');
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );

  it(
    'says the provider is unavailable while it fails, and lists the invoices once it answers again',
    async () => {
      const { customer, token } = await customerUser();
      paddle.addTransaction({ customerId: customer.id, status: 'completed', amount: 1250, currency: 'EUR' });
      // Every try fails (the dashboard retries a 502 by itself).
      paddle.fail('server_error', { times: 100, when: (request) => request.path === '/transactions' });
      const opened = await stage.openSignedIn(token, '/app/billing');
      const { page } = opened;
      const failure = page
        .getByRole('alert')
        .filter({ hasText: 'The payment provider is unavailable. Try again later.' });
      // The retries wait 1, 2 and 4 s (React Query's backoff): the page's clock skips the waits.
      await page.clock.install();
      await expect
        .poll(
          async () => {
            await page.clock.fastForward(4_000);
            return failure.isVisible();
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      // The rest of the screen stands: the plan is the account's own.
      expect(await fact(page, 'Plan').textContent()).toBe('Free trial');
      await expectAccessible(page, 'billing-provider-failing');
      paddle.clearFailures();
      await failure.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('row', { name: /€12\.50/ }).waitFor();
      // Chromium logs each 502 the screen handled (the first try and its retries); nothing else.
      const [badGateways, rest] = [
        opened.problems.filter((problem) => problem.includes('status of 502 (Bad Gateway)')),
        opened.problems.filter((problem) => !problem.includes('status of 502 (Bad Gateway)')),
      ];
      expect(rest).toEqual([]);
      expect(badGateways.length).toBeGreaterThanOrEqual(1);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});

describe('a lapsed account on a phone, from another origin', () => {
  it(
    'reaches billing from the header although the workspace routes refuse it',
    async () => {
      const user = await createUser(stage.ctx.deps, {
        subscriptionStatus: 'canceled',
        subscriptionTier: 'none',
        trialEndsAt: null,
      });
      const opened = await stage.open('/app/billing', PHONE, stage.elsewhere);
      const { page } = opened;
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await signIn(page, user.email);
      await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
      expect(new URL(page.url()).origin).toBe(stage.elsewhere);
      expect(await fact(page, 'Plan').textContent()).toBe('No plan');
      expect(await fact(page, 'Status').textContent()).toBe('Cancelled');
      expect(await fact(page, 'Trial ends').textContent()).toBe('None');
      await page.getByRole('button', { name: 'Choose Bronze' }).waitFor();
      await page.getByText('No invoices yet.').waitFor();
      await expectAccessible(page, 'billing-phone-elsewhere');
      const width = await page.evaluate('document.documentElement.scrollWidth');
      expect(width).toBeLessThanOrEqual(390);
      expectClean(opened);
      await opened.close();
    },
    BROWSER_TEST_TIMEOUT,
  );
});
