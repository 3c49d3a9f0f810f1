// The built-in drafting model on realistic pasted lists (tests/fixtures/ai-import/) and on the
// shapes it has to tell apart: layouts (lines, blocks, tables, bullets), phones, websites,
// emails, US/UK/German/French address lines, tags, the brand-name fallback and its limits.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_DRAFTED_LOCATIONS } from '../src/modules/ai-imports/ai-imports.answers.ts';
import { EMPTY_LOCATION_PAYLOAD, normalizeItems } from '../src/modules/ai-imports/ai-imports.normalize.ts';
import type {
  AiImportLocationPayload,
  AiImportSourceAnswers,
} from '../src/modules/ai-imports/ai-imports.table.ts';
import {
  countryInScope,
  parsePostalLine,
  streetScore,
} from '../src/modules/ai-imports/builtin/ai-imports.builtin-address.ts';
import {
  extractContacts,
  extractCoordinates,
  isOpeningHours,
  isPhoneNumber,
} from '../src/modules/ai-imports/builtin/ai-imports.builtin-contacts.ts';
import { splitEntries } from '../src/modules/ai-imports/builtin/ai-imports.builtin-layout.ts';
import {
  BUILTIN_MODEL_NAME,
  type BuiltinDraftSummary,
  createBuiltinModel,
  draftFromAnswers,
} from '../src/modules/ai-imports/builtin/ai-imports.builtin-model.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/ai-import/${name}`, import.meta.url), 'utf8');

const answersFor = (
  source_notes: string,
  extra: Partial<AiImportSourceAnswers> = {},
): AiImportSourceAnswers => ({
  business_type: 'Shops',
  approximate_location_count: '5-10',
  geographic_scope: 'Wherever we are',
  customer_description: 'Everyone',
  source_notes,
  ...extra,
});

type Drafted = AiImportLocationPayload & { source_text: string };

/** The drafted locations without their source text, for exact comparison. */
function draft(source_notes: string, extra: Partial<AiImportSourceAnswers> = {}) {
  const result = draftFromAnswers(answersFor(source_notes, extra));
  const locations = (result.locations as Drafted[]).map(({ source_text: _source, ...fields }) => fields);
  return {
    locations,
    raw: result.raw as BuiltinDraftSummary,
    usage: result.usage,
    sources: result.locations as Drafted[],
  };
}

const blank = EMPTY_LOCATION_PAYLOAD;
const place = (fields: Partial<typeof blank>) => ({ ...blank, ...fields });
const week = (days: string[], intervals: string[]) =>
  Object.fromEntries(days.map((day) => [day, intervals])) as AiImportLocationPayload['hours'];

const US = 'United States';
const UK = 'United Kingdom';

