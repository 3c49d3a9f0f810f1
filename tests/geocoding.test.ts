// Geocoding that a business can leave on (docs/api.md, Geocoding): locations written without
// coordinates wait as `pending` and queue their workspace's `geocoding` process; the job looks
// them up through the shared cache and rate limit against the fake Google Geocoding API, keeps
// only precise points, marks the rest, waits out an outage (and resumes after handing back),
// stops cleanly on a refused key; the routes count and restart, 404 across users, 422 on bad
// bodies. Most runs use a high rate; one measures real pacing with two workers at once.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../src/deps.ts';
import { registerJobs, runJob } from '../src/job-handlers.ts';
import { UpstreamError } from '../src/lib/upstream.ts';
import { addressKey } from '../src/modules/geocoding/geocoding.address.ts';
import { type CachedGeocoder, createCachedGeocoder } from '../src/modules/geocoding/geocoding.cache.ts';
import { classifyGeocoderFailure } from '../src/modules/geocoding/geocoding.failures.ts';
import { createGeocodingJobs } from '../src/modules/geocoding/geocoding.jobs.ts';
import { createGeocodingRepository } from '../src/modules/geocoding/geocoding.repository.ts';
import { geocodeCacheTable } from '../src/modules/geocoding/geocoding.table.ts';
import type { GeocodeResult, Geocoder } from '../src/modules/geocoding/geocoding.types.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { processEventsTable, processesTable } from '../src/modules/processes/processes.table.ts';
import { createUser, tokenFor } from './factories/users.ts';
import { createCast, createWorkspace } from './factories/workspaces.ts';
import { FAKE_KEYS, type FakeProviders, startFakeProviders } from './fakes/providers.ts';
import { createCaller, createTestContext, type TestContext, testConfig } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

let ctx: TestContext;
let providers: FakeProviders;
let cast: Awaited<ReturnType<typeof createCast>>;
const call = createCaller(() => ctx);

const GOOGLEPLEX = {
  address: '1600 Amphitheatre Parkway',
  zip: '94043',
  city: 'Mountain View',
  state: 'CA',
  country: 'United States',
};
const DOWNING = { address: '10 Downing Street', zip: 'SW1A 2AA', city: 'London', country: 'United Kingdom' };
const KARL_MARX = { address: 'Karl-Marx-Allee 100', zip: '10243', city: 'Berlin', country: 'Germany' };
const ALEXANDERPLATZ = { address: 'Alexanderplatz', zip: '10178', city: 'Berlin', country: 'Germany' };
const NOWHERE = (n: number) => ({ address: `Nirgendwo ${n}`, city: 'Atlantis', country: 'Nowhere' });

beforeAll(async () => {
  providers = await startFakeProviders();
  ctx = await createTestContext({
    env: {
      GEOCODER: 'google',
      GEOCODER_API_KEY: FAKE_KEYS['google-geocoding'],
      GEOCODER_BASE_URL: providers.geocoderBaseUrl('google'),
      GEOCODER_RATE_LIMIT: '1000',
    },
  });
  cast = await createCast(ctx.deps);
});
afterAll(async () => {
  await ctx?.close();
  await providers?.close();
});
beforeEach(() => providers.reset());

const geocoderRequests = () => providers.requestsOf('google-geocoding');

async function newWorkspace(): Promise<{ token: string; workspaceId: number }> {
  const owner = await createUser(ctx.deps);
  return {
    token: await tokenFor(ctx.deps, owner),
    workspaceId: await createWorkspace(ctx.deps, owner, 'Shops'),
  };
}

