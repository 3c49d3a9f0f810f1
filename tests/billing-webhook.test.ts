// POST /api/webhooks/paddle through HTTP, with deliveries signed as Paddle signs them: the
// lifecycle of a subscription moving the user's billing state and the tier guard of
// GET /workspaces with it, events out of order, forged, stale and replayed deliveries,
// unknown customers and event types, and the logs keeping every secret out.
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.ts';
import { webhookEventsTable } from '../src/modules/billing/billing.table.ts';
import { type UserRow, usersTable } from '../src/modules/users/users.table.ts';
import { createUser, tokenFor } from './factories/users.ts';
import { type FakePaddle, type FakeSubscription, paddleId, startFakePaddle } from './fakes/paddle.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});

let paddle: FakePaddle;
let ctx: TestContext;
beforeAll(async () => {
  paddle = await startFakePaddle();
  ctx = await createTestContext({ env: paddle.env, logger: createLogger({ logLevel: 'debug' }, sink) });
});
afterAll(async () => {
  await ctx?.close();
  await paddle?.close();
});

const call = createCaller(() => ctx);
const DAY = 86_400_000;
const unauthenticated = { message: 'Invalid webhook signature.', code: 'unauthenticated' };

function deliver(delivery: { payload: string; headers: Record<string, string> }) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/webhooks/paddle',
    headers: delivery.headers,
    payload: delivery.payload,
  });
}

/** Signs and delivers an event; expects Paddle's 200. */
async function send(event: Record<string, unknown>) {
  const res = await deliver(paddle.signedWebhook(event));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { received: true; duplicate: boolean };
}

const userRow = async (id: number) =>
  (await ctx.deps.db.select().from(usersTable).where(eq(usersTable.id, id)))[0]!;
const eventRows = async (eventId: string) =>
  ctx.deps.db.select().from(webhookEventsTable).where(eq(webhookEventsTable.eventId, eventId));
const eventCount = async () => (await ctx.deps.db.select().from(webhookEventsTable)).length;

/** A time `seconds` from a fixed start, as Paddle writes occurred_at (microseconds). */
const start = Date.parse('2030-01-01T00:00:00Z');
const at = (seconds: number) => new Date(start + seconds * 1000).toISOString().replace('Z', '000Z');

/** A copy of the subscription with changes, as Paddle would send it after they happened. */
function changed(subscription: FakeSubscription, changes: Partial<FakeSubscription>, priceId?: string) {
  const copy = structuredClone({ ...subscription, ...changes });
  if (priceId) copy.items[0]!.price.id = priceId;
  if (changes.status && changes.status !== 'trialing') {
    copy.items[0]!.status = changes.status === 'canceled' ? 'inactive' : 'active';
    copy.items[0]!.trial_dates = null;
  }
  return copy;
}

/** Links a new Paddle customer to the user, as a first checkout does. */
async function linkCustomer(user: UserRow) {
  const customer = paddle.addCustomer({ email: user.email });
  await ctx.deps.db
    .update(usersTable)
    .set({ paddleCustomerId: customer.id })
    .where(eq(usersTable.id, user.id));
  return customer;
}

/** A new user with a linked customer and an active subscription at this price. */
async function subscriber(priceId: string) {
  const user = await createUser(ctx.deps);
  const customer = await linkCustomer(user);
  const subscription = paddle.addSubscription({ customerId: customer.id, priceId, status: 'active' });
  return { user, customer, subscription };
}

/** A user whose own trial has ended: no access until Paddle says otherwise. */
async function lapsedUser(): Promise<{ user: UserRow; token: string }> {
  const user = await createUser(ctx.deps, {
    subscriptionStatus: 'trialing',
    subscriptionTier: 'free',
    trialEndsAt: new Date(Date.now() - DAY),
  });
  return { user, token: await tokenFor(ctx.deps, user) };
}

