// npm run bench:locations-search: `q` and `sort` of GET /locations at 100,000 locations of one
// workspace, through HTTP. Seeds the workspace in SQL (generate_series: titles of five kinds and
// thirteen names in mixed case, ten cities, external ids, scattered updated_at), starts the API
// as a child process (src/server.ts) and prints, for each query with `limit=50` (so with
// X-Total-Count), the median and p95 time of BENCH_RUNS requests, the matches, and the plan of
// its statements: EXPLAIN ANALYZE of the page's ids and of the count (a search counts in the
// statement of its ids), as the repository writes them (captured from its own statements),
// naming the index each one reads. Then the whole list (no limit) by id and by title, and
// POST /locations/bulk over every location of the workspace (add_tag, remove_tag, delete), each
// once: the largest change one request may make.
//
// Uses the server of DATABASE_URL when set (a throwaway database on it), else a throwaway
// embedded PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { loadConfig } from '../src/config/config.ts';
import type { Database } from '../src/db/client.ts';
import { createDeps } from '../src/deps.ts';
import { toPage } from '../src/lib/pagination.ts';
import type { LocationSort } from '../src/modules/locations/list/locations.list-order.ts';
import { createLocationsRepository } from '../src/modules/locations/locations.repository.ts';
import { type BenchApi, createBenchOwner, startBenchApi } from './bench-api.ts';
import { openBenchDatabase } from './bench-database.ts';

