// Pure mapping from what Paddle says (a webhook event, a fetched subscription) to the user's
// billing state (docs/api.md, "The webhook: POST /api/webhooks/paddle"): subscription_status,
// subscription_tier, trial_ends_at and the paddle_* fields. No I/O here: the service decides when
// and to whom it applies.
import { z } from 'zod';
import type { SubscriptionStatus, SubscriptionTier } from '../users/users.table.ts';
import {
  type PaddleSubscription,
  type PaddleSubscriptionStatus,
  paddleSubscriptionSchema,
  paddleSubscriptionStatuses,
  paddleTimeSchema,
  paddleTransactionSchema,
} from './paddle.client.ts';

/** The configured prices (PADDLE_PRICE_BRONZE, PADDLE_PRICE_PREMIUM). */
export interface PriceTiers {
  bronze?: string | undefined;
  premium?: string | undefined;
}

export interface BillingState {
  subscriptionStatus: SubscriptionStatus;
  subscriptionTier: SubscriptionTier;
  trialEndsAt: Date | null;
  paddleCustomerId: string;
  paddleSubscriptionId: string;
  paddlePriceId: string | null;
  paddleStatus: PaddleSubscriptionStatus;
  paddleNextBilledAt: Date | null;
}

/** The envelope of every Paddle notification. `data` is read per event type. */
export const paddleEventSchema = z.object({
  event_id: z.string().min(1).max(255),
  event_type: z.string().min(1).max(255),
  occurred_at: paddleTimeSchema,
  notification_id: z.string().nullish(),
  data: z.record(z.string(), z.unknown()),
});
export type PaddleEvent = z.infer<typeof paddleEventSchema>;

export const subscriptionEventTypes = [
  'subscription.created',
  'subscription.updated',
  'subscription.activated',
  'subscription.trialing',
  'subscription.past_due',
  'subscription.paused',
  'subscription.resumed',
  'subscription.canceled',
  'subscription.imported',
] as const;

export const transactionEventTypes = ['transaction.completed', 'transaction.paid'] as const;

/**
 * Price -> tier (docs/api.md, "The webhook: POST /api/webhooks/paddle"): the two configured
 * prices, and any other price is `custom`.
 */
export function tierForPrice(priceId: string | null, prices: PriceTiers): 'bronze' | 'premium' | 'custom' {
  if (priceId !== null && priceId === prices.premium) return 'premium';
  if (priceId !== null && priceId === prices.bronze) return 'bronze';
  return 'custom';
}

const tierRank = { premium: 2, bronze: 1, custom: 0 } as const;

/**
 * Paddle's status -> ours (docs/api.md, "The webhook: POST /api/webhooks/paddle"). `paused` has no
 * counterpart among our statuses: a paused subscription is not paid for, so it reads `canceled`
 * (paddle_status keeps `paused`).
 */
const statusMap: Record<PaddleSubscriptionStatus, SubscriptionStatus> = {
  active: 'active',
  trialing: 'trialing',
  past_due: 'past_due',
  paused: 'canceled',
  canceled: 'canceled',
};

/** Not ended: Paddle may still bill it (a paused subscription can resume). */
export const isLiveSubscription = (status: string | null) =>
  status !== null &&
  status !== 'canceled' &&
  (paddleSubscriptionStatuses as readonly string[]).includes(status);

const toDate = (value: string | null | undefined) => (value ? new Date(value) : null);

/** The price that decides the tier: the best-ranked of the subscription's current items. */
function decidingPrice(subscription: PaddleSubscription, prices: PriceTiers): string | null {
  const current = subscription.items.filter((item) => item.status !== 'inactive');
  const items = current.length > 0 ? current : subscription.items;
  let best: string | null = null;
  for (const item of items) {
    if (
      best === null ||
      tierRank[tierForPrice(item.price.id, prices)] > tierRank[tierForPrice(best, prices)]
    ) {
      best = item.price.id;
    }
  }
  return best;
}

/** The earliest end of the items' trials; Paddle bills the subscription from then. */
function trialEnd(subscription: PaddleSubscription): Date | null {
  const ends = subscription.items
    .map((item) => toDate(item.trial_dates?.ends_at))
    .filter((date): date is Date => date !== null && !Number.isNaN(date.getTime()));
  if (ends.length === 0) return toDate(subscription.next_billed_at);
  return new Date(Math.min(...ends.map((date) => date.getTime())));
}