describe('fixtures: realistic pasted lists', () => {
  it('a US coffee chain, numbered "Name - address - phone - website" lines', () => {
    const { locations, raw } = draft(fixture('us-coffee-lines.txt'));
    expect(raw).toMatchObject({ layouts: { source_notes: 'lines' }, entries: 7, drafted: 6, skipped: 1 });
    const springfield = { city: 'Springfield', state: 'IL', country: US };
    expect(locations).toEqual([
      place({
        name: 'Daily Grind Downtown',
        address: '123 Main St',
        ...springfield,
        zip: '62704',
        phone: '(217) 555-0142',
        website: 'dailygrind.com/downtown',
      }),
      place({
        name: 'Daily Grind Capitol',
        address: '401 S 2nd St',
        ...springfield,
        zip: '62701',
        phone: '(217) 555-0188',
        website: 'www.dailygrind.com/capitol',
      }),
      place({
        name: 'Daily Grind West',
        address: '2850 Wabash Ave Suite 4',
        ...springfield,
        zip: '62704',
        phone: '217.555.0199',
      }),
      place({
        name: 'Daily Grind Chatham',
        address: '1100 N Main St',
        city: 'Chatham',
        state: 'IL',
        zip: '62629',
        country: US,
        phone: '+1 217-555-0123',
        website: 'https://dailygrind.com/chatham',
      }),
      place({ name: 'Daily Grind at the Station', address: '100 N 3rd St', ...springfield, zip: '62701' }),
      place({
        name: 'Daily Grind Decatur',
        address: '250 N Water St',
        city: 'Decatur',
        state: 'Illinois',
        zip: '62523',
        country: US,
        phone: '217-555-0101',
      }),
    ]);
  });

  it('UK bookshops in blocks: "Town POSTCODE", postcode on its own line, county, labelled phone', () => {
    const { locations, raw } = draft(fixture('uk-bookshops-blocks.txt'));
    expect(raw).toMatchObject({ layouts: { source_notes: 'blocks' }, drafted: 5, skipped: 0 });
    expect(locations).toEqual([
      place({
        name: "Hartley's Bookshop",
        address: '14 High Street',
        city: 'Oxford',
        zip: 'OX1 4AH',
        country: UK,
        phone: '01632 960 123',
        website: 'www.hartleysbooks.co.uk',
      }),
      place({
        name: "Hartley's Bookshop Bath",
        address: '3 Milsom Street',
        city: 'Bath',
        zip: 'BA1 1DA',
        country: UK,
        phone: '01632 960 455',
        custom_fields: { email: 'bath@hartleysbooks.co.uk' },
      }),
      place({
        name: "Hartley's at King's Cross",
        address: 'Unit 12, Coal Drops Yard',
        city: 'London',
        zip: 'N1C 4AB',
        country: UK,
        phone: '+44 20 7946 0321',
      }),
      place({
        name: "Hartley's Cambridge",
        address: '22 Trinity Street',
        city: 'Cambridge',
        zip: 'CB2 1TB',
        country: UK,
      }),
      place({
        name: "Hartley's Woodstock",
        address: '7 Market Street',
        city: 'Woodstock',
        state: 'Oxfordshire',
        zip: 'OX20 1SU',
        country: UK,
        // "Open Mon-Sat 9am-5:30pm"
        hours: week(['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], ['09:00-17:30']),
      }),
    ]);
  });

  it('German branches: "Name – Straße Nr, PLZ Ort, Tel." lines, a fused street and postcode, opening hours', () => {
    const { locations, raw } = draft(fixture('de-filialen-lines.txt'));
    expect(raw).toMatchObject({ layouts: { source_notes: 'lines' }, drafted: 6 });
    const berlin = { city: 'Berlin', country: 'Germany' };
    expect(locations).toEqual([
      place({
        name: 'Bäckerei Sonnenkorn Mitte',
        address: 'Torstraße 112',
        zip: '10119',
        ...berlin,
        phone: '030 2847 1190',
      }),
      place({
        name: 'Bäckerei Sonnenkorn Prenzlauer Berg',
        address: 'Kastanienallee 8',
        zip: '10435',
        ...berlin,
        phone: '030 4405 2231',
      }),
      place({
        name: 'Bäckerei Sonnenkorn Kreuzberg',
        address: 'Bergmannstr. 21',
        zip: '10961',
        ...berlin,
        phone: '030 6927 5540',
      }),
      place({
        name: 'Bäckerei Sonnenkorn Potsdam',
        address: 'Brandenburger Straße 35',
        zip: '14467',
        city: 'Potsdam',
        country: 'Germany',
        phone: '0331 2708 113',
      }),
      place({
        name: 'Bäckerei Sonnenkorn Hamburg',
        address: 'Große Bergstraße 160',
        zip: '22767',
        city: 'Hamburg',
        country: 'Germany',
        phone: '+49 40 3890 4412',
        website: 'www.sonnenkorn.de',
      }),
      place({
        name: 'Bäckerei Sonnenkorn Leipzig',
        address: 'Karl-Liebknecht-Str. 45',
        zip: '04275',
        city: 'Leipzig',
        country: 'Germany',
        // "Mo–Sa 6–18 Uhr"
        hours: week(['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], ['06:00-18:00']),
      }),
    ]);
  });

  it('French boutiques in blocks: "12, rue ...", "75001 Paris", Tél., email, hours read', () => {
    const { locations, raw } = draft(fixture('fr-boutiques-blocks.txt'));
    expect(raw).toMatchObject({ layouts: { source_notes: 'blocks' }, drafted: 4 });
    expect(locations).toEqual([
      place({
        name: 'Maison Lavande — Louvre',
        address: '12 rue de Rivoli',
        zip: '75001',
        city: 'Paris',
        country: 'France',
        phone: '01 42 60 00 00',
        custom_fields: { email: 'contact@maisonlavande.fr' },
      }),
      place({
        name: 'Maison Lavande — Marais',
        address: '38 rue des Francs-Bourgeois',
        zip: '75003',
        city: 'Paris',
        country: 'France',
        phone: '01 48 87 12 34',
      }),
      place({
        name: 'Maison Lavande Lyon',
        address: '5 place Bellecour',
        zip: '69002',
        city: 'Lyon',
        country: 'France',
        phone: '+33 4 78 42 10 10',
        website: 'maisonlavande.fr/lyon',
      }),
      place({
        name: 'Maison Lavande Bordeaux',
        address: "27 cours de l'Intendance",
        zip: '33000',
        city: 'Bordeaux',
        country: 'France',
        // "Horaires : mar-sam 10h-19h"
        hours: week(['tue', 'wed', 'thu', 'fri', 'sat'], ['10:00-19:00']),
      }),
    ]);
  });

  it('a messy mixed list: bullets, pipes, an indented block, a tab row, semicolons, a hashtag, a sign-off', () => {
    const { locations, raw } = draft(fixture('mixed-yoga-messy.txt'));
    expect(raw).toMatchObject({ layouts: { source_notes: 'mixed' }, entries: 8, drafted: 6, skipped: 2 });
    expect(locations).toEqual([
      place({
        name: 'Green Leaf Yoga Brooklyn',
        address: '245 Bedford Ave',
        city: 'Brooklyn',
        state: 'NY',
        zip: '11211',
        country: US,
        phone: '(718) 555-0133',
        custom_fields: { email: 'brooklyn@greenleafyoga.com' },
      }),
      place({
        name: 'Green Leaf Yoga SoHo',
        address: '89 Spring St',
        city: 'New York',
        state: 'NY',
        zip: '10012',
        country: US,
        website: 'greenleafyoga.com/soho',
      }),
      place({
        name: 'Green Leaf Yoga Hoboken',
        address: '300 Washington St',
        city: 'Hoboken',
        state: 'NJ',
        zip: '07030',
        country: US,
        phone: '201-555-0177',
        tags: ['hotyoga'],
      }),
      place({
        name: 'Green Leaf Yoga Austin',
        address: '1100 S Congress Ave',
        city: 'Austin',
        state: 'TX',
        zip: '78704',
        country: US,
        custom_fields: { email: 'austin@greenleafyoga.com' },
      }),
      place({
        name: 'Green Leaf Yoga Portland',
        address: '1234 NW Glisan St',
        city: 'Portland',
        state: 'OR',
        zip: '97209',
        country: US,
        phone: '503-555-0110',
      }),
      place({
        name: 'Green Leaf Yoga Denver',
        address: '1550 Platte St',
        city: 'Denver',
        state: 'CO',
        zip: '80202',
        country: US,
        phone: '+1 (720) 555-0190',
      }),
    ]);
  });

  it('a German spreadsheet paste: title line, tab header (Filiale, Straße, PLZ, Ort, Telefon, E-Mail), quoted cell', () => {
    const { locations, raw } = draft(fixture('de-drogerie-table.tsv'));
    expect(raw).toMatchObject({ layouts: { source_notes: 'table' }, entries: 4, drafted: 4 });
    const munich = { city: 'München', country: 'Germany' };
    expect(locations).toEqual([
      place({
        name: 'Drogerie Kranich Schwabing',
        address: 'Leopoldstraße 82',
        zip: '80802',
        ...munich,
        phone: '089 3816 2210',
        custom_fields: { email: 'schwabing@kranich-drogerie.de' },
      }),
      place({
        name: 'Drogerie Kranich Altstadt',
        address: 'Sendlinger Straße 14',
        zip: '80331',
        ...munich,
        phone: '089 2602 4471',
      }),
      place({
        name: 'Drogerie Kranich Augsburg',
        address: 'Maximilianstraße 51',
        zip: '86150',
        city: 'Augsburg',
        country: 'Germany',
        phone: '0821 5089 330',
        custom_fields: { email: 'augsburg@kranich-drogerie.de' },
      }),
      place({
        name: 'Drogerie Kranich Regensburg',
        address: 'Neupfarrplatz 7, 1. OG',
        zip: '93047',
        city: 'Regensburg',
        country: 'Germany',
      }),
    ]);
  });

  it('bare UK addresses under a heading: named after the brand and the city', () => {
    const { locations } = draft(fixture('addresses-only.txt'), { brand_name: "Hartley's" });
    expect(locations).toEqual([
      place({
        name: "Hartley's London",
        address: '221B Baker Street',
        city: 'London',
        zip: 'NW1 6XE',
        country: UK,
      }),
      place({
        name: "Hartley's London",
        address: '10 Downing Street',
        city: 'London',
        zip: 'SW1A 2AA',
        country: UK,
      }),
      place({
        name: "Hartley's Manchester",
        address: '48 Deansgate',
        city: 'Manchester',
        zip: 'M3 2EG',
        country: UK,
      }),
    ]);
  });

  it('keeps each entry’s own text as source_text', () => {
    const { sources } = draft(fixture('uk-bookshops-blocks.txt'));
    expect(sources[2]!.source_text).toBe(
      "Hartley's at King's Cross\nUnit 12, Coal Drops Yard\nLondon N1C 4AB\n+44 20 7946 0321",
    );
  });

  it('drafts items that normalise to high confidence when the list is complete', () => {
    const { sources } = draft(fixture('us-coffee-lines.txt'));
    const items = normalizeItems(sources);
    expect(items.map((item) => item.confidence)).toEqual(['high', 'high', 'high', 'high', 'medium', 'high']);
    expect(items[0]!.normalized_payload.website).toBe('https://dailygrind.com/downtown');
    expect(items.every((item) => item.validation_errors.length === 0)).toBe(true);
  });
});

describe('opening hours in entries', () => {
  it('reads hours cut at their commas, hours on lines of a block and a table column into the week', () => {
    const { locations } = draft(
      [
        'Corner Shop - 1 High St, Oxford OX1 4AA - Mon-Fri 9-12, 14-18, Sat 10-14',
        '',
        'Late Bar',
        '2 Cowley Rd',
        'Oxford OX4 1HP',
        'Thu-Sat 18-2',
        'Sun closed',
      ].join('\n'),
    );
    const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri'];
    expect(locations[0]).toMatchObject({
      address: '1 High St',
      zip: 'OX1 4AA',
      hours: { ...week(weekdays, ['09:00-12:00', '14:00-18:00']), sat: ['10:00-14:00'] },
    });
    expect(locations[1]).toMatchObject({
      address: '2 Cowley Rd',
      hours: { ...week(['thu', 'fri', 'sat'], ['18:00-02:00']), sun: [] },
    });

    const table = draft(
      ['Name\tAddress\tPostcode\tCity\tOpening hours', 'Mill Shop\t3 Mill Lane\tOX1 1AA\tOxford\t24/7'].join(
        '\n',
      ),
    );
    expect(table.raw.layouts.source_notes).toBe('table');
    expect(table.locations[0]!.hours).toEqual(week([...weekdays, 'sat', 'sun'], ['00:00-24:00']));
  });

  it('reads the intervals after a comma written with am/pm or h', () => {
    const { locations } = draft(
      [
        'Corner Shop - 1 High St, Oxford OX1 4AA - Mon-Fri 9am-12pm, 1pm-5pm',
        'Boutique - 12 rue de Rivoli, 75001 Paris - lun-ven 9h-12h, 14h-18h',
      ].join('\n'),
    );
    const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri'];
    expect(locations[0]).toMatchObject({
      address: '1 High St',
      hours: week(weekdays, ['09:00-12:00', '13:00-17:00']),
    });
    expect(locations[1]).toMatchObject({ hours: week(weekdays, ['09:00-12:00', '14:00-18:00']) });
  });

  it('reads days listed at their commas with the hours after them', () => {
    const { locations } = draft(
      [
        'Corner Shop - 1 High St, Oxford OX1 4AA - Mon, Wed, Fri 9-18',
        'Other Shop - 2 High St, Oxford OX1 4AB - Mon-Fri 9-18, Sat, Sun closed',
      ].join('\n'),
    );
    expect(locations[0]).toMatchObject({
      address: '1 High St',
      hours: week(['mon', 'wed', 'fri'], ['09:00-18:00']),
    });
    expect(locations[1]).toMatchObject({
      address: '2 High St',
      hours: { ...week(['mon', 'tue', 'wed', 'thu', 'fri'], ['09:00-18:00']), sat: [], sun: [] },
    });
  });

  it('leaves out hours it does not read, and never takes them for the address', () => {
    const { locations } = draft(
      [
        'Corner Shop - 1 High St, Oxford OX1 4AA - Mon-Fri 9-5',
        'Other Shop - 2 High St, Oxford OX1 4AB - Mon-Sat 9-18, Sun & holidays closed',
      ].join('\n'),
    );
    for (const location of locations) {
      expect(location.hours).toBeNull();
      expect(location.address).toMatch(/^\d High St$/);
    }
  });
});

describe('phones, websites, emails, coordinates, hours', () => {
  it.each([
    '+1 217-555-0123',
    '(217) 555-0142',
    '217.555.0199',
    '1-800-555-0100',
    '+44 20 7946 0321',
    '020 7946 0321',
    '01632 960 123',
    '+49 30 1234567',
    '+49 (0)30 1234567',
    '030/1234567',
    '0049 30 1234567',
    '01 42 60 00 00',
    '+33 4 78 42 10 10',
  ])('reads %s as a phone number', (phone) => {
    expect(isPhoneNumber(phone)).toBe(true);
    expect(extractContacts(`Call ${phone} today`)).toMatchObject({ phone, rest: 'today' });
  });

  it.each([
    ['a street number and a postcode', 'Hauptstraße 12 10115 Berlin'],
    ['a ZIP+4', 'IL 62704-1234'],
    ['a date', 'since 2024-05-01'],
    ['opening hours', 'Mo-Fr 9-18 Uhr'],
    ['a five-digit house number', '12345 67th Ave'],
  ])('does not read %s as a phone number', (_case, text) => {
    expect(extractContacts(text).phone).toBeNull();
  });

  it('takes labels with the contact and leaves a fax out', () => {
    expect(extractContacts('Tel.: 030 2847 1190 · Fax: 030 2847 1199')).toEqual({
      phone: '030 2847 1190',
      email: null,
      website: null,
      rest: '',
    });
    expect(extractContacts('E-Mail: info@sonnenkorn.de, Web: https://sonnenkorn.de/filialen.')).toEqual({
      phone: null,
      email: 'info@sonnenkorn.de',
      website: 'https://sonnenkorn.de/filialen',
      rest: '',
    });
  });

  it('finds websites with a scheme, with www. or as a bare domain of a common TLD only', () => {
    expect(extractContacts('see www.example.org/shops').website).toBe('www.example.org/shops');
    expect(extractContacts('shop.co.uk').website).toBe('shop.co.uk');
    expect(extractContacts('http://localhost:8080/x').website).toBe('http://localhost:8080/x');
    expect(extractContacts('St.Louis Bakery, J.Crew outlet').website).toBeNull();
    expect(extractContacts('mail anna@shop.de').website).toBeNull();
  });

  it('reads decimal coordinate pairs and labelled ones, not prices', () => {
    expect(extractCoordinates('Kiosk, 52.5251, 13.3694, Berlin')).toMatchObject({
      lat: 52.5251,
      lng: 13.3694,
    });
    expect(extractCoordinates('lat: 51.5034 lng: -0.1276')).toMatchObject({ lat: 51.5034, lng: -0.1276 });
    expect(extractCoordinates('coffee 3.50, 4.20')).toBeNull();
    expect(extractCoordinates('95.1234, 13.1234')).toBeNull();
  });

  it('tells opening hours from addresses', () => {
    for (const text of [
      'Mon-Fri 9am-6pm',
      'Mo–Sa 6–18 Uhr',
      'Horaires : mar-sam 10h-19h',
      'Open daily 7-19',
      'Sun closed',
      'So geschlossen',
    ]) {
      expect(isOpeningHours(text)).toBe(true);
    }
    for (const text of ['Springfield, MO 65806', 'Friedrichstraße 10-12', '12 rue de Rivoli']) {
      expect(isOpeningHours(text)).toBe(false);
    }
  });
});

describe('address shapes', () => {
  it.each([
    ['Springfield, IL 62704', { city: null, before: 'Springfield', state: 'IL', zip: '62704', country: US }],
    ['IL 62704-1234', { before: null, state: 'IL', zip: '62704-1234', country: US }],
    ['Decatur, Illinois 62523', { before: 'Decatur', state: 'Illinois', zip: '62523', country: US }],
    ['London SW1A 2AA', { before: 'London', zip: 'SW1A 2AA', country: UK }],
    ['sw1a2aa', { before: null, zip: 'SW1A 2AA', country: UK }],
    ['Manchester M3 2EG', { before: 'Manchester', zip: 'M3 2EG', country: UK }],
    ['10115 Berlin', { city: 'Berlin', zip: '10115', country: null, before: null }],
    ['D-10115 Berlin', { city: 'Berlin', zip: '10115', country: 'Germany' }],
    [
      'Hauptstraße 5 10115 Berlin',
      { city: 'Berlin', zip: '10115', before: 'Hauptstraße 5', beforeKind: 'street' },
    ],
    ['75008 Paris Cedex 08', { city: 'Paris', zip: '75008' }],
    ['F-69002 Lyon', { city: 'Lyon', zip: '69002', country: 'France' }],
  ])('reads the postcode line %j', (text, expected) => {
    expect(parsePostalLine(text)).toMatchObject(expected);
  });

  it.each(['123 Main St', '12345 Ventura Blvd', 'Berlin', 'Unit 4', 'Store 12'])(
    '%j is no postcode line',
    (text) => {
      expect(parsePostalLine(text)).toBeNull();
    },
  );

  it.each([
    ['123 Main St', 2],
    ['221B Baker Street', 2],
    ['12345 Ventura Blvd', 2],
    ['Hauptstraße 5', 2],
    ['Bergmannstr. 21', 2],
    ['12 rue de Rivoli', 2],
    ['rue de Rivoli', 2],
    ['High Street', 2],
    ['PO Box 42', 2],
    ['Unter den Linden 12', 1],
    ['Suite 200', 1],
    ['10115 Berlin', 0],
    ['Blue Bottle Coffee', 0],
    ['7-Eleven', 0],
    ['Springfield', 0],
  ] as const)('scores %j as a street line %i', (text, score) => {
    expect(streetScore(text)).toBe(score);
  });

  it('reads a country from a geographic scope only when it names exactly one', () => {
    expect(countryInScope('Pubs across the UK')).toBe(UK);
    expect(countryInScope('Bakeries in Berlin, Deutschland')).toBe('Germany');
    expect(countryInScope('Paris and Lyon, France')).toBe('France');
    expect(countryInScope('Germany and France')).toBeNull();
    expect(countryInScope('shops near us in de Pijp')).toBeNull();
  });

  it('uses the scope country when an entry shows none, never over one it shows', () => {
    const scoped = { geographic_scope: 'Vienna, Austria' };
    expect(draft('Café Central - Herrengasse 14, 1010 Wien', scoped).locations[0]).toMatchObject({
      country: 'Austria',
    });
    expect(draft('Café Sonne - Hauptstraße 5, 10115 Berlin', scoped).locations[0]).toMatchObject({
      country: 'Germany',
    });
  });

  it('reads US lines without commas, with a separate state, and without a ZIP', () => {
    expect(draft('Corner Shop, 123 Main St Springfield IL 62704').locations[0]).toMatchObject({
      address: '123 Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62704',
    });
    expect(draft('Corner Shop, 123 Main St, Springfield, IL, 62704').locations[0]).toMatchObject({
      city: 'Springfield',
      state: 'IL',
      zip: '62704',
    });
    expect(draft('Museum Shop, 200 N Market St, Wilmington, DE, 19801').locations[0]).toMatchObject({
      city: 'Wilmington',
      state: 'DE',
      zip: '19801',
      country: US,
    });
    expect(draft("Joe's Pizza, 7 Carmine St, New York, NY").locations[0]).toMatchObject({
      name: "Joe's Pizza",
      address: '7 Carmine St',
      city: 'New York',
      state: 'NY',
      zip: null,
      country: US,
    });
  });

  it('keeps a name that looks like words and a number when a clear street follows', () => {
    expect(draft('Filiale 3\nHauptstraße 5\n10115 Berlin').locations[0]).toMatchObject({
      name: 'Filiale 3',
      address: 'Hauptstraße 5',
      city: 'Berlin',
    });
  });
});

describe('layouts', () => {
  it('splits blocks that have no blank lines between them at the next name', () => {
    const text = [
      'Blue Bottle Downtown',
      '123 Main St',
      'Springfield, IL 62704',
      '(217) 555-0100',
      'Blue Bottle Uptown',
      '456 Oak Ave',
      'Springfield, IL 62701',
    ].join('\n');
    const { layout, entries } = splitEntries(text);
    expect(layout).toBe('blocks');
    expect(entries.map((entry) => entry.lines[0])).toEqual(['Blue Bottle Downtown', 'Blue Bottle Uptown']);
    expect(draft(text).locations).toEqual([
      place({
        name: 'Blue Bottle Downtown',
        address: '123 Main St',
        city: 'Springfield',
        state: 'IL',
        zip: '62704',
        country: US,
        phone: '(217) 555-0100',
      }),
      place({
        name: 'Blue Bottle Uptown',
        address: '456 Oak Ave',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: US,
      }),
    ]);
  });

  it('keeps a UK block together until its postcode, even with a bare town line', () => {
    const text = 'Ye Olde Shop\n10 High Street\nOxford\nOX1 4AA\nAnother Shop\n5 Broad St\nOxford OX1 3AJ';
    expect(draft(text).locations.map((location) => [location.name, location.city, location.zip])).toEqual([
      ['Ye Olde Shop', 'Oxford', 'OX1 4AA'],
      ['Another Shop', 'Oxford', 'OX1 3AJ'],
    ]);
  });

  it('reads a markdown table and a CSV paste by their header', () => {
    const markdown = [
      '| Name | Address | City | Zip | Phone |',
      '|---|---|---|---|---|',
      '| Acme Books | 5 High St | Oxford | OX1 4AA | 01632 960 001 |',
    ].join('\n');
    expect(draft(markdown).locations).toEqual([
      place({
        name: 'Acme Books',
        address: '5 High St',
        city: 'Oxford',
        zip: 'OX1 4AA',
        country: UK,
        phone: '01632 960 001',
      }),
    ]);
    const csv =
      'name,address,city,state,zip,phone,website\nAcme Hardware,"100 Elm St, Suite 2",Columbus,OH,43215,614-555-0100,acmehardware.com';
    expect(draft(csv).locations).toEqual([
      place({
        name: 'Acme Hardware',
        address: '100 Elm St, Suite 2',
        city: 'Columbus',
        state: 'OH',
        zip: '43215',
        country: US,
        phone: '614-555-0100',
        website: 'acmehardware.com',
      }),
    ]);
  });

  it('reads "Name: address" lines, a coordinate pair and bracketed remarks', () => {
    expect(draft('Berlin Mitte: Hauptstraße 5, 10115 Berlin').locations[0]).toMatchObject({
      name: 'Berlin Mitte',
      address: 'Hauptstraße 5',
      zip: '10115',
      city: 'Berlin',
      country: 'Germany',
    });
    expect(draft('Station Kiosk, 52.5251, 13.3694, Europaplatz 1, 10557 Berlin').locations[0]).toMatchObject({
      name: 'Station Kiosk',
      address: 'Europaplatz 1',
      lat: 52.5251,
      lng: 13.3694,
    });
    expect(
      draft('Kiosk (next to platform 2, open late) - 1 Station Rd, Bath BA1 1SX').locations[0],
    ).toMatchObject({
      name: 'Kiosk',
      address: '1 Station Rd',
      city: 'Bath',
    });
  });

  it('takes "Tags:" lines and hashtags as the entry’s tags', () => {
    expect(
      draft('Acme Books\n5 High St\nOxford OX1 4AA\nTags: books, cafe\n#wifi').locations[0]!.tags,
    ).toEqual(['books', 'cafe', 'wifi']);
  });

  it('skips headings, sign-offs and names without anything to locate', () => {
    const { locations, raw } = draft(
      'Our stores:\n\n## North\n\nAcme, 5 High St, Oxford OX1 4AA\n\nJust a name\n\nThanks, Anna',
    );
    expect(locations.map((location) => location.name)).toEqual(['Acme']);
    expect(raw.skipped).toBe(2);
  });

  it('drafts nothing from text without locations', () => {
    const { locations, raw } = draft('Please find our stores on the website.');
    expect(locations).toEqual([]);
    expect(raw).toMatchObject({ drafted: 0 });
  });
});

describe('the model', () => {
  it('puts a common tag on the items whose text mentions it, not on every item', () => {
    const { locations } = draft(fixture('us-coffee-lines.txt'), { common_tags: 'drive-thru, 24h; WiFi' });
    expect(locations.map((location) => location.tags)).toEqual([[], [], [], [], ['drive-thru', '24h'], []]);
  });

  it('adds example locations that source_notes does not already hold', () => {
    const source = 'Acme, 5 High St, Oxford OX1 4AA';
    const { locations, raw } = draft(source, {
      example_locations: 'Acme, 5 High St., Oxford OX1 4AA\nAcme Leeds, 12 Briggate, Leeds LS1 6HD',
    });
    expect(locations.map((location) => location.name)).toEqual(['Acme', 'Acme Leeds']);
    expect(raw).toMatchObject({
      layouts: { source_notes: 'lines', example_locations: 'lines' },
      duplicate_examples: 1,
    });
  });

  it(`drafts at most ${MAX_DRAFTED_LOCATIONS} locations, and says how many it cut`, () => {
    const lines = Array.from(
      { length: MAX_DRAFTED_LOCATIONS + 5 },
      (_, index) => `Shop ${index}, ${index + 1} Main St, Springfield, IL 62704`,
    );
    const { locations, raw } = draft(lines.join('\n'));
    expect(locations).toHaveLength(MAX_DRAFTED_LOCATIONS);
    expect(raw.truncated).toBe(5);
  });

  it('counts whitespace-separated words in and out as its usage', () => {
    const { usage } = draft('Acme, 5 High St, Oxford OX1 4AA', {
      example_locations: 'Acme Leeds, 12 Briggate, Leeds LS1 6HD',
    });
    // In: 7 + 7 words. Out: "Acme" "5 High St" "Oxford" "OX1 4AA" "United Kingdom" and the same for Leeds.
    expect(usage).toEqual({ prompt_token_count: 14, candidates_token_count: 18, total_token_count: 32 });
  });

  it('is deterministic', () => {
    const answers = answersFor(fixture('mixed-yoga-messy.txt'), { common_tags: 'hotyoga' });
    expect(draftFromAnswers(answers)).toEqual(draftFromAnswers(answers));
  });

  it('is the DraftingModel "builtin-parser", and refuses a cancelled call', async () => {
    const model = createBuiltinModel();
    expect(model.name).toBe(BUILTIN_MODEL_NAME);
    expect(model.name).toBe('builtin-parser');
    expect(model.promptVersion).toMatch(/\d{4}-\d{2}-\d{2}/);
    const answers = answersFor('Acme, 5 High St, Oxford OX1 4AA');
    const drafted = await model.draft(answers, { target: { min: 1, max: 1 } });
    expect(drafted.locations).toHaveLength(1);
    const controller = new AbortController();
    controller.abort();
    await expect(
      model.draft(answers, { target: { min: 1, max: 1 }, signal: controller.signal }),
    ).rejects.toThrow();
  });
});
