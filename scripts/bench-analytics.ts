// npm run bench:analytics: the widget analytics report (GET /finders/{id}/analytics) over a few
// million events, and the insert path of POST /analytics. Seeds BENCH_EVENTS events (default
// 3,000,000) with generate_series, in time order as they arrive, over 50 finders and 180 days,
// as sessions of five events (a view, two searches, a selected location and a followed link);
// one "hot" finder holds 40% of them. Then prints, for the hot finder and a small one, at 30 and
// 90 days: each report query's plan (the scans and index it uses, from EXPLAIN ANALYZE) and
// time, and the whole report through the service (median of 5). Last, batches recorded through
// the service into a finder of 100,000 locations (own, its map's and its map's set's): the
// widget's usual batch of four events and a full batch of 100 naming 100 locations (median of
// BENCH_BATCHES, default 200).
//
// Uses the server of DATABASE_URL when set (a throwaway database on it), else a throwaway
// embedded PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createDatabase } from '../src/db/client.ts';
import { createQuotaLimiter } from '../src/lib/limiter.ts';
import {
  createAnalyticsRepository,
  reportQueries,
  shownLocationIdsQuery,
} from '../src/modules/analytics/analytics.repository.ts';
import type { AnalyticsEventInput } from '../src/modules/analytics/analytics.schemas.ts';
import { createAnalyticsService, reportWindow } from '../src/modules/analytics/analytics.service.ts';
import { createFindersRepository } from '../src/modules/finders/finders.repository.ts';
import { openBenchDatabase } from './bench-database.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3_000_000);
const FINDERS = 50;
const SPAN_DAYS = 180;
const BATCHES = Number(process.env.BENCH_BATCHES ?? 200);
const BIG_FINDER_LOCATIONS = 100_000;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

