// The pure mapping of Paddle subscriptions and events onto the user's billing state (docs/api.md,
// "The webhook: POST /api/webhooks/paddle"): status, tier by price, trial end, the paddle_* fields,
// which event types act, and which subscription may replace the current one.
import { describe, expect, it } from 'vitest';
import type { PaddleSubscription } from '../src/modules/billing/paddle.client.ts';
import {
  billingStateOf,
  currentSubscription,
  replacesCurrent,
  tierForPrice,
  userIdFromCustomData,
  webhookEffect,
} from '../src/modules/billing/paddle.events.ts';

const prices = { bronze: 'pri_bronze', premium: 'pri_premium' };

function subscription(overrides: Partial<PaddleSubscription> = {}): PaddleSubscription {
  return {
    id: 'sub_01h7ht5z5wdg9pz18jx1fagp8k',
    status: 'active',
    customer_id: 'ctm_01h7hswb86rtps5ggbq7ybydcw',
    custom_data: null,
    created_at: '2023-08-11T08:07:36.892822Z',
    updated_at: '2023-08-11T08:07:36.892822Z',
    next_billed_at: '2023-09-11T08:07:35.449123Z',
    scheduled_change: null,
    items: [{ status: 'active', price: { id: 'pri_bronze' }, trial_dates: null }],
    ...overrides,
  };
}

describe('tierForPrice', () => {
  it('maps the configured prices and calls every other price custom', () => {
    expect(tierForPrice('pri_bronze', prices)).toBe('bronze');
    expect(tierForPrice('pri_premium', prices)).toBe('premium');
    expect(tierForPrice('pri_other', prices)).toBe('custom');
    expect(tierForPrice(null, prices)).toBe('custom');
    // An unset price never matches by accident.
    expect(tierForPrice('pri_bronze', {})).toBe('custom');
  });
});

describe('billingStateOf', () => {
  it('maps an active bronze subscription', () => {
    expect(billingStateOf(subscription(), prices)).toEqual({
      subscriptionStatus: 'active',
      subscriptionTier: 'bronze',
      trialEndsAt: null,
      paddleCustomerId: 'ctm_01h7hswb86rtps5ggbq7ybydcw',
      paddleSubscriptionId: 'sub_01h7ht5z5wdg9pz18jx1fagp8k',
      paddlePriceId: 'pri_bronze',
      paddleStatus: 'active',
      paddleNextBilledAt: new Date('2023-09-11T08:07:35.449Z'),
    });
  });

  it('takes trial_ends_at from the earliest trial end of the items while trialing', () => {
    const state = billingStateOf(
      subscription({
        status: 'trialing',
        items: [
          {
            status: 'trialing',
            price: { id: 'pri_premium' },
            trial_dates: { starts_at: '2024-01-01T00:00:00Z', ends_at: '2024-01-15T00:00:00Z' },
          },
          {
            status: 'trialing',
            price: { id: 'pri_other' },
            trial_dates: { starts_at: '2024-01-01T00:00:00Z', ends_at: '2024-01-08T00:00:00Z' },
          },
        ],
      }),
      prices,
    );
    expect(state).toMatchObject({
      subscriptionStatus: 'trialing',
      subscriptionTier: 'premium',
      paddlePriceId: 'pri_premium',
      trialEndsAt: new Date('2024-01-08T00:00:00Z'),
    });
  });

  it('falls back to next_billed_at for a trial without trial dates', () => {
    const state = billingStateOf(
      subscription({ status: 'trialing', next_billed_at: '2024-02-01T00:00:00Z' }),
      prices,
    );
    expect(state.trialEndsAt).toEqual(new Date('2024-02-01T00:00:00Z'));
  });

  it.each([
    ['active', 'active', 'bronze'],
    ['past_due', 'past_due', 'bronze'],
    ['paused', 'canceled', 'free'],
    ['canceled', 'canceled', 'free'],
  ] as const)('maps Paddle %s to status %s and tier %s', (paddle, status, tier) => {
    const state = billingStateOf(subscription({ status: paddle }), prices);
    expect(state).toMatchObject({
      subscriptionStatus: status,
      subscriptionTier: tier,
      paddleStatus: paddle,
      trialEndsAt: null,
    });
  });

  it('decides the tier by the best current item; inactive items only when nothing else is left', () => {
    const mixed = subscription({
      items: [
        { status: 'active', price: { id: 'pri_other' }, trial_dates: null },
        { status: 'active', price: { id: 'pri_bronze' }, trial_dates: null },
        { status: 'inactive', price: { id: 'pri_premium' }, trial_dates: null },
      ],
    });
    expect(billingStateOf(mixed, prices)).toMatchObject({
      subscriptionTier: 'bronze',
      paddlePriceId: 'pri_bronze',
    });
    const unknownOnly = subscription({
      items: [{ status: 'active', price: { id: 'pri_other' }, trial_dates: null }],
    });
    expect(billingStateOf(unknownOnly, prices)).toMatchObject({
      subscriptionTier: 'custom',
      paddlePriceId: 'pri_other',
    });
  });

  it('keeps a null next_billed_at null', () => {
    expect(
      billingStateOf(subscription({ status: 'canceled', next_billed_at: null }), prices).paddleNextBilledAt,
    ).toBeNull();
  });
});

