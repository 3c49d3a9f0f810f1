// Queries over widget analytics events: the one insert of a posted batch, and the aggregates of
// the report. Every aggregate reads one finder's events in a time window: a range of the indexes
// on (finder_id, occurred_at, ...) of analytics.table.ts, which hold every column it reads.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type AnalyticsEventType, analyticsEventsTable } from './analytics.table.ts';

export interface NewAnalyticsEvent {
  finderId: number;
  type: AnalyticsEventType;
  locationId: number | null;
  query: string | null;
  sessionId: string | null;
  occurredAt: Date;
}

/** [from, to): whole UTC days, `fromDay` and `toDay` (`YYYY-MM-DD`) the first and the last. */
export interface ReportWindow {
  from: Date;
  to: Date;
  fromDay: string;
  toDay: string;
}

export type DailyCounts = {
  date: string;
  views: number;
  clicks: number;
  searches: number;
  location_selects: number;
};

/** Entries of the top lists. */
export const TOP_LIMIT = 10;

/** Raw SQL parameters go to postgres.js as they are: times as ISO text, cast here. */
const inWindow = (finderId: number, window: ReportWindow) =>
  sql`e.finder_id = ${finderId} and e.occurred_at >= ${window.from.toISOString()}::timestamptz
    and e.occurred_at < ${window.to.toISOString()}::timestamptz`;

/**
 * The report's three aggregates, each an index-only range scan of one finder's window. They name
 * their tables and columns themselves (aliases e, l, f): Drizzle would leave column references
 * unqualified, which subqueries over several tables must not rely on. Exported for
 * scripts/bench-analytics.ts, which EXPLAINs them.
 */
export const reportQueries = {
  /** Every day of the window, oldest first, zeros included. */
  daily: (finderId: number, window: ReportWindow) => sql`
    select to_char(day.value, 'YYYY-MM-DD') as date,
      coalesce(counted.views, 0)::int as views,
      coalesce(counted.clicks, 0)::int as clicks,
      coalesce(counted.searches, 0)::int as searches,
      coalesce(counted.location_selects, 0)::int as location_selects
    from generate_series(${window.fromDay}::date, ${window.toDay}::date, interval '1 day') as day(value)
    left join (
      select (e.occurred_at at time zone 'UTC')::date as day,
        count(*) filter (where e.type = 'view') as views,
        count(*) filter (where e.type = 'click') as clicks,
        count(*) filter (where e.type = 'search') as searches,
        count(*) filter (where e.type = 'location_select') as location_selects
      from analytics_events as e
      where ${inWindow(finderId, window)}
      group by 1
    ) as counted on counted.day = day.value::date
    order by day.value`,

  /** The most frequent search texts, then alphabetical among equals. */
  topSearches: (finderId: number, window: ReportWindow) => sql`
    select e.query, count(*)::int as count
    from analytics_events as e
    where ${inWindow(finderId, window)} and e.type = 'search' and e.query is not null
    group by e.query
    order by count(*) desc, e.query
    limit ${TOP_LIMIT}`,

  /**
   * The locations named by most events (selections and clicks), with their current title:
   * null for a location deleted since, or one outside the finder's workspace (a widget can
   * post any id; another workspace's titles are not shown).
   */
  topLocations: (finderId: number, window: ReportWindow) => sql`
    select top.location_id, l.title, top.count
    from (
      select e.location_id, count(*)::int as count
      from analytics_events as e
      where ${inWindow(finderId, window)} and e.location_id is not null
      group by e.location_id
      order by count(*) desc, e.location_id
      limit ${TOP_LIMIT}
    ) as top
    left join locations as l on l.id = top.location_id
      and l.workspace_id = (select f.workspace_id from finders as f where f.id = ${finderId})
    order by top.count desc, top.location_id`,
};

export function createAnalyticsRepository(db: Executor) {
  return {
    /** One multi-row insert for the whole batch. */
    async insertEvents(rows: NewAnalyticsEvent[], tx: Executor = db): Promise<number> {
      if (rows.length === 0) return 0;
      await tx.insert(analyticsEventsTable).values(rows);
      return rows.length;
    },

    daily: (finderId: number, window: ReportWindow, tx: Executor = db): Promise<DailyCounts[]> =>
      tx.execute<DailyCounts>(reportQueries.daily(finderId, window)),

    topSearches: (finderId: number, window: ReportWindow, tx: Executor = db) =>
      tx.execute<{ query: string; count: number }>(reportQueries.topSearches(finderId, window)),

    topLocations: (finderId: number, window: ReportWindow, tx: Executor = db) =>
      tx.execute<{ location_id: number; title: string | null; count: number }>(
        reportQueries.topLocations(finderId, window),
      ),
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
