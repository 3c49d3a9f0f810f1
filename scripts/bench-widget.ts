// npm run bench:widget: the widget payload route and publishing at size. Seeds a finder with
// 10,000 locations (two tags, a set, four custom values and opening hours each; reached through its own list,
// its backing map and the map's set, so the union and de-duplication run) and one with 100,000,
// straight into the database. Prints, in one run:
// - the cold payload build (median of 9) and the compression of a cache fill;
// - the payload's bytes raw, gzip and br;
// - cached requests/s of GET /api/ext/finders/details/{key} (br) at 50 connections (autocannon,
//   in a child process, against the listening app) beside a bare node:http server sending the
//   same compressed bytes from memory, and their ratio; with BENCH_REDIS_URL also through a
//   Redis-sharing cache (one MGET per request);
// - publish time at 10,000 and 100,000 locations (local storage driver, which makes the version
//   file's gzip and br forms at their first request), and the version file's bytes as /cdn
//   sends it (its first request in each coding makes that form);
// - a chunked publish of the 100,000 (PUBLISH_CHUNKED_FROM): the first, again unchanged, after
//   editing the 1,000 locations nearest one point and after editing 1,000 spread over the
//   chain, each with the files and bytes it uploaded;
// - the peak RSS of this process (app, bare server, builds; not autocannon's).
//
// Uses the server of DATABASE_URL when set (a throwaway database on it), else a throwaway
// embedded PostgreSQL.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import type postgres from 'postgres';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { createDeps } from '../src/deps.ts';
import { randomToken } from '../src/lib/crypto.ts';
import { precompress } from '../src/modules/finders/payload/finders.payload.cache.ts';
import {
  BUILD_SETTINGS,
  createFinderPayloadRepository,
  locationIdsStatement,
  sliceStatement,
} from '../src/modules/finders/payload/finders.payload.repository.ts';
import { WEEKS } from '../tests/fakes/widget-payload.ts';
import { openBenchDatabase } from './bench-database.ts';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Where the clustered edit of the chunked republish is centred, one round after another. */
const EDIT_POINTS: [lat: number, lng: number][] = [
  [47, 8],
  [44, 0],
  [51, 15],
];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

const SETTINGS = JSON.stringify([
  { key: 'units', value: 'km' },
  { key: 'primary_color', value: '#1d4ed8' },
]);
const REFINEMENTS = JSON.stringify([
  {
    name: 'Repair',
    match: 'all',
    conditions: [{ field: 'custom_field.services', op: 'contains', value: 'repair' }],
  },
]);

const ZONES = [
  'Europe/Berlin',
  'Europe/Paris',
  'Europe/Madrid',
  'Europe/Rome',
  'Europe/Vienna',
  'Europe/Prague',
  'Europe/Lisbon',
  'Europe/London',
  'Europe/Warsaw',
  'Europe/Zurich',
];
/** The widget tests' weeks, and a store whose hours are not known (null). */
const WEEK_TEXTS = [
  ...[WEEKS.shop, WEEKS.late, WEEKS.split, WEEKS.noSunday, WEEKS.shop, WEEKS.allDay].map((week) =>
    JSON.stringify(week),
  ),
  'null',
];

