// The widget payload's declared schema (FinderPayload of the OpenAPI document,
// finders.payload.schemas.ts) against real payloads. The route sends the bytes as built and
// never passes them through the schema, so this test is what keeps the two together: the
// schema's objects are strict, and a key the bytes gain or lose fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finderWidgetPayloadSchema } from '../src/modules/finders/payload/finders.payload.schemas.ts';
import { created, createPayloadScene, type PayloadScene } from './factories/finder-payloads.ts';
import { createWidgetFinder } from './factories/widget-finders.ts';
import { createCast } from './factories/workspaces.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let scene: PayloadScene;

const call = createCaller(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx.deps);
  // Own, map and set locations with tags, sets and custom values (number and multiselect).
  scene = await createPayloadScene(ctx.deps, call, cast.ownerToken, cast.workspaceId);
  // A location with every field set, and refinements and settings of every kind of value.
  const full = await created(
    call('POST', '/locations', cast.ownerToken, {
      workspace_id: cast.workspaceId,
      title: 'Full',
      description: 'All fields',
      address: 'Main street 2',
      city: 'Hamburg',
      state: 'HH',
      country: 'DE',
      zip: '20095',
      lat: 0.00001,
      lng: -179.5,
      phone: '+49 40 1234',
      email: 'shop@example.test',
      website: 'https://shop.example.test',
      tags: ['Parking'],
      custom_fields: { seats: 3.5 },
    }),
  );
  await created(
    call('PUT', `/finders/${scene.finder.id}`, cast.ownerToken, {
      locations: [
        { location_id: scene.locations.own },
        { location_id: scene.locations.both },
        { location_id: full.id },
      ],
      settings: [
        { key: 'units', value: 'mi' },
        { key: 'zoom', value: 11 },
        { key: 'list', value: { show: true, fields: ['city'] } },
        { key: 'empty', value: null },
      ],
      advanced_refinements: [
        {
          name: 'Near the coast',
          match: 'any',
          conditions: [
            { field: 'tag', op: 'eq', value: 'parking' },
            { field: 'set', op: 'in', value: [scene.setId] },
            { field: 'custom_field.seats', op: 'exists' },
          ],
        },
      ],
    }),
  );
});
afterAll(async () => {
  await ctx?.close();
});

const payloadOf = async (token: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/ext/finders/details/${token}` });
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body) as unknown;
};

describe('the declared payload schema', () => {
  it('reads a real payload with tags, sets, custom fields, refinements and locations, key for key', async () => {
    const payload = await payloadOf(scene.finder.token);
    const parsed = finderWidgetPayloadSchema.safeParse(payload);
    expect(parsed.error?.issues ?? []).toEqual([]);
    // Nothing was dropped or changed on the way.
    expect(parsed.data).toEqual(payload);
    // The scene holds something of each part, so each part was checked.
    expect(parsed.data).toMatchObject({
      tags: expect.arrayContaining([expect.objectContaining({ slug: 'parking' })]),
      sets: expect.arrayContaining([{ id: scene.setId, name: 'Flagship' }]),
      custom_fields: expect.arrayContaining([expect.objectContaining({ type: 'multiselect' })]),
      advanced_refinements: [expect.objectContaining({ name: 'Near the coast' })],
    });
    expect(parsed.data?.locations.length).toBeGreaterThanOrEqual(5);
    expect(parsed.data?.locations.find((location) => location.title === 'Full')).toMatchObject({
      state: 'HH',
      lat: 0.00001,
      custom_fields: { seats: 3.5 },
    });
  });

  it('reads the payload of an empty finder', async () => {
    const finder = await createWidgetFinder(ctx.deps, cast.workspaceId, { name: 'Empty' });
    const payload = await payloadOf(finder.token);
    expect(finderWidgetPayloadSchema.safeParse(payload).error?.issues ?? []).toEqual([]);
  });

  it('refuses a key the bytes do not have, and misses none they have', async () => {
    const payload = (await payloadOf(scene.finder.token)) as {
      locations: Record<string, unknown>[];
      tags: Record<string, unknown>[];
    } & Record<string, unknown>;
    const [location] = payload.locations;
    const [tag] = payload.tags;
    const variants = [
      { ...payload, extra: true },
      { ...payload, locations: [{ ...location, extra: true }] },
      { ...payload, tags: [{ ...tag, extra: true }] },
      Object.fromEntries(Object.entries(payload).filter(([key]) => key !== 'token')),
      {
        ...payload,
        locations: [Object.fromEntries(Object.entries(location!).filter(([key]) => key !== 'zip'))],
      },
    ];
    for (const variant of variants) {
      expect(finderWidgetPayloadSchema.safeParse(variant).success, JSON.stringify(variant).slice(0, 80)).toBe(
        false,
      );
    }
  });
});
