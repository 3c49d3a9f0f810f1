// Billing with Paddle (docs/api.md, Billing): checkout, the customer portal, sync, invoices, the
// signed webhook, and ending a subscription when its account is deleted. Paddle is the truth about
// subscriptions; the user row keeps a copy (subscription_status, subscription_tier, trial_ends_at,
// paddle_*) that the webhook and POST /billing/sync update, never with a state older than the one
// stored.
//
// Without PADDLE_API_KEY (or, for the webhook, PADDLE_WEBHOOK_SECRET) every billing route
// answers 503 not_configured and the rest of the service runs as usual. Paddle failing
// (5xx, timeout, unreachable, an unexpected answer) is a 502 provider_unavailable; nothing is
// written to our database before the Paddle call that could fail, except the Paddle customer
// id, which is remembered as soon as Paddle has created the customer.
import type { Logger } from 'pino';
import type { Config } from '../../config/config.ts';
import type { Database } from '../../db/client.ts';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH, unstorableStrings } from '../../lib/json.ts';
import type { UserRow } from '../users/users.table.ts';
import {
  createBillingNotConfiguredError,
  createCheckoutUnavailableError,
  createCustomerTakenError,
  createEventTooDeepError,
  createInvalidEventDataError,
  createInvalidSignatureError,
  createInvoiceNotFoundError,
  createNoBillingAccountError,
  createPaddleUnavailableError,
  createPriceNotAvailableError,
  createSubscriptionExistsError,
  createUnreadableEventError,
  createUnstorableEventError,
} from './billing.errors.ts';
import type { BillingRepository } from './billing.repository.ts';
import {
  type BillingFields,
  type BillingPlan,
  billingPlanTiers,
  type CheckoutBody,
  type Invoice,
  toBillingFields,
  toInvoice,
  type WebhookAck,
} from './billing.schemas.ts';
import { createPaddleClient, type PaddleClient, type PaddleCustomer, PaddleError } from './paddle.client.ts';
import {
  billingStateOf,
  currentSubscription,
  isLiveSubscription,
  paddleEventSchema,
  replacesCurrent,
  userIdFromCustomData,
  webhookEffect,
} from './paddle.events.ts';
import { verifyPaddleSignature } from './paddle.signature.ts';

export const PADDLE_PROVIDER = 'paddle';
/** Transactions that are invoices: issued (billed) or paid in full (completed). */
const INVOICE_STATUSES = ['billed', 'completed'];

interface BillingServiceDeps {
  db: Database;
  repository: BillingRepository;
  settings: Config['paddle'];
  logger: Logger;
}