/** Seeds `count` locations reaching a new finder; answers its token. */
async function seedFinder(
  raw: postgres.Sql,
  workspaceId: number,
  count: number,
  label: string,
): Promise<string> {
  const [map] = await raw<{ id: number }[]>`insert into maps (title) values (${label}) returning id`;
  const token = randomToken();
  const [finder] = await raw<{ id: number }[]>`
    insert into finders (workspace_id, map_id, name, token, settings, advanced_refinements)
    values (${workspaceId}, ${map!.id}, ${label}, ${token},
      ${SETTINGS}::jsonb,
      ${REFINEMENTS}::jsonb)
    returning id`;
  const sets = await raw<{ id: number }[]>`
    insert into sets (workspace_id, name) select ${workspaceId}, ${label} || ' set ' || i from generate_series(1, 3) i
    returning id`;
  const tags = await raw<{ id: number }[]>`
    insert into tags (workspace_id, name, slug)
    select ${workspaceId}, ${label} || ' tag ' || i, ${label} || '-tag-' || i from generate_series(1, 5) i returning id`;
  // Opening hours as a chain keeps them (the widget tests' weeks, in ten zones; a few without;
  // a third with special days, one in fifty temporarily closed): they are a third of a
  // location's document, and a publish reads them.
  const today = new Date().toISOString().slice(0, 10);
  const ids = await raw<{ id: number }[]>`
    insert into locations (workspace_id, title, address, city, country, zip, lat, lng, phone, custom_values,
      time_zone, hours, special_hours, temporarily_closed, reopens_on)
    select ${workspaceId}, 'Store ' || i, (1 + i % 200) || ' Market Street', 'City ' || (i % 50), 'DE',
      (10000 + i % 89999)::text, 40 + (i % 1400) / 100.0, -4 + (i % 2400) / 100.0, '+49 30 ' || (100000 + i),
      jsonb_build_object('opening_hours', 'Mon-Sat 9:00-20:00', 'seats', 20 + i % 100,
        'services', case when i % 4 = 0 then '["repair"]'::jsonb else '["rental"]'::jsonb end,
        'step_free', i % 2 = 0),
      (${raw.array(ZONES)}::text[])[1 + i % ${ZONES.length}],
      nullif((${raw.array(WEEK_TEXTS)}::text[])[1 + i % ${WEEK_TEXTS.length}], 'null')::json,
      case when i % 3 = 0 then json_build_array(
        json_build_object('date', ${today}::date + 1 + i % 5, 'end_date', null, 'hours', '[]'::json, 'label', 'Public holiday'),
        json_build_object('date', ${today}::date + 8, 'end_date', null, 'hours', '["10:00-14:00"]'::json, 'label', 'Stocktaking'))
      end,
      i % 50 = 0, case when i % 50 = 0 then (${today}::date + 20)::text end
    from generate_series(1, ${count}) i returning id`;
  const first = ids[0]!.id;
  const last = ids.at(-1)!.id;
  const tagIds = tags.map((t) => t.id);
  const setIds = sets.map((s) => s.id);
  await raw`
    insert into location_tags (location_id, tag_id)
    select l, (${raw.array(tagIds)}::int[])[1 + l % 5] from generate_series(${first}::int, ${last}::int) l
    union select l, (${raw.array(tagIds)}::int[])[1 + (l + 2) % 5] from generate_series(${first}::int, ${last}::int) l`;
  await raw`
    insert into location_sets (location_id, set_id)
    select l, (${raw.array(setIds)}::int[])[1 + l % 3] from generate_series(${first}::int, ${last}::int) l`;
  // Own: every even location; map: every multiple of 3 directly, and the first set (l % 3 = 0
  // too, so the union removes duplicates) plus the second set (l % 3 = 1); the rest (odd,
  // l % 3 = 2) own... so every location is reached, many twice.
  await raw`
    insert into finder_locations (finder_id, location_id, sort_order)
    select ${finder!.id}, l, l - ${first} from generate_series(${first}::int, ${last}::int) l where l % 2 = 0 or l % 3 = 2`;
  await raw`
    insert into map_locations (map_id, location_id)
    select ${map!.id}, l from generate_series(${first}::int, ${last}::int) l where l % 3 = 0`;
  await raw`insert into map_sets (map_id, set_id) values (${map!.id}, ${setIds[0]!}), (${map!.id}, ${setIds[1]!})`;
  return token;
}

