// The account's plan (billing belongs to the user, not to a workspace: GET /me carries it, so a
// user whose plan lapsed, whom the workspace routes refuse, can still pay here): plan, status,
// trial end and next bill; checkout of a configured plan and the customer portal, both pages of
// the payment provider that the browser goes to; "refresh from the provider" (POST /billing/sync)
// for a payment made a moment ago; and the invoices, each PDF fetched as a short-lived link.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'react-aria-components/Button';
import type { User } from '../account/use-me.ts';
import { ME_KEY, useMe } from '../account/use-me.ts';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';
import { formatDate, formatDateTime, locale, t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { ScreenState } from '../ui/screen-state.tsx';
import { statusLabel, tierLabel } from './plan-labels.ts';

type Invoice = components['schemas']['Invoice'];

const PLANS_KEY = ['billing', 'plans'] as const;
const INVOICES_KEY = ['billing', 'invoices'] as const;

/** Paddle statuses of a subscription that has not ended: a second checkout would bill twice. */
const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due', 'paused']);

/** An amount in the currency's smallest unit (cents), in the currency's own decimals. */
function formatMoney(amount: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** decimals);
  } catch {
    // A code Intl does not know: the number as sent, with its code.
    return `${amount} ${currency}`;
  }
}

/** The provider's page (checkout, portal, an invoice PDF) in this tab: no popup to be blocked. */
const goTo = (url: string) => window.location.assign(url);

export function BillingScreen() {
  const me = useMe();
  const title = t('billing.title');
  if (me.error) return <ScreenState title={title} error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) return <ScreenState title={title} />;
  return (
    <>
      <h1>{title}</h1>
      <p>{t('billing.intro')}</p>
      <Subscription me={me.data} />
      <Plans me={me.data} />
      <Invoices />
    </>
  );
}

function Subscription({ me }: { me: User }) {
  const queryClient = useQueryClient();
  const sync = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/billing/sync')),
    onSuccess(fields) {
      queryClient.setQueryData<User>(ME_KEY, (old) => (old ? { ...old, ...fields } : old));
      void queryClient.invalidateQueries({ queryKey: INVOICES_KEY });
    },
  });
  return (
    <section aria-labelledby="billing-plan" className="panel">
      <h2 id="billing-plan">{t('billing.plan_title')}</h2>
      <dl className="facts">
        <dt>{t('billing.plan')}</dt>
        <dd>{tierLabel(me.subscription_tier)}</dd>
        <dt>{t('billing.status')}</dt>
        <dd>{statusLabel(me.subscription_status)}</dd>
        <dt>{t('billing.trial_ends')}</dt>
        <dd>{me.trial_ends_at ? formatDate(me.trial_ends_at) : t('billing.none')}</dd>
        {me.paddle_next_billed_at && (
          <>
            <dt>{t('billing.next_bill')}</dt>
            <dd>{formatDate(me.paddle_next_billed_at)}</dd>
          </>
        )}
      </dl>
      <div className="actions">
        <Button className="button" isDisabled={sync.isPending} onPress={() => sync.mutate()}>
          {sync.isPending ? t('app.working') : t('billing.sync')}
        </Button>
      </div>
      <p className="count">{t('billing.sync_hint')}</p>
      {sync.isSuccess && (
        <p role="status" className="notice">
          {t('billing.synced')}
        </p>
      )}
      {sync.error && <ErrorNotice error={sync.error} />}
    </section>
  );
}

