// npm run bench:processes: background processes and their event stream, with the API in a
// process of its own (src/server.ts as a child) and this process on the worker's side (it
// writes events through the same processes service the worker uses). Prints:
//   1. the time to apply (POST /ai-location-imports/{id}/import) a batch of 1,000 items, every
//      one geocoded by the Google Geocoding fake of tests/fakes (it answers at once);
//   2. SSE delivery latency, from just before an event's insert in this process to its frame
//      read by an HTTP client of the API process: p50, p99 and max over 1,000 events;
//   3. the database connections held (pg_stat_activity) with no stream, 1 stream and 200
//      streams open at once, each on a process of its own, while events flow to all of them.
//
// Uses the server of DATABASE_URL when set (a throwaway database on it), else a throwaway
// embedded PostgreSQL. BENCH_ITEMS, BENCH_EVENTS and BENCH_CLIENTS change the sizes.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config/config.ts';
import { freePort } from '../src/db/embedded.ts';
import { createDeps } from '../src/deps.ts';
import { normalizeItems } from '../src/modules/ai-imports/ai-imports.normalize.ts';
import { createAiImportsRepository } from '../src/modules/ai-imports/ai-imports.repository.ts';
import { customFieldDefinitionsTable } from '../src/modules/custom-fields/custom-fields.table.ts';
import { findersTable } from '../src/modules/finders/finders.table.ts';
import { mapsTable } from '../src/modules/maps/maps.table.ts';
import { FAKE_KEYS, startFakeProviders } from '../tests/fakes/providers.ts';
import { openSse, type SseConnection } from '../tests/helpers/sse.ts';
import { createBenchOwner } from './bench-api.ts';
import { openBenchDatabase } from './bench-database.ts';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-signing';
const APP_KEY = Buffer.alloc(32, 1).toString('base64');