async function createLocation(token: string, workspaceId: number, fields: Record<string, unknown>) {
  const response = await call('POST', '/locations', token, {
    workspace_id: workspaceId,
    title: 'Shop',
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number };
}

const statusOf = async (id: number) => {
  const [row] = await ctx.deps.db
    .select({ status: locationsTable.geocodeStatus, lat: locationsTable.lat, lng: locationsTable.lng })
    .from(locationsTable)
    .where(eq(locationsTable.id, id));
  return row!;
};

const geocodingProcesses = (workspaceId: number) =>
  ctx.deps.db
    .select()
    .from(processesTable)
    .where(and(eq(processesTable.workspaceId, workspaceId), eq(processesTable.type, 'geocoding')))
    .orderBy(processesTable.id);

/** The process's row as it is now. */
const processRow = async (id: number) =>
  (await ctx.deps.db.select().from(processesTable).where(eq(processesTable.id, id)))[0];

const eventsOf = async (processId: number) =>
  (
    await ctx.deps.db
      .select()
      .from(processEventsTable)
      .where(eq(processEventsTable.processId, processId))
      .orderBy(processEventsTable.id)
  ).map((event) => ({ type: event.type, message: event.message ?? '' }));

/** Runs the workspace's queued geocoding process as pg-boss would (its job id, this attempt). */
async function runQueued(workspaceId: number, deps: Deps = ctx.deps, attempt = 0, jobs?: Jobs) {
  const [process] = (await geocodingProcesses(workspaceId)).filter((row) => row.status === 'pending');
  expect(process, 'a pending geocoding process').toBeDefined();
  const job = { id: process!.jobId!, retryCount: attempt, retryLimit: 5 };
  // Run here, as the worker would: the queued copy goes, so that a worker started by a later
  // test does not spend its seconds on the jobs of earlier ones.
  const [queued] = (await ctx.deps.db.execute(
    sql`delete from pgboss.job where id = ${process!.jobId!}::uuid returning data`,
  )) as unknown as { data: { process_id: number; continued?: true } }[];
  // A retry's job was deleted by the run before it: pg-boss would send the same data again.
  const payload = queued?.data ?? { process_id: process!.id };
  const outcome = jobs ? jobs.run(payload, job) : runJob('geocoding.run', payload, deps, job);
  return { processId: process!.id, outcome, payload, job };
}

type Jobs = ReturnType<typeof createGeocodingJobs>;
/** The job with short pauses between tries, so an outage test takes milliseconds. */
const quickJobs = (delays: number[], runSliceMs?: number): Jobs =>
  createGeocodingJobs({
    db: ctx.deps.db,
    repository: createGeocodingRepository(ctx.deps.db),
    processes: ctx.deps.services.processes,
    geocoder: ctx.deps.services.geocoder,
    changes: ctx.deps.services.finderChanges,
    stopping: new AbortController().signal,
    logger: ctx.deps.logger,
    outageRetryDelaysMs: delays,
    runSliceMs,
  });

describe('the address key', () => {
  it('meets two spellings of one address and keeps the fields apart', () => {
    const a = addressKey({
      address: '10, Downing  Street.',
      zip: 'SW1A 2AA',
      city: 'LONDON',
      state: null,
      country: 'UK',
    });
    const b = addressKey({
      address: '10 downing street',
      zip: 'sw1a-2aa',
      city: 'London',
      state: '',
      country: 'uk',
    });
    expect(a).toBe(b);
    expect(a).toBe('10 downing street|sw1a 2aa|london||uk');
    // A city moved into the street line is another address.
    expect(
      addressKey({ address: 'Main St Springfield', zip: null, city: null, state: null, country: null }),
    ).not.toBe(
      addressKey({ address: 'Main St', zip: null, city: 'Springfield', state: null, country: null }),
    );
  });
});

describe('GEOCODER_RATE_LIMIT', () => {
  it('is a positive number of requests per second, unset when empty', () => {
    expect(testConfig(ctx.database.url, { GEOCODER_RATE_LIMIT: '0.5' }).geocoder.ratePerSecond).toBe(0.5);
    expect(testConfig(ctx.database.url, { GEOCODER_RATE_LIMIT: '' }).geocoder.ratePerSecond).toBeUndefined();
    expect(testConfig(ctx.database.url, { GEOCODER: 'nominatim' }).geocoder).toMatchObject({
      kind: 'nominatim',
    });
    for (const bad of ['0', '-1', 'fast', '5000']) {
      expect(() => testConfig(ctx.database.url, { GEOCODER_RATE_LIMIT: bad }), bad).toThrow(
        /GEOCODER_RATE_LIMIT/,
      );
    }
  });
});

describe('what a provider failure means', () => {
  const status = (code: number, body: unknown = {}) =>
    new UpstreamError('g', 'status', `answered ${code}`, code, body);
  it.each([
    [status(401), 'refused'],
    [status(403), 'refused'],
    [status(200, { status: 'REQUEST_DENIED' }), 'refused'],
    [status(200, { status: 'OVER_DAILY_LIMIT' }), 'refused'],
    [status(429), 'transient'],
    [status(503), 'transient'],
    [status(200, { status: 'OVER_QUERY_LIMIT' }), 'transient'],
    [new UpstreamError('g', 'timeout', 'no answer'), 'transient'],
    [new UpstreamError('g', 'network', 'no connection'), 'transient'],
    [status(400), 'address'],
    [status(200, { status: 'INVALID_REQUEST' }), 'address'],
    [new UpstreamError('g', 'invalid_body', 'odd'), 'address'],
  ])('%s is %s', (error, expected) => {
    expect(classifyGeocoderFailure(error)).toBe(expected);
  });
});

describe('locations waiting for coordinates', () => {
  it('are pending when written without coordinates and queue one process per workspace', async () => {
    const { token, workspaceId } = await newWorkspace();
    const first = await createLocation(token, workspaceId, GOOGLEPLEX);
    await createLocation(token, workspaceId, DOWNING);
    const placed = await createLocation(token, workspaceId, { ...KARL_MARX, lat: 52.5, lng: 13.4 });
    const bare = await createLocation(token, workspaceId, { country: 'Germany' });

    expect((await statusOf(first.id)).status).toBe('pending');
    expect((await statusOf(placed.id)).status).toBeNull();
    // Nothing to look up without a street, city or zip.
    expect((await statusOf(bare.id)).status).toBeNull();
    const processes = await geocodingProcesses(workspaceId);
    expect(processes).toHaveLength(1);
    expect(processes[0]).toMatchObject({
      status: 'pending',
      queue: 'geocoding.run',
      userId: expect.any(Number),
    });
    expect(await ctx.deps.jobs.state('geocoding.run', processes[0]!.jobId!)).toBe('created');

    const state = await call('GET', `/workspaces/${workspaceId}/geocoding`, token);
    expect(state.statusCode).toBe(200);
    expect(state.json()).toEqual({
      pending: 2,
      not_found: 0,
      imprecise: 0,
      failed: 0,
      without_coordinates: 3,
      geocoder: 'google',
      process: { id: processes[0]!.id, status: 'pending' },
    });
    // Writing while a run is queued queues nothing more.
    await createLocation(token, workspaceId, KARL_MARX);
    expect(await geocodingProcesses(workspaceId)).toHaveLength(1);
  });

  it('are queued by the CSV import too', async () => {
    const { token, workspaceId } = await newWorkspace();
    const body = multipart({
      fields: { workspace_id: String(workspaceId) },
      files: [
        {
          field: 'file',
          filename: 'shops.csv',
          contentType: 'text/csv',
          content: Buffer.from(
            'title,address,city,zip,country\nA,Alexanderplatz,Berlin,10178,Germany\nB,Somewhere 1,Atlantis,,\n',
          ),
        },
      ],
    });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/locations/import',
      headers: { authorization: `Bearer ${token}`, ...body.headers },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await call('GET', `/workspaces/${workspaceId}/geocoding`, token)).json()).toMatchObject({
      pending: 2,
    });
    expect(await geocodingProcesses(workspaceId)).toMatchObject([{ status: 'pending' }]);
  });
});

