// The rules of a drafted location (docs/api.md,
// "Items: normalisation, validation, warnings, confidence"): coercion into normalized_payload,
// validation errors (what blocks an import), warnings (gaps worth a look), confidence exactly as
// defined there, the PATCH payload's limits and the merge of a reviewer's edits.
import { describe, expect, it } from 'vitest';
import {
  assessPayload,
  assessPayloads,
  countCoreFields,
  duplicateKey,
  EMPTY_LOCATION_PAYLOAD,
  mergePayload,
  normalizeItem,
  normalizeItems,
  payloadPatchSchema,
  storedPayload,
  toPayload,
  validatePayload,
  WARNINGS,
} from '../src/modules/ai-imports/ai-imports.normalize.ts';
import type { AiImportLocationPayload } from '../src/modules/ai-imports/ai-imports.table.ts';

const complete: AiImportLocationPayload = {
  name: 'Daily Grind Downtown',
  address: '123 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62704',
  country: 'United States',
  phone: '(217) 555-0142',
  website: 'https://dailygrind.com/downtown',
  lat: 39.7817,
  lng: -89.6501,
  tags: ['wifi'],
  custom_fields: { email: 'downtown@dailygrind.com' },
  time_zone: null,
  hours: null,
  special_hours: null,
};

const empty = EMPTY_LOCATION_PAYLOAD;

const fieldsOf = (errors: { field: string }[]) => errors.map((error) => error.field);

describe('toPayload', () => {
  it('trims text, turns blanks into null and keeps only the payload keys', () => {
    expect(
      toPayload({
        name: '  Daily Grind  ',
        address: ' 123   Main St ',
        city: '',
        state: '   ',
        zip: 62704,
        phone: null,
        extra: 'ignored',
      }),
    ).toEqual({ ...empty, name: 'Daily Grind', address: '123 Main St', zip: '62704' });
  });

  it('gives a website without scheme https:// (the location rule) and keeps a bad one for validation', () => {
    expect(toPayload({ website: 'dailygrind.com/downtown' }).website).toBe('https://dailygrind.com/downtown');
    expect(toPayload({ website: 'http://dailygrind.com' }).website).toBe('http://dailygrind.com');
    expect(toPayload({ website: 'not a website' }).website).toBe('not a website');
  });

  it('accepts numeric strings as coordinates and drops values of the wrong kind', () => {
    expect(toPayload({ lat: '52.52', lng: ' 13.405 ' })).toMatchObject({ lat: 52.52, lng: 13.405 });
    expect(
      toPayload({ lat: 'north', lng: {}, name: ['x'], tags: 'wifi, parking , wifi', custom_fields: [1] }),
    ).toEqual({ ...empty, tags: ['wifi', 'parking'] });
  });

  it('keeps each tag once, first spelling; drops empty ones; numbers become text', () => {
    expect(toPayload({ tags: ['Wifi', ' wifi ', '', 7, null, 'Drive-thru'] }).tags).toEqual([
      'Wifi',
      '7',
      'Drive-thru',
    ]);
  });

  it('keeps custom fields with their values, without empty keys or empty values', () => {
    expect(
      toPayload({
        custom_fields: { ' hours ': ' 7-19 ', '': 'x', seats: 12, vegan: false, gone: null, blank: '' },
      }).custom_fields,
    ).toEqual({ hours: '7-19', seats: 12, vegan: false });
  });

  it('reads "title" as the name when a model says so', () => {
    expect(toPayload({ title: 'Daily Grind' }).name).toBe('Daily Grind');
    expect(toPayload({ title: 'Other', name: 'Daily Grind' }).name).toBe('Daily Grind');
  });

  it('turns anything that is not an object into an empty payload', () => {
    for (const raw of [null, 'text', 42, ['a']]) expect(toPayload(raw)).toEqual(empty);
  });
});