describe('userIdFromCustomData', () => {
  it.each([
    [{ user_id: '42' }, 42],
    [{ user_id: 42 }, 42],
    [{ user_id: '0' }, undefined],
    [{ user_id: '-1' }, undefined],
    [{ user_id: '4.5' }, undefined],
    [{ user_id: 'abc' }, undefined],
    [{ user_id: '99999999999' }, undefined],
    [{}, undefined],
    [null, undefined],
  ])('reads %j as %j', (customData, expected) => {
    expect(userIdFromCustomData(customData)).toBe(expected);
  });
});

describe('webhookEffect', () => {
  const envelope = (eventType: string, data: Record<string, unknown>) => ({
    event_id: 'evt_01h7ht60jy5hpdv5x8tfsaxje4',
    event_type: eventType,
    occurred_at: '2023-08-11T08:07:38.334150Z',
    notification_id: 'ntf_01h7ht60n4grsa2a5ddd54h1j0',
    data,
  });

  it.each([
    'subscription.created',
    'subscription.updated',
    'subscription.activated',
    'subscription.trialing',
    'subscription.past_due',
    'subscription.paused',
    'subscription.resumed',
    'subscription.canceled',
  ])('maps %s to the subscription state it carries, as of occurred_at', (type) => {
    const data = { ...subscription(), custom_data: { user_id: '7' } };
    expect(webhookEffect(envelope(type, data), prices)).toEqual({
      kind: 'subscription',
      customerId: data.customer_id,
      userId: 7,
      state: billingStateOf(subscription(), prices),
      occurredAt: '2023-08-11T08:07:38.334150Z',
    });
  });

  it.each(['transaction.completed', 'transaction.paid'])('maps %s to its customer and user', (type) => {
    const data = {
      id: 'txn_01h04vsbhqc62t8hmd4z3b578c',
      status: 'completed',
      customer_id: 'ctm_01grnn4zta5a1mf02jjze7y2ys',
      currency_code: 'USD',
      custom_data: { user_id: '9' },
      created_at: '2024-10-12T07:20:50.52Z',
    };
    expect(webhookEffect(envelope(type, data), prices)).toEqual({
      kind: 'customer',
      customerId: 'ctm_01grnn4zta5a1mf02jjze7y2ys',
      userId: 9,
    });
  });

  it('leaves other event types, and a transaction without customer, without effect', () => {
    expect(webhookEffect(envelope('customer.updated', { id: 'ctm_x' }), prices)).toEqual({
      kind: 'none',
      reason: 'unhandled_type',
    });
    expect(
      webhookEffect(
        envelope('transaction.completed', {
          id: 'txn_x',
          status: 'completed',
          customer_id: null,
          currency_code: 'USD',
          created_at: '2024-10-12T07:20:50.52Z',
        }),
        prices,
      ),
    ).toEqual({ kind: 'none', reason: 'no_customer' });
  });

  it('names the first field it reads that is missing or of the wrong type', () => {
    expect(webhookEffect(envelope('subscription.updated', { id: 'sub_x' }), prices)).toEqual({
      kind: 'invalid',
      field: 'data.status',
    });
    expect(
      webhookEffect(envelope('transaction.completed', { id: 'txn_x', status: 'completed' }), prices),
    ).toEqual({ kind: 'invalid', field: 'data.currency_code' });
    expect(
      webhookEffect(
        envelope('transaction.paid', {
          id: 'txn_x',
          status: 'paid',
          customer_id: 'ctm_x',
          currency_code: 'USD',
          created_at: 'not-a-date',
        }),
        prices,
      ),
    ).toEqual({ kind: 'invalid', field: 'data.created_at' });
  });
});

describe('replacesCurrent', () => {
  const next = (id: string, status: 'active' | 'canceled') => ({
    paddleSubscriptionId: id,
    paddleStatus: status,
  });

  it('lets the same subscription, or a first one, always through (timestamps decide)', () => {
    expect(
      replacesCurrent({ paddleSubscriptionId: null, paddleStatus: null }, next('sub_a', 'canceled')),
    ).toBe(true);
    expect(
      replacesCurrent({ paddleSubscriptionId: 'sub_a', paddleStatus: 'active' }, next('sub_a', 'canceled')),
    ).toBe(true);
  });

  it('never lets an old subscription end a newer live one, but lets a live one replace anything', () => {
    expect(
      replacesCurrent({ paddleSubscriptionId: 'sub_b', paddleStatus: 'active' }, next('sub_a', 'canceled')),
    ).toBe(false);
    expect(
      replacesCurrent({ paddleSubscriptionId: 'sub_a', paddleStatus: 'canceled' }, next('sub_b', 'active')),
    ).toBe(true);
    expect(
      replacesCurrent({ paddleSubscriptionId: 'sub_a', paddleStatus: 'active' }, next('sub_b', 'active')),
    ).toBe(true);
    expect(
      replacesCurrent({ paddleSubscriptionId: 'sub_a', paddleStatus: 'canceled' }, next('sub_b', 'canceled')),
    ).toBe(true);
  });
});

describe('currentSubscription', () => {
  it('picks the newest live subscription, else the newest one', () => {
    const old = subscription({ id: 'sub_a', status: 'active', created_at: '2024-01-01T00:00:00Z' });
    const newer = subscription({ id: 'sub_b', status: 'canceled', created_at: '2024-03-01T00:00:00Z' });
    const newest = subscription({ id: 'sub_c', status: 'past_due', created_at: '2024-02-01T00:00:00.5Z' });
    expect(currentSubscription([old, newer, newest])?.id).toBe('sub_c');
    expect(currentSubscription([newer, subscription({ id: 'sub_d', status: 'canceled' })])?.id).toBe('sub_b');
    expect(currentSubscription([])).toBeUndefined();
  });
});
