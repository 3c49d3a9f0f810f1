// /api/billing/* through HTTP against a fake Paddle server speaking Paddle's API: checkout,
// portal, sync, invoices and invoice PDFs, every bad input (the clear 4xx, nothing written,
// Paddle not called), Paddle failing or hanging (502, nothing half-written), account deletion
// canceling a live subscription at the end of its period, and 503 without Paddle settings.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type UserRow, usersTable } from '../src/modules/users/users.table.ts';
import { bearer, createUser, DEFAULT_PASSWORD, tokenFor } from './factories/users.ts';
import { type FakePaddle, paddleId, startFakePaddle } from './fakes/paddle.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let paddle: FakePaddle;
let ctx: TestContext;
beforeAll(async () => {
  paddle = await startFakePaddle();
  ctx = await createTestContext({ env: paddle.env });
});
afterAll(async () => {
  await ctx?.close();
  await paddle?.close();
});
afterEach(() => {
  paddle.clearFailures();
  paddle.maxPerPage = 200;
  paddle.defaultPaymentLink = 'https://shop.example/pay';
});

const call = createCaller(() => ctx);
const unavailable = {
  message: 'The payment provider is unavailable. Try again later.',
  code: 'provider_unavailable',
};
const invoiceNotFound = { message: 'Invoice not found.', code: 'not_found' };

const userRow = async (id: number) =>
  (await ctx.deps.db.select().from(usersTable).where(eq(usersTable.id, id)))[0]!;

async function signedIn(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(ctx.deps, overrides);
  return { user, token: await tokenFor(ctx.deps, user) };
}

/** A user who already has a Paddle customer (as after a first checkout). */
async function customerUser() {
  const { user, token } = await signedIn();
  const customer = paddle.addCustomer({ email: user.email, customData: { user_id: String(user.id) } });
  await ctx.deps.db
    .update(usersTable)
    .set({ paddleCustomerId: customer.id })
    .where(eq(usersTable.id, user.id));
  return { user: await userRow(user.id), token, customer };
}

/** Paddle requests made while `work` runs. */
async function paddleRequestsDuring(work: () => Promise<unknown>) {
  const before = paddle.requests.length;
  await work();
  return paddle.requests.slice(before);
}

