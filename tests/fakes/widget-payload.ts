// Finder payloads for the widget's tests and benchmark, in the shape the service publishes
// (docs/api.md "Widget: settings keys and behaviour"): a small, plausible finder with every
// kind of filter and field, and a generated one of any size.
import { randomBytes } from 'node:crypto';
import type { FinderLocation, FinderPayload, SettingEntry } from '../../src/widget/types.ts';

export const newFinderToken = () => randomBytes(32).toString('base64url');

const TAGS = [
  { id: 1, name: 'Drive-thru', slug: 'drive-thru' },
  { id: 2, name: 'Free Wi-Fi', slug: 'free-wi-fi' },
  { id: 3, name: 'Open late', slug: 'open-late' },
  { id: 4, name: 'Parking', slug: 'parking' },
];

const SETS = [
  { id: 1, name: 'Flagship' },
  { id: 2, name: 'Outlet' },
  { id: 3, name: 'Partner' },
];

const CUSTOM_FIELDS: FinderPayload['custom_fields'] = [
  { name: 'opening_hours', label: 'Opening hours', type: 'textarea', options: null },
  { name: 'seats', label: 'Seats', type: 'number', options: null },
  { name: 'services', label: 'Services', type: 'multiselect', options: ['repair', 'rental', 'delivery'] },
  { name: 'booking', label: 'Book an appointment', type: 'url', options: null },
  { name: 'step_free', label: 'Step-free access', type: 'boolean', options: null },
];

const REFINEMENTS: FinderPayload['advanced_refinements'] = [
  {
    name: 'Repair service',
    match: 'all',
    conditions: [{ field: 'custom_field.services', op: 'contains', value: 'repair' }],
  },
  {
    name: 'Berlin area',
    match: 'any',
    conditions: [
      { field: 'city', op: 'eq', value: 'Berlin' },
      { field: 'city', op: 'eq', value: 'Potsdam' },
    ],
  },
  {
    name: 'Step-free access',
    match: 'all',
    conditions: [{ field: 'custom_field.step_free', op: 'eq', value: true }],
  },
];

type Row = [string, string, string, string, number, number, string[], number[], Record<string, unknown>];

// title, address, zip, city, lat, lng, tags, sets, custom fields
const ROWS: Row[] = [
  [
    'Berlin Mitte',
    'Unter den Linden 1',
    '10117',
    'Berlin',
    52.517,
    13.3889,
    ['drive-thru', 'free-wi-fi'],
    [1],
    {
      opening_hours: 'Mon–Fri 8:00–20:00\nSat 9:00–18:00',
      seats: 120,
      services: ['repair', 'rental'],
      booking: 'https://book.example/berlin-mitte',
      step_free: true,
    },
  ],
  [
    'Berlin Alexanderplatz',
    'Alexanderplatz 3',
    '10178',
    'Berlin',
    52.5219,
    13.4132,
    ['free-wi-fi', 'open-late'],
    [1, 2],
    { opening_hours: 'Daily 7:00–23:00', seats: 80, services: ['delivery'], step_free: false },
  ],
  [
    'Berlin Kreuzberg',
    'Oranienstraße 20',
    '10999',
    'Berlin',
    52.4986,
    13.403,
    ['parking'],
    [3],
    { opening_hours: 'Mon–Sat 10:00–19:00', services: ['repair'] },
  ],
  [
    'Potsdam Brandenburger Straße',
    'Brandenburger Straße 5',
    '14467',
    'Potsdam',
    52.3996,
    13.0566,
    ['parking', 'drive-thru'],
    [3],
    { seats: 40, step_free: true },
  ],
  [
    'Hamburg Jungfernstieg',
    'Jungfernstieg 10',
    '20354',
    'Hamburg',
    53.553,
    9.9925,
    ['free-wi-fi'],
    [1],
    {
      opening_hours: 'Mon–Sat 9:00–20:00',
      seats: 150,
      services: ['repair', 'rental', 'delivery'],
      step_free: true,
    },
  ],
  ['Hamburg Altona', 'Ottenser Hauptstraße 2', '22765', 'Hamburg', 53.5511, 9.9356, ['open-late'], [2], {}],
  [
    'München Marienplatz',
    'Marienplatz 8',
    '80331',
    'München',
    48.1374,
    11.5755,
    ['free-wi-fi', 'drive-thru'],
    [1],
    { seats: 90, services: ['rental'], step_free: true },
  ],
  [
    'München Schwabing',
    'Leopoldstraße 50',
    '80802',
    'München',
    48.1642,
    11.5861,
    ['open-late', 'parking'],
    [2],
    {},
  ],
  [
    'Köln Domplatte',
    'Domkloster 4',
    '50667',
    'Köln',
    50.9413,
    6.9583,
    ['free-wi-fi'],
    [3],
    { services: ['repair'] },
  ],
  [
    'Frankfurt Zeil',
    'Zeil 90',
    '60313',
    'Frankfurt am Main',
    50.1146,
    8.6843,
    ['drive-thru'],
    [2],
    { seats: 60 },
  ],
  ['Leipzig Markt', 'Markt 1', '04109', 'Leipzig', 51.3406, 12.3747, ['parking'], [3], { step_free: true }],
  [
    'Dresden Altmarkt',
    'Altmarkt 12',
    '01067',
    'Dresden',
    51.0493,
    13.7381,
    ['free-wi-fi', 'open-late'],
    [1],
    {},
  ],
];