describe('validatePayload', () => {
  it('passes a complete payload', () => {
    expect(validatePayload(complete)).toEqual([]);
  });

  it('requires a name and an address', () => {
    expect(validatePayload({ ...complete, name: null, address: '  ' })).toEqual([
      { field: 'name', message: 'The name field is required.' },
      { field: 'address', message: 'The address field is required.' },
    ]);
  });

  it.each([
    ['name', 255],
    ['address', 255],
    ['city', 120],
    ['state', 120],
    ['zip', 40],
    ['country', 120],
    ['phone', 120],
  ] as const)('limits %s to %i characters', (field, max) => {
    expect(validatePayload({ ...complete, [field]: 'x'.repeat(max) })).toEqual([]);
    expect(validatePayload({ ...complete, [field]: 'x'.repeat(max + 1) })).toEqual([
      { field, message: `The ${field} may not be greater than ${max} characters.` },
    ]);
  });

  it('limits the website to 255 characters and to http(s) URLs', () => {
    const long = `https://dailygrind.com/${'a'.repeat(240)}`;
    expect(fieldsOf(validatePayload({ ...complete, website: long }))).toEqual(['website']);
    expect(validatePayload({ ...complete, website: 'not a website' })).toEqual([
      { field: 'website', message: 'The website must be a valid URL.' },
    ]);
    expect(fieldsOf(validatePayload({ ...complete, website: 'ftp://dailygrind.com' }))).toEqual(['website']);
  });

  it('keeps coordinates in range and in pairs', () => {
    expect(validatePayload({ ...complete, lat: 90, lng: -180 })).toEqual([]);
    expect(validatePayload({ ...complete, lat: 91, lng: 181 })).toEqual([
      { field: 'lat', message: 'The lat must be between -90 and 90.' },
      { field: 'lng', message: 'The lng must be between -180 and 180.' },
    ]);
    expect(validatePayload({ ...complete, lat: 52.5, lng: null })).toEqual([
      { field: 'lng', message: 'The lng field is required when lat is given.' },
    ]);
    expect(validatePayload({ ...complete, lat: Number.NaN })).toEqual([
      { field: 'lat', message: 'The lat must be between -90 and 90.' },
    ]);
  });

  it('limits tags to 80 characters each and refuses empty ones', () => {
    expect(validatePayload({ ...complete, tags: ['x'.repeat(80)] })).toEqual([]);
    expect(validatePayload({ ...complete, tags: ['x'.repeat(81)] })).toEqual([
      { field: 'tags', message: 'A tag may not be greater than 80 characters.' },
    ]);
    expect(validatePayload({ ...complete, tags: [' '] })).toEqual([
      { field: 'tags', message: 'A tag may not be empty.' },
    ]);
  });

  it('requires custom_fields to be an object, with a valid email when it has one', () => {
    const notAnObject = { ...complete, custom_fields: [] as unknown as Record<string, unknown> };
    expect(fieldsOf(validatePayload(notAnObject))).toEqual(['custom_fields']);
    expect(validatePayload({ ...complete, custom_fields: { email: 'not-an-email' } })).toEqual([
      { field: 'custom_fields.email', message: 'The email must be a valid email address.' },
    ]);
  });
});

describe('warnings and confidence', () => {
  it('counts nine core fields, lat and lng as one pair', () => {
    expect(countCoreFields(complete)).toBe(9);
    expect(countCoreFields(empty)).toBe(0);
    expect(countCoreFields({ ...empty, lat: 1, lng: null })).toBe(0);
    expect(countCoreFields({ ...empty, name: 'A', address: 'B', lat: 1, lng: 2 })).toBe(3);
  });

  it('warns of missing coordinates, address parts and contact', () => {
    expect(assessPayload(complete).warnings).toEqual([]);
    expect(
      assessPayload({
        ...complete,
        lat: null,
        lng: null,
        city: null,
        country: null,
        phone: null,
        website: null,
      }).warnings,
    ).toEqual([
      WARNINGS.noCoordinates,
      'No city or country: the address may not geocode precisely.',
      WARNINGS.noContact,
    ]);
    expect(assessPayload({ ...complete, zip: null }).warnings).toEqual([
      'No zip: the address may not geocode precisely.',
    ]);
    expect(assessPayload({ ...complete, phone: null }).warnings).toEqual([]);
  });

  it('is low with any validation error, however complete the rest', () => {
    expect(assessPayload({ ...complete, website: 'bad url' }).confidence).toBe('low');
    expect(assessPayload({ ...complete, name: null }).confidence).toBe('low');
  });

  it('is high with 6 core fields and at most 1 warning', () => {
    // name, address, city, zip, country, phone; no coordinates: one warning.
    const six = { ...complete, state: null, website: null, lat: null, lng: null };
    expect(countCoreFields(six)).toBe(6);
    expect(assessPayload(six)).toEqual({
      warnings: [WARNINGS.noCoordinates],
      validation_errors: [],
      confidence: 'high',
    });
  });

  it('is medium with fewer than 6 core fields, even with a single warning', () => {
    // name, address, state, phone, lat+lng; city, zip and country missing: one warning.
    const five = { ...complete, city: null, zip: null, country: null, website: null };
    expect(countCoreFields(five)).toBe(5);
    expect(assessPayload(five)).toMatchObject({
      warnings: [expect.stringContaining('No city')],
      confidence: 'medium',
    });
  });

  it('is medium with 2 warnings, however many fields', () => {
    const assessment = assessPayload({ ...complete, lat: null, lng: null, zip: null });
    expect(assessment.warnings).toHaveLength(2);
    expect(assessment.confidence).toBe('medium');
  });

  it('counts the duplicate warning too', () => {
    const oneWarning = { ...complete, lat: null, lng: null };
    expect(assessPayload(oneWarning).confidence).toBe('high');
    expect(assessPayload(oneWarning, { duplicate: true })).toMatchObject({
      warnings: [WARNINGS.noCoordinates, WARNINGS.duplicate],
      confidence: 'medium',
    });
  });
});

