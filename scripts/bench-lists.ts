// npm run bench:lists: GET /locations?workspace_id= at 100,000 locations.
// Seeds a workspace in SQL (generate_series: two tags and a set on every location, two custom
// values), starts the API as a child process (src/server.ts) so its memory is its own, and
// prints: one full list (median of five: time, bytes), six full lists at once (time, the
// service's peak RSS, read from /proc/<pid>/status VmHWM), the first page and a deep page
// (limit=1000, offset=90000).
//
// Uses the server of DATABASE_URL when set (a throwaway database on it), else a throwaway
// embedded PostgreSQL.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { loadConfig } from '../src/config/config.ts';
import { createDeps } from '../src/deps.ts';
import { type BenchApi, createBenchOwner, startBenchApi } from './bench-api.ts';
import { openBenchDatabase } from './bench-database.ts';

const LOCATIONS = Number(process.env.BENCH_LOCATIONS ?? 100_000);
const ONE_RUNS = 5;
const JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-signing';
const APP_KEY = Buffer.alloc(32, 1).toString('base64');

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Peak and current resident memory of a process, from /proc (Linux). */
function memoryOf(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { hwm: kb('VmHWM'), rss: kb('VmRSS') };
}

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resets the peak (VmHWM) so the next phase measures its own (Linux: write 5 to clear_refs). */
function resetPeak(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not permitted: the peak then covers the whole run so far.
  }
}

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'lf-bench-lists-'));
  chmodSync(work, 0o755);
  const bench = await openBenchDatabase(work, `lf_bench_lists_${process.pid}`);
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
    const config = loadConfig(env);
    const deps = await createDeps(config, { databaseUrl, role: 'api' });
    const { workspaceId, token } = await createBenchOwner(deps);

    const seed = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const began = performance.now();
    await seed.begin(async (sql) => {
      const ws = workspaceId;
      await sql`insert into custom_field_definitions (workspace_id, name, label, type, options)
        values (${ws}, 'seats', 'Seats', 'number', null), (${ws}, 'kind', 'Kind', 'select', '["shop","depot"]'::jsonb)`;
      await sql`insert into tags (workspace_id, name, slug)
        select ${ws}, 'Tag ' || g, 'tag-' || g from generate_series(1, 8) g`;
      await sql`insert into sets (workspace_id, name) select ${ws}, 'Set ' || g from generate_series(1, 4) g`;
      await sql`insert into locations (workspace_id, external_id, title, description, address, city, state, country,
          zip, lat, lng, phone, email, website, custom_values)
        select ${ws}, 'EXT-' || g, 'Store ' || g || ', Main', 'A store of the bench, number ' || g, g || ' Market Street',
          'Springfield', 'ST', 'US', (10000 + g % 90000)::text, (g % 180) - 89.5, (g % 360) - 179.5,
          '+1 555 ' || lpad(g::text, 7, '0'), 'store' || g || '@example.test', 'https://shop.example.test/' || g,
          jsonb_build_object('seats', g % 200, 'kind', case when g % 3 = 0 then 'depot' else 'shop' end)
        from generate_series(1, ${LOCATIONS}) g`;
      await sql`insert into location_tags (location_id, tag_id)
        select l.id, t.id from locations l join tags t on t.workspace_id = l.workspace_id
        where l.workspace_id = ${ws} and (t.id % 8 = l.id % 8 or t.id % 8 = (l.id * 7 + 1) % 8)`;
      await sql`insert into location_sets (location_id, set_id)
        select l.id, s.id from locations l join sets s on s.workspace_id = l.workspace_id
        where l.workspace_id = ${ws} and s.id % 4 = l.id % 4`;
    });
    await seed`vacuum analyze`;
    await seed.end();
    await deps.close();
    console.log(
      `seeded ${LOCATIONS} locations (2 tags, 1 set, 2 custom values each) in ${seconds(performance.now() - began)}`,
    );

    api = await startBenchApi(env);
    const { base, pid } = api;
    const idle = memoryOf(pid);
    console.log(`service started: RSS ${mb(idle.rss)} (peak so far ${mb(idle.hwm)})`);

    const get = async (query: string) => {
      const started = performance.now();
      const response = await fetch(`${base}/api/locations?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) throw new Error(`${query}: HTTP ${response.status} ${body.toString()}`);
      return { ms: performance.now() - started, bytes: body.length, body };
    };
    const list = `workspace_id=${workspaceId}`;

    // Warm-up (plans, connections, JIT of the service), not counted.
    await get(`${list}&limit=10`);

    // One full list, ONE_RUNS times one after another: the machine's speed wanders by a third
    // from one second to the next, so the median is printed beside each run.
    const runs: Array<{ ms: number; bytes: number; body: Buffer }> = [];
    const cpuBefore = cpuOf(pid);
    for (let run = 0; run < ONE_RUNS; run++) runs.push(await get(list));
    const serviceCpu = (cpuOf(pid) - cpuBefore) / ONE_RUNS;
    const one = [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(ONE_RUNS / 2)]!;
    const count = (JSON.parse(one.body.toString()) as unknown[]).length;
    const afterOne = memoryOf(pid);
    console.log(
      `one full list:        median ${seconds(one.ms)} of ${ONE_RUNS} (runs: ${runs.map((run) => seconds(run.ms)).join(', ')})  ${mb(one.bytes)}  ${count} locations  (service CPU ${serviceCpu.toFixed(2)} s a list, peak RSS ${mb(afterOne.hwm)})`,
    );
    runs.length = 0;

    resetPeak(pid);
    const startedSix = performance.now();
    const six = await Promise.allSettled(Array.from({ length: 6 }, () => get(list)));
    const sixMs = performance.now() - startedSix;
    const afterSix = memoryOf(pid);
    const each = six.map((r) =>
      r.status === 'fulfilled' ? seconds(r.value.ms) : `failed: ${String(r.reason)}`,
    );
    console.log(
      `six full lists at once: ${seconds(sixMs)}  (each ${each.join(', ')})  service peak RSS ${mb(afterSix.hwm)}`,
    );

    const firstPage = await get(`${list}&limit=1000&offset=0`);
    const deepPage = await get(`${list}&limit=1000&offset=90000`);
    // Second reads, as a dashboard paging through would see them.
    const firstAgain = await get(`${list}&limit=1000&offset=0`);
    const deepAgain = await get(`${list}&limit=1000&offset=90000`);
    const firstMs = Math.min(firstPage.ms, firstAgain.ms);
    const deepMs = Math.min(deepPage.ms, deepAgain.ms);
    console.log(
      `first page (limit=1000):             ${firstMs.toFixed(0)} ms  ${mb(firstPage.bytes)}\n` +
        `deep page (limit=1000&offset=90000): ${deepMs.toFixed(0)} ms  ${mb(deepPage.bytes)}  ${(deepMs / firstMs).toFixed(2)}x the first`,
    );
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