/**
 * A subscription as the user's billing state. A subscription that is billed (active, trialing,
 * past_due) gives the tier of its price; one that ended or is paused puts the user back on
 * `free`. trial_ends_at is only set while trialing.
 */
export function billingStateOf(subscription: PaddleSubscription, prices: PriceTiers): BillingState {
  const priceId = decidingPrice(subscription, prices);
  const billed = subscription.status !== 'paused' && subscription.status !== 'canceled';
  return {
    subscriptionStatus: statusMap[subscription.status],
    subscriptionTier: billed ? tierForPrice(priceId, prices) : 'free',
    trialEndsAt: subscription.status === 'trialing' ? trialEnd(subscription) : null,
    paddleCustomerId: subscription.customer_id,
    paddleSubscriptionId: subscription.id,
    paddlePriceId: priceId,
    paddleStatus: subscription.status,
    paddleNextBilledAt: toDate(subscription.next_billed_at),
  };
}

/** The user id our checkout put into `custom_data` (a string or a number), when it is one. */
export function userIdFromCustomData(
  customData: Record<string, unknown> | null | undefined,
): number | undefined {
  const raw = customData?.user_id;
  const id =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : undefined;
}

/** What an event asks of the user it belongs to. */
export type WebhookEffect =
  /** A subscription event: the state it carries, as of `occurredAt`. */
  | {
      kind: 'subscription';
      customerId: string;
      userId: number | undefined;
      state: BillingState;
      occurredAt: string;
    }
  /** A paid transaction: the customer is the user's (remembered when the user has none yet). */
  | { kind: 'customer'; customerId: string; userId: number | undefined }
  /** Stored and acknowledged only: an event type we do not act on, or a transaction without customer. */
  | { kind: 'none'; reason: 'unhandled_type' | 'no_customer' }
  /**
   * An event type we act on whose data lacks a field we read, or has one of the wrong type (a
   * date that is not one): refused, nothing stored. `field` is the first such field's path.
   */
  | { kind: 'invalid'; field: string };

/** `data.items.0.price.id`: the path of the first issue, from our schema's keys (never a value). */
const invalidData = (error: z.ZodError): WebhookEffect => ({
  kind: 'invalid',
  field: ['data', ...(error.issues[0]?.path ?? [])].join('.'),
});

export function webhookEffect(event: PaddleEvent, prices: PriceTiers): WebhookEffect {
  if ((subscriptionEventTypes as readonly string[]).includes(event.event_type)) {
    const parsed = paddleSubscriptionSchema.safeParse(event.data);
    if (!parsed.success) return invalidData(parsed.error);
    return {
      kind: 'subscription',
      customerId: parsed.data.customer_id,
      userId: userIdFromCustomData(parsed.data.custom_data),
      state: billingStateOf(parsed.data, prices),
      occurredAt: event.occurred_at,
    };
  }
  if ((transactionEventTypes as readonly string[]).includes(event.event_type)) {
    const parsed = paddleTransactionSchema.safeParse(event.data);
    if (!parsed.success) return invalidData(parsed.error);
    // Paddle's schema allows a transaction without a customer: nothing to remember.
    if (!parsed.data.customer_id) return { kind: 'none', reason: 'no_customer' };
    return {
      kind: 'customer',
      customerId: parsed.data.customer_id,
      userId: userIdFromCustomData(parsed.data.custom_data),
    };
  }
  return { kind: 'none', reason: 'unhandled_type' };
}

/**
 * Whether a subscription's state may replace the user's current one. The same subscription
 * always may (the timestamps decide); another one only when it is live or the current one has
 * ended, so the late `canceled` of an old subscription never ends a newer, live one.
 */
export function replacesCurrent(
  current: { paddleSubscriptionId: string | null; paddleStatus: string | null },
  next: Pick<BillingState, 'paddleSubscriptionId' | 'paddleStatus'>,
): boolean {
  if (current.paddleSubscriptionId === null || current.paddleSubscriptionId === next.paddleSubscriptionId) {
    return true;
  }
  return isLiveSubscription(next.paddleStatus) || !isLiveSubscription(current.paddleStatus);
}

/**
 * The subscription a sync applies: the newest live one, else the newest of all (Paddle ids
 * sort by creation, and so does created_at).
 */
export function currentSubscription(subscriptions: PaddleSubscription[]): PaddleSubscription | undefined {
  const newestFirst = [...subscriptions].sort(
    (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id.localeCompare(a.id),
  );
  return newestFirst.find((subscription) => isLiveSubscription(subscription.status)) ?? newestFirst[0];
}