function Plans({ me }: { me: User }) {
  const queryClient = useQueryClient();
  const plans = useQuery({
    queryKey: PLANS_KEY,
    queryFn: async () => unwrap(await api.GET('/api/billing/plans')),
    staleTime: 300_000,
  });
  const checkout = useMutation({
    mutationFn: async (priceId: string) =>
      unwrap(await api.POST('/api/billing/checkout', { body: { price_id: priceId } })),
    onSuccess: ({ checkout_url }) => goTo(checkout_url),
    // A refusal may mean the account changed meanwhile (a subscription arrived): show it as it is.
    onError: () => void queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
  const portal = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/billing/portal')),
    onSuccess: ({ portal_url }) => goTo(portal_url),
  });
  const subscribed = me.paddle_subscription_id !== null && LIVE_STATUSES.has(me.paddle_status ?? '');
  const leaving = checkout.isSuccess || portal.isSuccess;
  return (
    <section aria-labelledby="billing-change" className="panel">
      <h2 id="billing-change">{t('billing.change_title')}</h2>
      {subscribed ? (
        <p>{t('billing.subscribed_hint')}</p>
      ) : plans.error ? (
        <ErrorNotice error={plans.error} onRetry={() => void plans.refetch()} />
      ) : !plans.data ? (
        <p role="status">{t('app.loading')}</p>
      ) : plans.data.length === 0 ? (
        <p className="empty">{t('billing.no_plans')}</p>
      ) : (
        <>
          <p>{t('billing.checkout_hint')}</p>
          <div className="actions">
            {plans.data.map((plan) => (
              <Button
                key={plan.price_id}
                className="button primary"
                isDisabled={checkout.isPending || leaving}
                onPress={() => checkout.mutate(plan.price_id)}
              >
                {checkout.isPending && checkout.variables === plan.price_id
                  ? t('app.working')
                  : t('billing.choose', { plan: tierLabel(plan.tier) })}
              </Button>
            ))}
          </div>
        </>
      )}
      {me.paddle_customer_id ? (
        <div className="actions">
          <Button className="button" isDisabled={portal.isPending || leaving} onPress={() => portal.mutate()}>
            {portal.isPending ? t('app.working') : t('billing.portal')}
          </Button>
        </div>
      ) : (
        <p className="count">{t('billing.portal_later')}</p>
      )}
      {leaving && (
        <p role="status" className="notice">
          {t('billing.leaving')}
        </p>
      )}
      {(checkout.error || portal.error) && <ErrorNotice error={checkout.error ?? portal.error} />}
    </section>
  );
}

function Invoices() {
  const invoices = useQuery({
    queryKey: INVOICES_KEY,
    queryFn: async () => unwrap(await api.GET('/api/billing/invoices')),
  });
  const pdf = useMutation({
    mutationFn: async (id: string) =>
      unwrap(
        await api.GET('/api/billing/invoices/{transactionId}/pdf', {
          params: { path: { transactionId: id } },
        }),
      ),
    onSuccess: ({ url }) => goTo(url),
  });
  return (
    <section aria-labelledby="billing-invoices" className="panel">
      <h2 id="billing-invoices">{t('billing.invoices')}</h2>
      {invoices.error ? (
        <ErrorNotice error={invoices.error} onRetry={() => void invoices.refetch()} />
      ) : !invoices.data ? (
        <p role="status">{t('app.loading')}</p>
      ) : invoices.data.length === 0 ? (
        <p className="empty">{t('billing.no_invoices')}</p>
      ) : (
        <>
          <table className="data-table compact">
            <thead>
              <tr>
                <th scope="col">{t('billing.col.date')}</th>
                <th scope="col">{t('billing.col.amount')}</th>
                <th scope="col">{t('billing.col.status')}</th>
                <th scope="col">{t('billing.col.pdf')}</th>
              </tr>
            </thead>
            <tbody>
              {invoices.data.map((invoice) => (
                <InvoiceRow
                  key={invoice.id}
                  invoice={invoice}
                  pending={pdf.isPending && pdf.variables === invoice.id}
                  onPdf={() => pdf.mutate(invoice.id)}
                />
              ))}
            </tbody>
          </table>
          {pdf.error && <ErrorNotice error={pdf.error} />}
        </>
      )}
    </section>
  );
}

function InvoiceRow({ invoice, pending, onPdf }: { invoice: Invoice; pending: boolean; onPdf: () => void }) {
  const date = formatDate(invoice.created_at);
  return (
    <tr>
      <th scope="row">
        <time dateTime={invoice.created_at} title={formatDateTime(invoice.created_at)}>
          {date}
        </time>
      </th>
      <td>{formatMoney(invoice.amount, invoice.currency)}</td>
      <td>{t(invoice.status === 'completed' ? 'billing.invoice.paid' : 'billing.invoice.billed')}</td>
      <td>
        <Button
          className="button"
          isDisabled={pending}
          aria-label={t('billing.pdf_of', { date })}
          onPress={onPdf}
        >
          {pending ? t('app.working') : t('billing.pdf')}
        </Button>
      </td>
    </tr>
  );
}
