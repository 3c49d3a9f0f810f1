// npm run bench:import: the CSV import at 100,000 rows, through the real HTTP endpoint.
// Generates a CSV (tags, two custom fields, coordinates whose time zone is derived, a week of
// opening hours and special hours), imports it (all creates), imports it again
// (all updates), and prints rows per second beside PostgreSQL COPY of the same file into a
// bare table on the same server, plus the peak memory (RSS) of this process, which runs the
// API. The upload is streamed from disk, so the client side adds next to nothing. Each import
// also prints the CPU time it took: this process's, and that of the database's server processes
// (read from /proc, so only for a server on this machine), which a busy machine disturbs far
// less than the wall-clock time.
//
// Then a fresh workspace, once the table's statistics are
// up to date without it (ANALYZE, as autovacuum does after the imports above), gets the file
// and, straight after, the same file again. The planner's statistics do not know the new
// workspace yet, which is what once made the second pass quadratic.
//
// Uses the server of DATABASE_URL when set (a throwaway database on it), else a throwaway
// embedded PostgreSQL.
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { createDeps } from '../src/deps.ts';
import { customFieldDefinitionsTable } from '../src/modules/custom-fields/custom-fields.table.ts';
import { createWorkspacesRepository } from '../src/modules/workspaces/workspaces.repository.ts';
import { createBenchOwner } from './bench-api.ts';
import { openBenchDatabase } from './bench-database.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const TAGS = ['drive-thru', 'open late', 'parking', 'wifi', 'wheelchair access', 'atm', 'pharmacy', 'bakery'];
const CITIES = ['Springfield', 'Shelbyville', 'Ogdenville', 'North Haverbrook', 'Capital City'];
const HEADER =
  'title,address,city,state,zip,country,lat,lng,phone,email,website,external_id,tags,seats,kind,' +
  'time_zone,hours_mon,hours_tue,hours_wed,hours_thu,hours_fri,hours_sat,hours_sun,special_hours';

