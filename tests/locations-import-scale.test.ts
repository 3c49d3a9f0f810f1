// A re-import straight after the first on a fresh workspace stays linear
// (the matching plan has no nested loop whatever the statistics say), and an import stops,
// rolls back and releases its lock when its time budget runs out or its client leaves.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldDefinitionsTable } from '../src/modules/custom-fields/custom-fields.table.ts';
import {
  copyLine,
  createLocationImportRepository,
} from '../src/modules/locations/import/locations.import.repository.ts';
import { parseRow, readLayout } from '../src/modules/locations/import/locations.import.rows.ts';
import { StagedValues } from '../src/modules/locations/import/locations.import.shared.ts';
import { createLocationsRepository } from '../src/modules/locations/locations.repository.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { processesTable } from '../src/modules/processes/processes.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createWorkspace } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

const imports = createLocationImportRepository();

function csvOf(rows: number, prefix = 'Store'): string {
  const lines = ['title,address,city,zip,external_id,tags,seats'];
  for (let i = 0; i < rows; i++) {
    // Half the rows match by external_id, half by title + address + zip.
    const externalId = i % 2 === 0 ? `EXT-${i}` : '';
    lines.push(`${prefix} ${i},${i} Market St,Springfield,${10000 + i},${externalId},Parking|Wifi,${i % 50}`);
  }
  return `${lines.join('\n')}\n`;
}

interface Cast {
  ctx: TestContext;
  owner: UserRow;
  token: string;
}

async function castOf(env: Record<string, string> = {}): Promise<Cast> {
  const ctx = await createTestContext({ env });
  const owner = await createUser(ctx.deps);
  return { ctx, owner, token: await tokenFor(ctx.deps, owner) };
}

async function newWorkspace({ ctx, owner }: Cast): Promise<number> {
  const id = await createWorkspace(ctx.deps, owner, 'Import target');
  await ctx.deps.db
    .insert(customFieldDefinitionsTable)
    .values([{ workspaceId: id, name: 'seats', label: 'Seats', type: 'number' }]);
  return id;
}

function uploadBody(workspaceId: number, csv: string) {
  return multipart({
    fields: { workspace_id: String(workspaceId) },
    files: [{ field: 'file', filename: 'locations.csv', contentType: 'text/csv', content: Buffer.from(csv) }],
  });
}

const upload = ({ ctx, token }: Cast, workspaceId: number, csv: string) => {
  const body = uploadBody(workspaceId, csv);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/locations/import',
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
};

async function locationCount({ ctx }: Cast, workspaceId: number): Promise<number> {
  const [row] = await ctx.deps.db
    .select({ value: count() })
    .from(locationsTable)
    .where(eq(locationsTable.workspaceId, workspaceId));
  return row!.value;
}

/**
 * Holds the workspace's import lock from another connection until `release` is called, so an
 * import sent meanwhile waits inside its transaction (a long statement the test controls).
 */
async function holdImportLock({ ctx }: Cast, workspaceId: number) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = ctx.deps.db.transaction(async (tx) => {
    await imports.lockWorkspace(tx, workspaceId);
    locked();
    await released;
  });
  await isLocked;
  return {
    release: async () => {
      release();
      await done;
    },
  };
}

/** Waits until some connection waits on an advisory lock (the import queued behind the holder). */
async function untilWaitingOnLock({ ctx }: Cast): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const rows = await ctx.deps.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
    );
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no import waited on the lock');
}

async function processesOf({ ctx }: Cast, workspaceId: number) {
  return ctx.deps.db
    .select()
    .from(processesTable)
    .where(and(eq(processesTable.workspaceId, workspaceId), eq(processesTable.type, 'csv_import')));
}