describe('the geocoding job', () => {
  it('sets only precise points, marks the rest, records the process and caches every answer', async () => {
    const { token, workspaceId } = await newWorkspace();
    const rooftop = await createLocation(token, workspaceId, GOOGLEPLEX);
    const interpolated = await createLocation(token, workspaceId, KARL_MARX);
    const centre = await createLocation(token, workspaceId, ALEXANDERPLATZ);
    const city = await createLocation(token, workspaceId, { city: 'Berlin', country: 'Germany' });
    const nowhere = await createLocation(token, workspaceId, NOWHERE(1));

    const { processId, outcome } = await runQueued(workspaceId);
    expect(await outcome).toBe('completed');

    expect(await statusOf(rooftop.id)).toEqual({ status: null, lat: 37.4220936, lng: -122.083922 });
    // The API's rule: a location without a given time zone gets the one at its new point.
    expect((await call('GET', `/locations/${rooftop.id}`, token)).json()).toMatchObject({
      time_zone: 'America/Los_Angeles',
      time_zone_derived: true,
    });
    expect(await statusOf(interpolated.id)).toMatchObject({ status: null, lat: expect.any(Number) });
    expect(await statusOf(centre.id)).toEqual({ status: 'imprecise', lat: null, lng: null });
    expect(await statusOf(city.id)).toEqual({ status: 'imprecise', lat: null, lng: null });
    expect(await statusOf(nowhere.id)).toEqual({ status: 'not_found', lat: null, lng: null });
    expect(geocoderRequests()).toHaveLength(5);

    const process = await processRow(processId);
    expect(process).toMatchObject({
      status: 'completed',
      progressPercent: 100,
      summary: { total: 5, done: 5, geocoded: 2, imprecise: 2, not_found: 1, failed: 0, from_cache: 0 },
    });
    const events = await eventsOf(processId);
    expect(events[0]!.message).toMatch(/geocoding is queued/);
    expect(events.map((event) => event.message)).toContain('Geocoding started (attempt 1).');
    expect(events.at(-1)!.message).toBe(
      'Geocoded 5 locations: 2 placed, 1 not found, 2 only approximately, 0 failed (0 answered from the cache).',
    );
    // Events name no address.
    expect(JSON.stringify(events)).not.toMatch(/Amphitheatre|Karl-Marx|Alexanderplatz|Nirgendwo/);

    // Precise answers are kept for good, the others expire.
    const cached = await ctx.deps.db
      .select({
        answer: geocodeCacheTable.answer,
        expires: geocodeCacheTable.expiresAt,
        precision: geocodeCacheTable.precision,
      })
      .from(geocodeCacheTable)
      .where(eq(geocodeCacheTable.addressKey, addressKey({ ...NOWHERE(1), zip: null, state: null })));
    expect(cached).toEqual([{ answer: 'not_found', precision: null, expires: expect.any(Date) }]);
    const days = (cached[0]!.expires!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const counts = (await call('GET', `/workspaces/${workspaceId}/geocoding`, token)).json();
    expect(counts).toMatchObject({
      pending: 0,
      not_found: 1,
      imprecise: 2,
      failed: 0,
      without_coordinates: 3,
      process: null,
    });
  });

  it('asks the provider once for one address, whichever workspace and spelling', async () => {
    const one = await newWorkspace();
    const two = await newWorkspace();
    const first = await createLocation(one.token, one.workspaceId, DOWNING);
    const second = await createLocation(two.token, two.workspaceId, {
      address: '10, downing  street.',
      zip: 'sw1a 2aa',
      city: 'LONDON',
      country: 'united kingdom',
    });
    expect(await (await runQueued(one.workspaceId)).outcome).toBe('completed');
    const { processId, outcome } = await runQueued(two.workspaceId);
    expect(await outcome).toBe('completed');

    expect(geocoderRequests()).toHaveLength(1);
    expect((await statusOf(first.id)).lat).toBe(51.5033635);
    expect((await statusOf(second.id)).lat).toBe(51.5033635);
    const process = await processRow(processId);
    expect(process!.summary).toMatchObject({ geocoded: 1, from_cache: 1 });
  });

  it('is cleared by a pin placed by hand and pending again when the address changes', async () => {
    const { token, workspaceId } = await newWorkspace();
    const centre = await createLocation(token, workspaceId, ALEXANDERPLATZ);
    const nowhere = await createLocation(token, workspaceId, NOWHERE(2));
    const rooftop = await createLocation(token, workspaceId, GOOGLEPLEX);
    expect(await (await runQueued(workspaceId)).outcome).toBe('completed');
    expect((await statusOf(centre.id)).status).toBe('imprecise');

    const pinned = await call('PUT', `/locations/${centre.id}`, token, { lat: 52.5219, lng: 13.4132 });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(await statusOf(centre.id)).toEqual({ status: null, lat: 52.5219, lng: 13.4132 });

    // Another field changes nothing; a new address is looked up again.
    await call('PUT', `/locations/${nowhere.id}`, token, { phone: '+49 30 1234567' });
    expect((await statusOf(nowhere.id)).status).toBe('not_found');
    expect((await call('PUT', `/locations/${nowhere.id}`, token, KARL_MARX)).statusCode).toBe(200);
    expect((await statusOf(nowhere.id)).status).toBe('pending');
    expect(await geocodingProcesses(workspaceId)).toMatchObject([
      { status: 'completed' },
      { status: 'pending' },
    ]);

    // A located location keeps its point when its address changes.
    await call('PUT', `/locations/${rooftop.id}`, token, { address: '1601 Amphitheatre Parkway' });
    expect(await statusOf(rooftop.id)).toEqual({ status: null, lat: 37.4220936, lng: -122.083922 });
  });

  it('waits out an outage in the middle of a run and finishes every location', async () => {
    const { token, workspaceId } = await newWorkspace();
    for (let n = 0; n < 6; n += 1) await createLocation(token, workspaceId, NOWHERE(100 + n));
    providers.failNext('google-geocoding', 'status_503', 3, 2);

    const { processId, outcome } = await runQueued(workspaceId, ctx.deps, 0, quickJobs([10, 20, 40]));
    expect(await outcome).toBe('completed');
    // 6 addresses, the third asked four times.
    expect(geocoderRequests()).toHaveLength(9);
    expect(new Set(geocoderRequests().map((request) => request.query.address)).size).toBe(6);
    const events = await eventsOf(processId);
    expect(events.filter((event) => event.type === 'error').map((event) => event.message)).toEqual([
      'The geocoder failed (google-geocoding: answered 503); trying again in 0.01 s.',
      'The geocoder failed (google-geocoding: answered 503); trying again in 0.02 s.',
      'The geocoder failed (google-geocoding: answered 503); trying again in 0.04 s.',
    ]);
    expect((await call('GET', `/workspaces/${workspaceId}/geocoding`, token)).json()).toMatchObject({
      pending: 0,
      not_found: 6,
    });
  });

  it('hands a longer outage back to pg-boss and the next attempt resumes where it stopped', async () => {
    const { token, workspaceId } = await newWorkspace();
    for (let n = 0; n < 6; n += 1) await createLocation(token, workspaceId, NOWHERE(200 + n));
    providers.failNext('google-geocoding', 'status_503', 5, 3);
    const jobs = quickJobs([10, 10, 10]);

    const first = await runQueued(workspaceId, ctx.deps, 0, jobs);
    await expect(first.outcome).rejects.toThrow(/The geocoder kept failing: google-geocoding: answered 503/);
    const handedBack = await processRow(first.processId);
    expect(handedBack).toMatchObject({ status: 'pending', summary: { done: 3, not_found: 3 } });
    expect((await call('GET', `/workspaces/${workspaceId}/geocoding`, token)).json()).toMatchObject({
      pending: 3,
      not_found: 3,
    });

    const second = await runQueued(workspaceId, ctx.deps, 1, jobs);
    expect(second.processId).toBe(first.processId);
    expect(await second.outcome).toBe('completed');
    const done = await processRow(first.processId);
    expect(done).toMatchObject({ status: 'completed', summary: { total: 6, done: 6, not_found: 6 } });
    // The first three were not asked again: 3 + 4 failed tries + 1 failed try and 3 more.
    const asked = geocoderRequests().map((request) => request.query.address);
    expect(asked).toHaveLength(11);
    expect(new Set(asked).size).toBe(6);
    const events = (await eventsOf(first.processId)).map((event) => event.message);
    expect(events).toContain('Geocoding started (attempt 2).');
    expect(events.some((message) => /kept failing.*will be retried \(5 retries left\)/.test(message))).toBe(
      true,
    );
  });

  it('hands the rest to a new job once a run has worked its time, and the new job counts on', async () => {
    const { token, workspaceId } = await newWorkspace();
    for (let n = 0; n < 3; n += 1) await createLocation(token, workspaceId, NOWHERE(250 + n));
    // A slice of no time: each run looks one location up and hands the rest on.
    const jobs = quickJobs([10], 0);
    const first = await runQueued(workspaceId, ctx.deps, 0, jobs);
    // Resolved, not thrown: pg-boss completes the job and spends no retry.
    expect(await first.outcome).toBe('continued');
    const handedOn = await processRow(first.processId);
    expect(handedOn).toMatchObject({
      status: 'pending',
      attempts: 1,
      progressPercent: 33,
      summary: { total: 3, done: 1, not_found: 1 },
    });
    expect(handedOn!.jobId).not.toBe(first.job.id);

    const runs: { outcome: string; payload: unknown }[] = [];
    for (let run = 0; run < 2; run += 1) {
      const next = await runQueued(workspaceId, ctx.deps, 0, jobs);
      expect(next.processId).toBe(first.processId);
      // The job pg-boss holds under the id its process names, marked as going on.
      runs.push({ outcome: String(await next.outcome), payload: next.payload });
    }
    // The second location hands on the third; the third run finds none left and finishes.
    expect(runs).toEqual([
      { outcome: 'continued', payload: { process_id: first.processId, continued: true } },
      { outcome: 'completed', payload: { process_id: first.processId, continued: true } },
    ]);
    const done = await processRow(first.processId);
    // One attempt: the jobs that went on are no new attempts.
    expect(done).toMatchObject({
      status: 'completed',
      attempts: 1,
      summary: { total: 3, done: 3, not_found: 3 },
    });
    expect(new Set(geocoderRequests().map((request) => request.query.address)).size).toBe(3);
    expect(geocoderRequests()).toHaveLength(3);
    const events = (await eventsOf(first.processId)).map((event) => event.message);
    expect(events.filter((message) => message === 'Geocoding goes on in a new job.')).toHaveLength(2);
    expect(events).toContain(
      'Geocoded 1 of 3 locations; a new job goes on with the rest (a run lasts at most 0 minutes).',
    );
  });

  it('stops cleanly when the provider refuses the key: failed, no retry, no more requests', async () => {
    const { token, workspaceId } = await newWorkspace();
    for (let n = 0; n < 4; n += 1) await createLocation(token, workspaceId, NOWHERE(300 + n));
    providers.fail('google-geocoding', 'key_refused');

    const { processId, outcome } = await runQueued(workspaceId);
    // Resolves: pg-boss completes the job and retries nothing.
    expect(await outcome).toBe('failed');
    expect(geocoderRequests()).toHaveLength(1);
    const process = await processRow(processId);
    expect(process).toMatchObject({ status: 'failed', summary: { done: 0 } });
    expect(process!.errorMessage).toBe(
      'The geocoder refused the key (google-geocoding: answered REQUEST_DENIED); geocoding stopped. Fix GEOCODER_API_KEY and start it again.',
    );
    expect(JSON.stringify(await eventsOf(processId))).not.toContain(FAKE_KEYS['google-geocoding']);
    const retried = await call('POST', `/processes/${processId}/retry`, token);
    expect(retried.statusCode).toBe(409);
    expect(retried.json().message).toMatch(/POST \/workspaces\/\{id\}\/geocoding/);
    expect((await call('GET', `/workspaces/${workspaceId}/geocoding`, token)).json()).toMatchObject({
      pending: 4,
      process: null,
    });
    // Until a person starts it again, writes and the maintenance job queue nothing: each process
    // would fail on its first request.
    await createLocation(token, workspaceId, NOWHERE(304));
    await runJob('maintenance.purge-expired', {}, ctx.deps);
    expect(await geocodingProcesses(workspaceId)).toHaveLength(1);
    // An hour later the maintenance job tries once more by itself (the key may be fixed by then).
    await ctx.deps.db
      .update(processesTable)
      .set({ finishedAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(processesTable.id, processId));
    await runJob('maintenance.purge-expired', {}, ctx.deps);
    expect(await geocodingProcesses(workspaceId)).toMatchObject([
      { status: 'failed' },
      { status: 'pending' },
    ]);
    // It fails on the key again, and the pause starts over.
    expect(await (await runQueued(workspaceId)).outcome).toBe('failed');
    await createLocation(token, workspaceId, NOWHERE(305));
    expect(await geocodingProcesses(workspaceId)).toHaveLength(2);

    // Fixed: a start queues a new process that finishes the work.
    providers.fail('google-geocoding');
    const started = await call('POST', `/workspaces/${workspaceId}/geocoding`, token);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ pending: 6, process: { status: 'pending' } });
    expect(await (await runQueued(workspaceId)).outcome).toBe('completed');
  });

  it('counts locations written pending during a pass into its total: never more done than to do', async () => {
    const { token, workspaceId } = await newWorkspace();
    await createLocation(token, workspaceId, NOWHERE(2000));
    const LATE = 40;
    let arrived = false;
    const lookups: number[] = [];
    // The first lookup is met by an import of 40 more (written pending, after the job counted).
    const geocoder: CachedGeocoder = {
      kind: 'google',
      lookup: async () => {
        lookups.push(lookups.length);
        if (!arrived) {
          arrived = true;
          await ctx.deps.db
            .insert(locationsTable)
            .values(
              Array.from({ length: LATE }, (_, i) => ({ workspaceId, title: 'Late', ...NOWHERE(2001 + i) })),
            );
        }
        return { answer: undefined, fromCache: true };
      },
      purgeExpired: async () => 0,
    };
    const jobs = createGeocodingJobs({
      db: ctx.deps.db,
      repository: createGeocodingRepository(ctx.deps.db),
      processes: ctx.deps.services.processes,
      geocoder,
      changes: ctx.deps.services.finderChanges,
      stopping: new AbortController().signal,
      logger: ctx.deps.logger,
    });
    const { processId, outcome } = await runQueued(workspaceId, ctx.deps, 0, jobs);
    expect(await outcome).toBe('completed');
    expect(lookups).toHaveLength(LATE + 1);
    const payloads = (
      await ctx.deps.db
        .select({ payload: processEventsTable.payload, message: processEventsTable.message })
        .from(processEventsTable)
        .where(eq(processEventsTable.processId, processId))
        .orderBy(processEventsTable.id)
    ).flatMap(({ payload, message }) => {
      const counts = payload as { done?: number; total?: number } | null;
      return counts?.done === undefined ? [] : [{ done: counts.done, total: counts.total, message }];
    });
    const progressed = payloads.filter((event) =>
      /^Geocoded \d+ of \d+ locations\.$/.test(event.message ?? ''),
    );
    expect(progressed.length).toBeGreaterThan(0);
    for (const event of payloads) expect(event.done).toBeLessThanOrEqual(event.total!);
    expect((await processRow(processId))!.summary).toMatchObject({
      total: LATE + 1,
      done: LATE + 1,
      not_found: LATE + 1,
      from_cache: LATE + 1,
    });
  });

  it('marks an address the provider cannot read as failed and goes on', async () => {
    const { token, workspaceId } = await newWorkspace();
    const broken = await createLocation(token, workspaceId, NOWHERE(400));
    const fine = await createLocation(token, workspaceId, NOWHERE(401));
    providers.failNext('google-geocoding', 'malformed_body', 1);
    const { processId, outcome } = await runQueued(workspaceId);
    expect(await outcome).toBe('completed');
    expect((await statusOf(broken.id)).status).toBe('failed');
    expect((await statusOf(fine.id)).status).toBe('not_found');
    expect((await eventsOf(processId)).map((event) => event.message)).toContain(
      `Location ${broken.id}: the geocoder could not look it up (google-geocoding: answered with a body of an unexpected shape).`,
    );

    // A start looks the failed ones up again (not the not-found ones, unless asked).
    const started = await call('POST', `/workspaces/${workspaceId}/geocoding`, token, {});
    expect(started.json()).toMatchObject({ pending: 1, failed: 0, not_found: 1 });
    expect(await (await runQueued(workspaceId)).outcome).toBe('completed');
    expect((await statusOf(broken.id)).status).toBe('not_found');
    const again = await call('POST', `/workspaces/${workspaceId}/geocoding`, token, { retry: ['not_found'] });
    expect(again.json()).toMatchObject({ pending: 2, not_found: 0 });
  });
});