/** A week of opening hours in the CSV's cells (an empty time_zone: derived from lat/lng). */
function hoursCells(i: number, changed: boolean) {
  const day = changed ? '08:00-17:00' : '"09:00-12:30, 13:30-18:00"';
  const friday = i % 3 === 0 ? '19:00-02:00' : day;
  const special = changed
    ? '2026-12-31 10:00-14:00'
    : '"2026-12-24 09:00-14:00 Christmas Eve; 2026-12-25..2026-12-26 closed"';
  return `,${day},${day},${day},${day},${friday},10:00-14:00,${i % 7 === 0 ? '24h' : 'closed'},${special}`;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const rate = (rows: number, ms: number) => Math.round((rows * 1000) / ms);

/** `changed` moves every row to another city with other tags and custom values, keeping its key. */
async function writeCsv(file: string, changed = false) {
  function* lines() {
    yield `${HEADER}\n`;
    for (let i = 0; i < ROWS; i++) {
      const shift = changed ? 3 : 0;
      const tags = [TAGS[(i + shift) % TAGS.length], TAGS[(i * 7) % TAGS.length]].join('|');
      const externalId = i % 2 === 0 ? `EXT-${i}` : '';
      yield `"Store ${i}, Main",${i} Market Street,${CITIES[(i + shift) % CITIES.length]},ST,${10000 + (i % 90000)},US,` +
        `${(i % 180) - 89.5},${(i % 360) - 179.5},+1 555 ${String(i).padStart(7, '0')},store${i}@example.test,` +
        `shop.example.test/${i},${externalId},${tags},${(i + shift) % 200},${i % 3 === 0 ? 'depot' : 'shop'},` +
        `${hoursCells(i, changed)}\n`;
    }
  }
  await pipeline(Readable.from(lines()), createWriteStream(file));
}

/** A multipart body streamed from disk: the workspace_id field, then the file. */
function multipartStream(file: string, workspaceId: number) {
  const boundary = `----bench${Date.now()}`;
  async function* body() {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="workspace_id"\r\n\r\n${workspaceId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    );
    yield* createReadStream(file);
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return {
    body: Readable.toWeb(Readable.from(body())) as ReadableStream,
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

class Rollback extends Error {}

/**
 * CPU seconds of the client backends on the bench's database (from /proc; autovacuum left out);
 * undefined when unreadable.
 */
async function serverCpuSeconds(client: postgres.Sql): Promise<number | undefined> {
  const rows = await client<{ pid: number }[]>`select pid from pg_stat_activity
    where datname = current_database() and backend_type = 'client backend'`;
  let ticks = 0;
  for (const { pid } of rows) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return undefined;
    }
    // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'lf-bench-'));
  const bench = await openBenchDatabase(work, `lf_bench_${process.pid}`);
  const databaseUrl = bench.url;

  try {
    const config = loadConfig({
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
      APP_KEY: Buffer.alloc(32, 1).toString('base64'),
      DATA_DIR: path.join(work, 'data'),
    });
    const deps = await createDeps(config, { databaseUrl, role: 'api' });
    const app = await buildApp(deps);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    const { user, workspaceId, token } = await createBenchOwner(deps);
    await deps.db.insert(customFieldDefinitionsTable).values([
      { workspaceId, name: 'seats', label: 'Seats', type: 'number' },
      { workspaceId, name: 'kind', label: 'Kind', type: 'select', options: ['shop', 'depot'] },
    ]);

    const file = path.join(work, 'bench.csv');
    await writeCsv(file);
    const changedFile = path.join(work, 'bench-changed.csv');
    await writeCsv(changedFile, true);
    console.log(`CSV: ${ROWS} rows, ${mb(statSync(file).size)}`);

    // COPY of the same file into a bare table: the floor of what PostgreSQL can ingest.
    const copyClient = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await copyClient.unsafe(
      `create table bench_copy (${HEADER.split(',')
        .map((column) => `${column} text`)
        .join(', ')})`,
    );
    const started = performance.now();
    await pipeline(
      createReadStream(file),
      await copyClient`copy bench_copy from stdin with (format csv, header true)`.writable(),
    );
    const copyMs = performance.now() - started;
    await copyClient.end();

    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 10);

    const copyRate = rate(ROWS, copyMs);
    const line = (label: string, ms: number) =>
      `${label.padEnd(30)} ${String(rate(ROWS, ms)).padStart(8)} rows/s  ${(ms / 1000).toFixed(2)} s  ${(
        rate(ROWS, ms) / copyRate
      ).toFixed(2)}x COPY`;
    console.log(line('COPY into a bare table', copyMs));

    // Each import's line as soon as it ends: a run that fails later (a busy machine's
    // statement timeout) still shows the imports before.
    const cpuClient = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const runImport = async (label: string, csv = file, into = workspaceId) => {
      const { body, type } = multipartStream(csv, into);
      const serverBefore = await serverCpuSeconds(cpuClient);
      const cpuBefore = process.cpuUsage();
      const began = performance.now();
      const response = await fetch(`${base}/api/locations/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        body,
        duplex: 'half',
      } as RequestInit);
      const result = (await response.json()) as Record<string, unknown>;
      const ms = performance.now() - began;
      const cpu = process.cpuUsage(cpuBefore);
      const serverAfter = await serverCpuSeconds(cpuClient);
      if (response.status !== 200)
        throw new Error(
          `${label}: HTTP ${response.status} ${JSON.stringify(result)} after ${(ms / 1000).toFixed(2)} s`,
        );
      const server =
        serverBefore === undefined || serverAfter === undefined
          ? 'n/a'
          : `${(serverAfter - serverBefore).toFixed(2)} s`;
      console.log(
        `${line(label, ms)}  created=${result.created} updated=${result.updated} skipped=${result.skipped}  ` +
          `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s + server ${server}`,
      );
      return ms;
    };

    await runImport('import 1 (creates)');
    await runImport('import 2 (same file again)');
    await runImport('import 3 (changed values)', changedFile);

    await deps.db.execute(sql`analyze locations`);
    const fresh = await createWorkspacesRepository(deps.db).insertWithMember('Bench fresh', {
      userId: user.id,
      role: 'owner',
    });
    await deps.db.insert(customFieldDefinitionsTable).values([
      { workspaceId: fresh.id, name: 'seats', label: 'Seats', type: 'number' },
      { workspaceId: fresh.id, name: 'kind', label: 'Kind', type: 'select', options: ['shop', 'depot'] },
    ]);
    const freshFirst = await runImport('fresh ws: first pass', file, fresh.id);
    const freshSecond = await runImport('fresh ws: second pass at once', file, fresh.id);
    console.log(`fresh ws: the second pass took ${(freshSecond / freshFirst).toFixed(2)}x the first`);
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    await cpuClient.end();

    console.log(
      `peak RSS of the API process during the imports: ${mb(peakRss)} (max RSS of the whole run: ${mb(process.resourceUsage().maxRSS * 1024)})`,
    );

    // The schema's floor: the same rows straight from the COPY table into locations and their
    // tag links, in SQL alone (no parsing, no matching), rolled back. Foreign-key checks and
    // index upkeep are what separates it from COPY into a bare table.
    const floorClient = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await floorClient
      .begin(async (sql) => {
        const [empty] = await sql<
          { id: number }[]
        >`insert into workspaces (name) values ('floor') returning id`;
        let began = performance.now();
        await sql`insert into locations (workspace_id, title, address, city, state, zip, country, lat, lng, phone, email, website)
        select ${empty!.id}, title, address, city, state, zip, country, lat::float8, lng::float8, phone, email, website
        from bench_copy`;
        const locationsMs = performance.now() - began;
        began = performance.now();
        const [links] = await sql<{ count: number }[]>`with inserted as (
          insert into location_tags (location_id, tag_id)
          select l.id, t.id from locations l join tags t on t.workspace_id = ${workspaceId} and t.slug in ('parking', 'wifi')
          where l.workspace_id = ${empty!.id} returning 1)
        select count(*)::int as count from inserted`;
        const tagsMs = performance.now() - began;
        console.log(line('floor: INSERT..SELECT locations', locationsMs));
        console.log(`floor: ${links!.count} tag links by INSERT..SELECT: ${(tagsMs / 1000).toFixed(2)} s`);
        throw new Rollback();
      })
      .catch((error) => {
        if (!(error instanceof Rollback)) throw error;
      });
    await floorClient.end();

    await app.close();
    await deps.close();
  } finally {
    await bench.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