describe('a subscription lifecycle', () => {
  it('moves the user from trialing to active bronze, premium and canceled, and the tier guard with it', async () => {
    const { user, token } = await lapsedUser();
    const workspaces = async () => (await call('GET', '/workspaces', token)).statusCode;
    expect(await workspaces()).toBe(403);

    const customer = paddle.addCustomer({ email: user.email, customData: { user_id: String(user.id) } });
    const trialEnd = new Date(Date.now() + 7 * DAY).toISOString();
    const subscription = paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.bronze,
      status: 'trialing',
      trialEndsAt: trialEnd,
      customData: { user_id: String(user.id) },
    });

    // subscription.created + trialing: the user has no paddle_customer_id yet; custom_data finds them.
    const created = paddle.subscriptionEvent('subscription.created', subscription, { occurredAt: at(1) });
    expect(await send(created)).toEqual({ received: true, duplicate: false });
    expect(await userRow(user.id)).toMatchObject({
      subscriptionStatus: 'trialing',
      subscriptionTier: 'bronze',
      trialEndsAt: new Date(trialEnd),
      paddleCustomerId: customer.id,
      paddleSubscriptionId: subscription.id,
      paddlePriceId: paddle.prices.bronze,
      paddleStatus: 'trialing',
      paddleNextBilledAt: new Date(trialEnd),
      paddleSubscriptionUpdatedAt: new Date(at(1)),
    });
    expect(await workspaces()).toBe(200);
    const [stored] = await eventRows(created.event_id as string);
    expect(stored).toMatchObject({
      provider: 'paddle',
      eventType: 'subscription.created',
      userId: user.id,
      processedAt: expect.any(Date),
    });
    expect(stored!.payload).toEqual(created);

    // Active, billed monthly, on bronze: the trial is over.
    const nextBilled = new Date(Date.now() + 30 * DAY).toISOString();
    const active = changed(subscription, { status: 'active', next_billed_at: nextBilled });
    await send(paddle.subscriptionEvent('subscription.activated', active, { occurredAt: at(2) }));
    expect(await userRow(user.id)).toMatchObject({
      subscriptionStatus: 'active',
      subscriptionTier: 'bronze',
      trialEndsAt: null,
      paddleStatus: 'active',
      paddleNextBilledAt: new Date(nextBilled),
    });
    expect(await workspaces()).toBe(200);

    // Upgraded to premium.
    const premium = changed(active, {}, paddle.prices.premium);
    await send(paddle.subscriptionEvent('subscription.updated', premium, { occurredAt: at(3) }));
    expect(await userRow(user.id)).toMatchObject({
      subscriptionStatus: 'active',
      subscriptionTier: 'premium',
      paddlePriceId: paddle.prices.premium,
    });
    expect(await workspaces()).toBe(200);

    // Canceled: back to free, and the guard refuses.
    const canceled = changed(premium, { status: 'canceled', next_billed_at: null, canceled_at: at(4) });
    await send(paddle.subscriptionEvent('subscription.canceled', canceled, { occurredAt: at(4) }));
    expect(await userRow(user.id)).toMatchObject({
      subscriptionStatus: 'canceled',
      subscriptionTier: 'free',
      trialEndsAt: null,
      paddleSubscriptionId: subscription.id,
      paddleStatus: 'canceled',
      paddleNextBilledAt: null,
    });
    const refused = await call('GET', '/workspaces', token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'tier_required' });
  });

  it('lets past_due through the guard, shuts a paused subscription out, and lets a resumed one back in', async () => {
    const { user, token } = await lapsedUser();
    const customer = await linkCustomer(user);
    const subscription = paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.bronze,
      status: 'active',
    });
    const workspaces = async () => (await call('GET', '/workspaces', token)).statusCode;

    const steps = [
      ['subscription.past_due', 'past_due', 'past_due', 'bronze', 200],
      ['subscription.paused', 'paused', 'canceled', 'free', 403],
      ['subscription.resumed', 'active', 'active', 'bronze', 200],
    ] as const;
    let second = 10;
    for (const [type, paddleStatus, status, tier, guard] of steps) {
      second += 1;
      await send(
        paddle.subscriptionEvent(type, changed(subscription, { status: paddleStatus }), {
          occurredAt: at(second),
        }),
      );
      expect(await userRow(user.id), type).toMatchObject({
        subscriptionStatus: status,
        subscriptionTier: tier,
        paddleStatus,
      });
      expect(await workspaces(), type).toBe(guard);
    }
  });

  it('finds the user by paddle_customer_id before custom_data', async () => {
    const owner = await createUser(ctx.deps);
    const other = await createUser(ctx.deps);
    const customer = paddle.addCustomer({ email: owner.email });
    await ctx.deps.db
      .update(usersTable)
      .set({ paddleCustomerId: customer.id })
      .where(eq(usersTable.id, owner.id));
    // custom_data names someone else: the customer id wins.
    const subscription = paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.premium,
      status: 'active',
      customData: { user_id: String(other.id) },
    });
    const event = paddle.subscriptionEvent('subscription.activated', subscription);
    await send(event);
    expect(await userRow(owner.id)).toMatchObject({
      subscriptionTier: 'premium',
      paddleSubscriptionId: subscription.id,
    });
    expect(await userRow(other.id)).toMatchObject({ subscriptionTier: 'free', paddleSubscriptionId: null });
    expect((await eventRows(event.event_id as string))[0]!.userId).toBe(owner.id);
  });

  it('remembers the customer of a completed transaction for a user who has none', async () => {
    const user = await createUser(ctx.deps);
    const customer = paddle.addCustomer({ email: user.email });
    const transaction = paddle.addTransaction({ customerId: customer.id, status: 'completed' });
    transaction.custom_data = { user_id: String(user.id) };
    const event = paddle.transactionEvent('transaction.completed', transaction);
    await send(event);
    expect(await userRow(user.id)).toMatchObject({ paddleCustomerId: customer.id, subscriptionTier: 'free' });
    expect((await eventRows(event.event_id as string))[0]).toMatchObject({
      userId: user.id,
      processedAt: expect.any(Date),
    });

    // A later transaction.paid for the same customer has nothing left to change.
    const paid = paddle.transactionEvent('transaction.paid', transaction);
    await send(paid);
    expect((await eventRows(paid.event_id as string))[0]).toMatchObject({
      userId: user.id,
      processedAt: null,
    });
  });
});