describe('duplicates in a batch', () => {
  it('compares name and address without case, spacing or punctuation', () => {
    expect(duplicateKey({ name: 'Daily Grind', address: '123 Main St.' })).toBe(
      duplicateKey({ name: 'DAILY  GRIND', address: '123 main st' }),
    );
    expect(duplicateKey({ name: 'Daily Grind', address: null })).toBeNull();
    expect(duplicateKey({ name: '--', address: '123 Main St' })).toBeNull();
  });

  it('warns the later copies, not the first', () => {
    const other = { ...complete, name: 'Daily Grind West', address: '2850 Wabash Ave' };
    const copy = { ...complete, name: 'daily grind downtown', phone: null };
    const assessments = assessPayloads([complete, other, copy, { ...complete }]);
    expect(assessments.map((assessment) => assessment.warnings.includes(WARNINGS.duplicate))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });

  it('never warns items without a name or address as duplicates of each other', () => {
    const assessments = assessPayloads([empty, empty]);
    expect(assessments.every((assessment) => !assessment.warnings.includes(WARNINGS.duplicate))).toBe(true);
  });
});

describe('normalizeItem and normalizeItems', () => {
  it('turns a model answer into a payload, its errors, warnings and confidence', () => {
    expect(
      normalizeItem({
        name: 'Daily Grind Downtown',
        address: '123 Main St',
        city: 'Springfield',
        state: 'IL',
        zip: '62704',
        country: 'United States',
        phone: '(217) 555-0142',
        website: 'dailygrind.com',
        lat: null,
        lng: null,
        tags: [],
        custom_fields: {},
      }),
    ).toEqual({
      normalized_payload: {
        ...complete,
        website: 'https://dailygrind.com',
        lat: null,
        lng: null,
        tags: [],
        custom_fields: {},
      },
      warnings: [WARNINGS.noCoordinates],
      validation_errors: [],
      confidence: 'high',
    });
  });

  it('makes an item of garbage, with errors rather than a crash', () => {
    expect(normalizeItem('nonsense')).toMatchObject({
      normalized_payload: empty,
      validation_errors: [
        { field: 'name', message: 'The name field is required.' },
        { field: 'address', message: 'The address field is required.' },
      ],
      confidence: 'low',
    });
  });

  it('warns duplicates across a draft, in order', () => {
    const items = normalizeItems([complete, { ...complete, phone: null }]);
    expect(items).toHaveLength(2);
    expect(items[0]!.warnings).not.toContain(WARNINGS.duplicate);
    expect(items[1]!.warnings).toContain(WARNINGS.duplicate);
  });

  it('gives the same errors and warnings when a stored payload is assessed again (a PATCH)', () => {
    const drafted = normalizeItem({ ...complete, lat: 120, website: 'bad url', city: '' });
    const again = assessPayload(drafted.normalized_payload);
    expect(again).toEqual({
      warnings: drafted.warnings,
      validation_errors: drafted.validation_errors,
      confidence: drafted.confidence,
    });
    expect(fieldsOf(again.validation_errors)).toEqual(['website', 'lat']);
  });
});

describe('payloadPatchSchema', () => {
  it('accepts a partial payload, trimmed, "" as null, website given https://', () => {
    const result = payloadPatchSchema.safeParse({
      name: ' New name ',
      city: '',
      website: 'shop.example.com',
    });
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ name: 'New name', city: null, website: 'https://shop.example.com' });
  });

  it.each([
    [{ name: 'x'.repeat(256) }, 'name', 'The name may not be greater than 255 characters.'],
    [{ zip: 'x'.repeat(41) }, 'zip', 'The zip may not be greater than 40 characters.'],
    [{ website: 'not a url' }, 'website', 'The website must be a valid URL.'],
    [{ lat: 91 }, 'lat', 'The lat must be between -90 and 90.'],
    [{ lng: '13.4' }, 'lng', 'The lng field must be a number.'],
    [{ tags: ['x'.repeat(81)] }, 'tags.0', 'A tag may not be greater than 80 characters.'],
    [{ tags: 'wifi' }, 'tags', 'The tags field must be a list of names.'],
    [{ custom_fields: [] }, 'custom_fields', 'The custom fields field must be an object.'],
  ])('refuses %j', (payload, field, message) => {
    const result = payloadPatchSchema.safeParse(payload);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      [field, message],
    ]);
  });

  it('refuses keys outside the payload, naming them', () => {
    const result = payloadPatchSchema.safeParse({ email: 'a@b.c' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('unknown: email');
  });
});