export function createBillingService({ db, repository, settings, logger }: BillingServiceDeps) {
  const log = logger.child({ module: 'billing' });
  const client = settings.apiKey
    ? createPaddleClient({ apiKey: settings.apiKey, apiUrl: settings.apiUrl, timeoutMs: settings.timeoutMs })
    : undefined;
  const prices = { bronze: settings.priceBronze, premium: settings.pricePremium };
  const offeredPrices = [settings.priceBronze, settings.pricePremium].filter((id) => id !== undefined);

  function paddle(): PaddleClient {
    if (!client) throw createBillingNotConfiguredError();
    return client;
  }

  /**
   * A failed Paddle call as the 502 the client sees; the log gets what failed and Paddle's
   * error code, never the key, a body or a customer's details.
   */
  function unavailable(call: string, error: unknown): unknown {
    if (!(error instanceof PaddleError)) return error;
    log.warn({ call, failure: error.failure, status: error.status, code: error.code }, 'paddle call failed');
    return createPaddleUnavailableError();
  }

  /** Paddle refused a request about one entity (it does not exist, or has no such document). */
  const isRefusal = (error: unknown): error is PaddleError =>
    error instanceof PaddleError && error.status !== undefined && [400, 404, 409, 422].includes(error.status);

  /**
   * The Paddle customer that Paddle already holds for the user's email, when it is provably
   * this user's: one our own earlier checkout created for this user id (a checkout that failed
   * after Paddle created the customer, or two checkouts at once). Emails are not verified
   * here, so an email match alone does not hand a stranger's billing account over.
   */
  async function adoptExistingCustomer(api: PaddleClient, user: UserRow, conflict: PaddleError) {
    let candidates: PaddleCustomer[];
    try {
      candidates = await api.listCustomersByEmail(user.email);
      const named = conflict.detail?.match(/\bctm_[a-z\d]{26}\b/)?.[0];
      // The list holds active customers only; the conflict may be with an archived one.
      if (named && !candidates.some((customer) => customer.id === named)) {
        candidates.push(await api.getCustomer(named));
      }
    } catch (error) {
      throw unavailable('find customer', error);
    }
    const own = candidates.find(
      (customer) =>
        customer.email.toLowerCase() === user.email.toLowerCase() &&
        userIdFromCustomData(customer.custom_data) === user.id,
    );
    if (!own) throw createCustomerTakenError();
    return own.id;
  }

  /** The user's Paddle customer: created at the first checkout, then remembered (docs/api.md, Billing). */
  async function customerOf(api: PaddleClient, user: UserRow): Promise<string> {
    if (user.paddleCustomerId) return user.paddleCustomerId;
    let customerId: string;
    try {
      const created = await api.createCustomer({
        email: user.email,
        name: user.name,
        customData: { user_id: String(user.id) },
      });
      customerId = created.id;
    } catch (error) {
      if (!(error instanceof PaddleError && error.code === 'customer_already_exists')) {
        throw unavailable('create customer', error);
      }
      customerId = await adoptExistingCustomer(api, user, error);
    }
    // Two checkouts racing: the first customer stored wins, and both use it.
    const row = await repository.rememberCustomer(user.id, customerId);
    return row?.paddleCustomerId ?? customerId;
  }

  return {
    /** The route-level check of the /billing/* routes: 503 without PADDLE_API_KEY. */
    assertConfigured(): void {
      paddle();
    },

    /** The route-level check of the webhook: it also needs PADDLE_WEBHOOK_SECRET. */
    assertWebhookConfigured(): void {
      paddle();
      if (!settings.webhookSecret) throw createBillingNotConfiguredError();
    },

    /** The offered prices, by tier, in rank order: what a dashboard offers for checkout. */
    plans(): BillingPlan[] {
      return billingPlanTiers.flatMap((tier) => {
        const priceId = prices[tier];
        return priceId === undefined ? [] : [{ tier, price_id: priceId }];
      });
    },

    /**
     * A Paddle transaction for one of the offered prices, carrying `custom_data.user_id`, and
     * the link to pay it. The subscription itself arrives later, through the webhook. Refused
     * (409) while the user has a subscription that has not ended.
     */
    async checkout(user: UserRow, body: CheckoutBody): Promise<{ checkout_url: string }> {
      const api = paddle();
      if (!offeredPrices.includes(body.price_id)) throw createPriceNotAvailableError();
      // A plan change goes through the portal: another checkout would bill a second subscription.
      if (user.paddleSubscriptionId && isLiveSubscription(user.paddleStatus))
        throw createSubscriptionExistsError();
      const customerId = await customerOf(api, user);
      let checkoutUrl: string | null | undefined;
      try {
        const transaction = await api.createTransaction({
          customerId,
          priceId: body.price_id,
          customData: { user_id: String(user.id) },
        });
        checkoutUrl = transaction.checkout?.url;
      } catch (error) {
        throw unavailable('create transaction', error);
      }
      if (!checkoutUrl) {
        log.warn(
          'paddle created a transaction without a checkout url (set a default payment link at Paddle)',
        );
        throw createCheckoutUnavailableError();
      }
      return { checkout_url: checkoutUrl };
    },

    /** An authenticated link to Paddle's customer portal (with the current subscription's deep links). */
    async portal(user: UserRow): Promise<{ portal_url: string }> {
      const api = paddle();
      if (!user.paddleCustomerId) throw createNoBillingAccountError();
      const subscriptionIds =
        user.paddleSubscriptionId && isLiveSubscription(user.paddleStatus) ? [user.paddleSubscriptionId] : [];
      try {
        const session = await api.createPortalSession(user.paddleCustomerId, subscriptionIds);
        return { portal_url: session.urls.general.overview };
      } catch (error) {
        throw unavailable('create portal session', error);
      }
    },

    /**
     * Fetches the customer's subscriptions and applies the current one (the newest live one,
     * else the newest), unless the stored state is newer. Without a Paddle customer there is
     * nothing to fetch and the fields come back unchanged.
     */
    async sync(user: UserRow): Promise<BillingFields> {
      const api = paddle();
      const customerId = user.paddleCustomerId;
      if (!customerId) return toBillingFields(user);
      let subscription: ReturnType<typeof currentSubscription>;
      try {
        subscription = currentSubscription(await api.listSubscriptions({ customerId }));
      } catch (error) {
        throw unavailable('list subscriptions', error);
      }
      if (!subscription) return toBillingFields(user);
      const state = billingStateOf(subscription, prices);
      const asOf = subscription.updated_at;
      const row = await db.transaction(async (tx) => {
        const locked = await repository.lockUser(user.id, tx);
        if (!locked || !replacesCurrent(locked, state)) return locked;
        return (await repository.applySubscriptionState(user.id, state, asOf, tx)) ?? locked;
      });
      return toBillingFields(row ?? user);
    },

    /** The customer's billed and completed transactions, newest first. */
    async invoices(user: UserRow): Promise<Invoice[]> {
      const api = paddle();
      const customerId = user.paddleCustomerId;
      if (!customerId) return [];
      try {
        const transactions = await api.listTransactions({ customerId, statuses: INVOICE_STATUSES });
        return transactions
          .filter((transaction) => transaction.customer_id === customerId)
          .filter((transaction) => INVOICE_STATUSES.includes(transaction.status))
          .map(toInvoice)
          .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
      } catch (error) {
        throw unavailable('list transactions', error);
      }
    },

    /**
     * A short-lived link to the invoice PDF of one of the caller's own invoices. Another
     * customer's transaction, an unknown one and one that is not an invoice answer the same 404.
     */
    async invoicePdf(user: UserRow, transactionId: string): Promise<{ url: string }> {
      const api = paddle();
      if (!user.paddleCustomerId) throw createInvoiceNotFoundError();
      try {
        const transaction = await api.getTransaction(transactionId);
        if (
          transaction.customer_id !== user.paddleCustomerId ||
          !INVOICE_STATUSES.includes(transaction.status)
        ) {
          throw createInvoiceNotFoundError();
        }
        return { url: await api.getTransactionInvoiceUrl(transactionId) };
      } catch (error) {
        if (isRefusal(error)) throw createInvoiceNotFoundError();
        throw unavailable('invoice pdf', error);
      }
    },

    /**
     * POST /webhooks/paddle. The signature first (401 on anything but a fresh, valid one), then
     * one transaction: the event is stored (a stored event_id ends it: a duplicate, no effect),
     * the user found by customer, else by custom_data.user_id, and the effect applied unless
     * the user's state is newer. Unknown event types and customers are stored and acknowledged.
     * A signed body that is no Paddle event, nests too deep, holds a string PostgreSQL cannot
     * store, or whose data (for a type we act on) lacks a field we read or has it of the wrong
     * type, is a 400 before the transaction: nothing is stored.
     */
    async handleWebhook(rawBody: string, signature: string | string[] | undefined): Promise<WebhookAck> {
      const secret = settings.webhookSecret;
      if (!client || !secret) throw createBillingNotConfiguredError();
      const check = verifyPaddleSignature({ header: signature, rawBody, secret });
      if (!check.valid) {
        log.warn({ reason: check.reason }, 'paddle webhook refused');
        throw createInvalidSignatureError();
      }
      // Checked in this order so nothing walks a body too deep, and nothing half-valid is stored.
      if (jsonNestsDeeperThan(rawBody)) throw createEventTooDeepError(MAX_JSON_DEPTH);
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        throw createUnreadableEventError();
      }
      if (unstorableStrings(json).length > 0) throw createUnstorableEventError();
      const parsed = paddleEventSchema.safeParse(json);
      if (!parsed.success) throw createUnreadableEventError();
      const event = parsed.data;
      const effect = webhookEffect(event, prices);
      if (effect.kind === 'invalid') {
        log.warn(
          { eventId: event.event_id, eventType: event.event_type, field: effect.field },
          'paddle webhook refused',
        );
        throw createInvalidEventDataError(effect.field);
      }

      const outcome = await db.transaction(async (tx) => {
        const stored = await repository.insertEvent(
          {
            provider: PADDLE_PROVIDER,
            eventId: event.event_id,
            eventType: event.event_type,
            payload: json as Record<string, unknown>,
          },
          tx,
        );
        if (!stored) return 'duplicate';
        if (effect.kind === 'none') return effect.reason;
        const user = await repository.findUserForEvent(effect.customerId, effect.userId, tx);
        if (!user) return 'unknown_customer';
        let applied: boolean;
        if (effect.kind === 'customer') {
          applied =
            user.paddleCustomerId === null &&
            (await repository.rememberCustomer(user.id, effect.customerId, tx))?.paddleCustomerId ===
              effect.customerId;
        } else {
          applied =
            replacesCurrent(user, effect.state) &&
            (await repository.applySubscriptionState(user.id, effect.state, effect.occurredAt, tx)) !==
              undefined;
        }
        await repository.markEvent(
          stored.id,
          { userId: user.id, processedAt: applied ? new Date() : null },
          tx,
        );
        return applied ? 'applied' : 'not_applied';
      });
      log.info({ eventId: event.event_id, eventType: event.event_type, outcome }, 'paddle webhook');
      return { received: true, duplicate: outcome === 'duplicate' };
    },

    /**
     * Account deletion (DELETE /me, DELETE /users/{id}) asks this first: a live subscription is
     * canceled at Paddle at the end of its billing period. Any failure throws (502, or 503
     * without settings) and the caller deletes nothing, so an account is never gone while
     * Paddle keeps billing it. Safe to repeat: an already canceled or scheduled one is left alone.
     */
    async cancelForDeletion(user: UserRow): Promise<void> {
      const subscriptionId = user.paddleSubscriptionId;
      if (!subscriptionId || user.paddleStatus === 'canceled') return;
      const api = paddle();
      try {
        const subscription = await api.getSubscription(subscriptionId);
        if (subscription.status === 'canceled' || subscription.scheduled_change?.action === 'cancel') return;
        await api.cancelSubscription(subscriptionId, 'next_billing_period');
      } catch (error) {
        if (error instanceof PaddleError && error.status === 404) return;
        throw unavailable('cancel subscription', error);
      }
      log.info({ userId: user.id, subscriptionId }, 'subscription set to cancel at the end of its period');
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