describe('events out of order', () => {
  it('never lets an older event overwrite a newer state', async () => {
    const { user } = await lapsedUser();
    const customer = paddle.addCustomer({ email: user.email, customData: { user_id: String(user.id) } });
    const subscription = paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.bronze,
      status: 'active',
      customData: { user_id: String(user.id) },
    });
    const older = paddle.subscriptionEvent('subscription.activated', subscription, { occurredAt: at(100) });
    const newer = paddle.subscriptionEvent(
      'subscription.updated',
      changed(subscription, {}, paddle.prices.premium),
      { occurredAt: at(101) },
    );

    await send(newer);
    expect(await send(older)).toEqual({ received: true, duplicate: false });
    expect(await userRow(user.id)).toMatchObject({
      subscriptionTier: 'premium',
      paddlePriceId: paddle.prices.premium,
      paddleSubscriptionUpdatedAt: new Date(at(101)),
    });
    // Both are stored; only the newer was applied.
    expect((await eventRows(newer.event_id as string))[0]).toMatchObject({
      userId: user.id,
      processedAt: expect.any(Date),
    });
    expect((await eventRows(older.event_id as string))[0]).toMatchObject({
      userId: user.id,
      processedAt: null,
    });
  });

  it('orders events a few microseconds apart correctly', async () => {
    const { user, subscription } = await subscriber(paddle.prices.bronze);
    // Same millisecond, different microseconds: a JavaScript Date could not tell them apart.
    const first = paddle.subscriptionEvent('subscription.activated', subscription, {
      occurredAt: '2030-02-01T00:00:00.123401Z',
    });
    const second = paddle.subscriptionEvent(
      'subscription.updated',
      changed(subscription, {}, paddle.prices.premium),
      {
        occurredAt: '2030-02-01T00:00:00.123402Z',
      },
    );
    await send(second);
    await send(first);
    expect((await userRow(user.id)).subscriptionTier).toBe('premium');
  });

  it("does not let an old subscription's late cancellation end a newer live one", async () => {
    const { user, customer, subscription: old } = await subscriber(paddle.prices.bronze);
    const current = paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.premium,
      status: 'active',
    });
    await send(paddle.subscriptionEvent('subscription.activated', old, { occurredAt: at(200) }));
    await send(paddle.subscriptionEvent('subscription.activated', current, { occurredAt: at(201) }));
    const lateCancel = paddle.subscriptionEvent(
      'subscription.canceled',
      changed(old, { status: 'canceled' }),
      {
        occurredAt: at(202),
      },
    );
    await send(lateCancel);
    expect(await userRow(user.id)).toMatchObject({
      subscriptionStatus: 'active',
      subscriptionTier: 'premium',
      paddleSubscriptionId: current.id,
    });
    expect((await eventRows(lateCancel.event_id as string))[0]!.processedAt).toBeNull();
  });
});