/** `Index Only Scan (analytics_events_finder_id_occurred_at_idx) 201,345 rows` for each scan. */
function scans(node: PlanNode, found: string[] = []): string[] {
  if (/Scan/.test(node['Node Type']) && node['Node Type'] !== 'Function Scan') {
    const index = node['Index Name'] ? ` (${node['Index Name']})` : '';
    const heap = node['Heap Fetches'] !== undefined ? `, ${node['Heap Fetches']} heap fetches` : '';
    found.push(
      `${node['Node Type']}${index}: ${(node['Actual Rows'] ?? 0).toLocaleString('en')} rows${heap}`,
    );
  }
  for (const child of node.Plans ?? []) scans(child, found);
  return found;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'lf-bench-analytics-'));
  const bench = await openBenchDatabase(work, `lf_bench_analytics_${process.pid}`);
  const databaseUrl = bench.url;
  const database = createDatabase(databaseUrl, { max: 4 });

  try {
    const { sql: raw, db } = database;
    const [workspace] = await raw<
      { id: number }[]
    >`insert into workspaces (name) values ('bench') returning id`;
    const finders = await raw<{ id: number }[]>`
      insert into finders (workspace_id, name, token)
      select ${workspace!.id}, 'finder ' || i, md5(i::text) from generate_series(1, ${FINDERS}) as i
      returning id`;
    const hot = finders[0]!.id;
    const small = finders[FINDERS - 1]!.id;
    await raw`
      insert into locations (workspace_id, title, address)
      select ${workspace!.id}, 'Store ' || i, i || ' Main Street' from generate_series(1, 300) as i`;

    console.log(
      `seeding ${EVENTS.toLocaleString('en')} events over ${FINDERS} finders and ${SPAN_DAYS} days...`,
    );
    let began = performance.now();
    // Row g arrives at now - (EVENTS - g) * span / EVENTS: the heap is in time order, as in
    // production. Rows 5k..5k+4 are session k: a view, a search with text, one without (the
    // visitor's position), a location selected and a link of it followed. 40% of the sessions
    // go to the hot finder, the rest spread over the others.
    await raw`
      insert into analytics_events (finder_id, type, location_id, query, session_id, occurred_at)
      select
        case when (g / 5) % 5 < 2 then ${hot}::int else ${finders[1]!.id}::int + ((g / 5) % ${FINDERS - 1}) end,
        (array['view','search','search','location_select','click'])[1 + g % 5],
        case when g % 5 >= 3 then 1 + (((g / 5) * 7) % 300) end,
        case when g % 5 = 1 then 'query ' || ((g * 13) % 500) end,
        md5((g / 5)::text),
        now() - (${EVENTS}::bigint - g) * ${SPAN_DAYS}::int * interval '1 day' / ${EVENTS}::bigint
      from generate_series(1, ${EVENTS}::bigint) as g`;
    await raw`
      insert into analytics_sessions (finder_id, day, session_id)
      select distinct finder_id, (occurred_at at time zone 'UTC')::date, session_id from analytics_events`;
    console.log(`  inserted in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    began = performance.now();
    await raw`vacuum analyze analytics_events`;
    await raw`vacuum analyze analytics_sessions`;
    console.log(`  vacuum analyze in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    for (const table of ['analytics_events', 'analytics_sessions']) {
      const [size] = await raw<{ rows: number; table: string; index: string }[]>`
        select (select count(*)::int from ${raw(table)}) as rows,
          pg_size_pretty(pg_table_size(${table})) as table,
          pg_size_pretty(pg_indexes_size(${table})) as index`;
      console.log(
        `  ${table}: ${size!.rows.toLocaleString('en')} rows, table ${size!.table}, indexes ${size!.index}`,
      );
    }

    const service = createAnalyticsService({
      events: createAnalyticsRepository(db),
      finders: createFindersRepository(db),
      quota: createQuotaLimiter({ name: 'bench', points: Number.MAX_SAFE_INTEGER, windowSeconds: 3600 }),
    });
    const actor = { userId: 0, allWorkspaces: true };

    for (const [label, finderId] of [
      ['hot finder (40% of the events)', hot],
      ['small finder (1.2%)', small],
    ] as const) {
      for (const days of [30, 90]) {
        const window = reportWindow(days, new Date());
        const [counted] = await raw<{ n: number }[]>`
          select count(*)::int as n from analytics_events
          where finder_id = ${finderId} and occurred_at >= ${window.from.toISOString()}::timestamptz
            and occurred_at < ${window.to.toISOString()}::timestamptz`;
        const n = counted!.n;
        console.log(`\n${label}, ${days} days: ${n.toLocaleString('en')} events in the window`);
        for (const [query, build] of Object.entries(reportQueries)) {
          const [row] = await db.execute<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
            sql`explain (analyze, buffers, format json) ${build(finderId, window)}`,
          );
          const plan = row!['QUERY PLAN'][0];
          console.log(
            `  ${query.padEnd(13)} ${plan['Execution Time'].toFixed(1).padStart(8)} ms  ${scans(plan.Plan).join('; ')}`,
          );
        }
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          const start = performance.now();
          await service.report(actor, finderId, days);
          times.push(performance.now() - start);
        }
        console.log(
          `  whole report (service, ${Object.keys(reportQueries).length} queries in parallel): median ${median(times).toFixed(1)} ms of 5`,
        );
      }
    }

    // The insert path: a finder showing 100,000 locations, a quarter its own, a quarter its
    // map's, half through the map's set.
    const [big] = await raw<{ id: number; token: string; map_id: number; first: number }[]>`
      with m as (insert into maps (title) values ('big') returning id),
      s as (insert into sets (workspace_id, name) values (${workspace!.id}, 'big') returning id),
      ms as (insert into map_sets (map_id, set_id) select m.id, s.id from m, s),
      f as (
        insert into finders (workspace_id, name, token, map_id)
        select ${workspace!.id}, 'big', 'big-finder-token', m.id from m returning id, token, map_id
      ),
      l as (
        insert into locations (workspace_id, title, address)
        select ${workspace!.id}, 'Big ' || i, i || ' Long Road' from generate_series(1, ${BIG_FINDER_LOCATIONS}) as i
        returning id
      ),
      numbered as (select id, row_number() over (order by id) as n from l),
      own as (insert into finder_locations (finder_id, location_id) select f.id, numbered.id from f, numbered where numbered.n % 4 = 0),
      direct as (insert into map_locations (map_id, location_id) select f.map_id, numbered.id from f, numbered where numbered.n % 4 = 1),
      through as (insert into location_sets (set_id, location_id) select s.id, numbered.id from s, numbered where numbered.n % 4 >= 2)
      select f.id, f.token, f.map_id, (select min(id) from numbered) as first from f`;
    await raw`analyze`;
    const caller = { finderToken: big!.token, origin: undefined, client: '10.0.0.1' };
    const at = () => new Date().toISOString();
    let session = 0;
    const typical = (): AnalyticsEventInput[] => {
      const id = `bench-${++session}`;
      const location = big!.first + (session % BIG_FINDER_LOCATIONS);
      return [
        { type: 'view', session_id: id, occurred_at: at() },
        { type: 'search', query: 'Berlin', session_id: id, occurred_at: at() },
        { type: 'location_select', location_id: location, session_id: id, occurred_at: at() },
        { type: 'click', location_id: location, session_id: id, occurred_at: at() },
      ];
    };
    const full = (): AnalyticsEventInput[] => {
      const id = `bench-${++session}`;
      return Array.from({ length: 100 }, (_, i) => ({
        type: 'location_select' as const,
        // Every fourth id is none of the finder's (the 300 stores of the other finders); the
        // others fall on its own, its map's and its set's locations alike.
        location_id: i % 4 === 3 ? 1 + i : big!.first + ((session * 100 + i * 7) % BIG_FINDER_LOCATIONS),
        session_id: id,
        occurred_at: at(),
      }));
    };
    console.log(
      `\nPOST /analytics through the service, finder of ${BIG_FINDER_LOCATIONS.toLocaleString('en')} locations:`,
    );
    for (const [label, batch] of [
      ['4 events (view, search, select, click)', typical],
      ['100 events naming 100 locations', full],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < BATCHES; i++) {
        const events = batch();
        const start = performance.now();
        await service.record(caller, events);
        times.push(performance.now() - start);
      }
      console.log(`  ${label}: median ${median(times).toFixed(2)} ms of ${BATCHES}`);
    }
    const ids = full().map((event) => event.location_id as number);
    const [row] = await db.execute<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
      sql`explain (analyze, buffers, format json) ${shownLocationIdsQuery({ id: big!.id, mapId: big!.map_id }, ids)}`,
    );
    const plan = row!['QUERY PLAN'][0];
    console.log(
      `  the location check of 100 ids: ${plan['Execution Time'].toFixed(2)} ms  ${scans(plan.Plan).join('; ')}`,
    );
  } finally {
    await database.close();
    await bench.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