describe('a start that looks locations up again', () => {
  it('asks the provider again for the addresses it found nothing for, not the cache', async () => {
    const { token, workspaceId } = await newWorkspace();
    const nowhere = await createLocation(token, workspaceId, NOWHERE(410));
    expect(await (await runQueued(workspaceId)).outcome).toBe('completed');
    expect((await statusOf(nowhere.id)).status).toBe('not_found');
    expect(geocoderRequests()).toHaveLength(1);

    const again = await call('POST', `/workspaces/${workspaceId}/geocoding`, token, { retry: ['not_found'] });
    expect(again.statusCode, again.body).toBe(202);
    expect(await (await runQueued(workspaceId)).outcome).toBe('completed');
    expect((await statusOf(nowhere.id)).status).toBe('not_found');
    expect(geocoderRequests()).toHaveLength(2);
  });
});

describe('lookups of one address at once', () => {
  /** A geocoder whose one answer the test gives, and that sees whether its request was cancelled. */
  function heldGeocoder() {
    const held: { release?: (result: GeocodeResult) => void; signal?: AbortSignal; calls: number } = {
      calls: 0,
    };
    const geocoder: Geocoder = {
      kind: 'google',
      geocode: (_address, context) => {
        held.calls += 1;
        held.signal = context?.signal;
        return new Promise((resolve, reject) => {
          held.release = resolve;
          context?.signal?.addEventListener('abort', () => reject(new Error('cancelled')));
        });
      },
    };
    const noPacing = { wait: async () => undefined };
    return { held, cached: createCachedGeocoder(ctx.deps.db, geocoder, noPacing) };
  }
  const settled = (promise: Promise<unknown>) =>
    Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      new Promise((r) => setTimeout(() => r(false), 100)),
    ]);

  it("share one request, which one caller's cancel does not end for the others", async () => {
    const { held, cached } = heldGeocoder();
    const address = { ...NOWHERE(980), zip: null, state: null };
    const first = new AbortController();
    const importing = cached.lookup(address, { signal: first.signal });
    const job = cached.lookup(address, { signal: new AbortController().signal });
    await expect.poll(() => held.calls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    first.abort();
    await expect(importing).rejects.toThrow();
    expect(held.signal!.aborted).toBe(false);
    expect(await settled(job)).toBe(false);
    held.release!({ lat: 1, lng: 2, precision: 'ROOFTOP', formatted_address: 'Nirgendwo 980' });
    expect(await job).toEqual({ answer: { lat: 1, lng: 2, precision: 'ROOFTOP' }, fromCache: false });
    expect(held.calls).toBe(1);
  });

  it("give the geocoder the address's street line, where a house number is looked for", async () => {
    const streetLines: (string | undefined)[] = [];
    const geocoder: Geocoder = {
      kind: 'google',
      geocode: async (_query, context) => {
        streetLines.push(context?.streetLine);
        return undefined;
      },
    };
    const cached = createCachedGeocoder(ctx.deps.db, geocoder, { wait: async () => undefined });
    const address = { ...NOWHERE(982), zip: '10178', state: null };
    await cached.lookup(address, { signal: new AbortController().signal });
    expect(streetLines).toEqual(['Nirgendwo 982']);
  });

  it("read the cache again after waiting for their turn: another process's answer is not paid twice", async () => {
    const calls = { waiting: 0, other: 0 };
    const point = { lat: 52.5, lng: 13.4, precision: 'ROOFTOP' as const, formatted_address: 'Nirgendwo 983' };
    let letThrough: (() => void) | undefined;
    const heldPacer = {
      wait: () =>
        new Promise<void>((resolve) => {
          letThrough = resolve;
        }),
    };
    const counted = (name: keyof typeof calls): Geocoder => ({
      kind: 'google',
      geocode: async () => {
        calls[name] += 1;
        return point;
      },
    });
    const waiting = createCachedGeocoder(ctx.deps.db, counted('waiting'), heldPacer);
    const other = createCachedGeocoder(ctx.deps.db, counted('other'), { wait: async () => undefined });
    const address = { ...NOWHERE(983), zip: null, state: null };
    const first = waiting.lookup(address, { signal: new AbortController().signal });
    await expect.poll(() => letThrough).toBeDefined();
    expect(await other.lookup(address)).toEqual({
      answer: { lat: 52.5, lng: 13.4, precision: 'ROOFTOP' },
      fromCache: false,
    });
    letThrough!();
    expect(await first).toEqual({ answer: { lat: 52.5, lng: 13.4, precision: 'ROOFTOP' }, fromCache: true });
    expect(calls).toEqual({ waiting: 0, other: 1 });
  });

  it('cancel the request when every caller has', async () => {
    const { held, cached } = heldGeocoder();
    const address = { ...NOWHERE(981), zip: null, state: null };
    const callers = [new AbortController(), new AbortController()];
    const lookups = callers.map((caller) => cached.lookup(address, { signal: caller.signal }));
    await expect.poll(() => held.calls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    callers[0]!.abort();
    expect(held.signal!.aborted).toBe(false);
    callers[1]!.abort();
    expect(held.signal!.aborted).toBe(true);
    for (const lookup of lookups) await expect(lookup).rejects.toThrow();
  });
});