describe('GET /api/billing/plans', () => {
  it('names each configured tier with its price id, in rank order, and nothing else', async () => {
    const { token } = await signedIn();
    let res: Awaited<ReturnType<typeof call>> | undefined;
    const requests = await paddleRequestsDuring(async () => {
      res = await call('GET', '/billing/plans', token);
    });
    expect(res!.statusCode).toBe(200);
    expect(res!.json()).toEqual([
      { tier: 'bronze', price_id: paddle.prices.bronze },
      { tier: 'premium', price_id: paddle.prices.premium },
    ]);
    // Read from the settings: Paddle is not asked, and no key or secret is in the answer.
    expect(requests).toEqual([]);
    expect(res!.body).not.toContain(paddle.apiKey);
    expect(res!.body).not.toContain(paddle.webhookSecret);
  });

  it('leaves out a tier without a configured price, and answers the same to every user', async () => {
    const onlyPremium = await createTestContext({ env: { ...paddle.env, PADDLE_PRICE_BRONZE: '' } });
    try {
      for (const role of ['user', 'admin'] as const) {
        const user = await createUser(onlyPremium.deps, { role });
        const res = await onlyPremium.app.inject({
          method: 'GET',
          url: '/api/billing/plans',
          headers: bearer(await tokenFor(onlyPremium.deps, user)),
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([{ tier: 'premium', price_id: paddle.prices.premium }]);
      }
    } finally {
      await onlyPremium.close();
    }
  });

  it('answers 401 without a token, and ignores a query', async () => {
    expect((await call('GET', '/billing/plans')).statusCode).toBe(401);
    const { token } = await signedIn();
    const res = await call('GET', '/billing/plans?tier=gold&price_id=x', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(2);
  });
});

describe('POST /api/billing/checkout', () => {
  it('creates the Paddle customer once, a transaction for the price with custom_data.user_id, and answers its checkout url', async () => {
    const { user, token } = await signedIn();
    let res: Awaited<ReturnType<typeof call>> | undefined;
    const requests = await paddleRequestsDuring(async () => {
      res = await call('POST', '/billing/checkout', token, { price_id: paddle.prices.bronze });
    });
    expect(res!.statusCode).toBe(200);
    const stored = await userRow(user.id);
    expect(stored.paddleCustomerId).toMatch(/^ctm_[a-z\d]{26}$/);
    const [transaction] = [...paddle.transactions.values()].filter(
      (txn) => txn.customer_id === stored.paddleCustomerId,
    );
    expect(res!.json()).toEqual({ checkout_url: `https://shop.example/pay?_ptxn=${transaction!.id}` });

    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /customers',
      'POST /transactions',
    ]);
    expect(requests.every((request) => request.authorization === `Bearer ${paddle.apiKey}`)).toBe(true);
    expect(requests[0]!.body).toEqual({
      email: user.email,
      name: user.name,
      custom_data: { user_id: String(user.id) },
    });
    expect(requests[1]!.body).toEqual({
      items: [{ price_id: paddle.prices.bronze, quantity: 1 }],
      customer_id: stored.paddleCustomerId,
      custom_data: { user_id: String(user.id) },
    });
    // Nothing about the subscription changes before Paddle's webhook says so.
    expect(stored).toMatchObject({
      subscriptionStatus: 'trialing',
      subscriptionTier: 'free',
      paddleSubscriptionId: null,
    });

    // A second checkout (premium) reuses the customer.
    const again = await paddleRequestsDuring(async () => {
      const second = await call('POST', '/billing/checkout', token, {
        price_id: ` ${paddle.prices.premium} `,
      });
      expect(second.statusCode).toBe(200);
    });
    expect(again.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /transactions']);
    expect(again[0]!.body).toMatchObject({
      items: [{ price_id: paddle.prices.premium, quantity: 1 }],
      customer_id: stored.paddleCustomerId,
    });
    expect((await userRow(user.id)).paddleCustomerId).toBe(stored.paddleCustomerId);
  });

  it.each([
    [{}, 'The price_id field is required.'],
    [{ price_id: '' }, 'The price_id field is required.'],
    [{ price_id: '   ' }, 'The price_id field is required.'],
    [{ price_id: 42 }, 'The price_id field is required.'],
    [{ price_id: 'x'.repeat(256) }, 'The price_id may not be greater than 255 characters.'],
    [{ price_id: 'pri_01unknownunknownunknownun' }, 'The selected price_id is invalid.'],
  ])('refuses %j with errors.price_id, writes nothing and calls no one', async (body, message) => {
    const { user, token } = await signedIn();
    const requests = await paddleRequestsDuring(async () => {
      const res = await call('POST', '/billing/checkout', token, body);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'The given data was invalid.',
        code: 'validation_failed',
        errors: { price_id: [message] },
      });
    });
    expect(requests).toEqual([]);
    expect((await userRow(user.id)).paddleCustomerId).toBeNull();
  });

  it('refuses a real Paddle price that is not one of the offered ones', async () => {
    const { token } = await signedIn();
    const res = await call('POST', '/billing/checkout', token, { price_id: paddle.prices.other });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ price_id: ['The selected price_id is invalid.'] });
  });

  it('adopts the customer Paddle already has for the email when our earlier checkout created it for this user', async () => {
    const { user, token } = await signedIn();
    // Paddle created it, but the answer never reached us (the customer id was not stored).
    const existing = paddle.addCustomer({
      email: user.email.toUpperCase(),
      customData: { user_id: String(user.id) },
    });
    const requests = await paddleRequestsDuring(async () => {
      const res = await call('POST', '/billing/checkout', token, { price_id: paddle.prices.bronze });
      expect(res.statusCode).toBe(200);
    });
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /customers',
      'GET /customers',
      'POST /transactions',
    ]);
    expect(requests[1]!.query).toMatchObject({ email: user.email });
    expect((await userRow(user.id)).paddleCustomerId).toBe(existing.id);
    expect(requests[2]!.body).toMatchObject({ customer_id: existing.id });
  });

  it("refuses with 409 when Paddle's customer for the email belongs to someone else, and adopts nothing", async () => {
    const { user, token } = await signedIn();
    paddle.addCustomer({ email: user.email, customData: null });
    const before = paddle.transactions.size;
    const res = await call('POST', '/billing/checkout', token, { price_id: paddle.prices.bronze });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'The email is already used by another billing account at the payment provider.',
      code: 'conflict',
    });
    expect((await userRow(user.id)).paddleCustomerId).toBeNull();
    expect(paddle.transactions.size).toBe(before);
  });

  it.each(['server_error', 'hang'] as const)(
    'answers 502 when Paddle fails (%s) creating the customer, and writes nothing',
    async (mode) => {
      const { user, token } = await signedIn();
      const before = paddle.transactions.size;
      paddle.fail(mode, { when: (request) => request.path === '/customers' });
      const res = await call('POST', '/billing/checkout', token, { price_id: paddle.prices.bronze });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual(unavailable);
      expect(await userRow(user.id)).toMatchObject({ paddleCustomerId: null, updatedAt: user.updatedAt });
      expect(paddle.transactions.size).toBe(before);
    },
  );

  it('answers 502 when the transaction fails; the customer Paddle created is remembered, and the retry reuses it', async () => {
    const { user, token } = await signedIn();
    paddle.fail('hang', { when: (request) => request.path === '/transactions' });
    const res = await call('POST', '/billing/checkout', token, { price_id: paddle.prices.bronze });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual(unavailable);
    const remembered = (await userRow(user.id)).paddleCustomerId;
    expect(remembered).toMatch(/^ctm_/);
    expect([...paddle.transactions.values()].some((txn) => txn.customer_id === remembered)).toBe(false);

    const retry = await paddleRequestsDuring(async () => {
      expect(
        (await call('POST', '/billing/checkout', token, { price_id: paddle.prices.bronze })).statusCode,
      ).toBe(200);
    });
    expect(retry.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /transactions']);
  });

  it('answers 502 when Paddle gives no checkout url (no default payment link set at Paddle)', async () => {
    const { token } = await signedIn();
    paddle.defaultPaymentLink = null;
    const res = await call('POST', '/billing/checkout', token, { price_id: paddle.prices.bronze });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      message: 'The payment provider did not return a checkout link.',
      code: 'provider_unavailable',
    });
  });

  it('refuses a second subscription while one has not ended (409), and allows a new one after it ended', async () => {
    const { user, token } = await customerUser();
    for (const status of ['active', 'trialing', 'past_due', 'paused']) {
      await ctx.deps.db
        .update(usersTable)
        .set({ paddleSubscriptionId: paddleId('sub'), paddleStatus: status })
        .where(eq(usersTable.id, user.id));
      const requests = await paddleRequestsDuring(async () => {
        const res = await call('POST', '/billing/checkout', token, { price_id: paddle.prices.premium });
        expect(res.statusCode, status).toBe(409);
        expect(res.json()).toEqual({
          message: 'There is already a subscription. Change or cancel it in the customer portal.',
          code: 'conflict',
        });
      });
      expect(requests, status).toEqual([]);
    }
    await ctx.deps.db.update(usersTable).set({ paddleStatus: 'canceled' }).where(eq(usersTable.id, user.id));
    expect(
      (await call('POST', '/billing/checkout', token, { price_id: paddle.prices.premium })).statusCode,
    ).toBe(200);
  });

  it('answers 401 without a token and calls no one', async () => {
    const requests = await paddleRequestsDuring(async () => {
      const res = await call('POST', '/billing/checkout', undefined, { price_id: paddle.prices.bronze });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthenticated' });
    });
    expect(requests).toEqual([]);
  });
});

