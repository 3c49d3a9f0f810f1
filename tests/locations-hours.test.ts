// Opening hours through the locations API: the fields as written and read back, the time zone
// derived from coordinates (and marked for review), and every bad input with its dotted path,
// nothing written.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSpecialHours } from '../src/lib/hours/hours.rules.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import {
  deriveTimeZone,
  MAP_PARTS_KEPT,
  mapParts,
} from '../src/modules/locations/opening/locations.time-zone.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { firstWorkspaceId } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { waitForLockWaiters } from './helpers/lock-waiters.ts';

let ctx: TestContext;
let token: string;
let workspaceId: number;
let strangerToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = await createUser(ctx.deps);
  token = await tokenFor(ctx.deps, owner);
  workspaceId = await firstWorkspaceId(ctx.deps, owner);
  strangerToken = await tokenFor(ctx.deps, await createUser(ctx.deps));
});
afterAll(async () => {
  await ctx?.close();
});

const create = (payload: Record<string, unknown>, as = token) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/locations',
    headers: bearer(as),
    payload: { workspace_id: workspaceId, title: 'Store', ...payload },
  });
const update = (id: number, payload: Record<string, unknown>, as = token) =>
  ctx.app.inject({ method: 'PUT', url: `/api/locations/${id}`, headers: bearer(as), payload });
const count = async () =>
  (await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.workspaceId, workspaceId))).length;