interface CannonResult {
  requests: { average: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
}

/** autocannon in a child process, so the load generator does not share the server's event loop. */
function cannon(url: string, headers: Record<string, string>): Promise<CannonResult> {
  const bin = path.resolve('node_modules/.bin/autocannon');
  const args = ['-c', String(CONNECTIONS), '-d', String(DURATION_SECONDS), '-j'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`autocannon exited with ${code}`));
      else resolve(JSON.parse(out) as CannonResult);
    });
  });
}

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'lf-bench-widget-'));
  const bench = await openBenchDatabase(work, `lf_bench_widget_${process.pid}`);
  const databaseUrl = bench.url;
  const closers: Array<() => Promise<void>> = [];

  try {
    const env = {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
      APP_KEY: Buffer.alloc(32, 1).toString('base64'),
      DATA_DIR: path.join(work, 'data'),
      STORAGE_DRIVER: 'local',
      // The payload and single-file publish figures first; the chunked publish has its own deps below.
      PUBLISH_CHUNKED_FROM: '0',
    };
    const deps = await createDeps(loadConfig(env), { databaseUrl, role: 'api' });
    closers.push(() => deps.close());
    const raw = deps.database.sql;
    const [workspace] = await raw<
      { id: number }[]
    >`insert into workspaces (name) values ('bench') returning id`;
    await raw`
      insert into custom_field_definitions (workspace_id, name, label, type, options, sort_order) values
      (${workspace!.id}, 'opening_hours', 'Opening hours', 'textarea', null, 0),
      (${workspace!.id}, 'seats', 'Seats', 'number', null, 1),
      (${workspace!.id}, 'services', 'Services', 'multiselect', '["repair","rental"]', 2),
      (${workspace!.id}, 'step_free', 'Step-free access', 'boolean', null, 3)`;
    const began = performance.now();
    const token10k = await seedFinder(raw, workspace!.id, 10_000, 'ten');
    const token100k = process.env.BENCH_QUICK
      ? token10k
      : await seedFinder(raw, workspace!.id, 100_000, 'hundred');
    await raw`vacuum analyze`;
    console.log(`seeded 10,000 + 100,000 locations in ${((performance.now() - began) / 1000).toFixed(1)} s`);

    // Cold builds: built from the database each time (the app's cache is not involved).
    const repository = createFinderPayloadRepository(deps.db);
    const builds: number[] = [];
    const fills: number[] = [];
    let json: Buffer = Buffer.alloc(0);
    for (let i = 0; i < 10; i++) {
      const start = performance.now();
      const built = await repository.build(token10k);
      const end = performance.now();
      json = built!.json;
      await precompress(json);
      if (i > 0) {
        builds.push(end - start);
        fills.push(performance.now() - end);
      }
    }
    const variants = await precompress(json);
    if (process.env.BENCH_EXPLAIN) {
      // The statement that builds the location documents, over all 10,000 locations at once
      // (a build splits them between two connections), with the build's settings.
      const [finder] = await raw<{ id: number; map_id: number | null }[]>`
        select id, map_id from finders where token = ${token10k}`;
      const [listed] = (await deps.db.execute(
        locationIdsStatement(finder!.id, finder!.map_id),
      )) as unknown as Array<{ location_ids: string }>;
      await deps.db.transaction(async (tx) => {
        await tx.execute(BUILD_SETTINGS);
        const plan = (await tx.execute(
          sql`explain (analyze, buffers) ${sliceStatement(listed!.location_ids, workspace!.id)}`,
        )) as unknown as Array<Record<string, string>>;
        for (const row of plan) console.log(Object.values(row)[0]);
      });
    }
    const count = (JSON.parse(json.toString('utf8')) as { locations: unknown[] }).locations.length;
    console.log(`\npayload of ${count.toLocaleString('en')} locations`);
    console.log(`  cold build:                      median ${ms(median(builds))} of 9`);
    console.log(`  compression of a fill (gzip+br): median ${ms(median(fills))} of 9`);
    console.log(
      `  bytes: raw ${variants.identity.length.toLocaleString('en')} (${kb(variants.identity.length)}), gzip ${variants.gzip.length.toLocaleString('en')} (${kb(variants.gzip.length)}), br ${variants.br.length.toLocaleString('en')} (${kb(variants.br.length)})`,
    );

    // Cached requests/s against the app and a bare server with the same bytes.
    const app = await buildApp(deps);
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.unshift(() => app.close());
    const appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/ext/finders/details/${token10k}`;
    const headers = { 'accept-encoding': 'br', origin: 'https://shop.example' };
    const warm = await fetch(appUrl, { headers });
    if (warm.status !== 200) throw new Error(`details answered ${warm.status}`);
    const etag = warm.headers.get('etag')!;
    const bare = http.createServer((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-encoding': 'br',
        'content-length': variants.br.length,
        etag,
        vary: 'Origin, Accept-Encoding',
        'cache-control': 'public, no-cache',
      });
      response.end(variants.br);
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    closers.unshift(() => new Promise((resolve) => bare.close(() => resolve())));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

    // Other work on the machine moves req/s by a lot from one run to the next: the servers take
    // turns (bare, app[, app with Redis]) for ROUNDS rounds, and the medians are compared.
    const targets: Array<{ label: string; url: string }> = [
      { label: 'bare node:http, same bytes', url: bareUrl },
      { label: 'GET /api/ext/finders/details/{key}', url: appUrl },
    ];
    if (process.env.BENCH_REDIS_URL) {
      const shared = await createDeps(loadConfig({ ...env, REDIS_URL: process.env.BENCH_REDIS_URL }), {
        databaseUrl,
        role: 'api',
      });
      const sharedApp = await buildApp(shared);
      await sharedApp.listen({ port: 0, host: '127.0.0.1' });
      closers.unshift(async () => {
        await sharedApp.close();
        await shared.close();
      });
      const sharedUrl = `http://127.0.0.1:${(sharedApp.server.address() as AddressInfo).port}/api/ext/finders/details/${token10k}`;
      await fetch(sharedUrl, { headers });
      targets.push({ label: 'the same, cache shared via Redis', url: sharedUrl });
    }
    console.log(
      `\ncached GET, br, ${CONNECTIONS} connections, ${DURATION_SECONDS} s a run, ${ROUNDS} rounds taking turns (autocannon)`,
    );
    await cannon(bareUrl, headers); // warm-up of the load generator itself
    const rates = targets.map(() => [] as number[]);
    const p99s = targets.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, target] of targets.entries()) {
        const result = await cannon(target.url, headers);
        if (result.non2xx > 0 || result.errors > 0) {
          throw new Error(`${target.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        }
        rates[i]!.push(result.requests.average);
        p99s[i]!.push(result.latency.p99);
      }
    }
    const bareRate = median(rates[0]!);
    for (const [i, target] of targets.entries()) {
      const rate = median(rates[i]!);
      console.log(
        `  ${target.label.padEnd(34)} median ${rate.toFixed(0).padStart(6)} req/s (runs: ${rates[i]!.map((r) => r.toFixed(0)).join(', ')})  p99 ${median(p99s[i]!)} ms${i === 0 ? '' : `  ratio to bare ${(rate / bareRate).toFixed(2)}`}`,
      );
    }

    console.log('\npublish (local storage driver, built afresh)');
    const actor = { userId: 0, allWorkspaces: true };
    for (const [label, token] of [
      ['10,000 locations', token10k],
      ['100,000 locations', token100k],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        await deps.services.finderPayload.publish(actor, token);
        times.push(performance.now() - start);
      }
      const object = await deps.storage.get(`finders/${token}/config.json`);
      const { hash } = JSON.parse(object!.body.toString()) as { hash: string };
      const version = await deps.storage.get(`finders/${token}/v/${hash}.json`);
      console.log(
        `  ${label.padEnd(18)} median ${ms(median(times))} of 3 (${(version!.body.length / 1024 / 1024).toFixed(1)} MiB)`,
      );
      // The version file as /cdn sends it: the forms the local driver makes at the first request.
      const sent = await Promise.all(
        ['identity', 'gzip', 'br'].map(async (coding) => {
          const response = await app.inject({
            method: 'GET',
            url: `/cdn/finders/${token}/v/${hash}.json`,
            headers: { 'accept-encoding': coding },
          });
          return `${coding} ${response.rawPayload.length.toLocaleString('en')} (${kb(response.rawPayload.length)})`;
        }),
      );
      console.log(`  ${''.padEnd(18)} via /cdn: ${sent.join(', ')}`);
    }

    console.log('\nchunked publish of 100,000 locations (PUBLISH_CHUNKED_FROM=5000, local storage driver)');
    const chunkedDeps = await createDeps(loadConfig({ ...env, PUBLISH_CHUNKED_FROM: '5000' }), {
      databaseUrl,
      role: 'api',
    });
    closers.push(() => chunkedDeps.close());
    const publishChunked = async () => {
      const start = performance.now();
      const { uploaded } = await chunkedDeps.services.finderPayload.publish(actor, token100k);
      return { ms: performance.now() - start, ...uploaded };
    };
    const share = (bytes: number, total: number) =>
      `${((bytes / total) * 100).toFixed(1)}% of the version's bytes`;
    // The folder holds single-file versions only: the first chunked publish writes every file.
    const first = await publishChunked();
    const total = first.bytes;
    console.log(
      `  ${'first (every file written)'.padEnd(44)} ${ms(first.ms)}, uploaded ${first.files} files, ${kb(total)}`,
    );
    const edit = (where: SQL) =>
      chunkedDeps.db.execute(sql`update locations set title = title || ' (edited)' where id in (${where})`);
    const [finderRow] = await raw<{ id: number }[]>`select id from finders where token = ${token100k}`;
    const ofFinder = sql`select location_id from finder_locations where finder_id = ${finderRow!.id}`;
    // Each republish is timed ROUNDS times, its edit made afresh before each (one sample of a
    // second or two on this noisy machine said little), the kinds interleaved round by round.
    const kinds: { label: string; before?: (round: number) => Promise<unknown> }[] = [
      { label: 'again, nothing changed' },
      {
        label: 'after editing the 1,000 nearest to one point',
        // A different point each round, inside the seeded area (latitudes 40-54, longitudes -4-20).
        before: (round) => {
          const [lat, lng] = EDIT_POINTS[round % EDIT_POINTS.length]!;
          return edit(sql`select l.id from locations l where l.id in (${ofFinder})
            order by (l.lat - ${lat}) ^ 2 + (l.lng - ${lng}) ^ 2 limit 1000`);
        },
      },
      {
        label: 'after editing 1,000 spread over the chain',
        before: (round) =>
          edit(sql`select l.id from locations l where l.id in (${ofFinder})
            order by md5(l.id::text || ${round}::text) limit 1000`),
      },
    ];
    const runs = kinds.map(() => [] as Awaited<ReturnType<typeof publishChunked>>[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, kind] of kinds.entries()) {
        await kind.before?.(round);
        runs[i]!.push(await publishChunked());
      }
    }
    for (const [i, kind] of kinds.entries()) {
      const times = runs[i]!.map((run) => run.ms);
      // The median run: its time is the median, and its uploads are printed with it.
      const middle = [...runs[i]!].sort((a, b) => a.ms - b.ms)[Math.floor(ROUNDS / 2)]!;
      console.log(
        `  ${kind.label.padEnd(44)} median ${ms(middle.ms)} of ${ROUNDS} (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms), uploaded ${middle.files} files, ${kb(middle.bytes)} (${share(middle.bytes, total)})`,
      );
    }

    console.log(
      `  load average while measuring: ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(', ')} on ${os.cpus().length} CPUs`,
    );
    console.log(`\npeak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  } finally {
    for (const close of closers) await close().catch(() => {});
    await bench.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
