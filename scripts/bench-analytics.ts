// npm run bench:analytics: the widget analytics report (GET /finders/{id}/analytics) over a few
// million events. Seeds BENCH_EVENTS events (default 3,000,000) with generate_series, in time
// order as they arrive, over 50 finders and 180 days; one "hot" finder holds 40% of them. Then
// prints, for the hot finder and a small one, at 30 and 90 days: each report query's plan
// (the scans and index it uses, from EXPLAIN ANALYZE) and time, and the whole report through
// the service (median of 5).
//
// Uses the server of DATABASE_URL when set (a throwaway database on it), else a throwaway
// embedded PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createDatabase } from '../src/db/client.ts';
import { createAnalyticsRepository, reportQueries } from '../src/modules/analytics/analytics.repository.ts';
import { createAnalyticsService, reportWindow } from '../src/modules/analytics/analytics.service.ts';
import { createFindersRepository } from '../src/modules/finders/finders.repository.ts';
import { openBenchDatabase } from './bench-database.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3_000_000);
const FINDERS = 50;
const SPAN_DAYS = 180;

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
    // production. 40% of the rows go to the hot finder, the rest spread over the others.
    await raw`
      insert into analytics_events (finder_id, type, location_id, query, session_id, occurred_at)
      select
        case when g % 5 < 2 then ${hot}::int else ${finders[1]!.id}::int + (g % ${FINDERS - 1}) end,
        (array['view','view','view','view','view','view','search','search','click','location_select'])[1 + (g / 5) % 10],
        case when (g / 5) % 10 >= 8 then 1 + ((g * 7) % 300) end,
        case when (g / 5) % 10 between 6 and 7 then 'query ' || ((g * 13) % 500) end,
        md5((g / 20)::text),
        now() - (${EVENTS}::bigint - g) * ${SPAN_DAYS}::int * interval '1 day' / ${EVENTS}::bigint
      from generate_series(1, ${EVENTS}::bigint) as g`;
    console.log(`  inserted in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    began = performance.now();
    await raw`vacuum analyze analytics_events`;
    console.log(`  vacuum analyze in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    const [size] = await raw<{ table: string; index: string }[]>`
      select pg_size_pretty(pg_table_size('analytics_events')) as table,
        pg_size_pretty(pg_indexes_size('analytics_events')) as index`;
    console.log(`  table ${size!.table}, indexes ${size!.index}`);

    const service = createAnalyticsService({
      events: createAnalyticsRepository(db),
      finders: createFindersRepository(db),
      findFinderByToken: async () => undefined,
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
          `  whole report (service, 3 queries in parallel): median ${median(times).toFixed(1)} ms of 5`,
        );
      }
    }
  } finally {
    await database.close();
    await bench.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
