// The AI-assisted import end to end: the API on its own database, a real worker (pg-boss on the
// same database, consuming the generate job), the `openai` model against the fake OpenAI server
// and the Google geocoder against the fake Geocoding API. Generate -> review -> import; a model
// failure retried; a cancel that aborts a slow model call; every 422; another user's batch 404.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../src/deps.ts';
import { registerJobs } from '../src/job-handlers.ts';
import { aiImportBatchesTable, aiImportItemsTable } from '../src/modules/ai-imports/ai-imports.table.ts';
import { customFieldDefinitionsTable } from '../src/modules/custom-fields/custom-fields.table.ts';
import { findersTable } from '../src/modules/finders/finders.table.ts';
import { locationTagsTable } from '../src/modules/locations/locations.relations.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { mapLocationsTable, mapsTable } from '../src/modules/maps/maps.table.ts';
import { processEventsTable, processesTable } from '../src/modules/processes/processes.table.ts';
import { tagsTable } from '../src/modules/tags/tags.table.ts';
import { wireLocation } from './factories/ai-answers.ts';
import { createUser, tokenFor } from './factories/users.ts';
import { addMember, createCast, createWorkspace } from './factories/workspaces.ts';
import { type FakeOpenAi, startFakeOpenAi } from './fakes/openai.ts';
import { FAKE_KEYS, type FakeProviders, placeByKey, startFakeProviders } from './fakes/providers.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let worker: Deps;
let fake: FakeOpenAi;
let providers: FakeProviders;
let cast: Awaited<ReturnType<typeof createCast>>;
let finderId: number;
let mapId: number;
const call = createCaller(() => ctx);

beforeAll(async () => {
  fake = await startFakeOpenAi();
  providers = await startFakeProviders();
  ctx = await createTestContext({
    env: {
      OPENAI_API_KEY: fake.apiKey,
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_MODEL: 'gpt-test-mini',
      GEOCODER: 'google',
      GEOCODER_API_KEY: FAKE_KEYS['google-geocoding'],
      GEOCODER_BASE_URL: providers.geocoderBaseUrl('google'),
    },
  });
  worker = await createDeps(ctx.config, { databaseUrl: ctx.database.url, role: 'worker' });
  await registerJobs(worker);
  cast = await createCast(ctx.deps);
  await ctx.deps.db.insert(customFieldDefinitionsTable).values([
    { workspaceId: cast.workspaceId, name: 'opening_hours', label: 'Opening hours', type: 'text' },
    { workspaceId: cast.workspaceId, name: 'seats', label: 'Seats', type: 'number' },
  ]);
  const [map] = await ctx.deps.db.insert(mapsTable).values({ title: 'Shop finder' }).returning();
  mapId = map!.id;
  const [finder] = await ctx.deps.db
    .insert(findersTable)
    .values({ workspaceId: cast.workspaceId, mapId, name: 'Shop finder', token: 'tok-ai-import-test' })
    .returning();
  finderId = finder!.id;
});
afterAll(async () => {
  await worker?.close();
  await ctx?.close();
  await fake?.close();
  await providers?.close();
});
beforeEach(() => {
  providers.reset();
});

const answers = (overrides: Record<string, unknown> = {}) => ({
  brand_name: 'Hartley’s',
  business_type: 'Book shops',
  approximate_location_count: '3-8',
  geographic_scope: 'US, UK and Germany',
  customer_description: 'Readers who want to find a shop nearby',
  common_tags: 'Flagship, Café',
  important_fields: 'opening hours, seats',
  source_notes: 'Googleplex shop, 1600 Amphitheatre Parkway ... (the test scripts the model)',
  ...overrides,
});

const DRAFT = [
  wireLocation({
    name: 'Hartley’s Mountain View',
    address: '1600 Amphitheatre Parkway',
    city: 'Mountain View',
    state: 'CA',
    zip: '94043',
    country: 'United States',
    phone: '+1 650-253-0000',
    website: 'hartleys.example',
    tags: ['Flagship'],
    custom_fields: [
      { name: 'email', value: 'mv@hartleys.example' },
      { name: 'Opening hours', value: 'Mo-Sa 9-18' },
      { name: 'Parking', value: 'yes' },
    ],
  }),
  wireLocation({
    name: 'Hartley’s Westminster',
    address: '10 Downing Street',
    city: 'London',
    zip: 'SW1A 2AA',
    country: 'United Kingdom',
    phone: '+44 20 7925 0918',
    lat: 51.5034,
    lng: -0.1276,
    tags: ['Café'],
  }),
  wireLocation({
    name: 'Hartley’s Friedrichshain',
    address: 'Karl-Marx-Allee 100',
    city: 'Berlin',
    zip: '10243',
    country: 'Germany',
    website: 'https://hartleys.example/berlin',
    custom_fields: [{ name: 'seats', value: '40' }],
  }),
  wireLocation({
    name: 'Hartley’s Alexanderplatz',
    address: 'Alexanderplatz 1',
    city: 'Berlin',
    zip: '10178',
    country: 'Germany',
    phone: '+49 30 1234567',
  }),
  wireLocation({ address: '5 Nowhere Lane', city: 'Atlantis' }),
  wireLocation({ name: 'Hartley’s Closed', address: '1 Old Road', city: 'Springfield', phone: '555-0100' }),
  wireLocation({
    name: 'Hartley’s Seats',
    address: '2 Bench Street',
    city: 'Springfield',
    phone: '555-0101',
    custom_fields: [{ name: 'seats', value: 'many' }],
  }),
];