describe('POST /api/billing/portal', () => {
  it("answers a link to Paddle's customer portal, with the live subscription's deep links asked for", async () => {
    const { user, token, customer } = await customerUser();
    const subscription = paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.bronze,
      status: 'active',
    });
    await ctx.deps.db
      .update(usersTable)
      .set({ paddleSubscriptionId: subscription.id, paddleStatus: 'active' })
      .where(eq(usersTable.id, user.id));
    let portalUrl = '';
    const requests = await paddleRequestsDuring(async () => {
      const res = await call('POST', '/billing/portal', token);
      expect(res.statusCode).toBe(200);
      portalUrl = res.json().portal_url;
    });
    expect(portalUrl).toMatch(
      /^https:\/\/customer-portal\.paddle\.test\/cpl_[a-z\d]+\?action=overview&token=pga_/,
    );
    expect(requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/customers/${customer.id}/portal-sessions`,
        body: { subscription_ids: [subscription.id] },
      }),
    ]);
  });

  it('answers 409 before the first checkout, without calling Paddle', async () => {
    const { token } = await signedIn();
    const requests = await paddleRequestsDuring(async () => {
      const res = await call('POST', '/billing/portal', token);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        message: 'There is no billing account yet. Start a checkout first.',
        code: 'conflict',
      });
    });
    expect(requests).toEqual([]);
  });

  it('answers 502 when Paddle fails', async () => {
    const { token } = await customerUser();
    paddle.fail('server_error');
    const res = await call('POST', '/billing/portal', token);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual(unavailable);
  });
});

describe('POST /api/billing/sync', () => {
  it("fetches the customer's subscription and applies it; the answer is the user's billing fields", async () => {
    const { user, token, customer } = await customerUser();
    const trialEnd = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const subscription = paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.premium,
      status: 'trialing',
      trialEndsAt: trialEnd,
    });
    const res = await call('POST', '/billing/sync', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      subscription_status: 'trialing',
      subscription_tier: 'premium',
      trial_ends_at: trialEnd,
      paddle_customer_id: customer.id,
      paddle_subscription_id: subscription.id,
      paddle_price_id: paddle.prices.premium,
      paddle_status: 'trialing',
      paddle_next_billed_at: trialEnd,
    });
    expect(await userRow(user.id)).toMatchObject({
      subscriptionStatus: 'trialing',
      subscriptionTier: 'premium',
      paddleSubscriptionUpdatedAt: new Date(subscription.updated_at),
    });
    expect(paddle.requestsTo('GET', /^\/subscriptions$/).at(-1)!.query).toMatchObject({
      customer_id: customer.id,
    });
    // GET /me shows the same.
    expect((await call('GET', '/me', token)).json()).toMatchObject({
      subscription_tier: 'premium',
      paddle_status: 'trialing',
    });
  });

  it('follows pages and prefers the newest live subscription over a newer canceled one', async () => {
    const { token, customer } = await customerUser();
    const live = paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.bronze,
      status: 'active',
      createdAt: '2029-01-01T00:00:00.000Z',
    });
    paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.premium,
      status: 'canceled',
      createdAt: '2029-06-01T00:00:00.000Z',
    });
    paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.premium,
      status: 'canceled',
      createdAt: '2028-06-01T00:00:00.000Z',
    });
    paddle.maxPerPage = 1;
    const requests = await paddleRequestsDuring(async () => {
      const res = await call('POST', '/billing/sync', token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ subscription_status: 'active', paddle_subscription_id: live.id });
    });
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(requests.slice(1).every((request) => request.query.after?.startsWith('sub_'))).toBe(true);
  });

  it('keeps a newer stored state when the fetched subscription is older', async () => {
    const { user, token, customer } = await customerUser();
    const subscription = paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.bronze,
      status: 'canceled',
      createdAt: '2029-01-01T00:00:00.000Z',
      updatedAt: '2029-01-02T00:00:00.000Z',
    });
    await ctx.deps.db
      .update(usersTable)
      .set({
        subscriptionStatus: 'active',
        subscriptionTier: 'premium',
        paddleSubscriptionId: subscription.id,
        paddleStatus: 'active',
        paddleSubscriptionUpdatedAt: new Date('2029-01-03T00:00:00.000Z'),
      })
      .where(eq(usersTable.id, user.id));
    const res = await call('POST', '/billing/sync', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      subscription_status: 'active',
      subscription_tier: 'premium',
      paddle_status: 'active',
    });
  });

  it('answers the fields unchanged, without calling Paddle, before the first checkout', async () => {
    const { user, token } = await signedIn();
    const requests = await paddleRequestsDuring(async () => {
      const res = await call('POST', '/billing/sync', token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        subscription_status: 'trialing',
        subscription_tier: 'free',
        trial_ends_at: user.trialEndsAt!.toISOString(),
        paddle_customer_id: null,
        paddle_subscription_id: null,
        paddle_price_id: null,
        paddle_status: null,
        paddle_next_billed_at: null,
      });
    });
    expect(requests).toEqual([]);
  });

  it.each(['server_error', 'hang'] as const)(
    'answers 502 when Paddle fails (%s), and writes nothing',
    async (mode) => {
      const { user, token, customer } = await customerUser();
      paddle.addSubscription({ customerId: customer.id, priceId: paddle.prices.premium, status: 'active' });
      paddle.maxPerPage = 1;
      paddle.addSubscription({ customerId: customer.id, priceId: paddle.prices.bronze, status: 'active' });
      // The second page fails: the first one must not have been applied on its own.
      paddle.fail(mode, {
        when: (request) => request.path === '/subscriptions' && request.query.after !== undefined,
      });
      const res = await call('POST', '/billing/sync', token);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual(unavailable);
      expect(await userRow(user.id)).toMatchObject({
        subscriptionTier: 'free',
        paddleSubscriptionId: null,
        paddleSubscriptionUpdatedAt: null,
      });
    },
  );
});

describe('GET /api/billing/invoices', () => {
  it("answers the customer's billed and completed transactions, newest first, across pages", async () => {
    const { token, customer } = await customerUser();
    const completed = paddle.addTransaction({
      customerId: customer.id,
      status: 'completed',
      amount: 2900,
      currency: 'EUR',
      createdAt: '2029-03-01T10:00:00.000Z',
    });
    const billed = paddle.addTransaction({
      customerId: customer.id,
      status: 'billed',
      amount: 900,
      createdAt: '2029-04-01T10:00:00.000Z',
    });
    const older = paddle.addTransaction({
      customerId: customer.id,
      status: 'completed',
      amount: 900,
      createdAt: '2029-01-01T10:00:00.000Z',
    });
    paddle.addTransaction({
      customerId: customer.id,
      status: 'ready',
      createdAt: '2029-05-01T10:00:00.000Z',
    });
    paddle.addTransaction({
      customerId: customer.id,
      status: 'canceled',
      createdAt: '2029-05-02T10:00:00.000Z',
    });
    const stranger = paddle.addCustomer({ email: `stranger-${Date.now()}@example.test` });
    paddle.addTransaction({ customerId: stranger.id, status: 'completed' });
    paddle.maxPerPage = 2;

    let body: unknown;
    const requests = await paddleRequestsDuring(async () => {
      const res = await call('GET', '/billing/invoices', token);
      expect(res.statusCode).toBe(200);
      body = res.json();
    });
    expect(body).toEqual([
      {
        id: billed.id,
        amount: 900,
        currency: 'USD',
        status: 'billed',
        created_at: '2029-04-01T10:00:00.000Z',
      },
      {
        id: completed.id,
        amount: 2900,
        currency: 'EUR',
        status: 'completed',
        created_at: '2029-03-01T10:00:00.000Z',
      },
      {
        id: older.id,
        amount: 900,
        currency: 'USD',
        status: 'completed',
        created_at: '2029-01-01T10:00:00.000Z',
      },
    ]);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.query).toMatchObject({ customer_id: customer.id, status: 'billed,completed' });
    expect(requests[1]!.query).toMatchObject({
      customer_id: customer.id,
      status: 'billed,completed',
      after: expect.any(String),
    });
  });

  it('answers an empty list before the first checkout, without calling Paddle', async () => {
    const { token } = await signedIn();
    const requests = await paddleRequestsDuring(async () => {
      const res = await call('GET', '/billing/invoices', token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });
    expect(requests).toEqual([]);
  });

  it.each(['server_error', 'hang'] as const)('answers 502 when Paddle fails (%s)', async (mode) => {
    const { token } = await customerUser();
    paddle.fail(mode);
    const res = await call('GET', '/billing/invoices', token);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual(unavailable);
  });
});

describe('GET /api/billing/invoices/{transactionId}/pdf', () => {
  it("answers a short-lived link to the PDF of the caller's own invoice", async () => {
    const { token, customer } = await customerUser();
    const transaction = paddle.addTransaction({ customerId: customer.id, status: 'completed' });
    const res = await call('GET', `/billing/invoices/${transaction.id}/pdf`, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      url: expect.stringMatching(
        new RegExp(`^https://invoices\\.paddle\\.test/invoices/${transaction.id}\\.pdf\\?token=`),
      ),
    });
  });

  it("answers 404 for another user's transaction without asking Paddle for its invoice", async () => {
    const { token } = await customerUser();
    const other = await customerUser();
    const theirs = paddle.addTransaction({ customerId: other.customer.id, status: 'completed' });
    const requests = await paddleRequestsDuring(async () => {
      const res = await call('GET', `/billing/invoices/${theirs.id}/pdf`, token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(invoiceNotFound);
    });
    expect(requests.some((request) => request.path.endsWith('/invoice'))).toBe(false);
  });

  it('answers 404 for an unknown transaction, one that is not an invoice, a malformed id, and before any checkout', async () => {
    const { token, customer } = await customerUser();
    const ready = paddle.addTransaction({ customerId: customer.id, status: 'ready' });
    for (const id of [paddleId('txn'), ready.id]) {
      const res = await call('GET', `/billing/invoices/${id}/pdf`, token);
      expect(res.statusCode, id).toBe(404);
      expect(res.json(), id).toEqual(invoiceNotFound);
    }
    for (const id of ['abc', 'txn_SHORT', `ctm_${'a'.repeat(26)}`]) {
      expect((await call('GET', `/billing/invoices/${id}/pdf`, token)).statusCode, id).toBe(404);
    }
    const fresh = await signedIn();
    const res = await call('GET', `/billing/invoices/${ready.id}/pdf`, fresh.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(invoiceNotFound);
  });

  it('answers 502 when Paddle fails', async () => {
    const { token, customer } = await customerUser();
    const transaction = paddle.addTransaction({ customerId: customer.id, status: 'completed' });
    paddle.fail('server_error', { when: (request) => request.path.endsWith('/invoice') });
    const res = await call('GET', `/billing/invoices/${transaction.id}/pdf`, token);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual(unavailable);
  });
});

