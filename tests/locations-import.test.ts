import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldDefinitionsTable } from '../src/modules/custom-fields/custom-fields.table.ts';
import { locationTagsTable } from '../src/modules/locations/locations.relations.table.ts';
import { locationsTable } from '../src/modules/locations/locations.table.ts';
import { processEventsTable, processesTable } from '../src/modules/processes/processes.table.ts';
import { tagsTable } from '../src/modules/tags/tags.table.ts';
import type { UserRow } from '../src/modules/users/users.table.ts';
import { bearer, createUser, tokenFor } from './factories/users.ts';
import { createWorkspace, firstWorkspaceId } from './factories/workspaces.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';

let ctx: TestContext;
let owner: UserRow;
let token: string;
let strangerToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await createUser(ctx.deps);
  token = await tokenFor(ctx.deps, owner);
  strangerToken = await tokenFor(ctx.deps, await createUser(ctx.deps));
});
afterAll(async () => {
  await ctx?.close();
});

async function newWorkspace(): Promise<number> {
  const id = await createWorkspace(ctx.deps, owner, 'Import target');
  await ctx.deps.db.insert(customFieldDefinitionsTable).values([
    { workspaceId: id, name: 'seats', label: 'Seats', type: 'number' },
    { workspaceId: id, name: 'Kind', label: 'Kind', type: 'select', options: ['shop', 'depot'] },
  ]);
  return id;
}

const upload = (workspaceId: number | string | undefined, csv: string | Buffer, bearerToken = token) => {
  const body = multipart({
    fields: workspaceId === undefined ? {} : { workspace_id: String(workspaceId) },
    files: [{ field: 'file', filename: 'locations.csv', contentType: 'text/csv', content: Buffer.from(csv) }],
  });
  return ctx.app.inject({
    method: 'POST',
    url: '/api/locations/import',
    headers: { ...bearer(bearerToken), ...body.headers },
    payload: body.payload,
  });
};

const rowsOf = (workspaceId: number) =>
  ctx.deps.db
    .select()
    .from(locationsTable)
    .where(eq(locationsTable.workspaceId, workspaceId))
    .orderBy(locationsTable.id);

