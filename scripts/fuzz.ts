// npm run fuzz [-- --seed N --budget N --per-operation]: requests generated from /openapi.json
// against the real app (scripts/fuzz/): valid ones for every operation, then mutated ones
// (bodies at any depth, odd strings, whole odd bodies, query strings, path parameters,
// headers), as anonymous, as a user and as an admin. Prints the totals by status class and each
// distinct 5xx with the request that got it, and exits 1 when there is any.
// FUZZ_SEED and FUZZ_BUDGET work too; defaults: seed 1, 50,000 requests.
// Uses the server of DATABASE_URL when set (a throwaway database on it), else a throwaway
// embedded PostgreSQL, like the benchmarks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openBenchDatabase } from './bench-database.ts';
import { Fuzzer, type FuzzReport, preview } from './fuzz/run.ts';
import { startWorld } from './fuzz/world.ts';

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string' },
    budget: { type: 'string' },
    'per-operation': { type: 'boolean', default: false },
    concurrency: { type: 'string' },
  },
});
const seed = Number(args.seed ?? process.env.FUZZ_SEED ?? 1);
const budget = Number(args.budget ?? process.env.FUZZ_BUDGET ?? 50_000);
const concurrency = Number(args.concurrency ?? process.env.FUZZ_CONCURRENCY ?? 1);
if (!Number.isInteger(seed) || !Number.isInteger(budget) || budget < 1 || !(concurrency >= 1)) {
  console.error('--seed, --budget and --concurrency must be integers (budget and concurrency at least 1)');
  process.exit(2);
}

const count = (value: number) => value.toLocaleString('en-US');

/** An error line of the app's log in short: its message, the error's type and message, and every code in it. */
function logSummary(line: string): string {
  try {
    const entry = JSON.parse(line) as {
      msg?: string;
      err?: { type?: string; message?: string; stack?: string };
    };
    const codes = [...line.matchAll(/"(?:code|constraint_name|routine)":"([^"]{1,80})"/g)].map(
      (match) => match[1],
    );
    const message = entry.err?.message?.split('\n')[0]?.slice(0, 300);
    const at = entry.err?.stack
      ?.split('\n')
      .find((frame) => frame.includes('/src/'))
      ?.trim();
    return `${entry.msg ?? ''}: ${entry.err?.type ?? ''} ${message ?? ''} [${codes.join(', ')}]${at ? ` ${at}` : ''}`;
  } catch {
    return line.trim().slice(0, 1_500);
  }
}

function printReport(report: FuzzReport, perOperation: boolean) {
  const seconds = report.durationMs / 1000;
  console.log(
    `\n${count(report.requests)} requests in ${seconds.toFixed(1)} s (${count(Math.round(report.requests / seconds))}/s), seed ${report.seed}, concurrency ${concurrency}, ${count(report.restores)} restores`,
  );
  for (const [cls, n] of Object.entries(report.byClass)) console.log(`  ${cls}: ${count(n)}`);
  const statuses = Object.entries(report.byStatus)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, n]) => `${status}: ${count(n)}`);
  console.log(`  by status: ${statuses.join(', ')}`);
  if (perOperation) {
    console.log('\nper operation: 2xx / 4xx / 5xx, mean time');
    for (const [id, classes] of Object.entries(report.byOperation).sort()) {
      const total = classes['2xx'] + classes['3xx'] + classes['4xx'] + classes['5xx'];
      const mean = (report.msByOperation[id] ?? 0) / total;
      console.log(
        `  ${id.padEnd(44)} ${classes['2xx']} / ${classes['4xx']} / ${classes['5xx']}, ${mean.toFixed(1)} ms`,
      );
    }
    console.log(`restores: ${count(report.restores)} in ${(report.restoreMs / 1000).toFixed(1)} s`);
  }
  if (report.failures.length === 0) {
    console.log('\nno 5xx');
    return;
  }
  console.log(`\n${report.failures.length} distinct 5xx:`);
  for (const failure of report.failures) {
    const { request } = failure;
    console.log(
      `\n- ${failure.method} ${failure.path} -> ${failure.status} ${failure.code ?? ''} (x${failure.count}; first: request #${failure.index})`,
    );
    console.log(`  as ${request.caller}, mode ${request.mode}: ${request.note}`);
    console.log(`  ${request.method} ${request.url.slice(0, 300)}`);
    const headers = { ...request.headers };
    if (headers.authorization)
      headers.authorization = `${headers.authorization.slice(0, 14)}… (${request.caller})`;
    console.log(`  headers: ${JSON.stringify(headers)}`);
    console.log(`  body: ${preview(request.payload, 400)}`);
    console.log(`  answer: ${failure.response}`);
    for (const line of failure.log.slice(0, 3)) console.log(`  log: ${logSummary(line)}`);
    console.log(
      `  reproduce: npm run fuzz -- --seed ${report.seed} --budget ${failure.index}${concurrency > 1 ? ' (this run had requests in parallel: rerun with --concurrency 1 if the order matters)' : ''}`,
    );
  }
}

const work = mkdtempSync(path.join(os.tmpdir(), 'lf-fuzz-'));
const database = await openBenchDatabase(work, `lf_fuzz_${process.pid}`);
let exitCode = 0;
try {
  const setup = performance.now();
  const world = await startWorld({ databaseUrl: database.url, dataDir: path.join(work, 'data') });
  try {
    const fuzzer = new Fuzzer(world, seed);
    console.log(
      `fuzzing ${fuzzer.operationCount} operations of /openapi.json, seed ${seed}, ${count(budget)} requests (set up in ${((performance.now() - setup) / 1000).toFixed(1)} s)`,
    );
    const report = await fuzzer.run({
      seed,
      budget,
      concurrency,
      every: 5_000,
      onFailure: (failure) =>
        console.log(
          `  new 5xx at request #${failure.index}: ${failure.method} ${failure.path} -> ${failure.status} ${failure.code ?? ''}`,
        ),
      onProgress: (so) =>
        console.log(
          `  ${count(so.requests)}: ${Object.entries(so.byClass)
            .map(([c, n]) => `${c} ${n}`)
            .join(', ')}`,
        ),
    });
    printReport(report, args['per-operation'] ?? false);
    if (report.failures.length > 0) {
      const file = path.join(os.tmpdir(), `lf-fuzz-5xx-seed${seed}.json`);
      writeFileSync(
        file,
        JSON.stringify(
          report.failures.map((failure) => ({
            ...failure,
            request: {
              ...failure.request,
              operation: failure.request.operation.id,
              payload: Buffer.isBuffer(failure.request.payload)
                ? { base64: failure.request.payload.toString('base64') }
                : failure.request.payload,
            },
          })),
          null,
          2,
        ),
      );
      console.log(`\nevery 5xx request in full: ${file}`);
      exitCode = 1;
    }
  } finally {
    await world.close();
  }
} finally {
  await database.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
