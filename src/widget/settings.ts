// The finder settings the widget understands: flat `{key, value}` pairs from the payload, read
// leniently (values may arrive as strings, e.g. "true" or "12") into one typed object with
// defaults. Unknown keys are ignored; a value of the wrong shape falls back to the default.
// docs/api.md "Widget: settings keys and behaviour" documents the same table.
//
// | key                  | value                                   | default                      |
// | language             | "en" | "de" | "fr" | "auto"             | "en"                         |
// | units                | "km" | "mi"                             | "km"                         |
// | direction            | "ltr" | "rtl" | "auto"                  | "auto"                       |
// | primary_color        | "#rrggbb" or "#rgb"                     | "#1d4ed8"                    |
// | tile_url             | http(s) template with {z}, {x}, {y}     | OpenStreetMap's tiles        |
// | tile_attribution     | plain text                              | "© OpenStreetMap contributors" |
// | tile_attribution_url | http(s) URL the attribution links to    | OpenStreetMap's copyright    |
// | default_center       | {lat, lng} (or "lat,lng")               | fit every location           |
// | default_zoom         | 0..19                                   | 11                           |
// | tag_filter_mode      | "any" | "all"                           | "any"                        |
// | show_map             | boolean                                 | true                         |
// | height               | pixels, 320..2000                       | 600                          |
// | search_country       | ISO 3166-1 alpha-2 code                 | none                         |
// | directions_url       | http(s) template with {lat} and {lng}   | Google Maps directions       |
import type { LatLng, SettingEntry } from './types.ts';

export type Language = 'en' | 'de' | 'fr';
export const LANGUAGES: readonly Language[] = ['en', 'de', 'fr'];

export interface WidgetSettings {
  language: Language | 'auto';
  units: 'km' | 'mi';
  direction: 'ltr' | 'rtl' | 'auto';
  primaryColor: string;
  tileUrl: string;
  tileAttribution: string;
  tileAttributionUrl: string | null;
  defaultCenter: LatLng | null;
  defaultZoom: number;
  tagFilterMode: 'any' | 'all';
  showMap: boolean;
  height: number;
  searchCountry: string | null;
  directionsUrl: string;
}

export const OSM_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const OSM_ATTRIBUTION = '© OpenStreetMap contributors';
const OSM_COPYRIGHT_URL = 'https://www.openstreetmap.org/copyright';
// Google's documented cross-platform URL: opens the Maps app on phones, the site elsewhere.
export const GOOGLE_DIRECTIONS_URL = 'https://www.google.com/maps/dir/?api=1&destination={lat},{lng}';

export const DEFAULT_SETTINGS: WidgetSettings = {
  language: 'en',
  units: 'km',
  direction: 'auto',
  primaryColor: '#1d4ed8',
  tileUrl: OSM_TILE_URL,
  tileAttribution: OSM_ATTRIBUTION,
  tileAttributionUrl: OSM_COPYRIGHT_URL,
  defaultCenter: null,
  defaultZoom: 11,
  tagFilterMode: 'any',
  showMap: true,
  height: 600,
  searchCountry: null,
  directionsUrl: GOOGLE_DIRECTIONS_URL,
};

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  return allowed.find((option) => option === text);
}

function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

function asNumber(value: unknown, min: number, max: number): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= min && number <= max
    ? number
    : undefined;
}

function asColor(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  if (/^#[0-9a-f]{3}$/.test(text)) return `#${[...text.slice(1)].map((digit) => digit + digit).join('')}`;
  return undefined;
}

function asHttpUrl(value: unknown, placeholders: string[]): string | undefined {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value.trim())) return undefined;
  const text = value.trim();
  return placeholders.every((placeholder) => text.includes(placeholder)) ? text : undefined;
}

function asText(value: unknown, maxLength: number): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, maxLength) : undefined;
}

function asCenter(value: unknown): LatLng | undefined {
  let candidate = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('{')) {
      try {
        candidate = JSON.parse(text);
      } catch {
        return undefined;
      }
    } else {
      const [lat, lng] = text.split(',').map((part) => part.trim());
      candidate = { lat, lng };
    }
  }
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const { lat, lng } = candidate as Record<string, unknown>;
  const latitude = asNumber(lat, -90, 90);
  const longitude = asNumber(lng, -180, 180);
  return latitude === undefined || longitude === undefined ? undefined : { lat: latitude, lng: longitude };
}

export function parseSettings(entries: readonly SettingEntry[] | undefined): WidgetSettings {
  const raw = new Map<string, unknown>();
  for (const entry of entries ?? []) {
    if (entry && typeof entry.key === 'string') raw.set(entry.key, entry.value);
  }
  const defaults = DEFAULT_SETTINGS;
  const tileUrl = asHttpUrl(raw.get('tile_url'), ['{z}', '{x}', '{y}']) ?? defaults.tileUrl;
  const customTiles = tileUrl !== OSM_TILE_URL;
  const country = asText(raw.get('search_country'), 2);

  return {
    language: oneOf(raw.get('language'), [...LANGUAGES, 'auto'] as const) ?? defaults.language,
    units: oneOf(raw.get('units'), ['km', 'mi'] as const) ?? defaults.units,
    direction: oneOf(raw.get('direction'), ['ltr', 'rtl', 'auto'] as const) ?? defaults.direction,
    primaryColor: asColor(raw.get('primary_color')) ?? defaults.primaryColor,
    tileUrl,
    // Another tile source needs its own credit; OpenStreetMap's would be wrong for it.
    tileAttribution:
      asText(raw.get('tile_attribution'), 300) ?? (customTiles ? '' : defaults.tileAttribution),
    tileAttributionUrl:
      asHttpUrl(raw.get('tile_attribution_url'), []) ?? (customTiles ? null : defaults.tileAttributionUrl),
    defaultCenter: asCenter(raw.get('default_center')) ?? defaults.defaultCenter,
    defaultZoom: asNumber(raw.get('default_zoom'), 0, 19) ?? defaults.defaultZoom,
    tagFilterMode: oneOf(raw.get('tag_filter_mode'), ['any', 'all'] as const) ?? defaults.tagFilterMode,
    showMap: asBoolean(raw.get('show_map')) ?? defaults.showMap,
    height: asNumber(raw.get('height'), 320, 2000) ?? defaults.height,
    searchCountry: country && /^[a-z]{2}$/i.test(country) ? country.toUpperCase() : null,
    directionsUrl: asHttpUrl(raw.get('directions_url'), ['{lat}', '{lng}']) ?? defaults.directionsUrl,
  };
}