describe('opening hours of a location', () => {
  it('keeps the week, special hours and a closure, days in week order, and lists them as read', async () => {
    const res = await create({
      time_zone: 'europe/paris',
      hours: { sat: ['10:00-14:00'], fri: ['09:00-12:00', '19:00-02:00'], mon: ['00:00-24:00'], sun: [] },
      special_hours: [
        { date: '2026-12-25', end_date: '2026-12-26', hours: [], label: 'Christmas' },
        { date: '2026-12-24', hours: ['09:00-14:00'], label: ' Christmas Eve ' },
      ],
      temporarily_closed: true,
      reopens_on: '2027-03-01',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      time_zone: 'Europe/Paris',
      time_zone_derived: false,
      time_zone_review: null,
      temporarily_closed: true,
      reopens_on: '2027-03-01',
      special_hours: [
        { date: '2026-12-24', end_date: null, hours: ['09:00-14:00'], label: 'Christmas Eve' },
        { date: '2026-12-25', end_date: '2026-12-26', hours: [], label: 'Christmas' },
      ],
    });
    expect(Object.keys(body.hours)).toEqual(['mon', 'fri', 'sat', 'sun']);
    const listed = await ctx.app.inject({
      url: `/api/locations?workspace_id=${workspaceId}&ids=${body.id}`,
      headers: bearer(token),
    });
    expect(listed.json()[0]).toEqual(body);
    const read = await ctx.app.inject({ url: `/api/locations/${body.id}`, headers: bearer(token) });
    expect(read.json()).toEqual(body);
  });

  it('derives the time zone from the coordinates, keeps a given one, and follows a move', async () => {
    // Mexico Beach, Florida: west of the Apalachicola River, on Central time.
    const derived = (await create({ lat: 29.948, lng: -85.42, country: 'US' })).json();
    expect(derived).toMatchObject({
      time_zone: 'America/Chicago',
      time_zone_derived: true,
      time_zone_review: null,
    });
    const moved = (await update(derived.id, { lat: 40.7128, lng: -74.006 })).json();
    expect(moved).toMatchObject({ time_zone: 'America/New_York', time_zone_derived: true });
    const given = (await update(derived.id, { time_zone: 'America/Chicago' })).json();
    expect(given).toMatchObject({ time_zone: 'America/Chicago', time_zone_derived: false });
    const stays = (await update(derived.id, { lat: 29.948, lng: -85.42 })).json();
    expect(stays).toMatchObject({ time_zone: 'America/Chicago', time_zone_derived: false });
    const cleared = (await update(derived.id, { time_zone: null })).json();
    expect(cleared).toMatchObject({ time_zone: 'America/Chicago', time_zone_derived: true });
  });

  it('derives zones near borders: Page in Arizona, Haparanda and Tornio across the Swedish-Finnish border', async () => {
    const page = (await create({ lat: 36.9147, lng: -111.4558, country: 'US' })).json();
    expect(page).toMatchObject({ time_zone: 'America/Phoenix', time_zone_review: null });
    const haparanda = (await create({ lat: 65.8355, lng: 24.1368, country: 'Sweden' })).json();
    expect(haparanda).toMatchObject({ time_zone: 'Europe/Stockholm', time_zone_review: null });
    const tornio = (await create({ lat: 65.8481, lng: 24.1466, country: 'FI' })).json();
    expect(tornio).toMatchObject({ time_zone: 'Europe/Helsinki', time_zone_review: null });
  });

  it('marks a derived zone for review where time zones meet on land: Ürümqi keeps Xinjiang and Beijing time', async () => {
    const urumqi = (await create({ lat: 43.825, lng: 87.617, country: 'CN' })).json();
    expect(urumqi).toMatchObject({
      time_zone: 'Asia/Urumqi',
      time_zone_derived: true,
      time_zone_review:
        'The coordinates lie where time zones meet (Asia/Urumqi, Asia/Shanghai); check that Asia/Urumqi is right.',
    });
    // Chosen by hand, the question is answered.
    const chosen = (await update(urumqi.id, { time_zone: 'Asia/Shanghai' })).json();
    expect(chosen).toMatchObject({
      time_zone: 'Asia/Shanghai',
      time_zone_derived: false,
      time_zone_review: null,
    });
  });

  it('marks a derived zone for review when it disagrees with the country or lies at sea', async () => {
    const wrongCountry = (await create({ lat: 65.8481, lng: 24.1466, country: 'Sweden' })).json();
    expect(wrongCountry.time_zone).toBe('Europe/Helsinki');
    expect(wrongCountry.time_zone_review).toMatch(/not one of SE/);
    const sea = (await create({ lat: 0, lng: -30 })).json();
    expect(sea.time_zone_derived).toBe(true);
    expect(sea.time_zone_review).toMatch(/at sea/);
    const fixed = (await update(wrongCountry.id, { time_zone: 'Europe/Helsinki' })).json();
    expect(fixed).toMatchObject({ time_zone_derived: false, time_zone_review: null });
    // A country written as its alpha-3 code is checked too.
    const alpha3 = (await create({ lat: 52.52, lng: 13.405, country: 'FRA' })).json();
    expect(alpha3).toMatchObject({
      time_zone: 'Europe/Berlin',
      time_zone_review: expect.stringMatching(/not one of FR/),
    });
    const agreeing = (await create({ lat: 52.52, lng: 13.405, country: 'DEU' })).json();
    expect(agreeing).toMatchObject({ time_zone: 'Europe/Berlin', time_zone_review: null });
    // A territory named by its country: Réunion with FR, San Juan with US, Nuuk with DK.
    for (const [point, country, zone] of [
      [{ lat: -20.8821, lng: 55.4507 }, 'FR', 'Indian/Reunion'],
      [{ lat: 18.4655, lng: -66.1057 }, 'United States', 'America/Puerto_Rico'],
      [{ lat: 64.1814, lng: -51.6941 }, 'DK', 'America/Nuuk'],
    ] as const) {
      const territory = (await create({ ...point, country })).json();
      expect(territory, country).toMatchObject({ time_zone: zone, time_zone_review: null });
    }
    // The North Pole and the antimeridian at sea: at sea, not "where time zones meet".
    for (const point of [
      { lat: 90, lng: 0 },
      { lat: 0, lng: 180 },
    ]) {
      const pole = (await create(point)).json();
      expect(pole.time_zone_review, JSON.stringify(point)).toMatch(
        /^The coordinates lie at sea \(Etc\/GMT[-+]12 and \d+ more\)/,
      );
    }
  });

  it('ends the reopening date with the closure', async () => {
    const closed = (
      await create({ time_zone: 'UTC', temporarily_closed: true, reopens_on: '2027-01-02' })
    ).json();
    const open = (await update(closed.id, { temporarily_closed: false })).json();
    expect(open).toMatchObject({ temporarily_closed: false, reopens_on: null });
  });

  it.each([
    [{ time_zone: 'Mars/Olympus' }, 'time_zone', /IANA time zone/],
    [{ time_zone: 5 }, 'time_zone', /IANA time zone/],
    [{ time_zone: 'UTC', hours: { mon: ['9-18'] } }, 'hours.mon.0', /HH:MM-HH:MM/],
    [{ time_zone: 'UTC', hours: { mon: ['09:00-09:00'] } }, 'hours.mon.0', /HH:MM-HH:MM/],
    [{ time_zone: 'UTC', hours: { mon: ['24:00-02:00'] } }, 'hours.mon.0', /HH:MM-HH:MM/],
    [{ time_zone: 'UTC', hours: { mon: ['13:00-18:00', '09:00-12:00'] } }, 'hours.mon.1', /in order/],
    [{ time_zone: 'UTC', hours: { mon: ['09:00-13:00', '12:00-18:00'] } }, 'hours.mon.1', /overlap/],
    [{ time_zone: 'UTC', hours: { fri: ['19:00-02:00', '03:00-04:00'] } }, 'hours.fri.1', /last of its day/],
    [
      { time_zone: 'UTC', hours: { sun: ['20:00-03:00'], mon: ['02:00-05:00'] } },
      'hours.mon.0',
      /past midnight/,
    ],
    [{ time_zone: 'UTC', hours: { monday: ['09:00-18:00'] } }, 'hours', /days mon/],
    [{ time_zone: 'UTC', hours: { mon: '09:00-18:00' } }, 'hours.mon', /list of intervals/],
    [
      { time_zone: 'UTC', special_hours: [{ date: '2026-02-30', hours: [] }] },
      'special_hours.0.date',
      /YYYY-MM-DD/,
    ],
    [
      { time_zone: 'UTC', special_hours: [{ date: '2026-12-27', end_date: '2026-12-20', hours: [] }] },
      'special_hours.0.end_date',
      /before the date/,
    ],
    [
      {
        time_zone: 'UTC',
        special_hours: [
          { date: '2026-12-24', end_date: '2026-12-26', hours: [] },
          { date: '2026-12-26', hours: ['10:00-12:00'] },
        ],
      },
      'special_hours.1.date',
      /overlap special hours entry 0/,
    ],
    [
      { time_zone: 'UTC', special_hours: [{ date: '2026-12-24', hours: ['x'] }] },
      'special_hours.0.hours.0',
      /HH:MM/,
    ],
    [
      { time_zone: 'UTC', special_hours: [{ date: '2026-12-24' }] },
      'special_hours.0.hours',
      /list of intervals/,
    ],
    [
      { time_zone: 'UTC', special_hours: [{ date: '2026-12-24', hours: [], extra: 1 }] },
      'special_hours.0',
      /object/,
    ],
    [
      { time_zone: 'UTC', special_hours: [{ date: '2026-12-24', hours: [], label: 'Eve\u0001' }] },
      'special_hours.0.label',
      /control characters/,
    ],
    [
      { time_zone: 'UTC', special_hours: [{ date: '0000-01-01', hours: [] }] },
      'special_hours.0.date',
      /YYYY-MM-DD/,
    ],
    [{ hours: { mon: ['09:00-18:00'] } }, 'time_zone', /required when hours/],
    [{ time_zone: 'UTC', reopens_on: '2027-01-01' }, 'reopens_on', /temporarily_closed/],
    [{ time_zone: 'UTC', temporarily_closed: true, reopens_on: '1 March' }, 'reopens_on', /YYYY-MM-DD/],
    [{ temporarily_closed: 'yes' }, 'temporarily_closed', /true or false/],
  ])('refuses %j at %s, writing nothing', async (payload, field, message) => {
    const before = await count();
    const res = await create(payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors[field]?.[0], JSON.stringify(res.json().errors)).toMatch(message);
    expect(await count()).toBe(before);
  });

  it('refuses a control character in a label by the rule every way in shares (API, CSV, AI, calendars)', () => {
    expect(checkSpecialHours([{ date: '2026-12-24', hours: [], label: 'Christmas\tEve' }])).toEqual([
      { path: [0, 'label'], message: 'The label may not contain control characters.' },
    ]);
  });

  it('refuses bad hours on update without changing the location, and another user’s location is 404', async () => {
    const location = (await create({ time_zone: 'UTC', hours: { mon: ['09:00-18:00'] } })).json();
    const bad = await update(location.id, { hours: { tue: ['18:00-09:00', '10:00-11:00'] } });
    expect(bad.statusCode).toBe(422);
    const read = await ctx.app.inject({ url: `/api/locations/${location.id}`, headers: bearer(token) });
    expect(read.json().hours).toEqual({ mon: ['09:00-18:00'] });
    const foreign = await update(location.id, { hours: {} }, strangerToken);
    expect(foreign.statusCode).toBe(404);
  });

  it('answers every zone name in its IANA spelling, links too, whatever the case it was sent in', async () => {
    const sent = [
      'us/eastern',
      'asia/calcutta',
      'ASIA/KOLKATA',
      'europe/kiev',
      'europe/kyiv',
      'etc/utc',
      'gb',
    ];
    const answered = [];
    for (const time_zone of sent) {
      const res = await create({ time_zone });
      expect(res.statusCode, res.body).toBe(201);
      answered.push(res.json().time_zone);
    }
    expect(answered).toEqual([
      'US/Eastern',
      'Asia/Calcutta',
      'Asia/Kolkata',
      'Europe/Kiev',
      'Europe/Kyiv',
      'Etc/UTC',
      'GB',
    ]);
  });

  it('judges concurrent updates one after the other: hours and a cleared time zone cannot both land', async () => {
    // A location with a given zone and no coordinates: clearing the zone leaves none to derive.
    const location = (await create({ time_zone: 'Europe/Berlin' })).json();
    // The test holds the row's lock while both updates start, so that both have begun (and, were
    // they to read the row outside their transactions, read it) before either can write.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = ctx.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from locations where id = ${location.id} for update`);
      locked();
      await released;
    });
    await isLocked;
    const answers = Promise.all([
      update(location.id, { hours: { mon: ['09:00-18:00'] } }),
      update(location.id, { time_zone: null }),
    ]);
    await waitForLockWaiters(ctx.deps.db, 2);
    release();
    await holder;
    const statuses = (await answers).map((res) => res.statusCode).sort();
    expect(statuses).toEqual([200, 422]);
    const refused = (await answers).find((res) => res.statusCode === 422)!;
    expect(refused.json().errors.time_zone?.[0]).toMatch(/required when hours/);
    const [row] = await ctx.deps.db.select().from(locationsTable).where(eq(locationsTable.id, location.id));
    // Whichever came first, the other was judged against it.
    expect([
      { timeZone: 'Europe/Berlin', hours: { mon: ['09:00-18:00'] } },
      { timeZone: null, hours: null },
    ]).toContainEqual({ timeZone: row!.timeZone, hours: row!.hours });
  });
});

describe('the boundary map behind derived zones', () => {
  it('is kept in a bounded least-recently-used store', async () => {
    // Emptied first (a part another file read may be kept): a lookup fills it again.
    mapParts.clear();
    expect(deriveTimeZone(-33.8688, 151.2093, 'AU')).toEqual({ timeZone: 'Australia/Sydney', review: null });
    expect(mapParts.size).toBeGreaterThan(0);
    expect(mapParts.max).toBe(MAP_PARTS_KEPT);
  });
});
