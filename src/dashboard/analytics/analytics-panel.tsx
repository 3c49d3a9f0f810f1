// A finder's analytics over 7, 30 or 90 days: the totals, the daily views, searches and clicks
// as a chart and as a table, the top searches and the most chosen locations.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.gen.ts';
import { formatNumber, t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { DailyChart } from './daily-chart.tsx';

type Report = components['schemas']['AnalyticsReport'];
const PERIODS = ['7', '30', '90'] as const;
// Colours that keep 3:1 against white and stay apart for the common colour-vision deficiencies.
const COLORS = { views: '#1f5fbf', searches: '#b35900', clicks: '#2e7d32' };

export function AnalyticsPanel({ finderId }: { finderId: number }) {
  const [days, setDays] = useState<(typeof PERIODS)[number]>('30');
  const report = useQuery({
    queryKey: ['analytics', finderId, days],
    queryFn: async () =>
      unwrap(
        await api.GET('/api/finders/{id}/analytics', {
          params: { path: { id: finderId }, query: { days: Number(days) } },
        }),
      ),
  });
  return (
    <>
      <h2>{t('analytics.title')}</h2>
      <SelectField
        name="days"
        label={t('analytics.period')}
        value={days}
        onChange={(value) => setDays(value as (typeof PERIODS)[number])}
        options={PERIODS.map((value) => ({ value, label: t('analytics.last_days', { days: value }) }))}
      />
      {report.error ? (
        <ErrorNotice error={report.error} onRetry={() => void report.refetch()} />
      ) : !report.data ? (
        <p role="status">{t('app.loading')}</p>
      ) : (
        <ReportView report={report.data} />
      )}
    </>
  );
}

function ReportView({ report }: { report: Report }) {
  const chart = useMemo(
    () => ({
      dates: report.daily.map((day) => day.date),
      series: [
        { label: t('analytics.views'), values: report.daily.map((day) => day.views), color: COLORS.views },
        {
          label: t('analytics.searches'),
          values: report.daily.map((day) => day.searches),
          color: COLORS.searches,
        },
        { label: t('analytics.clicks'), values: report.daily.map((day) => day.clicks), color: COLORS.clicks },
      ],
    }),
    [report],
  );
  const totals = [
    { label: t('analytics.views'), value: report.views },
    { label: t('analytics.sessions'), value: report.sessions },
    { label: t('analytics.searches'), value: report.searches },
    { label: t('analytics.clicks'), value: report.clicks },
    { label: t('analytics.selections'), value: report.location_selects },
  ];
  return (
    <>
      <dl className="totals">
        {totals.map((total) => (
          <div key={total.label}>
            <dt>{total.label}</dt>
            <dd>{formatNumber(total.value)}</dd>
          </div>
        ))}
      </dl>
      <DailyChart
        data={chart}
        summary={t('analytics.chart_summary', {
          days: report.days,
          views: formatNumber(report.views),
          searches: formatNumber(report.searches),
          clicks: formatNumber(report.clicks),
        })}
      />
      <details className="disclosure">
        <summary>{t('analytics.daily_table')}</summary>
        <table className="data-table compact">
          <thead>
            <tr>
              <th scope="col">{t('analytics.day')}</th>
              <th scope="col">{t('analytics.views')}</th>
              <th scope="col">{t('analytics.searches')}</th>
              <th scope="col">{t('analytics.clicks')}</th>
            </tr>
          </thead>
          <tbody>
            {report.daily.map((day) => (
              <tr key={day.date}>
                <th scope="row">{day.date}</th>
                <td>{formatNumber(day.views)}</td>
                <td>{formatNumber(day.searches)}</td>
                <td>{formatNumber(day.clicks)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <div className="two-columns">
        <TopTable
          caption={t('analytics.top_searches')}
          first={t('analytics.search')}
          rows={report.top_searches.map((entry) => ({
            key: entry.query,
            name: entry.query,
            count: entry.count,
          }))}
        />
        <TopTable
          caption={t('analytics.top_locations')}
          first={t('analytics.location')}
          rows={report.top_locations.map((entry) => ({
            key: String(entry.location_id),
            name: entry.title ?? t('analytics.location_gone'),
            count: entry.count,
          }))}
        />
      </div>
    </>
  );
}

function TopTable({
  caption,
  first,
  rows,
}: {
  caption: string;
  first: string;
  rows: { key: string; name: string; count: number }[];
}) {
  return (
    <table className="data-table compact">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{first}</th>
          <th scope="col">{t('analytics.count')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={2}>{t('analytics.none_yet')}</td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr key={row.key}>
              <td>{row.name}</td>
              <td>{formatNumber(row.count)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
