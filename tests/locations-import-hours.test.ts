// Opening hours through the CSV import (docs/api.md, CSV import): the time_zone, hours_mon ...
// hours_sun, special_hours, temporarily_closed and reopens_on columns as written and read back
// through the API, the zone derived from coordinates with its review note, each bad cell as a
// row error naming its column (that row writes nothing), the rules between fields judged
// against the location a row updates, and what a re-import changes and keeps.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_TEXT_MESSAGE, SPECIAL_TEXT_MESSAGE } from '../src/lib/hours/hours.text.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createWorkspace } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

let ctx: TestContext;
let owner: UserRow;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await createUser(ctx.deps);
  token = await tokenFor(ctx.deps, owner);
});
afterAll(async () => {
  await ctx?.close();
});

const newWorkspace = () => createWorkspace(ctx.deps, owner, 'Hours import');

/** Uploads the lines as a CSV file; the answer's body. */
async function importCsv(workspaceId: number, lines: string[]) {
  const body = multipart({
    fields: { workspace_id: String(workspaceId) },
    files: [
      {
        field: 'file',
        filename: 'hours.csv',
        contentType: 'text/csv',
        content: Buffer.from(`${lines.join('\n')}\n`),
      },
    ],
  });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/locations/import',
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const rowsOf = (workspaceId: number) =>
  ctx.deps.db
    .select()
    .from(locationsTable)
    .where(eq(locationsTable.workspaceId, workspaceId))
    .orderBy(locationsTable.id);

const byExternalId = async (workspaceId: number) =>
  new Map((await rowsOf(workspaceId)).map((row) => [row.externalId ?? row.title, row]));

const read = async (id: number) =>
  (await ctx.app.inject({ url: `/api/locations/${id}`, headers: bearer(token) })).json();

const WEEK_HEADER = 'hours_mon,hours_tue,hours_wed,hours_thu,hours_fri,hours_sat,hours_sun';

describe('CSV import of opening hours', () => {
  it('reads every form of a day, special hours, a closure, and answers them through the API as imported', async () => {
    const ws = await newWorkspace();
    const body = await importCsv(ws, [
      `external_id,title,address,Time_Zone,${WEEK_HEADER.toUpperCase()},special_hours,temporarily_closed,reopens_on`,
      'A,Split,1 St,europe/berlin,"09:00-12:00, 13:00-18:00",09:00 - 12:00 ,Closed,24h,19:00-02:00,"10:00-14:00,15:00-16:00",,' +
        '"2026-12-24 09:00-14:00 Christmas Eve; 2026-12-25..2026-12-26 closed",no,',
      'B,Closed for works,2 St,UTC,,,,,,,,,YES,2027-03-01',
      'C,All unknown,3 St,America/New_York,,,,,,,,2026-07-04 closed Independence Day,0,',
    ]);
    expect(body).toMatchObject({ created: 3, updated: 0, skipped: 0, errors: [] });
    const rows = await byExternalId(ws);
    const a = await read(rows.get('A')!.id);
    expect(a).toMatchObject({
      time_zone: 'Europe/Berlin',
      time_zone_derived: false,
      time_zone_review: null,
      hours: {
        mon: ['09:00-12:00', '13:00-18:00'],
        tue: ['09:00-12:00'],
        wed: [],
        thu: ['00:00-24:00'],
        fri: ['19:00-02:00'],
        sat: ['10:00-14:00', '15:00-16:00'],
      },
      special_hours: [
        { date: '2026-12-24', end_date: null, hours: ['09:00-14:00'], label: 'Christmas Eve' },
        { date: '2026-12-25', end_date: '2026-12-26', hours: [], label: null },
      ],
      temporarily_closed: false,
      reopens_on: null,
    });
    // An empty cell is a day not known: sun is absent, not closed.
    expect(Object.keys(a.hours)).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat']);
    expect(await read(rows.get('B')!.id)).toMatchObject({
      time_zone: 'UTC',
      hours: null,
      special_hours: null,
      temporarily_closed: true,
      reopens_on: '2027-03-01',
    });
    expect(await read(rows.get('C')!.id)).toMatchObject({
      hours: null,
      special_hours: [{ date: '2026-07-04', end_date: null, hours: [], label: 'Independence Day' }],
      temporarily_closed: false,
    });
  });

  it('derives the time zone from the row’s coordinates, with the review note the API gives', async () => {
    const ws = await newWorkspace();
    const body = await importCsv(ws, [
      'external_id,title,address,country,lat,lng,time_zone,hours_mon',
      'chicago,Panama City Beach,1 St,US,29.948,-85.42,,09:00-18:00',
      'tornio,Tornio,2 St,Sweden,65.8481,24.1466,,',
      'sea,Buoy,3 St,,0,-30,,24h',
      'given,Given,4 St,US,29.948,-85.42,America/New_York,',
    ]);
    expect(body).toMatchObject({ created: 4, skipped: 0, errors: [] });
    const rows = await byExternalId(ws);
    expect(rows.get('chicago')).toMatchObject({
      timeZone: 'America/Chicago',
      timeZoneDerived: true,
      timeZoneReview: null,
      hours: { mon: ['09:00-18:00'] },
    });
    expect(rows.get('tornio')).toMatchObject({ timeZone: 'Europe/Helsinki', timeZoneDerived: true });
    expect(rows.get('tornio')!.timeZoneReview).toMatch(/not one of SE/);
    expect(rows.get('sea')).toMatchObject({ timeZoneDerived: true, hours: { mon: ['00:00-24:00'] } });
    expect(rows.get('sea')!.timeZoneReview).toMatch(/at sea/);
    expect(rows.get('given')).toMatchObject({
      timeZone: 'America/New_York',
      timeZoneDerived: false,
      timeZoneReview: null,
    });
    const tornio = await read(rows.get('tornio')!.id);
    expect(tornio.time_zone_review).toMatch(/not one of SE/);

    // A file with coordinates and no opening column at all derives zones too, as the API does.
    await importCsv(ws, ['title,address,lat,lng', 'Plain,5 St,40.7128,-74.006']);
    expect((await byExternalId(ws)).get('Plain')).toMatchObject({
      timeZone: 'America/New_York',
      timeZoneDerived: true,
    });
  });

  it('reports each bad cell as a row error naming its column, and writes nothing of that row', async () => {
    const ws = await newWorkspace();
    const header = `title,address,time_zone,${WEEK_HEADER},special_hours,temporarily_closed,reopens_on`;
    const row = (title: string, cells: Record<string, string>) => {
      const columns = header.split(',');
      return columns
        .map((column) => {
          if (column === 'title') return title;
          if (column === 'address') return `${title} St`;
          if (column === 'time_zone') return cells.time_zone ?? 'UTC';
          const value = cells[column] ?? '';
          return /[,"]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
        })
        .join(',');
    };
    const body = await importCsv(ws, [
      header,
      row('Good', { hours_mon: '09:00-18:00' }),
      row('Zone', { time_zone: 'Mars/Olympus' }),
      row('Loose interval', { hours_tue: '9-18' }),
      row('Word', { hours_wed: 'open' }),
      row('Order', { hours_thu: '13:00-18:00, 09:00-12:00' }),
      row('Overnight', { hours_sun: '20:00-03:00', hours_mon: '02:00-05:00' }),
      row('Bad date', { special_hours: '2026-12-24 closed; 2026-02-30 closed' }),
      row('Entry shape', { special_hours: 'Dec 24 closed' }),
      row('Overlap', { special_hours: '2026-12-24..2026-12-26 closed; 2026-12-26 10:00-12:00' }),
      row('Closure', { temporarily_closed: 'maybe' }),
      row('Reopening', { temporarily_closed: 'yes', reopens_on: '1 March' }),
      row('Reopening open', { reopens_on: '2027-01-01' }),
      row('No zone', { time_zone: '', hours_fri: '09:00-18:00' }),
      row('Also good', { special_hours: '2026-12-31 10:00-14:00' }),
    ]);
    expect(body).toMatchObject({ created: 2, updated: 0, skipped: 12 });
    expect(body.errors).toEqual([
      {
        row: 3,
        field: 'time_zone',
        message: 'The time zone must be an IANA time zone name such as Europe/Berlin.',
      },
      {
        row: 4,
        field: 'hours_tue',
        message: expect.stringMatching(/^"9-18": Each interval must be HH:MM-HH:MM/),
      },
      { row: 5, field: 'hours_wed', message: DAY_TEXT_MESSAGE },
      {
        row: 6,
        field: 'hours_thu',
        message: '"09:00-12:00": Intervals must be in order and may not overlap.',
      },
      {
        row: 7,
        field: 'hours_mon',
        message: '"02:00-05:00": This interval overlaps sun\'s interval past midnight.',
      },
      {
        row: 8,
        field: 'special_hours',
        message: '"2026-02-30 closed": The date must be a date written YYYY-MM-DD.',
      },
      { row: 9, field: 'special_hours', message: `"Dec 24 closed": ${SPECIAL_TEXT_MESSAGE}` },
      {
        row: 10,
        field: 'special_hours',
        message:
          '"2026-12-26 10:00-12:00": These dates overlap special hours entry 0; a date may have one entry.',
      },
      {
        row: 11,
        field: 'temporarily_closed',
        message: 'The temporarily closed field must be true or false.',
      },
      { row: 12, field: 'reopens_on', message: 'The reopens on date must be a date written YYYY-MM-DD.' },
      { row: 13, field: 'reopens_on', message: 'The reopens on date needs temporarily_closed to be true.' },
      {
        row: 14,
        field: 'time_zone',
        message:
          'The time zone field is required when hours, special hours or a reopening date are given (or give lat and lng to derive it).',
      },
    ]);
    expect((await rowsOf(ws)).map((location) => location.title)).toEqual(['Good', 'Also good']);
  });

  it('changes, keeps and clears the hours of existing locations as their files say', async () => {
    const ws = await newWorkspace();
    await importCsv(ws, [
      'external_id,title,address,lat,lng,time_zone,hours_mon,hours_tue,special_hours,temporarily_closed,reopens_on',
      'given,Given,1 St,52.52,13.405,Europe/Berlin,09:00-18:00,09:00-18:00,2026-12-24 closed,yes,2027-02-01',
      'derived,Derived,2 St,29.948,-85.42,,10:00-16:00,,,,',
    ]);
    const first = await byExternalId(ws);

    // No opening column and no coordinates: everything kept, the row not even rewritten.
    const untouched = await importCsv(ws, [
      'external_id,title,address',
      'given,Given,1 St',
      'derived,Derived,2 St',
    ]);
    expect(untouched).toMatchObject({ created: 0, updated: 2, skipped: 0 });
    const kept = await byExternalId(ws);
    for (const key of ['given', 'derived']) {
      expect(kept.get(key)).toEqual(first.get(key));
    }

    // hours_mon alone: the week is what the file says (tue becomes unknown); special hours, the
    // closure and the zone are kept. The zone comes from the location, not the file.
    await importCsv(ws, ['external_id,title,address,hours_mon', 'given,Given,1 St,10:00-19:00']);
    expect((await byExternalId(ws)).get('given')).toMatchObject({
      hours: { mon: ['10:00-19:00'] },
      specialHours: [{ date: '2026-12-24', end_date: null, hours: [], label: null }],
      temporarilyClosed: true,
      reopensOn: '2027-02-01',
      timeZone: 'Europe/Berlin',
      timeZoneDerived: false,
    });

    // Moving: a given zone stays, a derived one follows the coordinates.
    await importCsv(ws, [
      'external_id,title,address,lat,lng',
      'given,Given,1 St,40.7128,-74.006',
      'derived,Derived,2 St,40.7128,-74.006',
    ]);
    const moved = await byExternalId(ws);
    expect(moved.get('given')).toMatchObject({ timeZone: 'Europe/Berlin', timeZoneDerived: false });
    expect(moved.get('derived')).toMatchObject({ timeZone: 'America/New_York', timeZoneDerived: true });

    // An empty time_zone cell derives the zone, here from the location's own coordinates (the
    // file has none); ending the closure ends its reopening date; empty cells clear the hours.
    await importCsv(ws, [
      `external_id,title,address,time_zone,temporarily_closed,special_hours,${WEEK_HEADER}`,
      'given,Given,1 St,,no,,,,,,,,',
    ]);
    expect((await byExternalId(ws)).get('given')).toMatchObject({
      timeZone: 'America/New_York',
      timeZoneDerived: true,
      temporarilyClosed: false,
      reopensOn: null,
      hours: null,
      specialHours: null,
    });
  });

  it('judges the rules between fields against the location a row updates', async () => {
    const ws = await newWorkspace();
    await importCsv(ws, ['external_id,title,address,time_zone', 'zoned,Zoned,1 St,Europe/Paris']);
    // Hours without a zone in the file: fine for a location that has one, refused for a new one.
    const body = await importCsv(ws, [
      'external_id,title,address,hours_sat',
      'zoned,Zoned,1 St,10:00-14:00',
      'new,New,2 St,10:00-14:00',
      // The same values as the row before (judged together): refused, and reported, each.
      'newer,Newer,3 St,10:00-14:00',
    ]);
    expect(body).toMatchObject({ created: 0, updated: 1, skipped: 2 });
    const required = {
      field: 'time_zone',
      message: expect.stringMatching(/^The time zone field is required/),
    };
    expect(body.errors).toEqual([
      { row: 3, ...required },
      { row: 4, ...required },
    ]);
    const rows = await byExternalId(ws);
    expect(rows.get('zoned')).toMatchObject({ timeZone: 'Europe/Paris', hours: { sat: ['10:00-14:00'] } });
    expect(rows.has('new')).toBe(false);
    expect(rows.has('newer')).toBe(false);
  });

  it('lets an earlier row of a repeated key win when the last one is refused', async () => {
    const ws = await newWorkspace();
    const body = await importCsv(ws, [
      'external_id,title,address,time_zone,hours_mon,reopens_on',
      'twice,First,1 St,UTC,09:00-12:00,',
      'twice,Second,1 St,UTC,10:00-12:00,2027-01-01',
    ]);
    expect(body).toMatchObject({ created: 1, updated: 0, skipped: 1 });
    expect(body.errors).toEqual([
      { row: 3, field: 'reopens_on', message: 'The reopens on date needs temporarily_closed to be true.' },
    ]);
    const [row] = await rowsOf(ws);
    expect(row).toMatchObject({ title: 'First', hours: { mon: ['09:00-12:00'] } });
  });

  it('settles the rows of a key repeated 2,000 times in one pass, latest first, until one is accepted', async () => {
    const ws = await newWorkspace();
    const refusedRow = (key: string, title: string) => `${key},${title},1 St,UTC,10:00-12:00,2027-01-01`;
    const lines = [
      'external_id,title,address,time_zone,hours_mon,reopens_on',
      'same,First,1 St,UTC,09:00-12:00,',
    ];
    for (let n = 0; n < 1_999; n++) lines.push(refusedRow('same', `Refused ${n}`));
    // Another key: its last row is refused, the one before is accepted and wins; the earlier
    // rows are not judged (they count as updates of the winner, as any repeat does).
    lines.push(
      refusedRow('other', 'Other refused early'),
      'other,Other winner,2 St,UTC,08:00-12:00,',
      refusedRow('other', 'Other refused last'),
    );
    const started = performance.now();
    const body = await importCsv(ws, lines);
    // One settle pass per refused row took minutes here; the whole file takes a second or two.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(body).toMatchObject({ created: 2, updated: 1, skipped: 2_000 });
    const message = 'The reopens on date needs temporarily_closed to be true.';
    expect(body.errors).toHaveLength(1_000);
    expect(body.errors[0]).toEqual({ row: 3, field: 'reopens_on', message });
    expect(body.errors.at(-1)).toEqual({ row: 1_002, field: 'reopens_on', message });
    expect(body.errors.every((error: { field: string }) => error.field === 'reopens_on')).toBe(true);
    const rows = await byExternalId(ws);
    expect(rows.get('same')).toMatchObject({ title: 'First', hours: { mon: ['09:00-12:00'] } });
    expect(rows.get('other')).toMatchObject({ title: 'Other winner', hours: { mon: ['08:00-12:00'] } });

    // A key whose every row is refused writes nothing, and leaves its location as it was.
    const again = await importCsv(ws, [
      lines[0]!,
      refusedRow('other', 'Refused'),
      refusedRow('other', 'Refused too'),
    ]);
    expect(again).toMatchObject({ created: 0, updated: 0, skipped: 2 });
    expect((await byExternalId(ws)).get('other')).toMatchObject({ title: 'Other winner' });
  }, 60_000);

  it('leaves locations alone when the same file is imported again', async () => {
    const ws = await newWorkspace();
    const csv = [
      `external_id,title,address,lat,lng,${WEEK_HEADER},special_hours`,
      'same,Same,1 St,48.8566,2.3522,09:00-18:00,09:00-18:00,,,,closed,24h,2026-12-25 closed Noël',
    ];
    await importCsv(ws, csv);
    const [before] = await rowsOf(ws);
    await importCsv(ws, csv);
    const [after] = await rowsOf(ws);
    expect(after!.updatedAt).toEqual(before!.updatedAt);
    expect(after).toMatchObject({ timeZone: 'Europe/Paris', hours: before!.hours });
  });
});