describe('CSV re-import at once on a fresh workspace', () => {
  let cast: Cast;
  beforeAll(async () => {
    cast = await castOf();
  });
  afterAll(async () => {
    await cast?.ctx.close();
  });

  const ROWS = 10_000;

  it('updates every row of the second pass instead of duplicating, and matches without a nested loop', async () => {
    // Statistics that know another workspace only, as after autovacuum on a live database.
    const other = await newWorkspace(cast);
    expect((await upload(cast, other, csvOf(2_000, 'Other'))).statusCode).toBe(200);
    await cast.ctx.deps.db.execute(sql`analyze locations`);

    const ws = await newWorkspace(cast);
    const csv = csvOf(ROWS);
    const first = await upload(cast, ws, csv);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ created: ROWS, updated: 0, skipped: 0 });
    const second = await upload(cast, ws, csv);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ created: 0, updated: ROWS, skipped: 0 });
    expect(await locationCount(cast, ws)).toBe(ROWS);

    // The plan the second pass ran with: the staged file against the workspace the statistics
    // do not know. A nested loop here is what went quadratic (11 minutes at 100,000 rows).
    const plan = await cast.ctx.deps.db.transaction(async (tx) => {
      await imports.lockWorkspace(tx, ws);
      const definitions = await createLocationsRepository(cast.ctx.deps.db).definitions(ws, tx);
      const [header, ...records] = csv
        .trim()
        .split('\n')
        .map((line) => line.split(','));
      const layout = readLayout(header!, definitions);
      const shared = new StagedValues();
      const copy = await imports.createStaging(tx);
      let lines = '';
      records.forEach((record, index) => {
        const row = parseRow(record, index + 2, layout, []);
        if (row) lines += copyLine(index + 1, row, shared);
      });
      await new Promise<void>((resolve, reject) =>
        copy.end(lines, (error?: Error | null) => (error ? reject(error) : resolve())),
      );
      // No ANALYZE of the staged rows: the plan must stay linear without their statistics too.
      return imports.explainMatch(tx, ws, false);
    });
    expect(plan).not.toMatch(/Nested Loop/);
    expect(plan).toMatch(/Hash (Right |Left )?Join|Merge (Right |Left )?Join/);
  });
});

describe('import time budget', () => {
  let cast: Cast;
  beforeAll(async () => {
    cast = await castOf({ IMPORT_TIME_BUDGET_MS: '800' });
  });
  afterAll(async () => {
    await cast?.ctx.close();
  });

  it('stops a running import at the budget: 503 time_budget_exceeded, nothing written, lock released', async () => {
    const ws = await newWorkspace(cast);
    const lock = await holdImportLock(cast, ws);
    const started = performance.now();
    const res = await upload(cast, ws, csvOf(50));
    const elapsed = performance.now() - started;
    await lock.release();

    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      code: 'time_budget_exceeded',
      message:
        'The import took longer than its time budget of 0.8 seconds and was rolled back; nothing was written. Try a smaller file.',
    });
    expect(elapsed).toBeLessThan(5_000);
    expect(await locationCount(cast, ws)).toBe(0);
    const [process] = await processesOf(cast, ws);
    expect(process).toMatchObject({
      status: 'failed',
      errorMessage:
        'The import took longer than its time budget of 0.8 seconds. It was rolled back; nothing was written.',
    });
    expect(process!.finishedAt).toBeInstanceOf(Date);

    // The lock went with the rollback: the next import runs.
    const next = await upload(cast, ws, csvOf(50));
    expect(next.statusCode).toBe(200);
    expect(next.json()).toMatchObject({ created: 50 });
  });
});

describe('import whose client leaves', () => {
  let cast: Cast;
  let port: number;
  beforeAll(async () => {
    cast = await castOf();
    await cast.ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (cast.ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await cast?.ctx.close();
  });

  it('cancels the running statement, rolls back, records a cancelled process and frees the lock', async () => {
    const ws = await newWorkspace(cast);
    const lock = await holdImportLock(cast, ws);
    const body = uploadBody(ws, csvOf(50));
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/locations/import',
      headers: { ...bearer(cast.token), ...body.headers, 'content-length': String(body.payload.length) },
    });
    request.on('error', () => {});
    request.end(body.payload);
    await untilWaitingOnLock(cast);
    request.destroy();

    // The import's statement is cancelled while the holder still has the lock.
    let processes: Awaited<ReturnType<typeof processesOf>> = [];
    for (let attempt = 0; attempt < 200 && processes.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      processes = await processesOf(cast, ws);
    }
    expect(processes).toHaveLength(1);
    expect(processes[0]).toMatchObject({
      status: 'cancelled',
      errorMessage:
        'The client closed the connection before the import finished. It was rolled back; nothing was written.',
    });
    await lock.release();
    expect(await locationCount(cast, ws)).toBe(0);

    const next = await upload(cast, ws, csvOf(20));
    expect(next.statusCode).toBe(200);
    expect(next.json()).toMatchObject({ created: 20 });
  });
});