describe("a failure that is not the provider's", () => {
  it('hands the run back without marking the location or naming its address', async () => {
    const { token, workspaceId } = await newWorkspace();
    const location = await createLocation(token, workspaceId, {
      title: 'Refused by the database',
      address: '10 Downing Street',
      zip: 'SW1A 2AA',
      city: 'London',
      country: 'GB',
    });
    // The database refuses the point this location gets (a stand-in for a timeout or a deadlock).
    await ctx.deps.db.execute(sql`
      create function refuse_point() returns trigger language plpgsql as $$
      begin
        if new.title = 'Refused by the database' and new.lat is not null then raise exception 'no point here'; end if;
        return new;
      end $$`);
    await ctx.deps.db.execute(
      sql`create trigger refuse_point before update on locations for each row execute function refuse_point()`,
    );
    try {
      const { processId, outcome } = await runQueued(workspaceId);
      await expect(outcome).rejects.toThrow();
      expect((await statusOf(location.id)).status).toBe('pending');
      const [process] = (await geocodingProcesses(workspaceId)).filter((row) => row.id === processId);
      expect(process!.status).toBe('pending');
      expect((await eventsOf(processId)).map((event) => event.message)).toContain(
        'Geocoding failed unexpectedly: an internal error. The job will be retried (5 retries left).',
      );
      const said = JSON.stringify([await eventsOf(processId), process]);
      expect(said).not.toMatch(/Downing|SW1A|London/);
    } finally {
      await ctx.deps.db.execute(sql`drop trigger refuse_point on locations`);
      await ctx.deps.db.execute(sql`drop function refuse_point()`);
    }
  });
});

