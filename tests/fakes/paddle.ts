// A fake Paddle Billing API: a real HTTP server (node:http, a free port of 127.0.0.1) answering
// the calls the billing service makes with the shapes of Paddle's API reference
// (developer.paddle.com/api-reference): the `{data, meta}` envelope, `meta.pagination.next`
// as a full URL with `after=`, errors as `{error: {type, code, detail}, meta}`, bearer auth.
// State lives in memory; every request is logged. Failures can be switched on (a 500, or a
// request left hanging past the client's timeout), and `signedWebhook` builds a notification
// signed like Paddle signs them (computed here with node:crypto, independently of src/).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
}

export type FailureMode = 'server_error' | 'hang';

export interface FakeCustomer {
  id: string;
  name: string | null;
  email: string;
  marketing_consent: boolean;
  status: 'active' | 'archived';
  custom_data: Json | null;
  locale: string;
  created_at: string;
  updated_at: string;
  import_meta: null;
}

export interface FakeTransaction {
  id: string;
  status: 'draft' | 'ready' | 'billed' | 'paid' | 'completed' | 'canceled' | 'past_due';
  customer_id: string | null;
  address_id: string | null;
  business_id: string | null;
  custom_data: Json | null;
  currency_code: string;
  origin: string;
  subscription_id: string | null;
  invoice_id: string | null;
  invoice_number: string | null;
  collection_mode: 'automatic' | 'manual';
  items: { price_id: string; quantity: number }[];
  details: { totals: Record<string, string> };
  checkout: { url: string | null } | null;
  created_at: string;
  updated_at: string;
  billed_at: string | null;
}

export interface FakeSubscription {
  id: string;
  status: 'active' | 'trialing' | 'past_due' | 'paused' | 'canceled';
  customer_id: string;
  address_id: string;
  business_id: string | null;
  currency_code: string;
  created_at: string;
  updated_at: string;
  started_at: string;
  first_billed_at: string | null;
  next_billed_at: string | null;
  paused_at: string | null;
  canceled_at: string | null;
  collection_mode: 'automatic';
  billing_details: null;
  current_billing_period: { starts_at: string; ends_at: string } | null;
  billing_cycle: { interval: 'month'; frequency: 1 };
  scheduled_change: {
    action: 'cancel' | 'pause' | 'resume';
    effective_at: string;
    resume_at: string | null;
  } | null;
  items: {
    status: 'active' | 'inactive' | 'trialing';
    quantity: number;
    recurring: boolean;
    created_at: string;
    updated_at: string;
    previously_billed_at: string | null;
    next_billed_at: string | null;
    trial_dates: { starts_at: string; ends_at: string } | null;
    price: {
      id: string;
      product_id: string;
      description: string;
      unit_price: { amount: string; currency_code: string };
    };
  }[];
  custom_data: Json | null;
  discount: null;
}

export interface FakePaddle {
  /** Base URL for PADDLE_API_URL. */
  url: string;
  apiKey: string;
  webhookSecret: string;
  /** The PADDLE_* variables that point the app at this server. */
  env: Record<string, string>;
  prices: { bronze: string; premium: string; other: string };
  requests: LoggedRequest[];
  customers: Map<string, FakeCustomer>;
  transactions: Map<string, FakeTransaction>;
  subscriptions: Map<string, FakeSubscription>;
  /** Largest page the fake serves, whatever per_page asks (small values exercise paging). */
  maxPerPage: number;
  /** The account's default payment link; null makes created transactions carry `checkout.url: null`. */
  defaultPaymentLink: string | null;
  /** The next `times` requests (matching `when`) fail this way. */
  fail(mode: FailureMode, options?: { times?: number; when?: (request: LoggedRequest) => boolean }): void;
  clearFailures(): void;
  /** Requests of one method whose path matches. */
  requestsTo(method: string, path: RegExp): LoggedRequest[];
  addCustomer(values: { email: string; name?: string; customData?: Json | null }): FakeCustomer;
  addTransaction(values: {
    customerId: string;
    status: FakeTransaction['status'];
    amount?: number;
    currency?: string;
    createdAt?: string;
    billedAt?: string | null;
  }): FakeTransaction;
  addSubscription(values: {
    customerId: string;
    priceId: string;
    status: FakeSubscription['status'];
    customData?: Json | null;
    trialEndsAt?: string;
    createdAt?: string;
    updatedAt?: string;
  }): FakeSubscription;
  /** A notification as Paddle sends it, for a subscription (the entity as the payload). */
  subscriptionEvent(
    eventType: string,
    subscription: FakeSubscription,
    options?: { occurredAt?: string; eventId?: string },
  ): Json;
  transactionEvent(
    eventType: string,
    transaction: FakeTransaction,
    options?: { occurredAt?: string; eventId?: string },
  ): Json;
  /** The body (exactly as signed) and the headers of a webhook delivery. */
  signedWebhook(
    event: Json | string,
    options?: { ts?: number; secret?: string; extraSignatures?: string[] },
  ): { payload: string; headers: Record<string, string> };
  close(): Promise<void>;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A Paddle id: prefix, underscore, 26 lowercase letters and digits. */
export function paddleId(prefix: string): string {
  const bytes = randomBytes(26);
  return `${prefix}_${Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('')}`;
}

const nowIso = () => new Date().toISOString();
const addDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * 86_400_000).toISOString();

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