async function waitForStatus(processId: number, statuses: string[], timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let status = '';
  while (Date.now() < deadline) {
    status = (await ctx.deps.services.processes.get(cast.owner.id, processId)).status;
    if (statuses.includes(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`process ${processId} is ${status}, not ${statuses.join('/')}, after ${timeoutMs} ms`);
}

async function startImport(body: Record<string, unknown> = {}) {
  const response = await call('POST', '/ai-location-imports', cast.ownerToken, {
    workspace_id: cast.workspaceId,
    answers: answers(),
    ...body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { process: { id: number }; batch: { id: number } };
}

const counts = async () => {
  const [row] = await ctx.deps.db.execute<{ batches: number; processes: number; jobs: number }>(sql`
    select (select count(*)::int from ai_import_batches) as batches,
      (select count(*)::int from processes) as processes,
      (select count(*)::int from pgboss.job where name = 'ai-imports.generate') as jobs`);
  return row!;
};

describe('generate -> waiting_review -> patch -> import', () => {
  it('drafts in the worker, is reviewed, and imports with geocoding, tags, custom fields and the finder’s map', async () => {
    fake.setBehaviour({
      kind: 'locations',
      locations: DRAFT,
      usage: { prompt_tokens: 812, completion_tokens: 410, total_tokens: 1222 },
    });
    const started = await call('POST', '/ai-location-imports', cast.ownerToken, {
      workspace_id: cast.workspaceId,
      finder_id: finderId,
      answers: answers(),
    });
    expect(started.statusCode).toBe(200);
    const { process, batch } = started.json();
    expect(started.json()).toEqual({
      process: { id: expect.any(Number), type: 'ai_location_import_generate', status: 'queued' },
      batch: { id: expect.any(Number), status: 'draft', total_items: 0 },
      next_action: 'watch_process',
    });
    const [processRow] = await ctx.deps.db
      .select()
      .from(processesTable)
      .where(eq(processesTable.id, process.id));
    expect(processRow).toMatchObject({
      status: expect.stringMatching(/pending|running|waiting_review/),
      relatedId: batch.id,
    });

    expect(await waitForStatus(process.id, ['waiting_review', 'failed'])).toBe('waiting_review');
    const request = fake.requests.at(-1)!;
    expect(request.body?.model).toBe('gpt-test-mini');
    expect(request.body?.response_format?.type).toBe('json_schema');

    const shown = await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken);
    expect(shown.statusCode).toBe(200);
    const draft = shown.json();
    expect(draft).toMatchObject({
      id: batch.id,
      status: 'draft',
      finder_id: finderId,
      model_name: 'gpt-test-mini',
      total_items: 7,
      approved_items: 0,
      usage_metadata: { prompt_token_count: 812, candidates_token_count: 410, total_token_count: 1222 },
      source_answers: expect.objectContaining({ business_type: 'Book shops' }),
      process_id: process.id,
    });
    const items = draft.items as {
      id: number;
      status: string;
      confidence: string;
      validation_errors: unknown[];
      normalized_payload: Record<string, unknown>;
      raw_model_output: Record<string, unknown>;
    }[];
    expect(items.map((item) => item.status)).toEqual(Array(7).fill('pending_review'));
    expect(items[0]!.normalized_payload).toMatchObject({
      name: 'Hartley’s Mountain View',
      website: 'https://hartleys.example',
      custom_fields: { email: 'mv@hartleys.example', 'Opening hours': 'Mo-Sa 9-18', Parking: 'yes' },
    });
    expect(items[0]!.raw_model_output).toMatchObject({ address: '1600 Amphitheatre Parkway' });
    expect(items[4]!.confidence).toBe('low');
    expect(items[4]!.validation_errors).toEqual([{ field: 'name', message: 'The name field is required.' }]);

    const generated = await call('GET', `/processes/${process.id}`, cast.ownerToken);
    expect(generated.json()).toMatchObject({
      status: 'waiting_review',
      progress: 100,
      metadata: {
        attempts: 1,
        queue: 'ai-imports.generate',
        related_type: 'ai_import_batch',
        related_id: batch.id,
      },
      result_summary: { batch_id: batch.id, total_items: 7, with_validation_errors: 1 },
    });
    const generateEvents = (await call('GET', `/processes/${process.id}/events`, cast.ownerToken)).json();
    expect(generateEvents.map((event: { status: string }) => event.status)).toEqual([
      'pending',
      'running',
      'running',
      'waiting_review',
    ]);

    // Review: approving the nameless item is refused, and writes nothing.
    const refused = await call(
      'PATCH',
      `/ai-location-imports/${batch.id}/items/${items[4]!.id}`,
      cast.ownerToken,
      {
        status: 'approved',
      },
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.status[0]).toContain('validation errors');
    const [unchanged] = await ctx.deps.db
      .select()
      .from(aiImportItemsTable)
      .where(eq(aiImportItemsTable.id, items[4]!.id));
    expect(unchanged!.status).toBe('pending_review');

    const rejected = await call(
      'PATCH',
      `/ai-location-imports/${batch.id}/items/${items[5]!.id}`,
      cast.ownerToken,
      {
        status: 'rejected',
      },
    );
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({ rejected_items: 1, approved_items: 0 });

    const edited = await call(
      'PATCH',
      `/ai-location-imports/${batch.id}/items/${items[0]!.id}`,
      cast.ownerToken,
      {
        status: 'approved',
        payload: { phone: '+1 650-253-0001', custom_fields: { seats: 12, Parking: null, Shelves: 'many' } },
      },
    );
    expect(edited.statusCode).toBe(200);
    const editedBatch = edited.json();
    expect(editedBatch).toMatchObject({ approved_items: 1, rejected_items: 1, total_items: 7 });
    expect(editedBatch.items).toHaveLength(7);
    expect(editedBatch.items[0]).toMatchObject({
      status: 'approved',
      normalized_payload: { phone: '+1 650-253-0000' },
      user_payload: {
        phone: '+1 650-253-0001',
        custom_fields: {
          email: 'mv@hartleys.example',
          'Opening hours': 'Mo-Sa 9-18',
          seats: 12,
          Shelves: 'many',
        },
      },
    });

    // Import: pending items that pass are approved and written; the bad custom value fails.
    const imported = await call('POST', `/ai-location-imports/${batch.id}/import`, cast.ownerToken);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toEqual({
      process: { id: expect.any(Number), type: 'ai_location_import_apply', status: 'completed' },
      batch: { id: batch.id, status: 'imported', imported_items: 4, failed_items: 1 },
      next_action: 'review_locations',
    });
    const applyId = imported.json().process.id;

    // Geocoded: the three items without coordinates, through the Geocoding API.
    const geocoded = providers.requestsOf('google-geocoding').map((entry) => entry.query.address);
    expect(geocoded.sort()).toEqual([
      '1600 Amphitheatre Parkway, 94043 Mountain View, CA, United States',
      'Alexanderplatz 1, 10178 Berlin, Germany',
      'Karl-Marx-Allee 100, 10243 Berlin, Germany',
    ]);

    const after = (await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).json();
    expect(after.items.map((item: { status: string }) => item.status)).toEqual([
      'imported',
      'imported',
      'imported',
      'imported',
      'pending_review',
      'rejected',
      'failed',
    ]);
    expect(after).toMatchObject({
      status: 'imported',
      imported_items: 4,
      failed_items: 1,
      apply_process_id: applyId,
    });
    expect(after.items[6].validation_errors).toEqual([
      { field: 'custom_fields.seats', message: 'The Seats field must be a number.' },
    ]);
    expect(after.items[0].warnings).toContain(
      'The custom field "Shelves" is not defined in this workspace; its value was not imported.',
    );
    expect(after.items[0].warnings).not.toContain('No coordinates: the address will be geocoded on import.');
    expect(after.items[3].warnings).toContain(
      'Geocoding found only an approximate position (GEOMETRIC_CENTER); the location was created without coordinates.',
    );

    const locationIds = after.items.slice(0, 4).map((item: { location_id: number }) => item.location_id);
    const locations = await ctx.deps.db
      .select()
      .from(locationsTable)
      .where(inArray(locationsTable.id, locationIds));
    const byTitle = new Map(locations.map((location) => [location.title, location]));
    const googleplex = placeByKey('googleplex')!;
    const karl = placeByKey('karl-marx-allee')!;
    expect(byTitle.get('Hartley’s Mountain View')).toMatchObject({
      lat: googleplex.lat,
      lng: googleplex.lng,
      email: 'mv@hartleys.example',
      phone: '+1 650-253-0001',
      website: 'https://hartleys.example',
      customValues: { opening_hours: 'Mo-Sa 9-18', seats: 12 },
      workspaceId: cast.workspaceId,
    });
    expect(byTitle.get('Hartley’s Westminster')).toMatchObject({ lat: 51.5034, lng: -0.1276 });
    expect(byTitle.get('Hartley’s Friedrichshain')).toMatchObject({
      lat: karl.lat,
      lng: karl.lng,
      customValues: { seats: 40 },
    });
    expect(byTitle.get('Hartley’s Alexanderplatz')).toMatchObject({ lat: null, lng: null });

    const tagged = await ctx.deps.db
      .select({ location: locationTagsTable.locationId, tag: tagsTable.name })
      .from(locationTagsTable)
      .innerJoin(tagsTable, eq(tagsTable.id, locationTagsTable.tagId))
      .where(inArray(locationTagsTable.locationId, locationIds));
    expect(tagged.map((row) => row.tag).sort()).toEqual(['Café', 'Flagship']);

    const onMap = await ctx.deps.db
      .select()
      .from(mapLocationsTable)
      .where(eq(mapLocationsTable.mapId, mapId));
    expect(onMap.map((row) => row.locationId).sort()).toEqual([...locationIds].sort());

    const apply = (await call('GET', `/processes/${applyId}`, cast.ownerToken)).json();
    expect(apply).toMatchObject({
      type: 'ai_location_import_apply',
      status: 'completed',
      progress: 100,
      metadata: { related_type: 'ai_import_batch', related_id: batch.id },
      result_summary: {
        imported_items: 4,
        failed_items: 1,
        locations_created: 4,
        geocoded: 2,
        without_coordinates: 1,
        map_id: mapId,
      },
    });
    const applyEvents = (await call('GET', `/processes/${applyId}/events`, cast.ownerToken)).json();
    expect(applyEvents.map((event: { step: string }) => event.step)).toEqual([
      'approving',
      'geocoding',
      'writing',
      'completed',
    ]);

    // Only a draft imports, and an imported batch's items no longer change.
    const again = await call('POST', `/ai-location-imports/${batch.id}/import`, cast.ownerToken);
    expect(again.statusCode).toBe(409);
    const late = await call(
      'PATCH',
      `/ai-location-imports/${batch.id}/items/${items[4]!.id}`,
      cast.ownerToken,
      {
        status: 'rejected',
      },
    );
    expect(late.statusCode).toBe(409);
  });

  it('recomputes duplicate warnings across the batch when an item is edited', async () => {
    fake.setBehaviour({
      kind: 'locations',
      locations: [
        wireLocation({ name: 'Twin', address: '1 Same Street', city: 'Leeds', phone: '1' }),
        wireLocation({ name: 'Other', address: '2 Other Street', city: 'Leeds', phone: '2' }),
      ],
    });
    const { process, batch } = await startImport();
    await waitForStatus(process.id, ['waiting_review']);
    const items = (await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).json().items;
    const duplicate = 'Same name and address as another item in this batch.';
    const made = await call(
      'PATCH',
      `/ai-location-imports/${batch.id}/items/${items[1].id}`,
      cast.ownerToken,
      {
        payload: { name: 'twin', address: '1 same street' },
      },
    );
    expect(made.json().items[1].warnings).toContain(duplicate);
    expect(made.json().items[0].warnings).not.toContain(duplicate);
    const undone = await call(
      'PATCH',
      `/ai-location-imports/${batch.id}/items/${items[0].id}`,
      cast.ownerToken,
      {
        payload: { name: 'First twin' },
      },
    );
    expect(undone.json().items[1].warnings).not.toContain(duplicate);
  });
});

describe('opening hours', () => {
  const noDays = { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null };

  it('flow from the model through review to the locations; bad hours are item errors or warnings, never a 500', async () => {
    fake.setBehaviour({
      kind: 'locations',
      locations: [
        wireLocation({
          name: 'Hours Westminster',
          address: '11 Downing Street',
          city: 'London',
          zip: 'SW1A 2AB',
          country: 'United Kingdom',
          phone: '+44 20 7925 0919',
          lat: 51.5033,
          lng: -0.1275,
          hours: { ...noDays, mon: ['09:00-18:00'], fri: ['19:00-02:00'], sun: [] },
          special_hours: [{ date: '2026-12-25', end_date: '2026-12-26', hours: [], label: 'Christmas' }],
        }),
        wireLocation({
          name: 'Hours Friedrichshain',
          address: 'Karl-Marx-Allee 100',
          city: 'Berlin',
          zip: '10243',
          country: 'Germany',
          phone: '+49 30 1234568',
          hours: { ...noDays, mon: ['9-18'], tue: ['13:00-18:00', '09:00-12:00'] },
        }),
        // A lenient server's week as text: left out with a warning.
        wireLocation({
          name: 'Hours Text',
          address: '2 Text Street',
          city: 'Leeds',
          phone: '+44 113 496 0000',
          lat: 53.8,
          lng: -1.55,
          hours: 'Mon-Fri 9-18',
          time_zone: 'Mars/Olympus',
        }),
        // Hours, no zone, and an address the geocoder does not place: refused on import.
        wireLocation({
          name: 'Hours Nowhere',
          address: '5 Nowhere Lane',
          city: 'Atlantis',
          phone: '555-0102',
          hours: { ...noDays, sat: ['10:00-14:00'] },
        }),
      ],
    });
    const { process, batch } = await startImport();
    expect(await waitForStatus(process.id, ['waiting_review', 'failed'])).toBe('waiting_review');
    const schema = fake.requests.at(-1)!.body?.response_format as { json_schema: { schema: unknown } };
    expect(JSON.stringify(schema.json_schema.schema)).toContain('special_hours');

    const shown = (await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).json();
    const [westminster, berlin, text, nowhere] = shown.items;
    expect(westminster).toMatchObject({
      validation_errors: [],
      normalized_payload: {
        time_zone: null,
        hours: { mon: ['09:00-18:00'], fri: ['19:00-02:00'], sun: [] },
        special_hours: [{ date: '2026-12-25', end_date: '2026-12-26', hours: [], label: 'Christmas' }],
      },
    });
    expect(berlin.confidence).toBe('low');
    expect(berlin.validation_errors).toEqual([
      { field: 'hours.mon.0', message: expect.stringMatching(/^Each interval must be HH:MM-HH:MM/) },
      { field: 'hours.tue.1', message: 'Intervals must be in order and may not overlap.' },
    ]);
    expect(text.normalized_payload.hours).toBeNull();
    expect(text.warnings).toContain(
      "The drafted hours could not be read (not an object of days mon ... sun, each a list of intervals or null) and were left out; the model's answer is in raw_model_output.",
    );
    expect(text.validation_errors).toEqual([
      { field: 'time_zone', message: 'The time zone must be an IANA time zone name such as Europe/Berlin.' },
    ]);
    expect(nowhere.warnings).toContain(
      'Opening hours need a time zone: without one or coordinates, they are imported only if the address geocodes (the zone is derived from the coordinates).',
    );

    // An edit is checked as a location's write: 422 naming the interval, nothing changed.
    const itemUrl = (item: { id: number }) => `/ai-location-imports/${batch.id}/items/${item.id}`;
    const refused = await call('PATCH', itemUrl(berlin), cast.ownerToken, {
      payload: { hours: { mon: ['09:00-18:00'], wed: ['25:00-26:00'] } },
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(['payload.hours.wed.0']);
    const [stored] = await ctx.deps.db
      .select()
      .from(aiImportItemsTable)
      .where(eq(aiImportItemsTable.id, berlin.id));
    expect(stored!.userPayload).toBeNull();
    const fixed = await call('PATCH', itemUrl(berlin), cast.ownerToken, {
      status: 'approved',
      payload: { hours: { sat: ['10:00-14:00'], mon: ['09:00-18:00'] } },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().items[1]).toMatchObject({
      status: 'approved',
      validation_errors: [],
      user_payload: { hours: { mon: ['09:00-18:00'], sat: ['10:00-14:00'] } },
    });
    // The time zone error keeps the text item out; clearing the zone lets it in, still warned.
    const cleared = await call('PATCH', itemUrl(text), cast.ownerToken, { payload: { time_zone: null } });
    expect(cleared.json().items[2].validation_errors).toEqual([]);

    const imported = await call('POST', `/ai-location-imports/${batch.id}/import`, cast.ownerToken);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().batch).toMatchObject({ imported_items: 3, failed_items: 1 });
    const after = (await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).json();
    expect(after.items.map((item: { status: string }) => item.status)).toEqual([
      'imported',
      'imported',
      'imported',
      'failed',
    ]);
    expect(after.items[3].validation_errors).toEqual([
      {
        field: 'time_zone',
        message:
          'The time zone field is required when hours, special hours or a reopening date are given (or give lat and lng to derive it).',
      },
    ]);
    expect(after.items[3].location_id).toBeNull();

    const location = async (item: { location_id: number }) =>
      (await call('GET', `/locations/${item.location_id}`, cast.ownerToken)).json();
    expect(await location(after.items[0])).toMatchObject({
      time_zone: 'Europe/London',
      time_zone_derived: true,
      hours: { mon: ['09:00-18:00'], fri: ['19:00-02:00'], sun: [] },
      special_hours: [{ date: '2026-12-25', end_date: '2026-12-26', hours: [], label: 'Christmas' }],
    });
    // Geocoded, then its zone derived from the geocoded point.
    expect(await location(after.items[1])).toMatchObject({
      lat: placeByKey('karl-marx-allee')!.lat,
      time_zone: 'Europe/Berlin',
      time_zone_derived: true,
      hours: { mon: ['09:00-18:00'], sat: ['10:00-14:00'] },
    });
    expect(await location(after.items[2])).toMatchObject({ time_zone: 'Europe/London', hours: null });
    const nowhereRows = await ctx.deps.db
      .select()
      .from(locationsTable)
      .where(eq(locationsTable.title, 'Hours Nowhere'));
    expect(nowhereRows).toHaveLength(0);
  });
});

describe('an item matching an existing location', () => {
  it('leaves its time zone, hours, special hours and closure alone unless the item gives them', async () => {
    const place = { city: 'London', country: 'United Kingdom', lat: 51.5072, lng: -0.1276 };
    const opening = {
      hours: { mon: ['09:00-18:00'] },
      special_hours: [{ date: '2026-12-24', hours: [], label: 'Eve' }],
      temporarily_closed: true,
      reopens_on: '2027-01-10',
    };
    const create = async (title: string, address: string, fields: Record<string, unknown>) => {
      const res = await call('POST', '/locations', cast.ownerToken, {
        workspace_id: cast.workspaceId,
        title,
        address,
        zip: 'E1 6AN',
        ...place,
        ...fields,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: number };
    };
    // A zone given by a person (not the one at the point), and one derived from the point.
    const given = await create('Kept Given', '1 Given Street', { time_zone: 'Europe/Dublin', ...opening });
    const derived = await create('Kept Derived', '2 Derived Street', opening);
    const moved = await create('Moved Derived', '3 Moved Street', opening);
    const replaced = await create('Replaced Hours', '4 Replaced Street', {
      time_zone: 'Europe/Dublin',
      ...opening,
    });
    const read = async (id: number) => (await call('GET', `/locations/${id}`, cast.ownerToken)).json();
    const givenBefore = await read(given.id);
    const derivedBefore = await read(derived.id);
    expect(derivedBefore).toMatchObject({ time_zone: 'Europe/London', time_zone_derived: true });

    const item = (title: string, address: string, fields: Record<string, unknown> = {}) =>
      wireLocation({ name: title, address, zip: 'E1 6AN', phone: '+44 20 7946 0000', ...place, ...fields });
    fake.setBehaviour({
      kind: 'locations',
      locations: [
        item('Kept Given', '1 Given Street'),
        item('Kept Derived', '2 Derived Street'),
        item('Moved Derived', '3 Moved Street', {
          city: 'Berlin',
          country: 'Germany',
          lat: 52.52,
          lng: 13.405,
        }),
        item('Replaced Hours', '4 Replaced Street', {
          time_zone: 'Europe/Lisbon',
          hours: { mon: null, tue: ['10:00-12:00'], wed: null, thu: null, fri: null, sat: null, sun: null },
        }),
      ],
    });
    const { process, batch } = await startImport();
    expect(await waitForStatus(process.id, ['waiting_review', 'failed'])).toBe('waiting_review');
    const imported = await call('POST', `/ai-location-imports/${batch.id}/import`, cast.ownerToken);
    expect(imported.statusCode, imported.body).toBe(200);
    const after = (await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).json();
    expect(after.items.map((found: { location_id: number }) => found.location_id)).toEqual([
      given.id,
      derived.id,
      moved.id,
      replaced.id,
    ]);

    const openingOf = (location: Record<string, unknown>) => ({
      time_zone: location.time_zone,
      time_zone_derived: location.time_zone_derived,
      time_zone_review: location.time_zone_review,
      hours: location.hours,
      special_hours: location.special_hours,
      temporarily_closed: location.temporarily_closed,
      reopens_on: location.reopens_on,
    });
    expect(openingOf(await read(given.id))).toEqual(openingOf(givenBefore));
    expect(openingOf(await read(derived.id))).toEqual(openingOf(derivedBefore));
    // The point moved and the zone was derived: derived again from the new point, as the API does.
    expect(openingOf(await read(moved.id))).toEqual({
      ...openingOf(derivedBefore),
      time_zone: 'Europe/Berlin',
    });
    // What an item gives replaces the location's; what it does not give stays.
    expect(openingOf(await read(replaced.id))).toEqual({
      ...openingOf(givenBefore),
      time_zone: 'Europe/Lisbon',
      hours: { tue: ['10:00-12:00'] },
    });
  });
  it('keeps the coordinates (and the zone they gave) of a location whose item was not placed', async () => {
    // A pin set by hand in Athens, at an address the geocoder does not place.
    const created = await call('POST', '/locations', cast.ownerToken, {
      workspace_id: cast.workspaceId,
      title: 'Pinned By Hand',
      address: '7 Nowhere Lane',
      city: 'Atlantis',
      zip: 'A-1',
      lat: 37.9715,
      lng: 23.7257,
      hours: { mon: ['09:00-18:00'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as { id: number };
    const read = async () => (await call('GET', `/locations/${id}`, cast.ownerToken)).json();
    const before = await read();
    expect(before).toMatchObject({ time_zone: 'Europe/Athens', time_zone_derived: true });

    fake.setBehaviour({
      kind: 'locations',
      locations: [
        wireLocation({
          name: 'Pinned By Hand',
          address: '7 Nowhere Lane',
          city: 'Atlantis',
          zip: 'A-1',
          phone: '+30 21 0000 0000',
        }),
      ],
    });
    const { process, batch } = await startImport();
    expect(await waitForStatus(process.id, ['waiting_review', 'failed'])).toBe('waiting_review');
    const imported = await call('POST', `/ai-location-imports/${batch.id}/import`, cast.ownerToken);
    expect(imported.statusCode, imported.body).toBe(200);
    const [item] = (await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).json().items;
    expect(item).toMatchObject({ status: 'imported', location_id: id });
    expect(item.warnings.join(' ')).toMatch(/Geocoding found no match/);

    const after = await read();
    expect(after).toMatchObject({
      lat: before.lat,
      lng: before.lng,
      time_zone: 'Europe/Athens',
      time_zone_derived: true,
      hours: { mon: ['09:00-18:00'] },
      phone: '+30 21 0000 0000',
    });
  });
});

describe('failures, retries and cancels', () => {
  it.each([
    [
      '10,000 levels deep',
      `{"locations":[{"name":"Deep","tags":${'['.repeat(10_000)}${']'.repeat(10_000)}}]}`,
    ],
    ['with an unpaired surrogate', '{"locations":[{"name":"Hartley\\ud800s","tags":[]}]}'],
  ])('a model answer %s fails the process cleanly, with no items', async (_case, content) => {
    fake.setBehaviour({ kind: 'content', content });
    const { process, batch } = await startImport();
    expect(await waitForStatus(process.id, ['failed', 'waiting_review'])).toBe('failed');
    const failed = (await call('GET', `/processes/${process.id}`, cast.ownerToken)).json();
    expect(failed.metadata.error_message).toMatch(/^The model call failed: openai: the answer /);
    expect(failed.metadata.attempts).toBe(1);
    const [noItems] = await ctx.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(aiImportItemsTable)
      .where(eq(aiImportItemsTable.batchId, batch.id));
    expect(noItems!.n).toBe(0);
  });

  it('a model failure fails the process; POST /processes/{id}/retry drafts again', async () => {
    fake.setBehaviour({ kind: 'error', status: 500 });
    const { process, batch } = await startImport();
    expect(await waitForStatus(process.id, ['failed', 'waiting_review'])).toBe('failed');
    const failed = (await call('GET', `/processes/${process.id}`, cast.ownerToken)).json();
    expect(failed.metadata.error_message).toMatch(/^The model call failed: openai: answered 500/);
    expect(failed.metadata.finished_at).not.toBeNull();
    const [noItems] = await ctx.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(aiImportItemsTable)
      .where(eq(aiImportItemsTable.batchId, batch.id));
    expect(noItems!.n).toBe(0);

    fake.setBehaviour({ kind: 'locations', locations: [DRAFT[1]] });
    const retried = await call('POST', `/processes/${process.id}/retry`, cast.ownerToken);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'pending', metadata: { error_message: null } });
    expect(await waitForStatus(process.id, ['waiting_review', 'failed'])).toBe('waiting_review');
    const done = (await call('GET', `/processes/${process.id}`, cast.ownerToken)).json();
    expect(done.metadata.attempts).toBe(2);
    expect((await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).json().total_items).toBe(
      1,
    );
    const statuses = (await call('GET', `/processes/${process.id}/events`, cast.ownerToken))
      .json()
      .map((event: { status: string }) => event.status);
    expect(statuses).toEqual([
      'pending',
      'running',
      'running',
      'failed',
      'pending',
      'running',
      'running',
      'waiting_review',
    ]);
  });

  it('cancelling while the model is slow aborts the call within a second', async () => {
    fake.setBehaviour({
      kind: 'slow',
      delayMs: 30_000,
      answer: { kind: 'locations', locations: [DRAFT[0]] },
    });
    const before = fake.requests.length;
    const { process, batch } = await startImport();
    await waitForStatus(process.id, ['running']);
    const deadline = Date.now() + 10_000;
    while (fake.requests.length === before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests.length).toBe(before + 1);

    const cancelledAt = Date.now();
    const cancelled = await call('POST', `/processes/${process.id}/cancel`, cast.ownerToken);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    const closed = await fake.waitForClientClose(3_000);
    expect(closed).toBe(fake.requests[before]);
    expect(Date.now() - cancelledAt).toBeLessThan(1_500);

    // The worker let go without writing anything or overwriting the cancel.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await call('GET', `/processes/${process.id}`, cast.ownerToken)).json().status).toBe('cancelled');
    expect((await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).json().items).toEqual([]);
  });

  it('discarding a batch while it drafts cancels its process', async () => {
    fake.setBehaviour({ kind: 'slow', delayMs: 30_000, answer: { kind: 'locations', locations: [] } });
    const { process, batch } = await startImport();
    await waitForStatus(process.id, ['running']);
    const discarded = await call('DELETE', `/ai-location-imports/${batch.id}`, cast.ownerToken);
    expect(discarded.statusCode).toBe(204);
    expect(await waitForStatus(process.id, ['cancelled'])).toBe('cancelled');
    const [row] = await ctx.deps.db
      .select()
      .from(aiImportBatchesTable)
      .where(eq(aiImportBatchesTable.id, batch.id));
    expect(row).toMatchObject({ status: 'discarded', discardedAt: expect.any(Date) });
    expect((await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).statusCode).toBe(404);
    const listed = (await call('GET', '/ai-location-imports', cast.ownerToken)).json();
    expect(listed.map((entry: { id: number }) => entry.id)).not.toContain(batch.id);
  });
});

describe('validation (422) writes nothing', () => {
  it.each([
    ['no answers', { answers: undefined }, 'answers'],
    ['answers not an object', { answers: 'tell me' }, 'answers'],
    ['business type missing', { answers: answers({ business_type: undefined }) }, 'answers.business_type'],
    [
      'count not a range',
      { answers: answers({ approximate_location_count: 'about ten' }) },
      'answers.approximate_location_count',
    ],
    [
      'count over the cap',
      { answers: answers({ approximate_location_count: '600' }) },
      'answers.approximate_location_count',
    ],
    [
      'count reversed',
      { answers: answers({ approximate_location_count: '20-10' }) },
      'answers.approximate_location_count',
    ],
    [
      'source notes too long',
      { answers: answers({ source_notes: 'x'.repeat(4001) }) },
      'answers.source_notes',
    ],
    ['brand name too long', { answers: answers({ brand_name: 'b'.repeat(161) }) }, 'answers.brand_name'],
    ['workspace id not a number', { workspace_id: 'one' }, 'workspace_id'],
    ['finder id not a number', { finder_id: 'x' }, 'finder_id'],
  ])('POST: %s', async (_name, body, field) => {
    const before = await counts();
    const response = await call('POST', '/ai-location-imports', cast.ownerToken, {
      workspace_id: cast.workspaceId,
      answers: answers(),
      ...(body as Record<string, unknown>),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'validation_failed',
      message: 'The given data was invalid.',
    });
    expect(Object.keys(response.json().errors)).toContain(field);
    expect(await counts()).toEqual(before);
  });

  it('POST: a finder of another workspace is a 422 on finder_id', async () => {
    const elsewhere = await createWorkspace(ctx.deps, cast.owner, 'Elsewhere');
    const [map] = await ctx.deps.db.insert(mapsTable).values({ title: 'Other' }).returning();
    const [finder] = await ctx.deps.db
      .insert(findersTable)
      .values({ workspaceId: elsewhere, mapId: map!.id, name: 'Other', token: 'tok-elsewhere' })
      .returning();
    const before = await counts();
    const response = await call('POST', '/ai-location-imports', cast.ownerToken, {
      workspace_id: cast.workspaceId,
      finder_id: finder!.id,
      answers: answers(),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      finder_id: ['The selected finder does not belong to this workspace.'],
    });
    expect(await counts()).toEqual(before);
  });

  it('POST: a member who is not the owner gets 403; a stranger 404', async () => {
    const before = await counts();
    const member = await call('POST', '/ai-location-imports', cast.memberToken, {
      workspace_id: cast.workspaceId,
      answers: answers(),
    });
    expect(member.statusCode).toBe(403);
    const stranger = await call('POST', '/ai-location-imports', cast.strangerToken, {
      workspace_id: cast.workspaceId,
      answers: answers(),
    });
    expect(stranger.statusCode).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it('PATCH and import: bad inputs are 422 and leave the batch as it was', async () => {
    fake.setBehaviour({
      kind: 'locations',
      locations: [wireLocation({ address: '1 Nameless Road', city: 'Leeds' }), DRAFT[5]],
    });
    const { process, batch } = await startImport();
    await waitForStatus(process.id, ['waiting_review']);
    const items = (await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).json().items;
    const url = `/ai-location-imports/${batch.id}/items/${items[1].id}`;
    const snapshot = async () =>
      ctx.deps.db
        .select()
        .from(aiImportItemsTable)
        .where(eq(aiImportItemsTable.batchId, batch.id))
        .orderBy(aiImportItemsTable.id);
    const before = await snapshot();
    for (const [body, field] of [
      [{}, 'status'],
      [{ status: 'imported' }, 'status'],
      [{ payload: { website: 'not a url' } }, 'payload.website'],
      [{ payload: { lat: 91 } }, 'payload.lat'],
      [{ payload: { name: 'n'.repeat(256) } }, 'payload.name'],
      [{ payload: { tags: [''] } }, 'payload.tags.0'],
      [{ payload: { colour: 'red' } }, 'payload'],
      [{ payload: 'name' }, 'payload'],
    ] as const) {
      const response = await call('PATCH', url, cast.ownerToken, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.json().errors), JSON.stringify(body)).toContain(field);
    }
    const invalid = await call(
      'PATCH',
      `/ai-location-imports/${batch.id}/items/${items[0].id}`,
      cast.ownerToken,
      {
        status: 'approved',
      },
    );
    expect(invalid.statusCode).toBe(422);
    expect(await snapshot()).toEqual(before);

    // The only valid item rejected, the other invalid: nothing to import (422), nothing written.
    await call('PATCH', url, cast.ownerToken, { status: 'rejected' });
    const locationsBefore = await ctx.deps.db.select({ n: sql<number>`count(*)::int` }).from(locationsTable);
    const processesBefore = await ctx.deps.db.select({ n: sql<number>`count(*)::int` }).from(processesTable);
    const none = await call('POST', `/ai-location-imports/${batch.id}/import`, cast.ownerToken);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual({
      items: [
        'The batch has no valid item to import (pending review or approved, without validation errors).',
      ],
    });
    expect(await ctx.deps.db.select({ n: sql<number>`count(*)::int` }).from(locationsTable)).toEqual(
      locationsBefore,
    );
    expect(await ctx.deps.db.select({ n: sql<number>`count(*)::int` }).from(processesTable)).toEqual(
      processesBefore,
    );
    const [row] = await ctx.deps.db
      .select()
      .from(aiImportBatchesTable)
      .where(eq(aiImportBatchesTable.id, batch.id));
    expect(row!.status).toBe('draft');
  });
});

describe('ownership', () => {
  it('another user’s batch is 404 on every route, and a member’s view of the workspace does not include it', async () => {
    fake.setBehaviour({ kind: 'locations', locations: [DRAFT[1]] });
    const { process, batch } = await startImport();
    await waitForStatus(process.id, ['waiting_review']);
    const item = (await call('GET', `/ai-location-imports/${batch.id}`, cast.ownerToken)).json().items[0];
    const outsider = await createUser(ctx.deps);
    const outsiderToken = await tokenFor(ctx.deps, outsider);
    await addMember(ctx.deps, cast.workspaceId, outsider);

    for (const token of [cast.memberToken, cast.strangerToken, outsiderToken]) {
      for (const [method, url, body] of [
        ['GET', `/ai-location-imports/${batch.id}`, undefined],
        ['PATCH', `/ai-location-imports/${batch.id}/items/${item.id}`, { status: 'approved' }],
        ['POST', `/ai-location-imports/${batch.id}/import`, undefined],
        ['DELETE', `/ai-location-imports/${batch.id}`, undefined],
        ['GET', `/processes/${process.id}`, undefined],
        ['GET', `/processes/${process.id}/events`, undefined],
        ['GET', `/processes/${process.id}/stream`, undefined],
        ['POST', `/processes/${process.id}/cancel`, undefined],
        ['POST', `/processes/${process.id}/retry`, undefined],
      ] as const) {
        const response = await call(method, url, token, body);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
      const listed = await call('GET', `/ai-location-imports?workspace_id=${cast.workspaceId}`, token);
      if (token === cast.strangerToken) {
        // Not in the workspace: the list answers as for a missing workspace.
        expect(listed.statusCode).toBe(404);
        expect(listed.json()).toEqual({ message: 'Workspace not found.', code: 'not_found' });
      } else {
        expect(listed.statusCode).toBe(200);
        expect(listed.json().map((entry: { id: number }) => entry.id)).not.toContain(batch.id);
      }
    }
    const [row] = await ctx.deps.db
      .select()
      .from(aiImportBatchesTable)
      .where(eq(aiImportBatchesTable.id, batch.id));
    expect(row).toMatchObject({ status: 'draft', discardedAt: null, approvedItems: 0 });
  });

  it('lists at most 20 of the caller’s batches, last updated first, filtered by workspace', async () => {
    const ids: number[] = [];
    for (let index = 0; index < 21; index++) {
      const [row] = await ctx.deps.db
        .insert(aiImportBatchesTable)
        .values({
          workspaceId: cast.workspaceId,
          userId: cast.owner.id,
          modelName: 'm',
          promptVersion: 'v',
          sourceAnswers: answers() as never,
          updatedAt: new Date(Date.now() + 60_000 + index * 1000),
        })
        .returning();
      ids.push(row!.id);
    }
    const listed = await call(
      'GET',
      `/ai-location-imports?workspace_id=${cast.workspaceId}`,
      cast.ownerToken,
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toHaveLength(20);
    expect(listed.json().map((entry: { id: number }) => entry.id)).toEqual(ids.slice(1).reverse());
    expect(listed.json()[0]).not.toHaveProperty('items');
    const other = await createWorkspace(ctx.deps, cast.owner, 'Empty');
    expect((await call('GET', `/ai-location-imports?workspace_id=${other}`, cast.ownerToken)).json()).toEqual(
      [],
    );
  });

  it('answers 404 for workspace_id of a workspace the caller is not in, or of none; 422 when malformed', async () => {
    // A member (not the owner) sees the list of the workspace: their own batches, none here.
    const asMember = await call(
      'GET',
      `/ai-location-imports?workspace_id=${cast.workspaceId}`,
      cast.memberToken,
    );
    expect(asMember.statusCode).toBe(200);
    expect(asMember.json()).toEqual([]);
    for (const workspace of [cast.strangerWorkspaceId, 2_000_000]) {
      const res = await call('GET', `/ai-location-imports?workspace_id=${workspace}`, cast.ownerToken);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Workspace not found.', code: 'not_found' });
    }
    for (const value of ['abc', '0', '1.5']) {
      const res = await call('GET', `/ai-location-imports?workspace_id=${value}`, cast.ownerToken);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.workspace_id).toEqual(['The workspace id must be a positive integer.']);
    }
  });
});

describe('GET /admin/ai-logs', () => {
  it('lists batches with their usage for admins only', async () => {
    const response = await call('GET', '/admin/ai-logs?limit=5', cast.adminToken);
    expect(response.statusCode).toBe(200);
    expect(Number(response.headers['x-total-count'])).toBeGreaterThan(5);
    expect(response.json()).toHaveLength(5);
    for (const [param, label] of [
      ['user_id', 'user id'],
      ['workspace_id', 'workspace id'],
    ]) {
      const bad = await call('GET', `/admin/ai-logs?${param}=1e0`, cast.adminToken);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors[param!]).toEqual([`The ${label} must be a positive integer.`]);
    }
    const withUsage = (await call('GET', '/admin/ai-logs?limit=1000', cast.adminToken))
      .json()
      .find((entry: { usage_metadata: unknown }) => entry.usage_metadata !== null);
    expect(withUsage).toMatchObject({
      user_id: cast.owner.id,
      user_email: cast.owner.email,
      model_name: 'gpt-test-mini',
      usage_metadata: { total_token_count: expect.any(Number) },
      process_status: expect.any(String),
    });
    expect((await call('GET', '/admin/ai-logs', cast.ownerToken)).statusCode).toBe(403);
    expect((await call('GET', '/admin/ai-logs?limit=0', cast.adminToken)).statusCode).toBe(422);
  });
});

describe('the generate job', () => {
  it('is safe to run twice: a second delivery of the same job changes nothing', async () => {
    fake.setBehaviour({ kind: 'locations', locations: [DRAFT[1]] });
    const { process } = await startImport();
    await waitForStatus(process.id, ['waiting_review']);
    const [row] = await ctx.deps.db.select().from(processesTable).where(eq(processesTable.id, process.id));
    const events = await ctx.deps.db
      .select()
      .from(processEventsTable)
      .where(eq(processEventsTable.processId, process.id));
    const outcome = await worker.services.aiImportJobs.generate(
      { process_id: process.id },
      { id: row!.jobId!, retryCount: 0, retryLimit: 2 },
    );
    expect(outcome).toBe('skipped');
    const again = await ctx.deps.db
      .select()
      .from(processEventsTable)
      .where(and(eq(processEventsTable.processId, process.id)));
    expect(again).toEqual(events);
  });
});