describe('POST /api/locations/import', () => {
  it('creates, then updates by external_id or title+address+zip, with tags and custom values', async () => {
    const ws = await newWorkspace();
    const csv = [
      'Title,ADDRESS,city,zip,lat,lng,external_id,tags,seats,kind,unknown column',
      'Alpha,1 First St,Springfield,111,40.1,-73.2,A-1,Drive Thru|Open Late,12,shop,ignored',
      '"Beta, the second","2 Second St",Shelbyville,222,,,,Open Late,,depot,',
      'Gamma,3 Third St,,333,,,,,,,',
    ].join('\n');
    const first = await upload(ws, csv);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ created: 3, updated: 0, skipped: 0, errors: [] });

    const rows = await rowsOf(ws);
    expect(rows.map((row) => row.title)).toEqual(['Alpha', 'Beta, the second', 'Gamma']);
    expect(rows[0]).toMatchObject({
      externalId: 'A-1',
      lat: 40.1,
      lng: -73.2,
      customValues: { seats: 12, Kind: 'shop' },
    });
    expect(rows[1]).toMatchObject({ lat: null, customValues: { Kind: 'depot' } });
    const tagLinks = await ctx.deps.db
      .select({ locationId: locationTagsTable.locationId, slug: tagsTable.slug })
      .from(locationTagsTable)
      .innerJoin(tagsTable, eq(tagsTable.id, locationTagsTable.tagId))
      .where(eq(tagsTable.workspaceId, ws));
    expect(
      tagLinks
        .filter((link) => link.locationId === rows[0]!.id)
        .map((link) => link.slug)
        .sort(),
    ).toEqual(['drive-thru', 'open-late']);
    expect(tagLinks.filter((link) => link.locationId === rows[1]!.id).map((link) => link.slug)).toEqual([
      'open-late',
    ]);

    // Second file: Alpha matched by external_id despite a new title; Beta by title+address+zip
    // compared without case and spaces; Delta is new.
    const second = await upload(
      ws,
      [
        'title,address,zip,external_id,tags,seats',
        'Alpha Renamed,1 First St,111,A-1,Open Late,13',
        'BETA,  the second,2 second st,222,,,',
        'Delta,4 Fourth St,444,,,',
      ]
        .join('\n')
        .replace('BETA,  the second', '"BETA,  THE SECOND"'),
    );
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ created: 1, updated: 2, skipped: 0 });
    const after = await rowsOf(ws);
    expect(after).toHaveLength(4);
    expect(after[0]).toMatchObject({ title: 'Alpha Renamed', customValues: { seats: 13, Kind: 'shop' } });
    expect(after[1]).toMatchObject({ title: 'BETA,  THE SECOND', city: 'Shelbyville' });
    const alphaTags = await ctx.deps.db
      .select({ slug: tagsTable.slug })
      .from(locationTagsTable)
      .innerJoin(tagsTable, eq(tagsTable.id, locationTagsTable.tagId))
      .where(eq(locationTagsTable.locationId, after[0]!.id));
    expect(alphaTags.map((tag) => tag.slug)).toEqual(['open-late']);
    const betaTags = await ctx.deps.db
      .select()
      .from(locationTagsTable)
      .where(eq(locationTagsTable.locationId, after[1]!.id));
    expect(betaTags).toHaveLength(0);
  });

  it('skips bad rows with their row, field and message, and writes the good ones', async () => {
    const ws = await newWorkspace();
    const csv = [
      'title,address,lat,lng,email,website,seats,kind',
      'Good,1 Good St,10,20,a@b.test,good.example,1,shop',
      ',2 No Title St,,,,,,',
      'No Address,,,,,,,',
      'Bad Lat,3 St,95,0,,,,',
      'Bad Number,4 St,,,,,many,',
      'Bad Option,5 St,,,,,,castle',
      'Bad Email,6 St,,,nope,,,',
      'Short row,7 St',
      'Also Good,8 Good St,,,,,,',
    ].join('\r\n');
    const res = await upload(ws, csv);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ created: 2, updated: 0, skipped: 7 });
    expect(body.errors).toEqual([
      { row: 3, field: 'title', message: 'The title field is required.' },
      { row: 4, field: 'address', message: 'The address field is required.' },
      { row: 5, field: 'lat', message: 'The lat must be a number between -90 and 90.' },
      { row: 6, field: 'custom_fields.seats', message: 'The Seats field must be a number.' },
      { row: 7, field: 'custom_fields.Kind', message: 'The Kind field must be one of: shop, depot.' },
      { row: 8, field: 'email', message: 'The email must be a valid email address.' },
      { row: 9, field: 'row', message: 'The row has 2 columns; the header has 8.' },
    ]);
    const rows = await rowsOf(ws);
    expect(rows.map((row) => row.title)).toEqual(['Good', 'Also Good']);
    expect(rows[0]!.website).toBe('https://good.example');
  });

  it('records a finished csv_import process with the counts', async () => {
    const ws = await newWorkspace();
    const res = await upload(ws, 'title,address\nOne,1 St\n,missing title\n');
    const { process_id: processId } = res.json();
    const [process] = await ctx.deps.db.select().from(processesTable).where(eq(processesTable.id, processId));
    expect(process).toMatchObject({
      workspaceId: ws,
      userId: owner.id,
      type: 'csv_import',
      status: 'completed',
      progressPercent: 100,
      summary: expect.objectContaining({
        created: 1,
        updated: 0,
        skipped: 1,
        rows: 2,
        file_name: 'locations.csv',
      }),
    });
    expect(process!.finishedAt).toBeInstanceOf(Date);
    const events = await ctx.deps.db
      .select()
      .from(processEventsTable)
      .where(eq(processEventsTable.processId, processId));
    expect(events).toHaveLength(1);
  });

  it('treats a repeated key in one file as an update of the earlier row', async () => {
    const ws = await newWorkspace();
    const res = await upload(ws, 'title,address,city\nSame,1 St,First\nsame, 1 st ,Second\n');
    expect(res.json()).toMatchObject({ created: 1, updated: 1 });
    const rows = await rowsOf(ws);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.city).toBe('Second');
  });

  it.each([
    [
      'its external_id first',
      'S-1,Berlin Mitte,Unter den Linden 1,First,outlets\n,Berlin Mitte,Unter den Linden 1,Second,airport\n',
    ],
    [
      'its title, address and zip first',
      ',Berlin Mitte,Unter den Linden 1,First,outlets\nS-1,Berlin Mitte,Unter den Linden 1,Second,airport\n',
    ],
  ])('writes the last of two rows of different keys that reach one location (%s)', async (_order, rows) => {
    const ws = await newWorkspace();
    const first = await upload(
      ws,
      'external_id,title,address,tags\nS-1,Berlin Mitte,Unter den Linden 1,old\n',
    );
    expect(first.json()).toMatchObject({ created: 1, updated: 0 });
    const res = await upload(ws, `external_id,title,address,city,tags\n${rows}`);
    expect(res.json()).toMatchObject({ created: 0, updated: 2, skipped: 0 });
    const [location, ...others] = await rowsOf(ws);
    expect(others).toEqual([]);
    expect(location).toMatchObject({ externalId: 'S-1', city: 'Second' });
    const tags = await ctx.deps.db
      .select({ slug: tagsTable.slug })
      .from(locationTagsTable)
      .innerJoin(tagsTable, eq(tagsTable.id, locationTagsTable.tagId))
      .where(eq(locationTagsTable.locationId, location!.id));
    expect(tags.map((tag) => tag.slug)).toEqual(['airport']);
  });

  it.each([
    [
      'no title/address columns',
      'name,street\nA,B\n',
      'The CSV file must have a title and an address column.',
    ],
    ['an empty file', '', 'The file is empty.'],
    ['a binary file', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]), 'The file is not a CSV file.'],
  ])('refuses %s with 422 and writes nothing', async (_name, csv, message) => {
    const ws = await newWorkspace();
    const res = await upload(ws, csv);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { file: [message] },
    });
    expect(await rowsOf(ws)).toHaveLength(0);
  });

  it('rolls back rows already written when the file turns out broken further down', async () => {
    const ws = await newWorkspace();
    const good = Array.from({ length: 4500 }, (_, i) => `Store ${i},${i} Main St`).join('\n');
    const res = await upload(ws, `title,address\n${good}\n"Unclosed quote,9 St\n`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file[0]).toMatch(/^The file is not valid CSV: /);
    expect(await rowsOf(ws)).toHaveLength(0);
    const processes = await ctx.deps.db
      .select()
      .from(processesTable)
      .where(eq(processesTable.workspaceId, ws));
    expect(processes).toHaveLength(0);
  });

  it('refuses more than 100,000 rows and writes nothing', async () => {
    const ws = await newWorkspace();
    const lines = Array.from({ length: 100_001 }, (_, i) => `S${i},${i} St`).join('\n');
    const res = await upload(ws, `title,address\n${lines}\n`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ file: ['The file may not have more than 100000 rows.'] });
    expect(await rowsOf(ws)).toHaveLength(0);
  }, 60_000);

  it('names missing fields, refuses non-multipart bodies and foreign workspaces', async () => {
    const ws = await firstWorkspaceId(ctx.deps, owner);
    const noWorkspace = await upload(undefined, 'title,address\nA,B\n');
    expect(noWorkspace.statusCode).toBe(422);
    expect(noWorkspace.json().errors).toEqual({ workspace_id: ['The workspace id field is required.'] });

    const noFile = multipart({ fields: { workspace_id: String(ws) } });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/locations/import',
      headers: { ...bearer(token), ...noFile.headers },
      payload: noFile.payload,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ file: ['The file field is required.'] });

    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/locations/import',
      headers: bearer(token),
      payload: { workspace_id: ws },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('unsupported_media_type');

    const foreign = await upload(ws, 'title,address\nA,B\n', strangerToken);
    expect(foreign.statusCode).toBe(404);
    expect(await rowsOf(ws)).toHaveLength(0);

    const anonymous = await ctx.app.inject({ method: 'POST', url: '/api/locations/import' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 413 for a file over 50 MB', async () => {
    const ws = await newWorkspace();
    const big = Buffer.alloc(50 * 1024 * 1024 + 10, 'a');
    const res = await upload(ws, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
    expect(await rowsOf(ws)).toHaveLength(0);
  }, 60_000);

  it('keeps custom values of columns the file does not have', async () => {
    const ws = await newWorkspace();
    await upload(ws, 'title,address,seats\nKeep,1 St,5\n');
    await upload(ws, 'title,address,kind\nKeep,1 St,depot\n');
    const [row] = await ctx.deps.db
      .select()
      .from(locationsTable)
      .where(and(eq(locationsTable.workspaceId, ws), eq(locationsTable.title, 'Keep')));
    expect(row!.customValues).toEqual({ seats: 5, Kind: 'depot' });
  });
});
