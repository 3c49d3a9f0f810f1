// Finder payloads for the widget's tests and benchmark, in the shape the service publishes
// (docs/api.md "Widget: settings keys and behaviour"): a small, plausible finder with every
// kind of filter and field, and a generated one of any size. Their stores have opening hours
// of a few kinds (a shop's week, late hours past midnight, a lunch break, a Sunday nobody
// entered, around the clock, none at all), special days with labels and a temporary closure,
// dated from a given day so that a test can put the page's clock there.
import { randomBytes } from 'node:crypto';
import type { Interval, SpecialDay, WeeklyHours } from '../../src/lib/hours/hours.model.ts';
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
  { name: 'notes', label: 'Notes', type: 'textarea', options: null },
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

const weekdays = (intervals: Interval[]): WeeklyHours => ({
  mon: intervals,
  tue: intervals,
  wed: intervals,
  thu: intervals,
  fri: intervals,
});

/** Weeks as stores keep them (hours.model.ts: a missing day is unknown, [] closed). */
export const WEEKS = {
  /** Monday to Friday 09:00-19:00, Saturday 10:00-18:00, closed on Sunday. */
  shop: { ...weekdays(['09:00-19:00']), sat: ['10:00-18:00'], sun: [] },
  /** Till 23:00, and past midnight to 02:00 on Friday and Saturday nights. */
  late: {
    ...weekdays(['11:00-23:00']),
    fri: ['11:00-02:00'],
    sat: ['11:00-02:00'],
    sun: ['12:00-22:00'],
  },
  /** A lunch break on weekdays, Saturday mornings. */
  split: { ...weekdays(['08:00-12:30', '14:00-18:00']), sat: ['09:00-13:00'], sun: [] },
  /** Sunday not entered: unknown. */
  noSunday: { ...weekdays(['10:00-20:00']), sat: ['10:00-20:00'] },
  allDay: { ...weekdays(['00:00-24:00']), sat: ['00:00-24:00'], sun: ['00:00-24:00'] },
} satisfies Record<string, WeeklyHours>;

/** `date` (YYYY-MM-DD) moved by `days`. */
export const addDays = (date: string, days: number) =>
  new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);

interface StoreHours {
  time_zone: string;
  hours: WeeklyHours | null;
  special_days?: SpecialDay[];
  temporarily_closed?: boolean;
  reopens_on?: string;
}

/** Each of the twelve stores' hours, by row; special days and reopening dated from `today`. */
function storeHours(index: number, today: string): StoreHours {
  const berlin = (hours: WeeklyHours | null, more: Partial<StoreHours> = {}): StoreHours => ({
    time_zone: 'Europe/Berlin',
    hours,
    ...more,
  });
  switch (index) {
    case 0:
      return berlin(WEEKS.shop, {
        special_days: [
          [addDays(today, 2), ['10:00-14:00'], 'Stocktaking'],
          [addDays(today, 9), []],
          // Beyond the 30 days the details list.
          [addDays(today, 45), [], 'Staff outing'],
        ],
      });
    case 1:
      return berlin(WEEKS.late, {
        special_days: [[addDays(today, 1), ['18:00-03:00'], 'Late night shopping']],
      });
    case 2:
    case 10:
      return berlin(WEEKS.split);
    case 3:
      return berlin(WEEKS.noSunday);
    case 5:
      return berlin(WEEKS.shop, { temporarily_closed: true, reopens_on: addDays(today, 10) });
    case 7:
    case 11:
      return berlin(WEEKS.late);
    case 8:
      return berlin(null);
    case 9:
      return berlin(WEEKS.allDay);
    default:
      return berlin(WEEKS.shop);
  }
}

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
      notes: 'Entrance on Friedrichstraße.\nBicycle racks at the back.',
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
    { notes: 'Inside the station concourse.', seats: 80, services: ['delivery'], step_free: false },
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
    { notes: 'Second floor, lift available.', services: ['repair'] },
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
      notes: 'Opposite the Alster landing stage.',
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
  /** The day (YYYY-MM-DD) special days and reopening dates count from; default today (UTC). */
  today?: string;
  /** Three stores abroad too, in London, New York and Tokyo: other zones than Berlin's. */
  abroad?: boolean;
}

