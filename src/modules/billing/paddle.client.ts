// A small typed client of the Paddle Billing API (developer.paddle.com/api-reference), with only
// the calls the billing service makes. Every call goes through lib/upstream (bounded, one error
// type), sends `Authorization: Bearer <PADDLE_API_KEY>`, unwraps Paddle's `{data, meta}`
// envelope, and turns every failure, including Paddle's `{error: {type, code, detail}}`
// answers, into one PaddleError. Lists follow `meta.pagination.next` to the end.
// Responses are checked against the fields we read; anything else Paddle sends is ignored.
import { z } from 'zod';
import { requestJson, UpstreamError, type UpstreamFailure } from '../../lib/upstream.ts';

const SERVICE = 'paddle';
/** A list is read to its end, but never past this many pages (a runaway `next` is a bug, not data). */
const MAX_PAGES = 50;
const PER_PAGE = 200;

export class PaddleError extends Error {
  constructor(
    readonly failure: UpstreamFailure,
    message: string,
    /** The HTTP status when Paddle answered. */
    readonly status?: number,
    /** `error.type` and `error.code` of Paddle's error body (`request_error`, `customer_already_exists`). */
    readonly type?: string,
    readonly code?: string,
    /** `error.detail`: Paddle's own explanation; may name Paddle ids, never a secret. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'PaddleError';
  }
}

// --- Entities: the fields the service reads --------------------------------------------------

/**
 * A time as Paddle writes it (RFC 3339, `2024-10-12T07:20:50.52Z`). Checked here because these
 * values are stored (timestamptz) and compared by PostgreSQL: a webhook's `"not-a-date"` must be
 * refused before a transaction starts. Year 0000 exists in ISO 8601 but not in PostgreSQL.
 */
export const paddleTimeSchema = z.iso
  .datetime({ offset: true })
  .refine((value) => !value.startsWith('0000'), 'Invalid ISO datetime');

export const paddleCustomerSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullish(),
  custom_data: z.record(z.string(), z.unknown()).nullish(),
});
export type PaddleCustomer = z.infer<typeof paddleCustomerSchema>;

export const paddleTransactionSchema = z.object({
  id: z.string(),
  status: z.string(),
  customer_id: z.string().nullish(),
  subscription_id: z.string().nullish(),
  currency_code: z.string(),
  custom_data: z.record(z.string(), z.unknown()).nullish(),
  created_at: paddleTimeSchema,
  billed_at: paddleTimeSchema.nullish(),
  details: z
    .object({
      totals: z.object({ total: z.string().nullish(), grand_total: z.string().nullish() }).nullish(),
    })
    .nullish(),
  checkout: z.object({ url: z.string().nullish() }).nullish(),
});
export type PaddleTransaction = z.infer<typeof paddleTransactionSchema>;

export const paddleSubscriptionStatuses = ['active', 'trialing', 'past_due', 'paused', 'canceled'] as const;
export type PaddleSubscriptionStatus = (typeof paddleSubscriptionStatuses)[number];

export const paddleSubscriptionSchema = z.object({
  id: z.string(),
  status: z.enum(paddleSubscriptionStatuses),
  customer_id: z.string(),
  custom_data: z.record(z.string(), z.unknown()).nullish(),
  created_at: paddleTimeSchema,
  updated_at: paddleTimeSchema,
  next_billed_at: paddleTimeSchema.nullish(),
  scheduled_change: z.object({ action: z.string(), effective_at: paddleTimeSchema.nullish() }).nullish(),
  items: z.array(
    z.object({
      status: z.string().nullish(),
      price: z.object({ id: z.string() }),
      trial_dates: z
        .object({ starts_at: paddleTimeSchema.nullish(), ends_at: paddleTimeSchema.nullish() })
        .nullish(),
    }),
  ),
});
export type PaddleSubscription = z.infer<typeof paddleSubscriptionSchema>;

const portalSessionSchema = z.object({
  id: z.string(),
  customer_id: z.string(),
  urls: z.object({ general: z.object({ overview: z.string() }) }),
});
export type PaddlePortalSession = z.infer<typeof portalSessionSchema>;

const invoiceSchema = z.object({ url: z.string() });

// --- The client ------------------------------------------------------------------------------

export interface PaddleClientOptions {
  apiKey: string;
  /** `https://api.paddle.com` or `https://sandbox-api.paddle.com` (no trailing slash). */
  apiUrl: string;
  timeoutMs: number;
}

const errorBodySchema = z.object({
  error: z.object({
    type: z.string().optional(),
    code: z.string().optional(),
    detail: z.string().optional(),
  }),
});

const paginationSchema = z.object({
  meta: z
    .object({
      pagination: z.object({ next: z.string().nullish(), has_more: z.boolean().optional() }).optional(),
    })
    .optional(),
});