describe('in the worker', () => {
  it('runs the queued job through pg-boss and places the location', async () => {
    const worker = await createDeps(ctx.config, { databaseUrl: ctx.database.url, role: 'worker' });
    try {
      await registerJobs(worker);
      const { token, workspaceId } = await newWorkspace();
      const location = await createLocation(token, workspaceId, {
        address: '10 Downing Street',
        zip: 'SW1A 2AA',
        city: 'London',
        country: 'GB',
      });
      // The location is placed a moment before its process completes: wait for both.
      const deadline = Date.now() + 15_000;
      const finished = async () =>
        (await statusOf(location.id)).lat !== null &&
        (await geocodingProcesses(workspaceId)).every((process) => process.status === 'completed');
      while (!(await finished()) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await statusOf(location.id)).toEqual({ status: null, lat: 51.5033635, lng: -0.1276248 });
      expect(await geocodingProcesses(workspaceId)).toMatchObject([{ status: 'completed' }]);
    } finally {
      await worker.close();
    }
  });

  it('queues, in the hourly maintenance job, the workspaces whose locations wait without a process, in their owner’s name', async () => {
    const { token, workspaceId } = await newWorkspace();
    // Written around the API (as the migration marks older locations): pending, nothing queued.
    const [row] = await ctx.deps.db
      .insert(locationsTable)
      .values({ workspaceId, title: 'Older', ...NOWHERE(950) })
      .returning({ id: locationsTable.id });
    expect((await statusOf(row!.id)).status).toBe('pending');
    expect(await geocodingProcesses(workspaceId)).toEqual([]);
    const first = (await runJob('maintenance.purge-expired', {}, ctx.deps)) as { geocodingQueued: number };
    expect(first.geocodingQueued).toBeGreaterThanOrEqual(1);
    const [queued] = await geocodingProcesses(workspaceId);
    expect(queued).toMatchObject({ status: 'pending' });
    // The owner sees it, and may cancel it.
    const seen = await call('GET', `/processes/${queued!.id}`, token);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toMatchObject({ id: queued!.id, type: 'geocoding', status: 'pending' });
    const listed = await call('GET', `/processes?workspace_id=${workspaceId}`, token);
    expect(listed.json()).toMatchObject([{ id: queued!.id, type: 'geocoding' }]);
    // Queued once: the next run finds its process.
    await runJob('maintenance.purge-expired', {}, ctx.deps);
    expect(await geocodingProcesses(workspaceId)).toHaveLength(1);
  });

  it('deletes expired answers in the hourly maintenance job', async () => {
    const key = `expired|${Date.now()}`;
    await ctx.deps.db.insert(geocodeCacheTable).values([
      { provider: 'google', addressKey: key, answer: 'not_found', expiresAt: new Date(Date.now() - 1000) },
      {
        provider: 'google',
        addressKey: `${key}|fresh`,
        answer: 'not_found',
        expiresAt: new Date(Date.now() + 60_000),
      },
    ]);
    expect(await runJob('maintenance.purge-expired', {}, ctx.deps)).toMatchObject({ geocodeCache: 1 });
    const left = await ctx.deps.db
      .select({ key: geocodeCacheTable.addressKey })
      .from(geocodeCacheTable)
      .where(eq(geocodeCacheTable.provider, 'google'));
    expect(left.map((row) => row.key)).toContain(`${key}|fresh`);
    expect(left.map((row) => row.key)).not.toContain(key);
  });
});

