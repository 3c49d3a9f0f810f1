// Request and response shapes of /billing/* and /webhooks/paddle (docs/api.md, Billing).
import { z } from 'zod';
import { toUserPayload, userPayloadSchema } from '../users/users.schemas.ts';
import type { UserRow } from '../users/users.table.ts';
import type { PaddleTransaction } from './paddle.client.ts';

export const checkoutBodySchema = z.object({
  price_id: z
    .string({ error: 'The price_id field is required.' })
    .trim()
    .min(1, 'The price_id field is required.')
    .max(255, 'The price_id may not be greater than 255 characters.'),
});
export type CheckoutBody = z.infer<typeof checkoutBodySchema>;

export const checkoutSchema = z.object({ checkout_url: z.string() });

/** The tiers a checkout can buy, each with the price id configured for it (PADDLE_PRICE_*). */
export const billingPlanTiers = ['bronze', 'premium'] as const;
export const billingPlanSchema = z.object({ tier: z.enum(billingPlanTiers), price_id: z.string() });
export type BillingPlan = z.infer<typeof billingPlanSchema>;
export const portalSchema = z.object({ portal_url: z.string() });

/** The user's billing fields, exactly as in the user payload (GET /me). */
const billingFieldMask = {
  subscription_status: true,
  subscription_tier: true,
  trial_ends_at: true,
  paddle_customer_id: true,
  paddle_subscription_id: true,
  paddle_price_id: true,
  paddle_status: true,
  paddle_next_billed_at: true,
} as const;

export const billingFieldsSchema = userPayloadSchema.pick(billingFieldMask);
export type BillingFields = z.infer<typeof billingFieldsSchema>;

export const toBillingFields = (user: UserRow): BillingFields =>
  billingFieldsSchema.parse(toUserPayload(user));

/** Invoice (docs/api.md, Billing shapes): amount in the currency's smallest unit (cents). */
export const invoiceSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string(),
  created_at: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** A Paddle transaction as an invoice: billed_at is when it became one (created_at before that). */
export function toInvoice(transaction: PaddleTransaction): Invoice {
  const totals = transaction.details?.totals;
  const amount = Number.parseInt(totals?.grand_total || totals?.total || '0', 10);
  return {
    id: transaction.id,
    amount: Number.isSafeInteger(amount) ? amount : 0,
    currency: transaction.currency_code,
    status: transaction.status,
    created_at: new Date(transaction.billed_at ?? transaction.created_at).toISOString(),
  };
}

/** A Paddle transaction id (`txn_` + 26 lowercase letters and digits); anything else is a 404. */
export const invoicePdfParamsSchema = z.object({
  transactionId: z.string().regex(/^txn_[a-z\d]{26}$/),
});

export const invoicePdfSchema = z.object({ url: z.string() });

export const webhookAckSchema = z.object({
  received: z.literal(true),
  /** True when the event id was already stored: acknowledged, with no second effect. */
  duplicate: z.boolean(),
});
export type WebhookAck = z.infer<typeof webhookAckSchema>;
