// npm run bench:finder-rule: the widget payload's cold build at 100,000 locations for a finder
// that lists them (finder_locations, as PUT /finders would if it took that many) against one
// whose rule {} matches them (docs/api.md, Finders, Rule), and one with a tag and country rule
// matching two fifths; then the analytics' probe by id (shownLocations with `among`) on the rule finder, with
// its plan. Seeds straight into the database; prints medians of BENCH_ROUNDS builds (default 7,
// after one warm-up each).
//
// Uses the server of DATABASE_URL when set (a throwaway database on it), else a throwaway
// embedded PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config/config.ts';
import { createDeps } from '../src/deps.ts';
import { randomToken } from '../src/lib/crypto.ts';
import { shownLocations } from '../src/modules/finders/finders.shown-locations.ts';
import { createFinderPayloadRepository } from '../src/modules/finders/payload/finders.payload.repository.ts';
import { openBenchDatabase } from './bench-database.ts';

const COUNT = 100_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'lf-bench-rule-'));
  const bench = await openBenchDatabase(work, `lf_bench_rule_${process.pid}`);
  try {
    const env = {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: bench.url,
      JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
      APP_KEY: Buffer.alloc(32, 1).toString('base64'),
      DATA_DIR: path.join(work, 'data'),
      STORAGE_DRIVER: 'local',
    };
    const deps = await createDeps(loadConfig(env), { databaseUrl: bench.url, role: 'api' });
    try {
      const raw = deps.database.sql;
      // A second workspace of the same size, so the rule reads one workspace among others.
      const workspaces = await raw<{ id: number }[]>`
        insert into workspaces (name) values ('chain'), ('other') returning id`;
      const ws = workspaces[0]!.id;
      const began = performance.now();
      for (const { id } of workspaces) {
        await raw`
          insert into locations (workspace_id, title, address, city, country, zip, lat, lng, phone)
          select ${id}, 'Store ' || i, (1 + i % 200) || ' Market Street', 'City ' || (i % 50),
            case when i % 3 = 0 then 'Germany' else 'DE' end, (10000 + i % 89999)::text,
            40 + (i % 1400) / 100.0, -4 + (i % 2400) / 100.0, '+49 30 ' || (100000 + i)
          from generate_series(1, ${COUNT}) i`;
      }
      const tags = await raw<{ id: number }[]>`
        insert into tags (workspace_id, name, slug)
        select ${ws}, 'Tag ' || i, 'tag-' || i from generate_series(1, 5) i returning id`;
      const tagIds = tags.map((t) => t.id);
      await raw`
        insert into location_tags (location_id, tag_id)
        select l.id, (${raw.array(tagIds)}::int[])[1 + l.id % 5] from locations l where l.workspace_id = ${ws}
        union select l.id, (${raw.array(tagIds)}::int[])[1 + (l.id + 2) % 5] from locations l where l.workspace_id = ${ws}`;
      const finder = async (label: string) => {
        const [map] = await raw<{ id: number }[]>`insert into maps (title) values (${label}) returning id`;
        const token = randomToken();
        const [row] = await raw<{ id: number }[]>`
          insert into finders (workspace_id, map_id, name, token) values (${ws}, ${map!.id}, ${label}, ${token})
          returning id`;
        return { id: row!.id, mapId: map!.id, token };
      };
      const listed = await finder('listed');
      await raw`insert into finder_locations (finder_id, location_id, sort_order)
        select ${listed.id}, l.id, 0 from locations l where l.workspace_id = ${ws}`;
      const all = await finder('rule {}');
      await raw`update finders set rule_countries = '{}' where id = ${all.id}`;
      // A tag rule: a tag two fifths of the locations carry, in Germany (all of them are, as DE
      // or as Germany).
      const tagged = await finder('tag rule');
      const names = ['de', 'germany', 'deutschland'];
      await raw`update finders set rule_countries = '{DE}', rule_country_names = ${raw.array(names)}::text[],
        rule_has_tags = true where id = ${tagged.id}`;
      await raw`insert into finder_rule_tags (finder_id, tag_id) values (${tagged.id}, ${tagIds[0]!})`;
      await raw`vacuum analyze`;
      console.log(
        `seeded 2 x ${COUNT.toLocaleString('en')} locations in ${((performance.now() - began) / 1000).toFixed(1)} s`,
      );

      const repository = createFinderPayloadRepository(deps.db);
      for (const [label, f] of [
        ['listed (finder_locations)', listed],
        ['rule {}', all],
        ['rule tag + DE', tagged],
      ] as const) {
        const times: number[] = [];
        let count = 0;
        let bytes = 0;
        for (let i = 0; i <= ROUNDS; i++) {
          const start = performance.now();
          const built = await repository.build(f.token);
          if (i > 0) times.push(performance.now() - start);
          bytes = built!.json.length;
          count = (JSON.parse(built!.json.toString()) as { locations: unknown[] }).locations.length;
        }
        console.log(
          `${label.padEnd(26)} ${count.toLocaleString('en').padStart(7)} locations, ${(bytes / 1024 / 1024).toFixed(1)} MiB: build median ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`,
        );
      }

      // The analytics' check: a batch of 100 ids against the rule finder.
      const among = (await raw<{ id: number }[]>`select id from locations order by random() limit 100`).map(
        (r) => r.id,
      );
      const probe = sql`select location_id from (${shownLocations(all.id, all.mapId, among)}) s`;
      const times: number[] = [];
      for (let i = 0; i <= 20; i++) {
        const start = performance.now();
        await deps.db.execute(probe);
        if (i > 0) times.push(performance.now() - start);
      }
      console.log(`among (100 ids) on rule {}: median ${median(times).toFixed(2)} ms`);
      if (process.env.BENCH_EXPLAIN) {
        const plan = (await deps.db.execute(
          sql`explain (analyze, buffers, costs off) ${probe}`,
        )) as unknown as Array<Record<string, string>>;
        console.log(plan.map((row) => Object.values(row)[0]).join('\n'));
      }
    } finally {
      await deps.close();
    }
  } finally {
    await bench.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
