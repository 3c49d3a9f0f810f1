// GET /processes/{id}/stream read by a real HTTP client (node:http) from two API processes (this
// one, listening on a free port, and src/server.ts as a child), while a worker child process
// (src/worker.ts) writes the events: order, ids, Last-Event-ID resume, `done`, pings, the 25 s
// limit, a client leaving, and the listening connection coming back after a database outage.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/client.ts';
import { freePort } from '../src/db/embedded.ts';
import { createProcessesRepository } from '../src/modules/processes/processes.repository.ts';
import { processesTable } from '../src/modules/processes/processes.table.ts';
import { createUser, tokenFor } from './factories/users.ts';
import { firstWorkspaceId } from './factories/workspaces.ts';
import { type FakeOpenAi, startFakeOpenAi } from './fakes/openai.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { type Child, startChild } from './helpers/children.ts';
import { openSse, type SseFrame } from './helpers/sse.ts';

let ctx: TestContext;
let fake: FakeOpenAi;
let worker: Child;
let api: Child;
let apiUrl: string;
let childApiUrl: string;
let token: string;
let userId: number;
let workspaceId: number;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  const env = { OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: 'gpt-stream' };
  ctx = await createTestContext({ env });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address() as { port: number };
  apiUrl = `http://127.0.0.1:${address.port}/api`;
  const port = await freePort();
  worker = startChild('src/worker.ts', ctx.database.url, env);
  api = startChild('src/server.ts', ctx.database.url, { ...env, PORT: String(port) });
  childApiUrl = `http://127.0.0.1:${port}/api`;
  const user = await createUser(ctx.deps);
  userId = user.id;
  token = await tokenFor(ctx.deps, user);
  workspaceId = await firstWorkspaceId(ctx.deps, user);
  await Promise.all([worker.waitForOutput('worker started'), api.waitForOutput('Server listening')]);
}, 60_000);
afterAll(async () => {
  await Promise.all([worker?.stop(), api?.stop()]);
  await ctx?.close();
  await fake?.close();
});

const answers = {
  business_type: 'Bakeries',
  approximate_location_count: '1',
  geographic_scope: 'Leeds',
  customer_description: 'Locals',
  source_notes: 'Crumbs, 1 Bread Street, Leeds LS1 1AA',
};

async function startImport(): Promise<number> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/ai-location-imports',
    headers: { authorization: `Bearer ${token}` },
    payload: { workspace_id: workspaceId, answers },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().process.id;
}

const eventFrames = (frames: SseFrame[]) => frames.filter((frame) => frame.id !== undefined);
const doneFrame = (frames: SseFrame[]) => frames.find((frame) => frame.event === 'done');