describe('the rate limit', () => {
  it('holds across workers and workspaces: two runs at once stay within 5 requests a second', async () => {
    const config = testConfig(ctx.database.url, {
      GEOCODER: 'google',
      GEOCODER_API_KEY: FAKE_KEYS['google-geocoding'],
      GEOCODER_BASE_URL: providers.geocoderBaseUrl('google'),
      GEOCODER_RATE_LIMIT: '5',
    });
    const workers = [
      await createDeps(config, { databaseUrl: ctx.database.url, role: 'worker' }),
      await createDeps(config, { databaseUrl: ctx.database.url, role: 'worker' }),
    ];
    try {
      const one = await newWorkspace();
      const two = await newWorkspace();
      for (let n = 0; n < 6; n += 1) {
        await createLocation(one.token, one.workspaceId, NOWHERE(500 + n));
        await createLocation(two.token, two.workspaceId, NOWHERE(600 + n));
      }
      const runs = [
        await runQueued(one.workspaceId, workers[0]),
        await runQueued(two.workspaceId, workers[1]),
      ];
      expect(await Promise.all(runs.map((run) => run.outcome))).toEqual(['completed', 'completed']);

      const times = geocoderRequests().map((request) => request.at);
      expect(times).toHaveLength(12);
      // Any six requests span at least a second: never more than five in one.
      for (let i = 0; i + 5 < times.length; i += 1)
        expect(times[i + 5]! - times[i]!).toBeGreaterThanOrEqual(1000);
      // And the pace is the limit's, not much slower: 12 requests in about 11 x 0.21 s (under 5 s on a busy machine).
      expect(times.at(-1)! - times[0]!).toBeLessThan(5_000);
    } finally {
      for (const worker of workers) await worker.close();
    }
  });
});

describe('the default rate limit', () => {
  it("asks Nominatim at most once a second, its usage policy's maximum, when GEOCODER_RATE_LIMIT is not set", async () => {
    const config = testConfig(ctx.database.url, {
      GEOCODER: 'nominatim',
      GEOCODER_BASE_URL: providers.geocoderBaseUrl('nominatim'),
    });
    expect(config.geocoder.ratePerSecond).toBeUndefined();
    const worker = await createDeps(config, { databaseUrl: ctx.database.url, role: 'worker' });
    try {
      const { token, workspaceId } = await newWorkspace();
      for (let n = 0; n < 3; n += 1) await createLocation(token, workspaceId, NOWHERE(700 + n));
      const run = await runQueued(workspaceId, worker);
      expect(await run.outcome).toBe('completed');
      const times = providers.requestsOf('nominatim').map((request) => request.at);
      expect(times).toHaveLength(3);
      // Sent 1.05 s apart (the pacer's headroom); read where they arrive, which a busy machine
      // can bring closer. A default of 5 a second would bring them 0.21 s apart.
      for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(900);
    } finally {
      await worker.close();
    }
  });
});