describe('authenticity', () => {
  async function subscriptionEventFor() {
    const { user, subscription } = await subscriber(paddle.prices.premium);
    return { user, event: paddle.subscriptionEvent('subscription.activated', subscription) };
  }

  it('refuses a forged signature, a stale or future timestamp, a missing or malformed header, and an altered body', async () => {
    const { user, event } = await subscriptionEventFor();
    const now = Math.floor(Date.now() / 1000);
    const signed = paddle.signedWebhook(event);
    const deliveries = {
      forged: paddle.signedWebhook(event, { secret: 'not-the-secret' }),
      // A minute past the five-minute tolerance either way (its exact edge is billing-signature's
      // test): `now` is read before the deliveries, and a busy machine takes seconds over them.
      stale: paddle.signedWebhook(event, { ts: now - 360 }),
      future: paddle.signedWebhook(event, { ts: now + 360 }),
      missing: { payload: signed.payload, headers: { 'content-type': 'application/json' } },
      malformed: { payload: signed.payload, headers: { ...signed.headers, 'paddle-signature': 'sig=abc' } },
      altered: { payload: signed.payload.replace('"active"', '"canceled"'), headers: signed.headers },
    };
    const before = await eventCount();
    for (const [name, delivery] of Object.entries(deliveries)) {
      const res = await deliver(delivery);
      expect(res.statusCode, name).toBe(401);
      expect(res.json(), name).toEqual(unauthenticated);
    }
    expect(await eventCount()).toBe(before);
    expect(await userRow(user.id)).toMatchObject({ subscriptionTier: 'free', paddleSubscriptionId: null });
  });

  it('checks the signature whatever the content type says', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/webhooks/paddle',
      headers: { 'content-type': 'text/plain', 'paddle-signature': 'ts=1;h1=00' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(unauthenticated);
    const empty = await ctx.app.inject({ method: 'POST', url: '/api/webhooks/paddle' });
    expect(empty.statusCode).toBe(401);
  });

  it('accepts a delivery signed with two secrets while Paddle rotates them', async () => {
    const { user, event } = await subscriptionEventFor();
    const res = await deliver(paddle.signedWebhook(event, { extraSignatures: ['0'.repeat(64)] }));
    expect(res.statusCode).toBe(200);
    expect((await userRow(user.id)).subscriptionTier).toBe('premium');
  });

  it('answers 400 to a correctly signed body that is not a Paddle event, and stores nothing', async () => {
    const before = await eventCount();
    for (const body of [
      'not json',
      '{}',
      JSON.stringify({ event_id: 'evt_1', event_type: 'x', data: {} }),
      '[]',
    ]) {
      const res = await deliver(paddle.signedWebhook(body));
      expect(res.statusCode, body).toBe(400);
      expect(res.json(), body).toEqual({
        message: 'The webhook body is not a Paddle event.',
        code: 'bad_request',
      });
    }
    expect(await eventCount()).toBe(before);
  });
});

