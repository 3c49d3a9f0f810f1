// The demo finder's content: a coffee chain with 300 plausible shops in twelve European
// cities (real city centres, shops scattered within a few kilometres, local street names and
// phone formats), four tags, three sets, custom fields and refinements. Deterministic, so two
// runs seed the same demo. In the widget payload's shape; scripts/seed-finder.ts writes it.
import type { FinderLocation, FinderPayload } from '../src/widget/types.ts';

interface City {
  name: string;
  country: string;
  zipBase: number;
  phone: string;
  lat: number;
  lng: number;
  streets: string[];
}

const CITIES: City[] = [
  {
    name: 'Berlin',
    country: 'DE',
    zipBase: 10115,
    phone: '+49 30',
    lat: 52.52,
    lng: 13.405,
    streets: ['Friedrichstraße', 'Torstraße', 'Kastanienallee', 'Oranienstraße', 'Bergmannstraße'],
  },
  {
    name: 'Hamburg',
    country: 'DE',
    zipBase: 20095,
    phone: '+49 40',
    lat: 53.5511,
    lng: 9.9937,
    streets: ['Mönckebergstraße', 'Schanzenstraße', 'Ottenser Hauptstraße', 'Lange Reihe'],
  },
  {
    name: 'München',
    country: 'DE',
    zipBase: 80331,
    phone: '+49 89',
    lat: 48.1374,
    lng: 11.5755,
    streets: ['Sendlinger Straße', 'Leopoldstraße', 'Gärtnerplatz', 'Rosenheimer Straße'],
  },
  {
    name: 'Köln',
    country: 'DE',
    zipBase: 50667,
    phone: '+49 221',
    lat: 50.9375,
    lng: 6.9603,
    streets: ['Ehrenstraße', 'Zülpicher Straße', 'Severinstraße', 'Aachener Straße'],
  },
  {
    name: 'Paris',
    country: 'FR',
    zipBase: 75001,
    phone: '+33 1',
    lat: 48.8566,
    lng: 2.3522,
    streets: ['Rue de Rivoli', 'Rue Oberkampf', 'Boulevard Saint-Germain', 'Rue des Martyrs'],
  },
  {
    name: 'Lyon',
    country: 'FR',
    zipBase: 69001,
    phone: '+33 4',
    lat: 45.764,
    lng: 4.8357,
    streets: ['Rue de la République', 'Rue Mercière', 'Cours Franklin Roosevelt'],
  },
  {
    name: 'Amsterdam',
    country: 'NL',
    zipBase: 1011,
    phone: '+31 20',
    lat: 52.3676,
    lng: 4.9041,
    streets: ['Kalverstraat', 'Haarlemmerdijk', 'Utrechtsestraat', 'Ferdinand Bolstraat'],
  },
  {
    name: 'Wien',
    country: 'AT',
    zipBase: 1010,
    phone: '+43 1',
    lat: 48.2082,
    lng: 16.3738,
    streets: ['Mariahilfer Straße', 'Kärntner Straße', 'Neubaugasse'],
  },
  {
    name: 'Zürich',
    country: 'CH',
    zipBase: 8001,
    phone: '+41 44',
    lat: 47.3769,
    lng: 8.5417,
    streets: ['Bahnhofstrasse', 'Langstrasse', 'Niederdorfstrasse'],
  },
  {
    name: 'London',
    country: 'GB',
    zipBase: 1,
    phone: '+44 20',
    lat: 51.5072,
    lng: -0.1276,
    streets: ['Shoreditch High Street', 'Upper Street', 'Borough High Street', 'King’s Road'],
  },
  {
    name: 'Madrid',
    country: 'ES',
    zipBase: 28001,
    phone: '+34 91',
    lat: 40.4168,
    lng: -3.7038,
    streets: ['Calle de Fuencarral', 'Calle Mayor', 'Calle de Alcalá'],
  },
  {
    name: 'Milano',
    country: 'IT',
    zipBase: 20121,
    phone: '+39 02',
    lat: 45.4642,
    lng: 9.19,
    streets: ['Corso Buenos Aires', 'Via Torino', 'Corso di Porta Ticinese'],
  },
];