describe('mergePayload', () => {
  it('replaces given keys, keeps the rest, and merges custom fields key by key', () => {
    const merged = mergePayload(
      { ...complete, custom_fields: { email: 'a@dailygrind.com', hours: '7-19' } },
      { city: 'Chatham', phone: null, tags: ['drive-thru'], custom_fields: { hours: null, seats: 20 } },
    );
    expect(merged).toEqual({
      ...complete,
      city: 'Chatham',
      phone: null,
      tags: ['drive-thru'],
      custom_fields: { email: 'a@dailygrind.com', seats: 20 },
    });
  });

  it('is the drafted payload when there is no edit', () => {
    expect(mergePayload(complete, null)).toEqual(complete);
    expect(mergePayload(complete, {})).toEqual(complete);
  });
});

describe('opening hours of a drafted location', () => {
  const week = { mon: ['09:00-18:00'], fri: ['19:00-02:00'], sun: [] };

  it('keeps a week in day order, a known zone in its proper case and special hours sorted', () => {
    const payload = toPayload({
      ...complete,
      time_zone: ' europe/berlin ',
      hours: { sun: [], fri: [' 19:00-02:00 '], mon: ['09:00-18:00'], tue: null },
      special_hours: [
        { date: '2026-12-31', end_date: null, hours: ['10:00-14:00'], label: ' ' },
        { date: '2026-12-24', end_date: '2026-12-24', hours: [], label: 'Christmas Eve' },
      ],
    });
    expect(payload).toMatchObject({
      time_zone: 'Europe/Berlin',
      hours: week,
      special_hours: [
        { date: '2026-12-24', end_date: null, hours: [], label: 'Christmas Eve' },
        { date: '2026-12-31', end_date: null, hours: ['10:00-14:00'], label: null },
      ],
    });
    expect(Object.keys(payload.hours!)).toEqual(['mon', 'fri', 'sun']);
    expect(validatePayload(payload)).toEqual([]);
    expect(toPayload({ hours: { mon: null }, special_hours: [] })).toMatchObject({
      hours: null,
      special_hours: null,
    });
  });

  it('names each bad value as the API does: an unknown zone, bad intervals, bad dates', () => {
    const payload = toPayload({
      ...complete,
      time_zone: 'Mars/Olympus',
      hours: {
        mon: ['9-18'],
        tue: ['13:00-18:00', '09:00-12:00'],
        sat: ['20:00-03:00'],
        sun: ['02:00-05:00'],
      },
      special_hours: [{ date: '2026-02-30', end_date: null, hours: ['x'], label: null }],
    });
    const item = assessPayload(payload);
    expect(item.confidence).toBe('low');
    expect(item.validation_errors).toEqual([
      { field: 'time_zone', message: 'The time zone must be an IANA time zone name such as Europe/Berlin.' },
      { field: 'hours.mon.0', message: expect.stringMatching(/^Each interval must be HH:MM-HH:MM/) },
      { field: 'hours.tue.1', message: 'Intervals must be in order and may not overlap.' },
      { field: 'hours.sun.0', message: "This interval overlaps sat's interval past midnight." },
      { field: 'special_hours.0.date', message: 'The date must be a date written YYYY-MM-DD.' },
      { field: 'special_hours.0.hours.0', message: expect.stringMatching(/^Each interval must be/) },
    ]);
  });

  it.each([
    ['hours', 'Mon-Fri 9-18'],
    ['hours', ['09:00-18:00']],
    ['hours', { monday: ['09:00-18:00'] }],
    ['hours', { mon: '09:00-18:00' }],
    ['hours', { mon: [9] }],
    ['special_hours', { date: '2026-12-24', hours: [] }],
    ['special_hours', [{ date: '2026-12-24', end_date: null, label: null }]],
    ['special_hours', [{ date: 20261224, end_date: null, hours: [], label: null }]],
    ['time_zone', 1],
  ] as const)(
    'leaves out %s it cannot read (%j) with a warning, not an error or a partial week',
    (field, value) => {
      const raw = { ...complete, [field]: value };
      const item = normalizeItem(raw);
      expect(item.normalized_payload[field]).toBeNull();
      expect(item.validation_errors).toEqual([]);
      expect(item.warnings).toContain(WARNINGS.unreadable(field));
      // A reviewer's value ends the warning; it is recomputed from the payload and the answer.
      const edited = { ...item.normalized_payload, time_zone: 'UTC', hours: week, special_hours: [] };
      expect(assessPayloads([edited], [raw])[0]!.warnings).not.toContain(WARNINGS.unreadable(field));
      expect(assessPayloads([item.normalized_payload], [raw])[0]!.warnings).toEqual(item.warnings);
    },
  );

  it('warns of hours that have neither a time zone nor coordinates to derive one from', () => {
    const noPlace = { ...complete, lat: null, lng: null, hours: week };
    expect(assessPayload(noPlace).warnings).toContain(WARNINGS.hoursWithoutTimeZone);
    expect(assessPayload({ ...noPlace, time_zone: 'Europe/Paris' }).warnings).not.toContain(
      WARNINGS.hoursWithoutTimeZone,
    );
    expect(assessPayload({ ...complete, hours: week }).warnings).not.toContain(WARNINGS.hoursWithoutTimeZone);
  });

  it('checks an edit as the API checks a location, and merges it', () => {
    const patch = payloadPatchSchema.parse({
      time_zone: 'america/chicago',
      hours: { sat: ['10:00-14:00'], mon: ['09:00-18:00'] },
      special_hours: [{ date: '2026-12-25', end_date: '2026-12-25', hours: [] }],
    });
    expect(mergePayload(complete, patch as Partial<AiImportLocationPayload>)).toEqual({
      ...complete,
      time_zone: 'America/Chicago',
      hours: { mon: ['09:00-18:00'], sat: ['10:00-14:00'] },
      special_hours: [{ date: '2026-12-25', end_date: null, hours: [], label: null }],
    });
    const cleared = payloadPatchSchema.parse({ hours: null, special_hours: null, time_zone: null });
    expect(mergePayload({ ...complete, hours: week }, cleared as Partial<AiImportLocationPayload>)).toEqual(
      complete,
    );
    for (const [body, path] of [
      [{ hours: { mon: ['9-18'] } }, 'hours.mon.0'],
      [{ hours: { monday: [] } }, 'hours'],
      [
        { special_hours: [{ date: '2026-12-27', end_date: '2026-12-20', hours: [] }] },
        'special_hours.0.end_date',
      ],
      [{ time_zone: 'Mars/Olympus' }, 'time_zone'],
    ] as const) {
      const result = payloadPatchSchema.safeParse(body);
      expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([path]);
    }
  });

  it('completes a payload stored before the opening fields existed', () => {
    const { time_zone: _zone, hours: _hours, special_hours: _special, ...old } = complete;
    expect(storedPayload(old)).toEqual(complete);
  });
});