async function eventIds(processId: number): Promise<number[]> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/processes/${processId}/events`,
    headers: { authorization: `Bearer ${token}` },
  });
  return response.json().map((event: { id: number }) => event.id);
}

describe('GET /processes/{id}/stream', () => {
  it('streams the worker’s events to clients of two API processes, in order, ending with done', async () => {
    fake.setBehaviour({ kind: 'slow', delayMs: 1_500, answer: { kind: 'error', status: 503 } });
    const processId = await startImport();
    const here = await openSse(`${apiUrl}/processes/${processId}/stream`, token);
    const there = await openSse(`${childApiUrl}/processes/${processId}/stream`, token);
    for (const stream of [here, there]) {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    }
    await Promise.all([here.ended, there.ended]);

    const ids = await eventIds(processId);
    for (const stream of [here, there]) {
      expect(stream.frames[0]).toMatchObject({ retry: 1000 });
      // The current state first, without an id, then every event with its id.
      expect(JSON.parse(stream.frames[1]!.data!)).toMatchObject({ id: null, type: 'state' });
      expect(stream.frames[1]!.id).toBeUndefined();
      const events = eventFrames(stream.frames);
      expect(events.map((frame) => Number(frame.id))).toEqual(ids);
      const payloads = events.map((frame) => JSON.parse(frame.data!));
      expect(payloads.map((payload) => payload.status)).toEqual(['pending', 'running', 'running', 'failed']);
      expect(payloads[3]).toMatchObject({
        id: ids[3],
        type: 'error',
        status: 'failed',
        message: expect.stringContaining('The model call failed'),
      });
      expect(JSON.parse(doneFrame(stream.frames)!.data!)).toEqual({
        process_id: processId,
        status: 'failed',
      });
      // `done` is the last frame.
      expect(stream.frames.at(-1)!.event).toBe('done');
    }
    // The worker process wrote them (this API process runs no jobs).
    expect(worker.output()).not.toContain('"level":50');
  }, 30_000);

  it('resumes after Last-Event-ID with nothing lost or repeated', async () => {
    fake.setBehaviour({ kind: 'error', status: 500 });
    const processId = await startImport();
    // Wait for the end, then resume from the second event.
    const first = await openSse(`${apiUrl}/processes/${processId}/stream`, token);
    await first.ended;
    const ids = await eventIds(processId);
    expect(ids.length).toBeGreaterThanOrEqual(4);

    const resumed = await openSse(`${apiUrl}/processes/${processId}/stream`, token, {
      lastEventId: String(ids[1]),
    });
    await resumed.ended;
    expect(eventFrames(resumed.frames).map((frame) => Number(frame.id))).toEqual(ids.slice(2));
    expect(doneFrame(resumed.frames)).toBeDefined();

    // Resumed after the last event: only the state and `done`.
    const atEnd = await openSse(`${childApiUrl}/processes/${processId}/stream`, token, {
      lastEventId: String(ids.at(-1)),
    });
    await atEnd.ended;
    expect(eventFrames(atEnd.frames)).toEqual([]);
    expect(JSON.parse(doneFrame(atEnd.frames)!.data!)).toEqual({ process_id: processId, status: 'failed' });

    // After a retry, a client reconnecting from where it was follows the new run live.
    fake.setBehaviour({ kind: 'slow', delayMs: 500, answer: { kind: 'locations', locations: [] } });
    const retried = await ctx.app.inject({
      method: 'POST',
      url: `/api/processes/${processId}/retry`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(retried.statusCode).toBe(200);
    const live = await openSse(`${apiUrl}/processes/${processId}/stream`, token, {
      lastEventId: String(ids.at(-1)),
    });
    await live.waitFor((frames) =>
      eventFrames(frames).some((frame) => JSON.parse(frame.data!).status === 'waiting_review'),
    );
    live.close();
    const all = await eventIds(processId);
    expect(eventFrames(live.frames).map((frame) => Number(frame.id))).toEqual(all.slice(ids.length));
    expect(eventFrames(live.frames).map((frame) => JSON.parse(frame.data!).status)).toEqual([
      'pending',
      'running',
      'running',
      'waiting_review',
    ]);
  }, 30_000);

  it('lets go of a client that leaves', async () => {
    fake.setBehaviour({ kind: 'slow', delayMs: 300, answer: { kind: 'locations', locations: [] } });
    const processId = await startImport();
    const hub = ctx.deps.services.processes.hub;
    const before = hub.subscriberCount();
    const stream = await openSse(`${apiUrl}/processes/${processId}/stream`, token);
    await stream.waitFor((frames) =>
      eventFrames(frames).some((frame) => JSON.parse(frame.data!).status === 'waiting_review'),
    );
    // waiting_review is not terminal: the stream stays open until the client leaves.
    expect(doneFrame(stream.frames)).toBeUndefined();
    expect(hub.subscriberCount()).toBe(before + 1);
    stream.close();
    const deadline = Date.now() + 5_000;
    while (hub.subscriberCount() > before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(hub.subscriberCount()).toBe(before);
  }, 20_000);

  it('pings every 10 s and closes after 25 s', async () => {
    const processId = await ctx.deps.services.processes.create(
      { workspaceId, userId, type: 'csv_import', status: 'pending' },
      [{ type: 'status', status: 'pending', message: 'Waiting.' }],
    );
    const opened = performance.now();
    const stream = await openSse(`${apiUrl}/processes/${processId}/stream`, token);
    await stream.ended;
    const lasted = stream.endedAt()! - opened;
    expect(lasted).toBeGreaterThan(24_500);
    expect(lasted).toBeLessThan(27_000);
    const pings = stream.frames.filter((frame) => frame.comments.includes('ping'));
    expect(pings).toHaveLength(2);
    expect(pings[0]!.receivedAt - opened).toBeGreaterThan(9_500);
    expect(doneFrame(stream.frames)).toBeUndefined();
    expect(eventFrames(stream.frames)).toHaveLength(1);
  }, 40_000);

  it('listens again after the database went away, and catches the client up', async () => {
    const processId = await ctx.deps.services.processes.create(
      { workspaceId, userId, type: 'csv_import', status: 'pending' },
      [{ type: 'status', status: 'pending', message: 'Waiting.' }],
    );
    const stream = await openSse(`${apiUrl}/processes/${processId}/stream`, token);
    await stream.waitFor((frames) => eventFrames(frames).length === 1);
    const hub = ctx.deps.services.processes.hub;
    expect(hub.isListening()).toBe(true);

    // A connection opened before the outage writes while nobody can connect.
    const writer = createDatabase(ctx.database.url, { max: 1 });
    const database = new URL(ctx.database.url).pathname.slice(1);
    const server = new URL(ctx.database.url);
    server.pathname = '/postgres';
    const admin = createDatabase(server.toString(), { max: 1 });
    try {
      await writer.sql`select 1`;
      await admin.sql.unsafe(`alter database "${database}" with allow_connections false`);
      await writer.sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = ${database} and application_name = 'lf-process-events'`;
      const deadline = Date.now() + 5_000;
      while (hub.isListening() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(hub.isListening()).toBe(false);
      const written = await createProcessesRepository(writer.db).change(
        { id: processId },
        { status: 'running', progressPercent: 30 },
        { type: 'status', message: 'Written during the outage.' },
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(eventFrames(stream.frames)).toHaveLength(1);
      await admin.sql.unsafe(`alter database "${database}" with allow_connections true`);

      await stream.waitFor((frames) => eventFrames(frames).length === 2, 15_000);
      expect(Number(eventFrames(stream.frames)[1]!.id)).toBe(written!.eventId);
      expect(JSON.parse(eventFrames(stream.frames)[1]!.data!).message).toBe('Written during the outage.');
      expect(hub.isListening()).toBe(true);

      // And live again afterwards.
      await ctx.deps.services.processes.change(
        { id: processId },
        { status: 'completed', progressPercent: 100, finishedAt: 'now' },
        { type: 'status', message: 'Done.' },
      );
      await stream.ended;
      expect(JSON.parse(doneFrame(stream.frames)!.data!)).toEqual({
        process_id: processId,
        status: 'completed',
      });
    } finally {
      await admin.sql.unsafe(`alter database "${database}" with allow_connections true`).catch(() => {});
      await admin.close();
      await writer.close();
      stream.close();
    }
    const [row] = await ctx.deps.db.select().from(processesTable).where(eq(processesTable.id, processId));
    expect(row!.status).toBe('completed');
  }, 40_000);

  // Last: it stops the child API process.
  it('ends open streams when an API process shuts down, so the shutdown is not held for 25 s', async () => {
    const processId = await ctx.deps.services.processes.create(
      { workspaceId, userId, type: 'csv_import', status: 'pending' },
      [{ type: 'status', status: 'pending', message: 'Waiting.' }],
    );
    const stream = await openSse(`${childApiUrl}/processes/${processId}/stream`, token);
    await stream.waitFor((frames) => eventFrames(frames).length === 1);
    const stoppedAt = performance.now();
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
    await stream.ended;
    expect(stream.endedAt()! - stoppedAt).toBeLessThan(5_000);
    expect(doneFrame(stream.frames)).toBeUndefined();
  }, 20_000);
});