const TAGS = [
  { id: 1, name: 'Wi-Fi', slug: 'wi-fi' },
  { id: 2, name: 'Terrace', slug: 'terrace' },
  { id: 3, name: 'Open late', slug: 'open-late' },
  { id: 4, name: 'Roastery', slug: 'roastery' },
];

const SETS = [
  { id: 1, name: 'Flagship' },
  { id: 2, name: 'Express' },
  { id: 3, name: 'Partner cafés' },
];

export const DEMO_LOCATION_COUNT = 300;

export function demoFinderContent(): FinderPayload {
  let seed = 7;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
  const locations: FinderLocation[] = Array.from({ length: DEMO_LOCATION_COUNT }, (_, i) => {
    const city = CITIES[i % CITIES.length] as City;
    const street = city.streets[Math.floor(random() * city.streets.length)] as string;
    const number = 1 + Math.floor(random() * 180);
    const tags = TAGS.filter((_, k) => random() < [0.8, 0.35, 0.25, 0.1][k]!).map((tag) => tag.slug);
    const set = i % 25 === 0 ? 1 : i % 3 === 0 ? 2 : i % 7 === 0 ? 3 : undefined;
    const zip =
      city.country === 'GB' ? `EC${1 + (i % 4)}A ${1 + (i % 9)}BB` : String(city.zipBase + (i % 40));
    return {
      id: i + 1,
      title: `Northwind Coffee ${city.name} ${street}`,
      description: set === 1 ? 'Our flagship: roasting on site, tastings every Saturday.' : null,
      address: city.country === 'FR' || city.country === 'GB' ? `${number} ${street}` : `${street} ${number}`,
      city: city.name,
      state: null,
      country: city.country,
      zip,
      lat: Number((city.lat + (random() - 0.5) * 0.08).toFixed(6)),
      lng: Number((city.lng + (random() - 0.5) * 0.12).toFixed(6)),
      phone: `${city.phone} ${String(1_000_000 + Math.floor(random() * 8_999_999))}`,
      email: `${city.name
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z]/g, '')}${i + 1}@northwind.example`,
      website: 'https://northwind.example/shops',
      image_url: null,
      tags,
      sets: set === undefined ? [] : [set],
      custom_fields: {
        opening_hours: tags.includes('open-late')
          ? 'Mon–Sun 7:00–23:00'
          : 'Mon–Sat 7:00–19:00\nSun 9:00–17:00',
        seats: 10 + Math.floor(random() * 90),
        services: [
          'takeaway',
          ...(random() < 0.3 ? ['delivery'] : []),
          ...(random() < 0.2 ? ['catering'] : []),
        ],
        step_free: random() < 0.7,
      },
    };
  });
  return {
    id: 0,
    name: 'Northwind Coffee shops',
    token: '',
    // Every site may embed the demo; a customer's finder lists its own.
    authorized_urls: [],
    settings: [
      { key: 'units', value: 'km' },
      { key: 'language', value: 'auto' },
    ],
    advanced_refinements: [
      {
        name: 'Delivers',
        match: 'all',
        conditions: [{ field: 'custom_field.services', op: 'contains', value: 'delivery' }],
      },
      {
        name: 'Step-free access',
        match: 'all',
        conditions: [{ field: 'custom_field.step_free', op: 'eq', value: true }],
      },
    ],
    tags: TAGS,
    sets: SETS,
    custom_fields: [
      { name: 'opening_hours', label: 'Opening hours', type: 'textarea', options: null },
      { name: 'seats', label: 'Seats', type: 'number', options: null },
      {
        name: 'services',
        label: 'Services',
        type: 'multiselect',
        options: ['takeaway', 'delivery', 'catering'],
      },
      { name: 'step_free', label: 'Step-free access', type: 'boolean', options: null },
    ],
    locations,
  };
}