export async function startFakePaddle(): Promise<FakePaddle> {
  const apiKey = `pdl_sdbx_apikey_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `pdl_ntfset_${randomBytes(16).toString('hex')}`;
  const prices = { bronze: paddleId('pri'), premium: paddleId('pri'), other: paddleId('pri') };
  const unitPrices: Record<string, number> = {
    [prices.bronze]: 900,
    [prices.premium]: 2900,
    [prices.other]: 4900,
  };
  const failures: { mode: FailureMode; remaining: number; when: (request: LoggedRequest) => boolean }[] = [];
  const hanging = new Set<ServerResponse>();
  let url = '';

  const send = (response: ServerResponse, status: number, body: Json) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const meta = () => ({ request_id: randomUUID() });
  const ok = (response: ServerResponse, data: unknown, status = 200) =>
    send(response, status, { data, meta: meta() });
  const error = (
    response: ServerResponse,
    status: number,
    code: string,
    detail: string,
    type = 'request_error',
  ) =>
    send(response, status, {
      error: {
        type,
        code,
        detail,
        documentation_url: `https://developer.paddle.com/v1/errors/shared/${code}`,
      },
      meta: meta(),
    });

  /** A page of `items` (sorted already), after the `after` cursor, with Paddle's pagination meta. */
  function page<T extends { id: string }>(
    response: ServerResponse,
    path: string,
    query: Record<string, string>,
    items: T[],
  ) {
    const perPage = Math.min(Number(query.per_page ?? 50) || 50, fake.maxPerPage);
    const start = query.after ? items.findIndex((item) => item.id === query.after) + 1 : 0;
    const slice = items.slice(start, start + perPage);
    const hasMore = start + perPage < items.length;
    let next: string | null = null;
    if (slice.length > 0) {
      const nextQuery = new URLSearchParams({ ...query, after: slice[slice.length - 1]!.id });
      next = `${url}${path}?${nextQuery.toString()}`;
    }
    send(response, 200, {
      data: slice,
      meta: {
        request_id: randomUUID(),
        pagination: { per_page: perPage, next, has_more: hasMore, estimated_total: items.length },
      },
    });
  }

  const list = (value: string | undefined) => (value ? value.split(',') : undefined);

  function newTransaction(
    values: Partial<FakeTransaction> & { customer_id: string | null; items: FakeTransaction['items'] },
  ) {
    const created = values.created_at ?? nowIso();
    const total = values.items.reduce(
      (sum, item) => sum + (unitPrices[item.price_id] ?? 1000) * item.quantity,
      0,
    );
    const transaction: FakeTransaction = {
      id: paddleId('txn'),
      status: 'ready',
      address_id: null,
      business_id: null,
      custom_data: null,
      currency_code: 'USD',
      origin: 'api',
      subscription_id: null,
      invoice_id: null,
      invoice_number: null,
      collection_mode: 'automatic',
      details: {
        totals: {
          subtotal: String(total),
          discount: '0',
          tax: '0',
          total: String(total),
          credit: '0',
          balance: String(total),
          grand_total: String(total),
          currency_code: values.currency_code ?? 'USD',
        },
      },
      checkout: null,
      updated_at: created,
      billed_at: null,
      ...values,
      created_at: created,
    };
    fake.transactions.set(transaction.id, transaction);
    return transaction;
  }

  async function route(request: LoggedRequest, response: ServerResponse): Promise<void> {
    const { method, path, query } = request;
    const body = (request.body ?? {}) as Json;
    /** The path's captures when the request is `verb` on `pattern`. */
    const on = (verb: string, pattern: RegExp) => (method === verb ? path.match(pattern) : null);

    if (method === 'POST' && path === '/customers') {
      const email = typeof body.email === 'string' ? body.email : '';
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) return error(response, 400, 'invalid_field', 'email is invalid');
      const existing = [...fake.customers.values()].find(
        (customer) => customer.email.toLowerCase() === email.toLowerCase(),
      );
      if (existing) {
        return error(
          response,
          409,
          'customer_already_exists',
          `customer email conflicts with customer of id ${existing.id}`,
        );
      }
      return ok(
        response,
        fake.addCustomer({
          email,
          name: body.name as string | undefined,
          customData: (body.custom_data as Json) ?? null,
        }),
        201,
      );
    }
    if (method === 'GET' && path === '/customers') {
      const emails = list(query.email)?.map((email) => email.toLowerCase());
      const statuses = list(query.status) ?? ['active'];
      const customers = [...fake.customers.values()]
        .filter((customer) => statuses.includes(customer.status))
        .filter((customer) => !emails || emails.includes(customer.email.toLowerCase()))
        .sort((a, b) => b.id.localeCompare(a.id));
      return page(response, path, query, customers);
    }
    const customerPath = on('GET', /^\/customers\/([^/]+)$/);
    if (customerPath) {
      const customer = fake.customers.get(customerPath[1]!);
      return customer ? ok(response, customer) : error(response, 404, 'not_found', 'Entity not found.');
    }
    const portalPath = on('POST', /^\/customers\/([^/]+)\/portal-sessions$/);
    if (portalPath) {
      const customer = fake.customers.get(portalPath[1]!);
      if (!customer) return error(response, 404, 'not_found', 'Entity not found.');
      const token = `pga_${randomBytes(24).toString('base64url')}`;
      const portal = `https://customer-portal.paddle.test/cpl_${customer.id.slice(4)}`;
      const ids = Array.isArray(body.subscription_ids) ? (body.subscription_ids as string[]) : [];
      return ok(
        response,
        {
          id: paddleId('cpls'),
          customer_id: customer.id,
          urls: {
            general: { overview: `${portal}?action=overview&token=${token}` },
            subscriptions: ids.map((id) => ({
              id,
              cancel_subscription: `${portal}?action=cancel_subscription&subscription_id=${id}&token=${token}`,
              update_subscription_payment_method: `${portal}?action=update_subscription_payment_method&subscription_id=${id}&token=${token}`,
            })),
          },
          created_at: nowIso(),
        },
        201,
      );
    }

    if (method === 'POST' && path === '/transactions') {
      const items = Array.isArray(body.items)
        ? (body.items as { price_id?: unknown; quantity?: unknown }[])
        : [];
      if (items.length === 0 || items.some((item) => typeof item.price_id !== 'string')) {
        return error(response, 400, 'invalid_field', 'items is invalid');
      }
      const customerId = typeof body.customer_id === 'string' ? body.customer_id : null;
      if (customerId && !fake.customers.has(customerId))
        return error(response, 404, 'not_found', 'customer not found');
      const transaction = newTransaction({
        customer_id: customerId,
        custom_data: (body.custom_data as Json) ?? null,
        items: items.map((item) => ({
          price_id: item.price_id as string,
          quantity: Number(item.quantity ?? 1),
        })),
      });
      transaction.checkout = {
        url: fake.defaultPaymentLink === null ? null : `${fake.defaultPaymentLink}?_ptxn=${transaction.id}`,
      };
      return ok(response, transaction, 201);
    }
    if (method === 'GET' && path === '/transactions') {
      const customers = list(query.customer_id);
      const statuses = list(query.status);
      const transactions = [...fake.transactions.values()]
        .filter((transaction) => !customers || customers.includes(transaction.customer_id ?? ''))
        .filter((transaction) => !statuses || statuses.includes(transaction.status))
        .sort((a, b) =>
          query.order_by === 'created_at[DESC]'
            ? b.created_at.localeCompare(a.created_at)
            : a.id.localeCompare(b.id),
        );
      return page(response, path, query, transactions);
    }
    const transactionPath = on('GET', /^\/transactions\/([^/]+)$/);
    if (transactionPath) {
      const transaction = fake.transactions.get(transactionPath[1]!);
      return transaction ? ok(response, transaction) : error(response, 404, 'not_found', 'Entity not found.');
    }
    const invoicePath = on('GET', /^\/transactions\/([^/]+)\/invoice$/);
    if (invoicePath) {
      const transaction = fake.transactions.get(invoicePath[1]!);
      if (!transaction) return error(response, 404, 'not_found', 'Entity not found.');
      if (transaction.status !== 'completed' && transaction.status !== 'billed') {
        return error(
          response,
          400,
          'transaction_not_billed',
          'invoice is not available for this transaction',
        );
      }
      return ok(response, {
        url: `https://invoices.paddle.test/invoices/${transaction.id}.pdf?token=${randomBytes(16).toString('hex')}`,
      });
    }

    if (method === 'GET' && path === '/subscriptions') {
      const customers = list(query.customer_id);
      const statuses = list(query.status);
      const subscriptions = [...fake.subscriptions.values()]
        .filter((subscription) => !customers || customers.includes(subscription.customer_id))
        .filter((subscription) => !statuses || statuses.includes(subscription.status))
        .sort((a, b) => a.id.localeCompare(b.id));
      return page(response, path, query, subscriptions);
    }
    const subscriptionPath = on('GET', /^\/subscriptions\/([^/]+)$/);
    if (subscriptionPath) {
      const subscription = fake.subscriptions.get(subscriptionPath[1]!);
      return subscription
        ? ok(response, subscription)
        : error(response, 404, 'not_found', 'Entity not found.');
    }
    const cancelPath = on('POST', /^\/subscriptions\/([^/]+)\/cancel$/);
    if (cancelPath) {
      const subscription = fake.subscriptions.get(cancelPath[1]!);
      if (!subscription) return error(response, 404, 'not_found', 'Entity not found.');
      if (subscription.status === 'canceled') {
        return error(response, 400, 'subscription_update_when_canceled', 'subscription is canceled');
      }
      const now = nowIso();
      if (body.effective_from === 'immediately') {
        Object.assign(subscription, {
          status: 'canceled',
          canceled_at: now,
          next_billed_at: null,
          scheduled_change: null,
        });
      } else {
        subscription.scheduled_change = {
          action: 'cancel',
          effective_at: subscription.next_billed_at ?? addDays(now, 30),
          resume_at: null,
        };
      }
      subscription.updated_at = now;
      return ok(response, subscription);
    }

    return error(response, 404, 'not_found', `no route ${method} ${path}`);
  }

  const server = createServer(async (incoming, response) => {
    const parsed = new URL(incoming.url ?? '/', 'http://fake');
    const text = await readBody(incoming);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const request: LoggedRequest = {
      method: incoming.method ?? 'GET',
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      body,
      authorization: incoming.headers.authorization,
    };
    fake.requests.push(request);

    const failure = failures.find((candidate) => candidate.remaining > 0 && candidate.when(request));
    if (failure) {
      failure.remaining -= 1;
      if (failure.mode === 'hang') {
        // No answer at all until the client gives up (or the fake closes).
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return;
      }
      return error(response, 500, 'internal_error', 'An internal error has occurred.', 'api_error');
    }

    const auth = request.authorization;
    if (!auth) return error(response, 403, 'authentication_missing', 'Authentication header missing.');
    if (!auth.startsWith('Bearer ')) {
      return error(
        response,
        403,
        'authentication_malformed',
        'Authentication header included, but incorrectly formatted.',
      );
    }
    if (auth !== `Bearer ${apiKey}`)
      return error(response, 403, 'forbidden', 'You are not permitted to do this.');
    await route(request, response);
  });

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakePaddle = {
    url,
    apiKey,
    webhookSecret,
    env: {
      PADDLE_API_URL: url,
      PADDLE_API_KEY: apiKey,
      PADDLE_WEBHOOK_SECRET: webhookSecret,
      PADDLE_PRICE_BRONZE: prices.bronze,
      PADDLE_PRICE_PREMIUM: prices.premium,
      PADDLE_TIMEOUT_MS: '500',
    },
    prices,
    requests: [],
    customers: new Map(),
    transactions: new Map(),
    subscriptions: new Map(),
    maxPerPage: 200,
    defaultPaymentLink: 'https://shop.example/pay',

    fail(mode, { times = 1, when = () => true } = {}) {
      failures.push({ mode, remaining: times, when });
    },
    clearFailures() {
      failures.length = 0;
    },
    requestsTo(method, path) {
      return fake.requests.filter((request) => request.method === method && path.test(request.path));
    },

    addCustomer({ email, name, customData = null }) {
      const now = nowIso();
      const customer: FakeCustomer = {
        id: paddleId('ctm'),
        name: name ?? null,
        email,
        marketing_consent: false,
        status: 'active',
        custom_data: customData,
        locale: 'en',
        created_at: now,
        updated_at: now,
        import_meta: null,
      };
      fake.customers.set(customer.id, customer);
      return customer;
    },

    addTransaction({ customerId, status, amount = 900, currency = 'USD', createdAt, billedAt }) {
      const created = createdAt ?? nowIso();
      const transaction = newTransaction({
        customer_id: customerId,
        status,
        currency_code: currency,
        items: [{ price_id: prices.bronze, quantity: 1 }],
        created_at: created,
        billed_at:
          billedAt === undefined
            ? status === 'billed' || status === 'completed'
              ? created
              : null
            : billedAt,
      });
      const text = String(amount);
      Object.assign(transaction.details.totals, {
        subtotal: text,
        total: text,
        grand_total: text,
        balance: text,
      });
      return transaction;
    },

    addSubscription({ customerId, priceId, status, customData = null, trialEndsAt, createdAt, updatedAt }) {
      const created = createdAt ?? nowIso();
      const trialing = status === 'trialing';
      const nextBilled =
        trialing && trialEndsAt ? trialEndsAt : status === 'canceled' ? null : addDays(created, 30);
      const subscription: FakeSubscription = {
        id: paddleId('sub'),
        status,
        customer_id: customerId,
        address_id: paddleId('add'),
        business_id: null,
        currency_code: 'USD',
        created_at: created,
        updated_at: updatedAt ?? created,
        started_at: created,
        first_billed_at: trialing ? null : created,
        next_billed_at: nextBilled,
        paused_at: status === 'paused' ? created : null,
        canceled_at: status === 'canceled' ? created : null,
        collection_mode: 'automatic',
        billing_details: null,
        current_billing_period:
          status === 'canceled' ? null : { starts_at: created, ends_at: nextBilled ?? created },
        billing_cycle: { interval: 'month', frequency: 1 },
        scheduled_change: null,
        items: [
          {
            status: trialing ? 'trialing' : status === 'canceled' ? 'inactive' : 'active',
            quantity: 1,
            recurring: true,
            created_at: created,
            updated_at: created,
            previously_billed_at: trialing ? null : created,
            next_billed_at: nextBilled,
            trial_dates: trialing && trialEndsAt ? { starts_at: created, ends_at: trialEndsAt } : null,
            price: {
              id: priceId,
              product_id: paddleId('pro'),
              description: 'Monthly',
              unit_price: { amount: String(unitPrices[priceId] ?? 1000), currency_code: 'USD' },
            },
          },
        ],
        custom_data: customData,
        discount: null,
      };
      fake.subscriptions.set(subscription.id, subscription);
      return subscription;
    },

    subscriptionEvent(eventType, subscription, { occurredAt = nowIso(), eventId = paddleId('evt') } = {}) {
      return {
        event_id: eventId,
        event_type: eventType,
        occurred_at: occurredAt,
        notification_id: paddleId('ntf'),
        data: structuredClone(subscription),
      };
    },

    transactionEvent(eventType, transaction, { occurredAt = nowIso(), eventId = paddleId('evt') } = {}) {
      return {
        event_id: eventId,
        event_type: eventType,
        occurred_at: occurredAt,
        notification_id: paddleId('ntf'),
        data: structuredClone(transaction),
      };
    },

    signedWebhook(
      event,
      { ts = Math.floor(Date.now() / 1000), secret = webhookSecret, extraSignatures = [] } = {},
    ) {
      const payload = typeof event === 'string' ? event : JSON.stringify(event);
      const h1 = createHmac('sha256', secret).update(`${ts}:${payload}`).digest('hex');
      const signature = [`ts=${ts}`, ...extraSignatures.map((value) => `h1=${value}`), `h1=${h1}`].join(';');
      return { payload, headers: { 'content-type': 'application/json', 'paddle-signature': signature } };
    },

    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