/** Addresses the geocoder fake knows: ROOFTOP, RANGE_INTERPOLATED and GEOMETRIC_CENTER. */
const ADDRESSES = [
  {
    address: '1600 Amphitheatre Parkway',
    city: 'Mountain View',
    state: 'CA',
    zip: '94043',
    country: 'United States',
  },
  { address: 'Karl-Marx-Allee 100', city: 'Berlin', zip: '10243', country: 'Germany' },
  { address: 'Alexanderplatz 1', city: 'Berlin', zip: '10178', country: 'Germany' },
];
const TAGS = ['drive-thru', 'open late', 'parking', 'wifi', 'wheelchair access', 'atm', 'pharmacy', 'bakery'];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'lf-bench-processes-'));
  chmodSync(work, 0o755);
  const database = `lf_bench_processes_${process.pid}`;
  const bench = await openBenchDatabase(work, database);
  const { admin } = bench;
  const databaseUrl = bench.url;
  const providers = await startFakeProviders();
  let api: ReturnType<typeof spawn> | undefined;
  const streams: SseConnection[] = [];

  try {
    const env = {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      APP_KEY,
      DATA_DIR: path.join(work, 'data'),
      GEOCODER: 'google',
      GEOCODER_API_KEY: FAKE_KEYS['google-geocoding'],
      GEOCODER_BASE_URL: providers.geocoderBaseUrl('google'),
    };
    // This process: the worker's side (the processes service writes the events).
    const deps = await createDeps(loadConfig(env), { databaseUrl, role: 'api' });

    // The API in a process of its own.
    const port = await freePort();
    api = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      // Its pooled connections show up as `api-process` in pg_stat_activity.
      env: { ...process.env, ...env, PORT: String(port), PGAPPNAME: 'api-process' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const ready = await fetch(`${base}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error('the API process did not come up');
      await sleep(100);
    }

    const { user, workspaceId, token } = await createBenchOwner(deps);
    await deps.db
      .insert(customFieldDefinitionsTable)
      .values({ workspaceId, name: 'seats', label: 'Seats', type: 'number' });
    const [map] = await deps.db.insert(mapsTable).values({ title: 'Bench finder' }).returning();
    const [finder] = await deps.db
      .insert(findersTable)
      .values({ workspaceId, mapId: map!.id, name: 'Bench finder', token: 'bench-token' })
      .returning();

    // 1. Apply a batch of ITEMS drafted items, all without coordinates.
    const repository = createAiImportsRepository(deps.db);
    const applyBatch = async (label: string) => {
      const batch = await repository.insertBatch({
        workspaceId: workspaceId,
        userId: user.id,
        finderId: finder!.id,
        modelName: 'bench',
        promptVersion: 'bench',
        sourceAnswers: {
          business_type: 'Shops',
          approximate_location_count: '500+',
          geographic_scope: 'anywhere',
          customer_description: 'bench',
          source_notes: 'bench',
        },
      });
      const drafted = normalizeItems(
        Array.from({ length: ITEMS }, (_, index) => ({
          name: `${label} store ${index}`,
          ...ADDRESSES[index % ADDRESSES.length],
          phone: `+1 555 ${String(index).padStart(7, '0')}`,
          website: `https://shop.example.test/${label}/${index}`,
          tags: [TAGS[index % TAGS.length], TAGS[(index * 3 + 1) % TAGS.length]],
          custom_fields: { seats: String(index % 90), email: `store${index}@example.test` },
        })),
      );
      await deps.db.transaction(async (tx) => {
        await repository.replaceItems(
          batch.id,
          drafted.map((item) => ({
            confidence: item.confidence,
            warnings: item.warnings,
            validationErrors: item.validation_errors,
            normalizedPayload: item.normalized_payload,
            rawModelOutput: {},
          })),
          tx,
        );
        await repository.recount(batch.id, {}, tx);
      });
      providers.reset();
      const began = performance.now();
      const response = await fetch(`${base}/api/ai-location-imports/${batch.id}/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      const elapsed = performance.now() - began;
      const body = (await response.json()) as { batch?: { imported_items: number; failed_items: number } };
      if (response.status !== 200) throw new Error(`import: HTTP ${response.status} ${JSON.stringify(body)}`);
      return { elapsed, body, geocoderCalls: providers.requestsOf('google-geocoding').length };
    };
    const first = await applyBatch('first');
    const second = await applyBatch('second');
    console.log(`apply of a ${ITEMS}-item batch (POST /ai-location-imports/{id}/import, API process):`);
    for (const [label, run] of [
      ['first batch (creates)', first],
      ['second batch (creates)', second],
    ] as const) {
      console.log(
        `  ${label.padEnd(24)} ${ms(run.elapsed).padStart(10)}  imported=${run.body.batch?.imported_items} ` +
          `failed=${run.body.batch?.failed_items} geocoder calls=${run.geocoderCalls} (target: under 3 s)`,
      );
    }

    // 2. SSE latency: events written here, read by a client of the API process.
    const processId = await deps.services.processes.create(
      { workspaceId, userId: user.id, type: 'bench', status: 'running' },
      [{ type: 'status', status: 'running', message: 'bench' }],
    );
    const insertedAt = new Map<number, number>();
    const committedAt = new Map<number, number>();
    const stream = await openSse(`${base}/api/processes/${processId}/stream`, token);
    streams.push(stream);
    await stream.waitFor((frames) => frames.some((frame) => frame.id !== undefined));
    const seen = stream.frames.length;
    for (let index = 0; index < EVENTS; index++) {
      const before = performance.now();
      const changed = await deps.services.processes.change(
        { id: processId },
        { progressPercent: Math.floor((index * 100) / EVENTS) },
        { type: 'progress', message: `event ${index}` },
      );
      insertedAt.set(changed!.eventId, before);
      committedAt.set(changed!.eventId, performance.now());
      // A steady stream of events (about 300 a second), not one burst.
      await sleep(2);
    }
    await stream.waitFor(
      (frames) => frames.filter((frame, index) => index >= seen && frame.id !== undefined).length >= EVENTS,
      30_000,
    );
    const latencies = stream.frames
      .slice(seen)
      .filter((frame) => frame.id !== undefined && insertedAt.has(Number(frame.id)))
      .map((frame) => frame.receivedAt - insertedAt.get(Number(frame.id))!)
      .sort((a, b) => a - b);
    const sinceCommit = stream.frames
      .slice(seen)
      .filter((frame) => frame.id !== undefined && committedAt.has(Number(frame.id)))
      .map((frame) => Math.max(0, frame.receivedAt - committedAt.get(Number(frame.id))!))
      .sort((a, b) => a - b);
    const received = stream.frames.slice(seen).filter((frame) => frame.id !== undefined).length;
    stream.close();
    console.log(`SSE delivery, event insert (this process) -> client of the API process, ${EVENTS} events:`);
    console.log(
      `  received=${received} in order=${stream.frames
        .slice(seen)
        .filter((frame) => frame.id !== undefined)
        .every((frame, index, all) => index === 0 || Number(frame.id) > Number(all[index - 1]!.id))}  ` +
        `p50=${ms(percentile(latencies, 50))}  p99=${ms(percentile(latencies, 99))}  max=${ms(latencies.at(-1)!)} (target: p99 under 50 ms)`,
    );
    console.log(
      `  of which after the writer saw its commit: p50=${ms(percentile(sinceCommit, 50))}  p99=${ms(percentile(sinceCommit, 99))}`,
    );

    // 3. Connections with 0, 1 and CLIENTS streams open, each on a process of its own.
    const connections = async () => {
      const rows = await admin<{ application_name: string; n: number }[]>`
        select application_name, count(*)::int as n from pg_stat_activity
        where datname = ${database} group by application_name order by application_name`;
      return { total: rows.reduce((sum, row) => sum + row.n, 0), by: rows };
    };
    const describe = (counted: Awaited<ReturnType<typeof connections>>) =>
      `${counted.total} (${counted.by.map((row) => `${row.application_name || '-'}: ${row.n}`).join(', ')})`;
    const processes: number[] = [];
    for (let index = 0; index < CLIENTS; index++) {
      processes.push(
        await deps.services.processes.create(
          { workspaceId, userId: user.id, type: 'bench', status: 'running' },
          [{ type: 'status', status: 'running', message: 'bench' }],
        ),
      );
    }
    const idle = await connections();
    const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
    const one = await openSse(`${base}/api/processes/${processes[0]}/stream`, token, { agent });
    streams.push(one);
    await one.waitFor((frames) => frames.some((frame) => frame.id !== undefined));
    const withOne = await connections();
    const many = [one];
    for (const id of processes.slice(1)) {
      const opened = await openSse(`${base}/api/processes/${id}/stream`, token, { agent });
      streams.push(opened);
      many.push(opened);
    }
    await Promise.all(
      many.map((client) => client.waitFor((frames) => frames.some((frame) => frame.id !== undefined))),
    );
    // Events flow to every one of them while they are counted.
    await Promise.all(
      processes.map((id) =>
        deps.services.processes.change(
          { id },
          { progressPercent: 50 },
          { type: 'progress', message: 'half way' },
        ),
      ),
    );
    await Promise.all(
      many.map((client) =>
        client.waitFor((frames) => frames.filter((frame) => frame.id !== undefined).length >= 2),
      ),
    );
    const withMany = await connections();
    for (const client of many) client.close();
    console.log(
      'database connections (pg_stat_activity, this database): the API process holds `api-process` (its ' +
        'pool) and `lf-process-events` (its listener); `postgres.js` and `pgboss` belong to this process, the writer:',
    );
    console.log(`  no stream open:                    ${describe(idle)}`);
    console.log(`  1 stream open:                     ${describe(withOne)}`);
    console.log(`  ${`${CLIENTS} streams open, events flowing:`.padEnd(34)} ${describe(withMany)}`);
    console.log(
      `  load average while running: ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`,
    );
    await deps.close();
  } finally {
    for (const stream of streams) stream.close();
    if (api) {
      api.kill('SIGTERM');
      await new Promise((resolve) => api!.once('exit', resolve));
    }
    await providers.close();
    await bench.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
