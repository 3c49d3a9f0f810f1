// The few places every provider fake knows, and the matching they all share: a place matches
// when each typed word is the start of one of its words (typeahead), the best fit first (fewest
// words of the place left unmatched), then the nearest to a bias point. Coordinates and
// addresses are the real ones, so a test reads like a real search.

export type PlaceKind = 'house' | 'poi' | 'street' | 'city';
export type GoogleLocationType = 'ROOFTOP' | 'RANGE_INTERPOLATED' | 'GEOMETRIC_CENTER' | 'APPROXIMATE';

export interface GazetteerPlace {
  key: string;
  kind: PlaceKind;
  /** A POI's or a city's name. */
  name?: string;
  houseNumber?: string;
  street?: string;
  city: string;
  state: string;
  stateCode?: string;
  postcode?: string;
  country: string;
  /** ISO 3166-1 alpha-2 and alpha-3. */
  countryCode: string;
  countryCode3: string;
  lat: number;
  lng: number;
  /** What Google's Geocoding API says of it. */
  googleLocationType: GoogleLocationType;
  /** Google's formatted_address. */
  googleAddress: string;
  osm: { type: 'N' | 'W' | 'R'; id: number; key: string; value: string };
  /** More words it is found by ("uk", "usa"). */
  aliases?: string[];
}

export const GAZETTEER: GazetteerPlace[] = [
  {
    key: 'googleplex',
    kind: 'poi',
    name: 'Googleplex',
    houseNumber: '1600',
    street: 'Amphitheatre Parkway',
    city: 'Mountain View',
    state: 'California',
    stateCode: 'CA',
    postcode: '94043',
    country: 'United States',
    countryCode: 'US',
    countryCode3: 'USA',
    lat: 37.4220936,
    lng: -122.083922,
    googleLocationType: 'ROOFTOP',
    googleAddress: '1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA',
    osm: { type: 'W', id: 23733659, key: 'office', value: 'company' },
    aliases: ['usa', 'google'],
  },
  {
    key: 'downing',
    kind: 'house',
    houseNumber: '10',
    street: 'Downing Street',
    city: 'London',
    state: 'England',
    postcode: 'SW1A 2AA',
    country: 'United Kingdom',
    countryCode: 'GB',
    countryCode3: 'GBR',
    lat: 51.5033635,
    lng: -0.1276248,
    googleLocationType: 'ROOFTOP',
    googleAddress: '10 Downing St, London SW1A 2AA, UK',
    osm: { type: 'W', id: 4244999, key: 'building', value: 'yes' },
    aliases: ['uk'],
  },
  {
    key: 'alexanderplatz',
    kind: 'street',
    street: 'Alexanderplatz',
    city: 'Berlin',
    state: 'Berlin',
    postcode: '10178',
    country: 'Germany',
    countryCode: 'DE',
    countryCode3: 'DEU',
    lat: 52.521918,
    lng: 13.413215,
    googleLocationType: 'GEOMETRIC_CENTER',
    googleAddress: 'Alexanderplatz, 10178 Berlin, Germany',
    osm: { type: 'W', id: 4398357, key: 'highway', value: 'pedestrian' },
    aliases: ['deutschland'],
  },
  {
    key: 'karl-marx-allee',
    kind: 'house',
    houseNumber: '100',
    street: 'Karl-Marx-Allee',
    city: 'Berlin',
    state: 'Berlin',
    postcode: '10243',
    country: 'Germany',
    countryCode: 'DE',
    countryCode3: 'DEU',
    lat: 52.5175,
    lng: 13.4371,
    googleLocationType: 'RANGE_INTERPOLATED',
    googleAddress: 'Karl-Marx-Allee 100, 10243 Berlin, Germany',
    osm: { type: 'N', id: 2877543891, key: 'place', value: 'house' },
    aliases: ['deutschland'],
  },
  {
    key: 'brandenburger-tor',
    kind: 'poi',
    name: 'Brandenburger Tor',
    street: 'Pariser Platz',
    city: 'Berlin',
    state: 'Berlin',
    postcode: '10117',
    country: 'Germany',
    countryCode: 'DE',
    countryCode3: 'DEU',
    lat: 52.5162746,
    lng: 13.3777041,
    googleLocationType: 'GEOMETRIC_CENTER',
    googleAddress: 'Pariser Platz, 10117 Berlin, Germany',
    osm: { type: 'W', id: 518071791, key: 'tourism', value: 'attraction' },
    aliases: ['deutschland', 'brandenburg', 'gate'],
  },
  {
    key: 'berlin',
    kind: 'city',
    name: 'Berlin',
    city: 'Berlin',
    state: 'Berlin',
    country: 'Germany',
    countryCode: 'DE',
    countryCode3: 'DEU',
    lat: 52.5170365,
    lng: 13.3888599,
    googleLocationType: 'APPROXIMATE',
    googleAddress: 'Berlin, Germany',
    osm: { type: 'R', id: 62422, key: 'place', value: 'city' },
    aliases: ['deutschland'],
  },
];