export function createPaddleClient({ apiKey, apiUrl, timeoutMs }: PaddleClientOptions) {
  const base = new URL(`${apiUrl}/`);

  async function send(
    method: 'GET' | 'POST',
    target: string | URL,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const url = typeof target === 'string' ? new URL(target.replace(/^\//, ''), base) : target;
    try {
      const response = await requestJson(url, {
        service: SERVICE,
        method,
        headers: { authorization: `Bearer ${apiKey}` },
        body,
        timeoutMs,
      });
      return { status: response.status, body: response.body };
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      const paddle = errorBodySchema.safeParse(error.body);
      const details = paddle.success ? paddle.data.error : undefined;
      throw new PaddleError(
        error.failure,
        details?.code ? `${error.message} (${details.code})` : error.message,
        error.status,
        details?.type,
        details?.code,
        details?.detail,
      );
    }
  }

  /** `{data: T}` of a single-entity answer. */
  async function one<T>(schema: z.ZodType<T>, method: 'GET' | 'POST', path: string, body?: unknown) {
    const answer = await send(method, path, body);
    const parsed = z.object({ data: schema }).safeParse(answer.body);
    if (!parsed.success) {
      throw new PaddleError(
        'invalid_body',
        `paddle: ${method} ${path.split('?')[0]} answered an unexpected body`,
      );
    }
    return parsed.data.data;
  }

  /** Every entity of a list, following `meta.pagination.next` (only ever to Paddle's own host). */
  async function all<T>(schema: z.ZodType<T>, path: string, query: Record<string, string>): Promise<T[]> {
    const first = new URL(path.replace(/^\//, ''), base);
    for (const [key, value] of Object.entries({ per_page: String(PER_PAGE), ...query })) {
      first.searchParams.set(key, value);
    }
    const items: T[] = [];
    let next: URL | undefined = first;
    for (let page = 0; next; page++) {
      if (page === MAX_PAGES)
        throw new PaddleError('invalid_body', `paddle: ${path} has more than ${MAX_PAGES} pages`);
      const answer = await send('GET', next);
      const parsed = z.object({ data: z.array(schema) }).safeParse(answer.body);
      const paging = paginationSchema.safeParse(answer.body);
      if (!parsed.success || !paging.success) {
        throw new PaddleError('invalid_body', `paddle: GET ${path} answered an unexpected body`);
      }
      items.push(...parsed.data.data);
      const link = paging.data.meta?.pagination?.next;
      const more = paging.data.meta?.pagination?.has_more ?? Boolean(link);
      next = undefined;
      if (more && link && parsed.data.data.length > 0) {
        const candidate = new URL(link, base);
        // The bearer key goes only to the configured host.
        if (candidate.origin !== base.origin) {
          throw new PaddleError('invalid_body', `paddle: GET ${path} pointed its next page at another host`);
        }
        next = candidate;
      }
    }
    return items;
  }

  const pathId = (id: string) => encodeURIComponent(id);

  return {
    /** POST /customers. Paddle answers 409 `customer_already_exists` for an email it knows. */
    createCustomer: (input: { email: string; name?: string; customData?: Record<string, unknown> }) =>
      one(paddleCustomerSchema, 'POST', '/customers', {
        email: input.email,
        ...(input.name ? { name: input.name } : {}),
        ...(input.customData ? { custom_data: input.customData } : {}),
      }),

    getCustomer: (id: string) => one(paddleCustomerSchema, 'GET', `/customers/${pathId(id)}`),

    /** GET /customers?email=: exact matches of one address (active customers, Paddle's default). */
    listCustomersByEmail: (email: string) => all(paddleCustomerSchema, '/customers', { email }),

    /** POST /transactions: a transaction for one price; Paddle returns `checkout.url` to pay it. */
    createTransaction: (input: {
      customerId: string;
      priceId: string;
      customData: Record<string, unknown>;
    }) =>
      one(paddleTransactionSchema, 'POST', '/transactions', {
        items: [{ price_id: input.priceId, quantity: 1 }],
        customer_id: input.customerId,
        custom_data: input.customData,
      }),

    getTransaction: (id: string) => one(paddleTransactionSchema, 'GET', `/transactions/${pathId(id)}`),

    /** GET /transactions filtered by customer and statuses, newest first. */
    listTransactions: (input: { customerId: string; statuses: string[] }) =>
      all(paddleTransactionSchema, '/transactions', {
        customer_id: input.customerId,
        status: input.statuses.join(','),
        order_by: 'created_at[DESC]',
      }),

    /** GET /transactions/{id}/invoice: a link to the invoice PDF that expires after an hour. */
    getTransactionInvoiceUrl: async (id: string) =>
      (await one(invoiceSchema, 'GET', `/transactions/${pathId(id)}/invoice`)).url,

    /** POST /customers/{id}/portal-sessions: authenticated links to Paddle's customer portal. */
    createPortalSession: (customerId: string, subscriptionIds: string[]) =>
      one(portalSessionSchema, 'POST', `/customers/${pathId(customerId)}/portal-sessions`, {
        subscription_ids: subscriptionIds,
      }),

    getSubscription: (id: string) => one(paddleSubscriptionSchema, 'GET', `/subscriptions/${pathId(id)}`),

    listSubscriptions: (input: { customerId: string }) =>
      all(paddleSubscriptionSchema, '/subscriptions', { customer_id: input.customerId }),

    /** POST /subscriptions/{id}/cancel; `next_billing_period` schedules the cancellation. */
    cancelSubscription: (id: string, effectiveFrom: 'next_billing_period' | 'immediately') =>
      one(paddleSubscriptionSchema, 'POST', `/subscriptions/${pathId(id)}/cancel`, {
        effective_from: effectiveFrom,
      }),
  };
}

export type PaddleClient = ReturnType<typeof createPaddleClient>;