describe('replays and strangers', () => {
  it('acknowledges a replayed event with no second effect', async () => {
    const { user, subscription } = await subscriber(paddle.prices.bronze);
    const event = paddle.subscriptionEvent('subscription.activated', subscription);
    expect(await send(event)).toEqual({ received: true, duplicate: false });
    expect((await userRow(user.id)).subscriptionTier).toBe('bronze');

    // An admin changes the tier by hand; Paddle then redelivers the same event (freshly signed).
    await ctx.deps.db
      .update(usersTable)
      .set({ subscriptionTier: 'custom', paddleSubscriptionUpdatedAt: null })
      .where(eq(usersTable.id, user.id));
    expect(await send(event)).toEqual({ received: true, duplicate: true });
    expect((await userRow(user.id)).subscriptionTier).toBe('custom');
    expect(await eventRows(event.event_id as string)).toHaveLength(1);
  });

  it('stores one row when the same event arrives twice at once', async () => {
    const { subscription } = await subscriber(paddle.prices.bronze);
    const event = paddle.subscriptionEvent('subscription.activated', subscription);
    const answers = await Promise.all([
      deliver(paddle.signedWebhook(event)),
      deliver(paddle.signedWebhook(event)),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
    expect(answers.map((res) => res.json().duplicate).sort()).toEqual([false, true]);
    expect(await eventRows(event.event_id as string)).toHaveLength(1);
  });

  it('stores and acknowledges an event for an unknown customer', async () => {
    const subscription = paddle.addSubscription({
      customerId: paddleId('ctm'),
      priceId: paddle.prices.premium,
      status: 'active',
    });
    const event = paddle.subscriptionEvent('subscription.created', subscription);
    const tiersBefore = await ctx.deps.db
      .select({ id: usersTable.id, tier: usersTable.subscriptionTier })
      .from(usersTable);
    expect(await send(event)).toEqual({ received: true, duplicate: false });
    expect(await eventRows(event.event_id as string)).toEqual([
      expect.objectContaining({ eventType: 'subscription.created', userId: null, processedAt: null }),
    ]);
    const tiersAfter = await ctx.deps.db
      .select({ id: usersTable.id, tier: usersTable.subscriptionTier })
      .from(usersTable);
    expect(tiersAfter).toEqual(tiersBefore);
  });

  it('stores and acknowledges an event type it does not act on', async () => {
    const event = {
      event_id: paddleId('evt'),
      event_type: 'customer.updated',
      occurred_at: new Date().toISOString(),
      notification_id: paddleId('ntf'),
      data: { id: paddleId('ctm'), email: 'someone@example.test' },
    };
    expect(await send(event)).toEqual({ received: true, duplicate: false });
    expect(await eventRows(event.event_id)).toEqual([
      expect.objectContaining({ eventType: 'customer.updated', userId: null, processedAt: null }),
    ]);
  });
});

describe('signed events with fields of the wrong type', () => {
  /** A signed delivery of raw text (the fake signs it byte for byte); expects 400 and nothing stored. */
  async function refused(payload: string, message: string) {
    const before = await eventCount();
    const res = await deliver(paddle.signedWebhook(payload));
    expect(res.statusCode, payload.slice(0, 200)).toBe(400);
    expect(res.json(), payload.slice(0, 200)).toEqual({ message, code: 'bad_request' });
    expect(await eventCount()).toBe(before);
  }

  /** The event with one value of its data replaced, at a path of any depth. */
  function withData(event: Record<string, unknown>, path: (string | number)[], value: unknown) {
    const copy = structuredClone(event);
    let target = copy.data as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
    target[path.at(-1)!] = value;
    return JSON.stringify(copy);
  }

  it('answers 400 naming the field when a subscription event has next_billed_at "not-a-date", and changes nothing', async () => {
    const { user, subscription } = await subscriber(paddle.prices.premium);
    const before = await userRow(user.id);
    const event = paddle.subscriptionEvent('subscription.updated', subscription);
    await refused(
      withData(event, ['next_billed_at'], 'not-a-date'),
      "The webhook event's data.next_billed_at is missing or invalid.",
    );
    expect(await userRow(user.id)).toEqual(before);
  });

  it('checks every field the handler reads, at any depth, for subscriptions and transactions', async () => {
    const { subscription } = await subscriber(paddle.prices.bronze);
    const transaction = paddle.addTransaction({ customerId: subscription.customer_id, status: 'completed' });
    const event = (type: string) => paddle.subscriptionEvent(type, subscription);
    const paid = (type: string) => paddle.transactionEvent(type, transaction);
    const cases: [string, string][] = [
      [withData(event('subscription.created'), ['updated_at'], '2024-02-30T00:00:00Z'), 'data.updated_at'],
      [withData(event('subscription.activated'), ['created_at'], 17), 'data.created_at'],
      [withData(event('subscription.updated'), ['customer_id'], 42), 'data.customer_id'],
      [withData(event('subscription.updated'), ['status'], 'thriving'), 'data.status'],
      [
        withData(event('subscription.trialing'), ['items', 0, 'trial_dates'], { ends_at: 'soon' }),
        'data.items.0.trial_dates.ends_at',
      ],
      [withData(event('subscription.updated'), ['items', 0, 'price', 'id'], 7), 'data.items.0.price.id'],
      [
        withData(event('subscription.canceled'), ['scheduled_change'], {
          action: 'cancel',
          effective_at: '0000-01-01T00:00:00Z',
        }),
        'data.scheduled_change.effective_at',
      ],
      [withData(paid('transaction.completed'), ['billed_at'], 'yesterday'), 'data.billed_at'],
      [withData(paid('transaction.paid'), ['customer_id'], ['ctm']), 'data.customer_id'],
    ];
    for (const [payload, field] of cases) {
      await refused(payload, `The webhook event's ${field} is missing or invalid.`);
    }
  });

  it('refuses an occurred_at PostgreSQL cannot store (year 0000) as not a Paddle event', async () => {
    const { subscription } = await subscriber(paddle.prices.bronze);
    const event = paddle.subscriptionEvent('subscription.updated', subscription, {
      occurredAt: '0000-01-01T00:00:00Z',
    });
    await refused(JSON.stringify(event), 'The webhook body is not a Paddle event.');
  });

  it('refuses an unpaired surrogate or a NUL anywhere in the body, known event type or not, with 400', async () => {
    const { subscription } = await subscriber(paddle.prices.bronze);
    const unstorable =
      'The webhook body contains characters that cannot be stored (a NUL or an unpaired UTF-16 surrogate).';
    const custom = (customData: Record<string, unknown>) =>
      withData(paddle.subscriptionEvent('subscription.updated', subscription), ['custom_data'], customData);
    await refused(custom({ note: '\ud800' }), unstorable);
    await refused(custom({ '\udc00': 'x' }), unstorable);
    await refused(custom({ note: 'a\u0000b' }), unstorable);
    // An event type we do not act on is stored whole: the same rule applies.
    await refused(
      JSON.stringify({
        event_id: paddleId('evt'),
        event_type: 'customer.updated',
        occurred_at: at(1),
        data: { id: 'ctm_x', name: 'Shop \udfff' },
      }),
      unstorable,
    );
  });

  it('refuses a body nesting deeper than 32 levels with 400, whatever its depth', async () => {
    for (const depth of [33, 2_000, 8_000, 100_000]) {
      const payload = `{"event_id":"${paddleId('evt')}","event_type":"customer.updated","occurred_at":"${at(1)}","data":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      await refused(payload, 'The webhook body may not nest arrays and objects more than 32 levels deep.');
    }
    // 32 levels in all is a body like any other (an event type we do not act on: stored).
    const fits = `{"event_id":"${paddleId('evt')}","event_type":"customer.updated","occurred_at":"${at(1)}","data":{"a":${'['.repeat(30)}${']'.repeat(30)}}}`;
    expect((await deliver(paddle.signedWebhook(fits))).statusCode).toBe(200);
  });

  it('still checks the signature first: an unsigned malformed body is a 401', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/webhooks/paddle',
      headers: { 'content-type': 'application/json' },
      payload: '['.repeat(100_000),
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('logs', () => {
  it('carry what happened to each delivery and never the secret, the signature or the body', async () => {
    const { user, subscription } = await subscriber(paddle.prices.bronze);
    const event = paddle.subscriptionEvent('subscription.activated', subscription);
    const signed = paddle.signedWebhook(event);
    await deliver(signed);
    await deliver(paddle.signedWebhook(event, { secret: 'forged' }));
    const text = logLines.join('');
    expect(text).toContain(event.event_id as string);
    expect(text).toContain('paddle webhook refused');
    for (const secret of [
      paddle.webhookSecret,
      paddle.apiKey,
      signed.headers['paddle-signature']!,
      user.email,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