describe('deleting an account with a live subscription', () => {
  async function subscriber(overrides: Parameters<typeof createUser>[1] = {}) {
    const { user, token, customer } = await customerUser();
    const subscription = paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.bronze,
      status: 'active',
    });
    await ctx.deps.db
      .update(usersTable)
      .set({
        paddleSubscriptionId: subscription.id,
        paddleStatus: 'active',
        subscriptionStatus: 'active',
        ...overrides,
      })
      .where(eq(usersTable.id, user.id));
    return { user: await userRow(user.id), token, subscription };
  }
  const deleteMe = (token: string) =>
    call('DELETE', '/me', token, { password: DEFAULT_PASSWORD, confirmation: 'DELETE MY ACCOUNT' });
  let adminToken: string;
  beforeAll(async () => {
    adminToken = (await signedIn({ role: 'admin' })).token;
  });

  it('DELETE /me cancels it at Paddle at the end of the billing period, then deletes the account', async () => {
    const { user, token, subscription } = await subscriber();
    const requests = await paddleRequestsDuring(async () => {
      const res = await deleteMe(token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Account deleted.' });
    });
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /subscriptions/${subscription.id}`,
      `POST /subscriptions/${subscription.id}/cancel`,
    ]);
    expect(requests[1]!.body).toEqual({ effective_from: 'next_billing_period' });
    expect(paddle.subscriptions.get(subscription.id)!.scheduled_change).toMatchObject({ action: 'cancel' });
    expect((await userRow(user.id)).deletedAt).toEqual(expect.any(Date));
  });

  it.each(['server_error', 'hang'] as const)(
    'DELETE /me answers 502 when Paddle fails (%s) and deletes nothing',
    async (mode) => {
      const { user, token, subscription } = await subscriber();
      paddle.fail(mode, { when: (request) => request.path.endsWith('/cancel') });
      const res = await deleteMe(token);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual(unavailable);
      expect((await userRow(user.id)).deletedAt).toBeNull();
      expect(paddle.subscriptions.get(subscription.id)!.scheduled_change).toBeNull();
      expect((await call('GET', '/me', token)).statusCode).toBe(200);
    },
  );

  it('admin DELETE /users/{id} cancels too, and answers 502 without deleting when Paddle fails', async () => {
    const failing = await subscriber();
    paddle.fail('server_error', { when: (request) => request.path.startsWith('/subscriptions/') });
    const refused = await call('DELETE', `/users/${failing.user.id}`, adminToken);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toEqual(unavailable);
    expect((await userRow(failing.user.id)).deletedAt).toBeNull();

    const { user, subscription } = await subscriber();
    const res = await call('DELETE', `/users/${user.id}`, adminToken);
    expect(res.statusCode).toBe(200);
    expect(paddle.subscriptions.get(subscription.id)!.scheduled_change).toMatchObject({ action: 'cancel' });
    expect((await userRow(user.id)).deletedAt).toEqual(expect.any(Date));
  });

  it('leaves Paddle alone for a subscription already ending or canceled, and for users without one', async () => {
    const scheduled = await subscriber();
    paddle.subscriptions.get(scheduled.subscription.id)!.scheduled_change = {
      action: 'cancel',
      effective_at: new Date(Date.now() + 86_400_000).toISOString(),
      resume_at: null,
    };
    const canceled = await subscriber({ paddleStatus: 'canceled', subscriptionStatus: 'canceled' });
    const plain = await signedIn();
    const requests = await paddleRequestsDuring(async () => {
      for (const token of [scheduled.token, canceled.token, plain.token]) {
        expect((await deleteMe(token)).statusCode).toBe(200);
      }
    });
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /subscriptions/${scheduled.subscription.id}`,
    ]);
  });
});