const ABROAD: FinderLocation[] = [
  [
    'London Covent Garden',
    '14 James Street',
    'WC2E 8BU',
    'London',
    'GB',
    51.5117,
    -0.1233,
    'Europe/London',
    WEEKS.shop,
  ],
  [
    'New York SoHo',
    '120 Prince Street',
    '10012',
    'New York',
    'US',
    40.7251,
    -73.9986,
    'America/New_York',
    WEEKS.late,
  ],
  ['Tokyo Shibuya', '1-2-3 Jinnan', '150-0041', 'Tokyo', 'JP', 35.6628, 139.6994, 'Asia/Tokyo', WEEKS.shop],
].map(([title, address, zip, city, country, lat, lng, timeZone, hours], i) => ({
  id: 201 + i,
  title: title as string,
  address: address as string,
  zip: zip as string,
  city: city as string,
  state: null,
  country: country as string,
  lat: lat as number,
  lng: lng as number,
  phone: null,
  email: null,
  website: null,
  image_url: null,
  time_zone: timeZone as string,
  hours: hours as WeeklyHours,
  tags: [],
  sets: [],
  custom_fields: {},
}));

const toSettings = (settings: Record<string, unknown>): SettingEntry[] =>
  Object.entries(settings).map(([key, value]) => ({ key, value }));

/**
 * Twelve stores in German cities, with tags, sets, custom fields, opening hours and three
 * refinements (and three abroad with `abroad`).
 */
export function createFinderPayload(options: PayloadOptions = {}): FinderPayload {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
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
      ...storeHours(i, today),
      tags,
      sets,
      custom_fields: custom,
    }),
  );
  if (options.abroad) locations.push(...ABROAD);
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

/** Each city of the generated stores with its time zone. */
const CITY_ZONES: Record<string, string> = {
  Berlin: 'Europe/Berlin',
  Hamburg: 'Europe/Berlin',
  München: 'Europe/Berlin',
  Köln: 'Europe/Berlin',
  Paris: 'Europe/Paris',
  Lyon: 'Europe/Paris',
  Madrid: 'Europe/Madrid',
  Milano: 'Europe/Rome',
  Wien: 'Europe/Vienna',
  Praha: 'Europe/Prague',
};
const GENERATED_WEEKS = [WEEKS.shop, WEEKS.late, WEEKS.split, WEEKS.noSunday, WEEKS.shop, WEEKS.allDay, null];

/**
 * `count` stores spread over Europe, deterministic, with tags, sets, custom fields and opening
 * hours in their cities' zones (a few without; a third with special days, one in fifty
 * temporarily closed).
 */
export function generateFinderPayload(count: number, options: PayloadOptions = {}): FinderPayload {
  const base = createFinderPayload(options);
  const today = options.today ?? new Date().toISOString().slice(0, 10);
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
      time_zone: CITY_ZONES[city] as string,
      hours: GENERATED_WEEKS[i % GENERATED_WEEKS.length] ?? null,
      ...(i % 3 === 0
        ? {
            special_days: [
              [addDays(today, 1 + (i % 5)), [], 'Public holiday'],
              [addDays(today, 8), ['10:00-14:00'], 'Stocktaking'],
            ] satisfies SpecialDay[],
          }
        : {}),
      ...(i % 50 === 0
        ? { temporarily_closed: true, reopens_on: addDays(today, i % 100 === 0 ? 20 : 200) }
        : {}),
      tags: TAGS.filter((_, k) => (i + k) % (k + 2) === 0).map((tag) => tag.slug),
      sets: [SETS[i % SETS.length]?.id as number],
      custom_fields: {
        notes: 'Parking in the courtyard.',
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
