// A CSV import whose connection closes before its answer (docs/api.md, CSV import): cut by the
// shutdown grace while it runs in the database or while its upload still arrives, or left by its
// client mid-upload. Each records its `cancelled` csv_import process (written before the pools
// close, which the close waits for), writes no location and leaves no spool. An upload that
// names no workspace before its file, or one the caller cannot reach, records nothing.
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { createLocationImportRepository } from '../src/modules/locations/import/locations.import.repository.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { processesTable } from '../src/modules/processes/processes.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createWorkspace } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

/** The app's grace for requests under way at close (src/app.ts), and some slack on top. */
const GRACE_MS = 5_000;
const SLACK_MS = 4_000;

const imports = createLocationImportRepository();
const BOUNDARY = 'shutdowntest';
const CSV = 'title,address\nCorner shop,1 High St\nMarket stall,2 Low St\n';

let ctx: TestContext | undefined;
/** A connection of the test's own: it outlives the app's pools, which the close ends. */
let own: DatabaseHandle | undefined;
let shut = false;
afterEach(async () => {
  await own?.close();
  own = undefined;
  if (shut) await ctx?.database.drop();
  else await ctx?.close();
  ctx = undefined;
  shut = false;
});

async function start() {
  ctx = await createTestContext();
  own = createDatabase(ctx.database.url, { max: 2 });
  const owner = await createUser(ctx.deps);
  const workspaceId = await createWorkspace(ctx.deps, owner, 'Import target');
  const stranger = await createUser(ctx.deps);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    ctx,
    db: own.db,
    workspaceId,
    token: await tokenFor(ctx.deps, owner),
    strangerToken: await tokenFor(ctx.deps, stranger),
    port: (ctx.app.server.address() as AddressInfo).port,
  };
}

/** What `npm start` does on SIGTERM (src/run.ts): the app, then the pools. */
async function shutDown(context: TestContext) {
  shut = true;
  await context.app.close();
  await context.deps.close();
}

const fieldPart = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="stores.csv"\r\nContent-Type: text/csv\r\n\r\n`;

/**
 * An import request written by hand: `parts` go out at once; the body declares `declared`
 * bytes, so the server waits for the rest until the connection closes.
 */
function startUpload(port: number, token: string, parts: string, declared = parts.length + 1_000_000) {
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/locations/import',
    headers: {
      ...bearer(token),
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(declared),
    },
  });
  request.on('error', () => {});
  request.write(parts);
  return request;
}

async function processesOf(db: DatabaseHandle['db'], workspaceId: number) {
  return db
    .select()
    .from(processesTable)
    .where(and(eq(processesTable.workspaceId, workspaceId), eq(processesTable.type, 'csv_import')));
}

async function locationCount(db: DatabaseHandle['db'], workspaceId: number) {
  const [row] = await db
    .select({ value: count() })
    .from(locationsTable)
    .where(eq(locationsTable.workspaceId, workspaceId));
  return row!.value;
}

const spools = (context: TestContext) => {
  const dir = path.join(context.config.dataDir, 'spool');
  return existsSync(dir) ? readdirSync(dir) : [];
};

async function until(check: () => boolean | Promise<boolean>, what: string) {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('an import cut by the shutdown grace', () => {
  it('while it runs in the database: cancelled, rolled back, its process recorded before the pools close', async () => {
    const { ctx, db, workspaceId, token, port } = await start();
    // Another connection holds the workspace's import lock: the import waits inside its transaction.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = db.transaction(async (tx) => {
      await imports.lockWorkspace(tx, workspaceId);
      locked();
      await released;
    });
    await isLocked;

    const body = `${fieldPart('workspace_id', String(workspaceId))}${fileHead}${CSV}\r\n--${BOUNDARY}--\r\n`;
    const upload = startUpload(port, token, body, body.length);
    await until(async () => {
      const [row] = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
      );
      return row!.n > 0;
    }, 'the import to wait on the lock');

    const started = performance.now();
    await shutDown(ctx);
    const ms = performance.now() - started;
    release();
    await holder;
    upload.destroy();

    expect(ms).toBeGreaterThanOrEqual(GRACE_MS - 100);
    expect(ms).toBeLessThan(GRACE_MS + SLACK_MS);
    const processes = await processesOf(db, workspaceId);
    expect(processes).toHaveLength(1);
    expect(processes[0]).toMatchObject({
      status: 'cancelled',
      errorMessage:
        'The service shut down before the import finished. It was rolled back; nothing was written.',
      summary: { file_name: 'stores.csv', bytes: CSV.length },
    });
    expect(processes[0]!.finishedAt).toBeInstanceOf(Date);
    expect(await locationCount(db, workspaceId)).toBe(0);
    expect(spools(ctx)).toEqual([]);
  });

  it('while its upload still arrives: a cancelled process naming the file, no location, no spool', async () => {
    const { ctx, db, workspaceId, token, port } = await start();
    const upload = startUpload(
      port,
      token,
      `${fieldPart('workspace_id', String(workspaceId))}${fileHead}${CSV}`,
    );
    await until(() => spools(ctx).length > 0, 'the upload to spool');

    await shutDown(ctx);
    upload.destroy();

    const processes = await processesOf(db, workspaceId);
    expect(processes).toHaveLength(1);
    expect(processes[0]).toMatchObject({
      status: 'cancelled',
      currentStep: 'cancelled',
      errorMessage: 'The service shut down before the upload finished. Nothing was written.',
      summary: { file_name: 'stores.csv', bytes: expect.any(Number) },
    });
    expect(await locationCount(db, workspaceId)).toBe(0);
    expect(spools(ctx)).toEqual([]);
  });
});

describe('an upload its client leaves', () => {
  it('records a cancelled process saying the client left', async () => {
    const { ctx, db, workspaceId, token, port } = await start();
    const upload = startUpload(
      port,
      token,
      `${fieldPart('workspace_id', String(workspaceId))}${fileHead}${CSV}`,
    );
    await until(() => spools(ctx).length > 0, 'the upload to spool');
    upload.destroy();

    await until(async () => (await processesOf(db, workspaceId)).length > 0, 'the process');
    expect((await processesOf(db, workspaceId))[0]).toMatchObject({
      status: 'cancelled',
      errorMessage: 'The client closed the connection before the upload finished. Nothing was written.',
    });
    await until(() => spools(ctx).length === 0, 'the spool to go');
    expect(await locationCount(db, workspaceId)).toBe(0);
  });

  it("records nothing when the workspace came after the file, was malformed, or is another user's", async () => {
    const { ctx, db, workspaceId, token, strangerToken, port } = await start();
    const cases = [
      // The workspace field after the file: never read.
      [token, `${fileHead}${CSV}`],
      [token, `${fieldPart('workspace_id', 'abc')}${fileHead}${CSV}`],
      // A workspace the caller is not a member of: as if it did not exist.
      [strangerToken, `${fieldPart('workspace_id', String(workspaceId))}${fileHead}${CSV}`],
    ] as const;
    for (const [who, parts] of cases) {
      const upload = startUpload(port, who, parts);
      await until(() => spools(ctx).length > 0, 'the upload to spool');
      upload.destroy();
      await until(() => spools(ctx).length === 0, 'the spool to go');
    }
    // The work after a cut is awaited by the close: nothing is still on its way.
    await shutDown(ctx);
    const all = await db.select().from(processesTable).where(eq(processesTable.type, 'csv_import'));
    expect(all).toEqual([]);
  });
});