export const placeByKey = (key: string) => GAZETTEER.find((place) => place.key === key);

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function placeWords(place: GazetteerPlace): Set<string> {
  const parts = [
    place.name,
    place.houseNumber,
    place.street,
    place.city,
    place.state,
    place.stateCode,
    place.postcode,
    place.country,
    place.countryCode,
    place.countryCode3,
    ...(place.aliases ?? []),
  ];
  return new Set(parts.flatMap((part) => (part ? words(part) : [])));
}

/** Kilometres between two points (haversine), for the bias. */
function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const h =
    Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
    Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 12_742 * Math.asin(Math.sqrt(h));
}

export interface SearchOptions {
  /** Alpha-2 codes (upper case); absent: everywhere. */
  countries?: string[];
  near?: { lat: number; lng: number };
  limit?: number;
}

export function searchGazetteer(query: string, options: SearchOptions = {}): GazetteerPlace[] {
  const typed = words(query);
  if (typed.length === 0) return [];
  const scored = GAZETTEER.flatMap((place) => {
    if (options.countries && !options.countries.includes(place.countryCode)) return [];
    const own = placeWords(place);
    const matched = new Set<string>();
    for (const word of typed) {
      const hit = [...own].find((candidate) => candidate.startsWith(word));
      if (!hit) return [];
      matched.add(hit);
    }
    const distance = options.near ? distanceKm(options.near, place) : 0;
    return [{ place, unmatched: own.size - matched.size, distance }];
  });
  scored.sort((a, b) => a.unmatched - b.unmatched || a.distance - b.distance);
  return scored.slice(0, options.limit ?? scored.length).map(({ place }) => place);
}

/** "10 Downing Street" in GB and US, "Karl-Marx-Allee 100" elsewhere. */
export function streetLine(place: GazetteerPlace): string | undefined {
  if (!place.street) return undefined;
  if (!place.houseNumber) return place.street;
  return ['US', 'GB'].includes(place.countryCode)
    ? `${place.houseNumber} ${place.street}`
    : `${place.street} ${place.houseNumber}`;
}

/** "Mountain View, California 94043", "London SW1A 2AA", "10178 Berlin". */
export function localityLine(place: GazetteerPlace): string {
  if (place.kind === 'city') return '';
  if (place.countryCode === 'US') return `${place.city}, ${place.state} ${place.postcode ?? ''}`.trim();
  if (place.countryCode === 'GB') return `${place.city} ${place.postcode ?? ''}`.trim();
  return [place.postcode, place.city].filter(Boolean).join(' ');
}

/** The address on one line with the country, the way most providers write it. */
export function fullAddress(place: GazetteerPlace): string {
  const head = place.kind === 'city' ? place.name : streetLine(place);
  return [head, localityLine(place), place.country].filter(Boolean).join(', ');
}

/** A stable opaque id per place and provider, in the provider's style. */
export const opaqueId = (prefix: string, place: GazetteerPlace) =>
  `${prefix}${Buffer.from(place.key).toString('base64url')}`;

export function placeByOpaqueId(prefix: string, id: string): GazetteerPlace | undefined {
  return GAZETTEER.find((place) => opaqueId(prefix, place) === id);
}