const LOCATIONS = Number(process.env.BENCH_LOCATIONS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PAGE = 50;
const JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-signing';
const APP_KEY = Buffer.alloc(32, 1).toString('base64');

/** What a dashboard asks: a label, then the query after `workspace_id=..&limit=50`. */
const QUERIES: Array<{ label: string; q?: string; sort?: LocationSort; offset?: number }> = [
  { label: 'q=stre (every location: "Street")', q: 'stre' },
  { label: 'q=sto (common prefix, a fifth: "Store")', q: 'sto' },
  { label: 'q=berl (a city, a tenth)', q: 'berl' },
  { label: 'q=04242 (rare substring)', q: '04242' },
  { label: 'q=zqxj (a miss)', q: 'zqxj' },
  { label: 'q=rl (two letters: no trigram)', q: 'rl' },
  { label: 'sort=title, first page', sort: 'title' },
  { label: 'sort=title, offset=90000', sort: 'title', offset: 90_000 },
  { label: 'sort=-title, first page', sort: '-title' },
  { label: 'sort=city, first page', sort: 'city' },
  { label: 'sort=-updated_at, first page', sort: '-updated_at' },
  { label: 'q=berl&sort=title', q: 'berl', sort: 'title' },
  { label: 'q=sto&sort=-updated_at', q: 'sto', sort: '-updated_at' },
  { label: 'neither (by id, first page)' },
];

const queryString = ({ q, sort, offset }: (typeof QUERIES)[number]) =>
  [
    q === undefined ? '' : `&q=${encodeURIComponent(q)}`,
    sort === undefined ? '' : `&sort=${sort}`,
    offset === undefined ? '' : `&offset=${offset}`,
  ].join('');

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** The scans of a plan, as `Index Scan locations_workspace_title_idx` or `Seq Scan locations`. */
function scansOf(node: PlanNode, into: string[] = []): string[] {
  if (node['Index Name']) into.push(`${node['Node Type']} ${node['Index Name']}`);
  else if (node['Node Type'] === 'Seq Scan') into.push(`Seq Scan ${node['Relation Name']}`);
  for (const child of node.Plans ?? []) scansOf(child, into);
  return into;
}

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'lf-bench-search-'));
  const bench = await openBenchDatabase(work, `lf_bench_search_${process.pid}`);
  const databaseUrl = bench.url;
  let api: BenchApi | undefined;

  try {
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      APP_KEY,
      DATA_DIR: path.join(work, 'data'),
      APP_URL: 'http://127.0.0.1',
    };
    const deps = await createDeps(loadConfig(env), { databaseUrl, role: 'api' });
    const { user, workspaceId, token } = await createBenchOwner(deps);
    await deps.close();

    const seed = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const began = performance.now();
    await seed`insert into locations (workspace_id, external_id, title, address, city, state, country, zip,
        lat, lng, updated_at)
      select ${workspaceId}, 'EXT-' || lpad(g::text, 6, '0'),
        (array['Store', 'shop', 'Outlet', 'depot', 'Kiosk'])[g % 5 + 1] || ' '
          || (array['Alder', 'birch', 'Cedar', 'dogwood', 'Elm', 'fir', 'Ginkgo', 'hazel', 'Ivy', 'juniper',
            'Kauri', 'linden', 'Maple'])[(g * 7) % 13 + 1] || ' ' || g,
        g || ' Market Street',
        (array['Berlin', 'Hamburg', 'München', 'Köln', 'Frankfurt', 'Stuttgart', 'Düsseldorf', 'Leipzig',
          'Dortmund', 'Essen'])[g % 10 + 1],
        'ST', (array['DE', 'AT', 'CH'])[g % 3 + 1], (10000 + g % 90000)::text, (g % 180) - 89.5, (g % 360) - 179.5,
        now() - ((g * 7919) % 100000) * interval '1 minute'
      from generate_series(1, ${LOCATIONS}) g`;
    await seed`vacuum analyze locations`;
    console.log(
      `seeded ${LOCATIONS} locations in one workspace in ${((performance.now() - began) / 1000).toFixed(1)} s`,
    );

    api = await startBenchApi(env);
    const get = async (query: string) => {
      const started = performance.now();
      const response = await fetch(`${api!.base}/api/locations?workspace_id=${workspaceId}${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = await response.arrayBuffer();
      if (response.status !== 200) {
        throw new Error(`${query}: HTTP ${response.status} ${Buffer.from(body).toString()}`);
      }
      return {
        ms: performance.now() - started,
        total: response.headers.get('x-total-count'),
        bytes: body.byteLength,
      };
    };

    // The repository's own statements, captured on a connection of this process for EXPLAIN.
    let captured: Array<{ query: string; parameters: unknown[] }> = [];
    const explainer = postgres(databaseUrl, {
      max: 1,
      onnotice: () => {},
      connection: { TimeZone: 'UTC' },
      debug: (_connection, query, parameters) =>
        captured.push({ query, parameters: parameters as unknown[] }),
    });
    const repository = createLocationsRepository(
      drizzle(explainer, { casing: 'snake_case' }) as unknown as Database,
    );
    const plansOf = async ({ q, sort = 'id', offset }: (typeof QUERIES)[number]) => {
      captured = [];
      const filter = { actor: { userId: user.id, allWorkspaces: false }, workspaceId, q };
      await repository.streamList(filter, sort, toPage({ limit: PAGE, offset }));
      const statements = [...captured];
      const lines: string[] = [];
      for (const [name, marker] of [
        ['ids', 'string_agg(id::text'],
        ['count', 'select count('],
      ] as const) {
        const statement = statements.find(({ query }) => query.includes(marker));
        if (!statement) {
          lines.push(`${name}: none (a search counts its matches in the statement of its ids)`);
          continue;
        }
        const [row] = await explainer.unsafe(
          `explain (analyze, format json) ${statement.query}`,
          statement.parameters as postgres.ParameterOrJSON<never>[],
        );
        const [plan] = (
          row as unknown as { 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }
        )['QUERY PLAN'];
        lines.push(
          `${name} ${plan!['Execution Time'].toFixed(1)} ms: ${[...new Set(scansOf(plan!.Plan))].join(', ')}`,
        );
      }
      return lines;
    };

    // Warm-up (plans, connections, JIT of the service), not counted.
    for (const query of QUERIES) await get(`&limit=${PAGE}${queryString(query)}`);

    console.log(`\nGET /api/locations?workspace_id=..&limit=${PAGE}, ${RUNS} runs each, through HTTP:`);
    for (const query of QUERIES) {
      const times: number[] = [];
      let total: string | null = null;
      for (let run = 0; run < RUNS; run++) {
        const result = await get(`&limit=${PAGE}${queryString(query)}`);
        times.push(result.ms);
        total = result.total;
      }
      times.sort((a, b) => a - b);
      console.log(
        `${query.label.padEnd(42)} median ${percentile(times, 0.5).toFixed(1).padStart(6)} ms  p95 ${percentile(times, 0.95).toFixed(1).padStart(6)} ms  X-Total-Count ${total}`,
      );
      for (const line of await plansOf(query)) console.log(`    ${line}`);
    }

    console.log('\nthe whole list (no limit), median of 3:');
    for (const sort of ['id', 'title'] as const) {
      const times: number[] = [];
      let bytes = 0;
      for (let run = 0; run < 3; run++) {
        const result = await get(`&sort=${sort}`);
        times.push(result.ms);
        bytes = result.bytes;
      }
      times.sort((a, b) => a - b);
      console.log(
        `sort=${sort.padEnd(6)} ${(percentile(times, 0.5) / 1000).toFixed(2)} s  ${(bytes / 1024 / 1024).toFixed(1)} MB`,
      );
    }

    const [tag] = await seed<{ id: number }[]>`insert into tags (workspace_id, name, slug)
      values (${workspaceId}, 'Bench', 'bench') returning id`;
    console.log(`\nPOST /api/locations/bulk with filter {} (all ${LOCATIONS} locations), once each:`);
    for (const action of ['add_tag', 'remove_tag', 'delete'] as const) {
      const started = performance.now();
      const response = await fetch(`${api.base}/api/locations/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          workspace_id: workspaceId,
          action,
          filter: {},
          ...(action === 'delete' ? {} : { tag_id: tag!.id }),
        }),
      });
      const answer = await response.text();
      console.log(
        `${action.padEnd(10)} ${((performance.now() - started) / 1000).toFixed(2)} s  HTTP ${response.status} ${answer}`,
      );
    }
    await explainer.end();
    await seed.end();
  } finally {
    await api?.stop();
    await bench.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