describe('the locations without coordinates, to place by hand', () => {
  it('are listed with ?without_coordinates=true and selected by a bulk filter', async () => {
    const { token, workspaceId } = await newWorkspace();
    const waiting = await createLocation(token, workspaceId, NOWHERE(900));
    const bare = await createLocation(token, workspaceId, { country: 'Germany' });
    await createLocation(token, workspaceId, { ...KARL_MARX, lat: 52.5, lng: 13.4 });

    const listed = await call(
      'GET',
      `/locations?workspace_id=${workspaceId}&without_coordinates=true&limit=50`,
      token,
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['x-total-count']).toBe('2');
    expect(
      listed
        .json()
        .map((row: { id: number }) => row.id)
        .sort(),
    ).toEqual([waiting.id, bare.id].sort());
    const all = await call(
      'GET',
      `/locations?workspace_id=${workspaceId}&without_coordinates=false&limit=50`,
      token,
    );
    expect(all.headers['x-total-count']).toBe('3');
    const bad = await call('GET', `/locations?workspace_id=${workspaceId}&without_coordinates=yes`, token);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['without_coordinates']);

    const tag = await call('POST', '/tags', token, { name: 'Place by hand', workspace_id: workspaceId });
    const bulk = await call('POST', '/locations/bulk', token, {
      workspace_id: workspaceId,
      action: 'add_tag',
      tag_id: tag.json().id,
      filter: { without_coordinates: true },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const tagged = await call(
      'GET',
      `/locations?workspace_id=${workspaceId}&without_coordinates=true&limit=50`,
      token,
    );
    expect(tagged.json().every((row: { tags: unknown[] }) => row.tags.length === 1)).toBe(true);
    const badBulk = await call('POST', '/locations/bulk', token, {
      workspace_id: workspaceId,
      action: 'add_tag',
      tag_id: tag.json().id,
      filter: { without_coordinates: 'yes' },
    });
    expect(badBulk.statusCode).toBe(422);
    expect(Object.keys(badBulk.json().errors)).toEqual(['filter.without_coordinates']);
  });
});

describe('GET and POST /workspaces/{id}/geocoding', () => {
  it('answer 404 for another user’s workspace and a missing one', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const foreign = await call(
        method,
        `/workspaces/${cast.strangerWorkspaceId}/geocoding`,
        cast.ownerToken,
      );
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({ message: 'Workspace not found.' });
      expect((await call(method, '/workspaces/999999/geocoding', cast.ownerToken)).statusCode).toBe(404);
    }
    expect(
      (await call('GET', `/workspaces/${cast.workspaceId}/geocoding`, cast.memberToken)).statusCode,
    ).toBe(200);
    expect((await call('GET', `/workspaces/${cast.workspaceId}/geocoding`)).statusCode).toBe(401);
  });

  it('answer 422 for bad ids and bodies', async () => {
    // A malformed id in a path is an unknown one (docs/api.md, Conventions).
    expect((await call('GET', '/workspaces/abc/geocoding', cast.ownerToken)).statusCode).toBe(404);
    const cases: [unknown, string][] = [
      [{ retry: ['pending'] }, 'retry.0'],
      [{ retry: 'failed' }, 'retry'],
      [{ retry: ['failed', 'imprecise', 'not_found', 'failed'] }, 'retry'],
      [{ statuses: ['failed'] }, ''],
      [[], ''],
    ];
    for (const [body, path] of cases) {
      const response = await call('POST', `/workspaces/${cast.workspaceId}/geocoding`, cast.ownerToken, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      if (path) expect(Object.keys(response.json().errors)).toContain(path);
    }
    const text = await ctx.app.inject({
      method: 'POST',
      url: `/api/workspaces/${cast.workspaceId}/geocoding`,
      headers: { authorization: `Bearer ${cast.ownerToken}`, 'content-type': 'application/json' },
      payload: '{"retry": [',
    });
    expect(text.statusCode).toBeLessThan(500);
  });

  it('does not queue twice when started twice', async () => {
    const { token, workspaceId } = await newWorkspace();
    await createLocation(token, workspaceId, NOWHERE(700));
    const a = (await call('POST', `/workspaces/${workspaceId}/geocoding`, token)).json();
    const b = (await call('POST', `/workspaces/${workspaceId}/geocoding`, token)).json();
    expect(a.process.id).toBe(b.process.id);
    expect(await geocodingProcesses(workspaceId)).toHaveLength(1);
  });
});

describe('with GEOCODER=none', () => {
  it('counts the locations without coordinates, queues nothing and refuses a start with 409', async () => {
    const none = await createDeps(testConfig(ctx.database.url), {
      databaseUrl: ctx.database.url,
      role: 'api',
    });
    try {
      const owner = await createUser(ctx.deps);
      const workspaceId = await createWorkspace(ctx.deps, owner, 'No geocoder');
      const actor = { userId: owner.id, allWorkspaces: false };
      await none.services.locations.create(actor, {
        workspace_id: workspaceId,
        title: 'Shop',
        ...NOWHERE(800),
      } as Parameters<Deps['services']['locations']['create']>[1]);
      expect(await geocodingProcesses(workspaceId)).toHaveLength(0);
      expect(await none.services.geocoding.get(actor, workspaceId)).toMatchObject({
        pending: 1,
        without_coordinates: 1,
        geocoder: 'none',
        process: null,
      });
      await expect(none.services.geocoding.start(actor, workspaceId, ['failed'])).rejects.toMatchObject({
        statusCode: 409,
      });

      // A process queued while a geocoder was configured, run by a worker without one.
      const queued = await newWorkspace();
      await createLocation(queued.token, queued.workspaceId, NOWHERE(801));
      const { processId, outcome } = await runQueued(queued.workspaceId, none);
      expect(await outcome).toBe('failed');
      expect(geocoderRequests()).toHaveLength(0);
      expect((await eventsOf(processId)).at(-1)!.message).toBe(
        'No geocoder is configured (GEOCODER=none); the locations stay pending.',
      );
      expect(
        (await call('GET', `/workspaces/${queued.workspaceId}/geocoding`, queued.token)).json(),
      ).toMatchObject({
        pending: 1,
      });
    } finally {
      await none.close();
    }
  });
});