describe('without Paddle settings', () => {
  let bare: TestContext;
  let noSecret: TestContext;
  beforeAll(async () => {
    bare = await createTestContext();
    noSecret = await createTestContext({ env: { ...paddle.env, PADDLE_WEBHOOK_SECRET: '' } });
  });
  afterAll(async () => {
    await bare?.close();
    await noSecret?.close();
  });

  const routes = [
    ['GET', '/api/billing/plans', undefined],
    ['POST', '/api/billing/checkout', { price_id: 'pri_x' }],
    ['POST', '/api/billing/portal', undefined],
    ['POST', '/api/billing/sync', undefined],
    ['GET', '/api/billing/invoices', undefined],
    ['GET', `/api/billing/invoices/${'txn_'.padEnd(30, 'a')}/pdf`, undefined],
    ['POST', '/api/webhooks/paddle', { event_id: 'evt_x' }],
  ] as const;

  it('answers 503 not_configured on every billing route, with or without a token, and the rest of the service runs', async () => {
    const user = await createUser(bare.deps);
    const token = await tokenFor(bare.deps, user);
    for (const [method, url, payload] of routes) {
      for (const headers of [bearer(token), {}]) {
        const res = await bare.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(503);
        expect(res.json()).toEqual({
          message: 'Billing is not configured on this server.',
          code: 'not_configured',
        });
      }
    }
    expect((await bare.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(
      (await bare.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).statusCode,
    ).toBe(200);
    // An account without a subscription is deleted as usual.
    const deleted = await bare.app.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: bearer(token),
      payload: { password: DEFAULT_PASSWORD, confirmation: 'DELETE MY ACCOUNT' },
    });
    expect(deleted.statusCode).toBe(200);
  });

  it('refuses to delete an account whose subscription it cannot cancel (503), keeping it', async () => {
    const user: UserRow = await createUser(bare.deps, {
      paddleSubscriptionId: paddleId('sub'),
      paddleStatus: 'active',
    });
    const res = await bare.app.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: bearer(await tokenFor(bare.deps, user)),
      payload: { password: DEFAULT_PASSWORD, confirmation: 'DELETE MY ACCOUNT' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'not_configured' });
    const [row] = await bare.deps.db.select().from(usersTable).where(eq(usersTable.id, user.id));
    expect(row!.deletedAt).toBeNull();
  });

  it('answers 503 on the webhook without PADDLE_WEBHOOK_SECRET, while the other billing routes work', async () => {
    const webhook = await noSecret.app.inject({
      method: 'POST',
      url: '/api/webhooks/paddle',
      ...paddle.signedWebhook({ event_id: 'evt_1' }),
    });
    expect(webhook.statusCode).toBe(503);
    expect(webhook.json()).toMatchObject({ code: 'not_configured' });
    const user = await createUser(noSecret.deps);
    const invoices = await noSecret.app.inject({
      method: 'GET',
      url: '/api/billing/invoices',
      headers: bearer(await tokenFor(noSecret.deps, user)),
    });
    expect(invoices.statusCode).toBe(200);
    expect(invoices.json()).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents every billing route with an operationId, the webhook as public', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations: Record<string, [string, string]> = {
      billingPlans: ['/api/billing/plans', 'get'],
      billingCheckout: ['/api/billing/checkout', 'post'],
      billingPortal: ['/api/billing/portal', 'post'],
      billingSync: ['/api/billing/sync', 'post'],
      billingInvoices: ['/api/billing/invoices', 'get'],
      billingInvoicePdf: ['/api/billing/invoices/{transactionId}/pdf', 'get'],
      paddleWebhook: ['/api/webhooks/paddle', 'post'],
    };
    for (const [operationId, [path, method]] of Object.entries(operations)) {
      const operation = document.paths[path]?.[method];
      expect(operation?.operationId, path).toBe(operationId);
      expect(operation.security, path).toEqual(operationId === 'paddleWebhook' ? [] : [{ bearerAuth: [] }]);
    }
  });
});
