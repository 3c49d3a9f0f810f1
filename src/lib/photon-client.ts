// Photon (komoot's open geocoder over OpenStreetMap data): its one search call and the reading
// of its GeoJSON features, shared by the widget's default autocomplete provider and by the
// keyless geocoder. Photon needs no key. Protocol: GET {base}/api?q=&lat=&lon=&limit=&lang=
// &countrycode= -> a FeatureCollection of Points whose properties follow GeocodeJSON. Photon
// checks its parameters strictly (400 for an unknown one or a language it does not hold).
import { z } from 'zod';
import { requestJson } from './upstream.ts';
import { parseUpstreamBody, upstreamUrl } from './upstream-helpers.ts';

const text = z.string().optional();

export const photonPropertiesSchema = z.object({
  osm_id: z.number().optional(),
  osm_type: text,
  osm_key: text,
  osm_value: text,
  /** house, street, locality, district, city, county, state, country or other. */
  type: text,
  name: text,
  housenumber: text,
  street: text,
  postcode: text,
  locality: text,
  district: text,
  city: text,
  county: text,
  state: text,
  country: text,
  countrycode: text,
});

const featureSchema = z.object({
  geometry: z.object({ coordinates: z.array(z.number()).min(2) }),
  properties: photonPropertiesSchema,
});

const collectionSchema = z.object({ features: z.array(featureSchema) });

export type PhotonProperties = z.output<typeof photonPropertiesSchema>;

export interface PhotonFeature {
  lat: number;
  lng: number;
  properties: PhotonProperties;
}

export interface PhotonSearch {
  q: string;
  lat?: number;
  lon?: number;
  limit?: number;
  lang?: string;
  /** ISO 3166-1 alpha-2. */
  countrycode?: string;
}

export interface PhotonCall {
  service: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The languages a Photon database holds unless its operator chose others. */
const PHOTON_LANGUAGES = new Set(['en', 'de', 'fr', 'it']);

/**
 * Photon answers 400 to a `lang` it does not hold, and knows only bare codes ("de", not
 * "de-DE"). Another language is left out: Photon then answers local names, not an error.
 */
export function photonLanguage(language: string | undefined): string | undefined {
  const primary = language?.split(/[-_]/)[0]?.toLowerCase();
  return primary && PHOTON_LANGUAGES.has(primary) ? primary : undefined;
}

export async function searchPhoton(baseUrl: string, search: PhotonSearch, call: PhotonCall) {
  const url = upstreamUrl(baseUrl, '/api', {
    q: search.q,
    lat: search.lat,
    lon: search.lon,
    limit: search.limit,
    lang: photonLanguage(search.lang),
    // Photon 1.1+; 1.0 rejects a parameter it does not know (400), so the country filter
    // needs a current server.
    countrycode: search.countrycode?.toUpperCase(),
  });
  const { body } = await requestJson(url, call);
  const { features } = parseUpstreamBody(call.service, collectionSchema, body);
  let found: PhotonFeature[] = features.map(({ geometry, properties }) => ({
    // GeoJSON order: [longitude, latitude].
    lng: geometry.coordinates[0]!,
    lat: geometry.coordinates[1]!,
    properties,
  }));
  // Photon before 1.0 ignored parameters it did not know; the filter is applied here as well.
  const country = search.countrycode?.toUpperCase();
  if (country) found = found.filter((feature) => feature.properties.countrycode?.toUpperCase() === country);
  return found;
}

/** Countries whose addresses put the house number before the street ("10 Downing Street"). */
const NUMBER_FIRST = new Set(['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'FR']);

export function photonStreetLine(p: PhotonProperties): string | undefined {
  if (!p.street) return undefined;
  if (!p.housenumber) return p.street;
  return NUMBER_FIRST.has(p.countrycode?.toUpperCase() ?? '')
    ? `${p.housenumber} ${p.street}`
    : `${p.street} ${p.housenumber}`;
}

export const photonCity = (p: PhotonProperties) =>
  p.city ?? (p.type === 'city' ? p.name : undefined) ?? p.locality ?? p.district;

/** "10178 Berlin", "Mountain View, CA 94043", "London SW1A 2AA". */
function localityLine(p: PhotonProperties): string {
  const city = p.type === 'city' ? undefined : photonCity(p);
  const join = (parts: (string | undefined)[], separator: string) => parts.filter(Boolean).join(separator);
  switch (p.countrycode?.toUpperCase()) {
    case 'US':
    case 'CA':
    case 'AU':
      return join([city, join([p.state, p.postcode], ' ')], ', ');
    case 'GB':
    case 'IE':
      return join([city, p.postcode], ' ');
    default:
      return join([p.postcode, city], ' ');
  }
}

/** One line for people: the name (when it is not the street line), street, locality, country. */
export function photonLabel(p: PhotonProperties): string {
  const street = photonStreetLine(p);
  const parts = [p.name !== street ? p.name : undefined, street, localityLine(p), p.country];
  return parts.filter((part, index) => part && parts.indexOf(part) === index).join(', ');
}
