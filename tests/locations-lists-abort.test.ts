// A client that leaves in the middle of a long streamed list. The service
// must stop reading batches for it (no statement of that list left running, none started
// afterwards) and go on serving: the pool is not left holding its connections.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIST_BATCH_ROWS } from '../src/lib/pagination.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { firstWorkspaceId } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';

/** Enough rows (about 12 MB of JSON) that the socket's buffers cannot take the whole list. */
const LOCATIONS = 20_000;
const BATCHES = LOCATIONS / LIST_BATCH_ROWS;
/** Requests carrying this header have how their response ended recorded. */
const PROBE = 'x-test-probe';

let ctx: TestContext;
let token: string;
let workspaceId: number;
let port: number;
/** For each probed response: whether it was complete when its connection closed. */
const closed: boolean[] = [];

beforeAll(async () => {
  ctx = await createTestContext({
    extend: (app) =>
      app.addHook('onRequest', async (request, reply) => {
        if (request.headers[PROBE]) reply.raw.once('close', () => closed.push(reply.raw.writableFinished));
      }),
  });
  const owner = await createUser(ctx.deps);
  token = await tokenFor(ctx.deps, owner);
  workspaceId = await firstWorkspaceId(ctx.deps, owner);
  const ws = workspaceId;
  await ctx.deps.db.transaction(async (tx) => {
    await tx.execute(sql`insert into custom_field_definitions (workspace_id, name, label, type)
      values (${ws}, 'seats', 'Seats', 'number')`);
    await tx.execute(sql`insert into tags (workspace_id, name, slug) values (${ws}, 'Tag', 'tag')`);
    await tx.execute(sql`insert into locations (workspace_id, title, description, lat, lng, custom_values)
      select ${ws}, 'Store ' || g, repeat('A long description. ', 20), 45.5, 12.25, jsonb_build_object('seats', g)
      from generate_series(1, ${LOCATIONS}) g`);
    await tx.execute(sql`insert into location_tags (location_id, tag_id)
      select l.id, t.id from locations l join tags t on t.workspace_id = l.workspace_id where l.workspace_id = ${ws}`);
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await ctx?.close();
});

/** Batch statements of a streamed location list running on the test database. */
async function runningBatches(): Promise<number> {
  const [row] = await ctx.deps.db.execute<{ n: number }>(sql`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and state = 'active'
      and query like '%tag_lists%'`);
  return row!.n;
}

/**
 * GET the whole list, read its first chunk, stop reading while the service fills the socket's
 * buffers, then destroy the socket. Answers the bytes read.
 */
function readALittleThenLeave(): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `/api/locations?workspace_id=${workspaceId}`,
        headers: { ...bearer(token), [PROBE]: '1' },
      },
      (response) => {
        expect(response.statusCode).toBe(200);
        response.once('data', (chunk: Buffer) => {
          response.pause();
          // Long enough for the service to block on a full socket with batches read ahead.
          setTimeout(() => {
            request.destroy();
            resolve(chunk.length);
          }, 300);
        });
        response.on('error', () => {});
      },
    );
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
  });
}

describe('GET /api/locations, client gone mid-list', () => {
  it('stops reading batches, leaves no statement running and keeps serving', async () => {
    const unsafe = vi.spyOn(ctx.deps.db.$client, 'unsafe');
    /** The list's batch statements asked for so far, as the queries postgres.js returned. */
    const batches = () =>
      unsafe.mock.results.filter((_, i) => String(unsafe.mock.calls[i]![0]).includes('tag_lists'));
    const batchReads = () => batches().length;

    const read = await readALittleThenLeave();
    expect(read).toBeGreaterThan(0);
    // The service saw the connection close before the response was complete.
    await vi.waitFor(() => expect(closed).toEqual([false]), { timeout: 2_000 });

    // The batches already asked for finish (some may still wait for a connection: a moment
    // with none running says nothing of those), and no statement of the list is left running ...
    await Promise.allSettled(batches().map((result) => result.value as Promise<unknown>));
    await vi.waitFor(async () => expect(await runningBatches()).toBe(0), { timeout: 2_000, interval: 20 });
    const readWhenGone = batchReads();
    expect(readWhenGone).toBeGreaterThan(0);
    expect(readWhenGone).toBeLessThan(BATCHES);
    // ... and none is started later.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(batchReads()).toBe(readWhenGone);
    expect(await runningBatches()).toBe(0);
    unsafe.mockRestore();

    // The pool serves the next requests, a whole list included.
    const whole = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?workspace_id=${workspaceId}`,
      headers: bearer(token),
    });
    expect(whole.statusCode).toBe(200);
    expect((whole.json() as unknown[]).length).toBe(LOCATIONS);
    const page = await ctx.app.inject({
      method: 'GET',
      url: `/api/locations?workspace_id=${workspaceId}&limit=5&offset=100`,
      headers: bearer(token),
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-total-count']).toBe(String(LOCATIONS));
  });
});