export interface PayloadOptions {
  token?: string;
  name?: string;
  settings?: Record<string, unknown>;
  /** Base URL for location images (the fake backend serves `/images/{id}.png`). */
  imageBase?: string;
}

const toSettings = (settings: Record<string, unknown>): SettingEntry[] =>
  Object.entries(settings).map(([key, value]) => ({ key, value }));

/** Twelve stores in German cities, with tags, sets, custom fields and three refinements. */
export function createFinderPayload(options: PayloadOptions = {}): FinderPayload {
  const locations: FinderLocation[] = ROWS.map(
    ([title, address, zip, city, lat, lng, tags, sets, custom], i) => ({
      id: 101 + i,
      title,
      description: i === 0 ? 'Our flagship store with a repair workshop.\nFree coffee on Saturdays.' : null,
      address,
      city,
      state: null,
      country: 'DE',
      zip,
      lat,
      lng,
      phone: `+49 30 5550${100 + i}`,
      email: i % 2 === 0 ? `store${101 + i}@shop.example` : null,
      website: i % 3 === 0 ? `https://www.shop.example/stores/${101 + i}` : null,
      image_url: i === 0 && options.imageBase ? `${options.imageBase}/images/${101 + i}.png` : null,
      tags,
      sets,
      custom_fields: custom,
    }),
  );
  return {
    id: 12,
    name: options.name ?? 'Our stores',
    token: options.token ?? newFinderToken(),
    authorized_urls: [],
    settings: toSettings(options.settings ?? {}),
    advanced_refinements: REFINEMENTS,
    tags: TAGS,
    sets: SETS,
    custom_fields: CUSTOM_FIELDS,
    locations,
  };
}

/** `count` stores spread over Europe, deterministic, with tags, sets and custom fields. */
export function generateFinderPayload(count: number, options: PayloadOptions = {}): FinderPayload {
  const base = createFinderPayload(options);
  let seed = 42;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
  const cities = [
    'Berlin',
    'Hamburg',
    'München',
    'Köln',
    'Paris',
    'Lyon',
    'Madrid',
    'Milano',
    'Wien',
    'Praha',
  ];
  const locations: FinderLocation[] = Array.from({ length: count }, (_, i) => {
    const city = cities[i % cities.length] as string;
    return {
      id: 1000 + i,
      title: `Store ${i + 1} ${city}`,
      description: null,
      address: `${1 + (i % 200)} Market Street`,
      city,
      state: null,
      country: 'EU',
      zip: String(10000 + (i % 89999)),
      lat: 40 + random() * 14,
      lng: -4 + random() * 24,
      phone: `+49 30 ${100000 + i}`,
      email: null,
      website: null,
      image_url: null,
      tags: TAGS.filter((_, k) => (i + k) % (k + 2) === 0).map((tag) => tag.slug),
      sets: [SETS[i % SETS.length]?.id as number],
      custom_fields: {
        opening_hours: 'Mon–Sat 9:00–20:00',
        seats: 20 + (i % 100),
        services: i % 4 === 0 ? ['repair'] : ['rental'],
        step_free: i % 2 === 0,
      },
    };
  });
  return { ...base, locations };
}

/** The places the search of the widget tests finds ("Name, City, Country" or "City, Country"). */
export const PLACES = [
  {
    place_id: 'p-berlin-hbf',
    description: 'Berlin Hauptbahnhof, Berlin, Germany',
    lat: 52.5251,
    lng: 13.3694,
  },
  {
    place_id: 'p-berlin-alex',
    description: 'Berlin Alexanderplatz, Berlin, Germany',
    lat: 52.5219,
    lng: 13.4132,
  },
  { place_id: 'p-bern', description: 'Bern, Switzerland', lat: 46.948, lng: 7.4474 },
  {
    place_id: 'p-muenchen-hbf',
    description: 'München Hauptbahnhof, München, Germany',
    lat: 48.1402,
    lng: 11.56,
  },
  {
    place_id: 'p-hamburg-hbf',
    description: 'Hamburg Hauptbahnhof, Hamburg, Germany',
    lat: 53.553,
    lng: 10.0069,
  },
  { place_id: 'p-koeln-hbf', description: 'Köln Hauptbahnhof, Köln, Germany', lat: 50.943, lng: 6.9589 },
];
