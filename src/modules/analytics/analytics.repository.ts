// Queries over widget analytics: the finder of a public token, which of a batch's location ids
// the finder shows, the one insert of a batch (events and their sessions), and the aggregates
// of the report. Every aggregate reads one finder's window: a range of the indexes on
// (finder_id, occurred_at, ...) of analytics_events or of the primary key of
// analytics_sessions, which hold every column it reads.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { shownLocations } from '../finders/finders.shown-locations.ts';
import { findersTable } from '../finders/finders.table.ts';
import type { AnalyticsEventType } from './analytics.table.ts';

/** What ingestion needs of the finder a token names. */
export interface EventFinder {
  id: number;
  mapId: number | null;
  authorizedUrls: string[];
}

export interface NewAnalyticsEvent {
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
  sessions: number;
};

/** Entries of the top lists. */
export const TOP_LIMIT = 10;

/** Raw SQL parameters go to postgres.js as they are: times as ISO text, cast here. */
const inWindow = (finderId: number, window: ReportWindow) =>
  sql`e.finder_id = ${finderId} and e.occurred_at >= ${window.from.toISOString()}::timestamptz
    and e.occurred_at < ${window.to.toISOString()}::timestamptz`;

const sessionsInWindow = (finderId: number, window: ReportWindow) =>
  sql`s.finder_id = ${finderId} and s.day >= ${window.fromDay}::date and s.day <= ${window.toDay}::date`;

/**
 * The report's aggregates, each an index-only range scan of one finder's window. They name
 * their tables and columns themselves (aliases e, s, l, f): Drizzle would leave column
 * references unqualified, which subqueries over several tables must not rely on. Exported for
 * scripts/bench-analytics.ts, which EXPLAINs them.
 */
export const reportQueries = {
  /** Every day of the window, oldest first, zeros included. */
  daily: (finderId: number, window: ReportWindow) => sql`
    select to_char(day.value, 'YYYY-MM-DD') as date,
      coalesce(counted.views, 0)::int as views,
      coalesce(counted.clicks, 0)::int as clicks,
      coalesce(counted.searches, 0)::int as searches,
      coalesce(counted.location_selects, 0)::int as location_selects,
      coalesce(sessions.count, 0)::int as sessions
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
    left join (
      select s.day, count(*) as count
      from analytics_sessions as s
      where ${sessionsInWindow(finderId, window)}
      group by s.day
    ) as sessions on sessions.day = day.value::date
    order by day.value`,

  /** Unique sessions of the whole window: a session active on several of its days counts once. */
  sessions: (finderId: number, window: ReportWindow) => sql`
    select count(distinct s.session_id)::int as sessions
    from analytics_sessions as s
    where ${sessionsInWindow(finderId, window)}`,

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
   * null for a location deleted since, or one outside the finder's workspace (a location of a
   * map of another workspace, or an id stored before ids were checked against the finder).
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

/**
 * Those of `ids` that the finder shows, by the one definition of the locations a finder shows,
 * probing each branch's index for these ids only. Exported for scripts/bench-analytics.ts.
 */
export const shownLocationIdsQuery = (finder: { id: number; mapId: number | null }, ids: readonly number[]) =>
  sql`select shown.location_id from (${shownLocations(finder.id, finder.mapId, ids)}) as shown`;

/**
 * The batch in one statement, so it is stored whole or not at all. Columns go as one array
 * parameter each (times as text: Drizzle hands timestamptz[] parameters to postgres.js
 * unserialized). Views come first, in order
 * of their session, then the other events in the batch's order: two batches that insert the
 * same views wait for each other in one order and cannot deadlock. A view whose session has
 * one already is skipped by the unique index (`on conflict do nothing`), also when the other
 * is in the same batch or in a concurrent one; the sessions of the stored events are recorded
 * per UTC day of the event, again in one order. Answers how many events were stored.
 */
const insertStatement = (finderId: number, rows: readonly NewAnalyticsEvent[]) => sql`
  with stored as (
    insert into analytics_events (finder_id, type, location_id, query, session_id, occurred_at)
    select ${finderId}::int, e.type, e.location_id, e.query, e.session_id, e.occurred_at
    from unnest(
      ${sql.param(rows.map((row) => row.type))}::text[],
      ${sql.param(rows.map((row) => row.locationId))}::int[],
      ${sql.param(rows.map((row) => row.query))}::text[],
      ${sql.param(rows.map((row) => row.sessionId))}::text[],
      ${sql.param(rows.map((row) => row.occurredAt.toISOString()))}::text[]::timestamptz[]
    ) with ordinality as e(type, location_id, query, session_id, occurred_at, position)
    order by e.type <> 'view', case when e.type = 'view' then e.session_id end, e.position
    on conflict do nothing
    returning session_id, occurred_at
  ), sessions as (
    insert into analytics_sessions (finder_id, day, session_id)
    select distinct ${finderId}::int, (stored.occurred_at at time zone 'UTC')::date, stored.session_id
    from stored where stored.session_id is not null
    order by 2, 3
    on conflict do nothing
  )
  select count(*)::int as stored from stored`;

export function createAnalyticsRepository(db: Executor) {
  return {
    async findFinderByToken(token: string, tx: Executor = db): Promise<EventFinder | undefined> {
      const [finder] = await tx
        .select({
          id: findersTable.id,
          mapId: findersTable.mapId,
          authorizedUrls: findersTable.authorizedUrls,
        })
        .from(findersTable)
        .where(eq(findersTable.token, token));
      return finder;
    },

    /** Those of `ids` (a batch's, a hundred at most) that the finder shows: one statement. */
    async shownLocationIds(finder: EventFinder, ids: readonly number[], tx: Executor = db) {
      if (ids.length === 0) return new Set<number>();
      const rows = await tx.execute<{ location_id: number }>(shownLocationIdsQuery(finder, ids));
      return new Set(rows.map((row) => row.location_id));
    },

    /** The batch in one statement (see insertStatement); answers how many events were stored. */
    async insertEvents(finderId: number, rows: readonly NewAnalyticsEvent[], tx: Executor = db) {
      if (rows.length === 0) return 0;
      const [result] = await tx.execute<{ stored: number }>(insertStatement(finderId, rows));
      return result?.stored ?? 0;
    },

    daily: (finderId: number, window: ReportWindow, tx: Executor = db): Promise<DailyCounts[]> =>
      tx.execute<DailyCounts>(reportQueries.daily(finderId, window)),

    async sessions(finderId: number, window: ReportWindow, tx: Executor = db): Promise<number> {
      const [row] = await tx.execute<{ sessions: number }>(reportQueries.sessions(finderId, window));
      return row?.sessions ?? 0;
    },

    topSearches: (finderId: number, window: ReportWindow, tx: Executor = db) =>
      tx.execute<{ query: string; count: number }>(reportQueries.topSearches(finderId, window)),

    topLocations: (finderId: number, window: ReportWindow, tx: Executor = db) =>
      tx.execute<{ location_id: number; title: string | null; count: number }>(
        reportQueries.topLocations(finderId, window),
      ),
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
