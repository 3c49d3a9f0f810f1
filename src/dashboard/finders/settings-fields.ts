// The finder settings the design form edits, read and checked by the widget's own reading of
// settings (src/widget/settings.ts), so the form accepts exactly what the widget will show: a
// value the widget would ignore (and replace by its default) is refused beside its field.
import { parseSettings, type WidgetSettings } from '../../widget/settings.ts';
import type { MessageKey } from '../i18n/en.ts';

export type FieldKind = 'select' | 'text' | 'number' | 'switch' | 'color' | 'center';

export interface SettingField {
  key: string;
  kind: FieldKind;
  label: MessageKey;
  hint?: MessageKey;
  options?: readonly { value: string; label: MessageKey }[];
  /** The form's value for what the widget reads. */
  read: (settings: WidgetSettings) => string | boolean;
}

export const SETTING_FIELDS: readonly SettingField[] = [
  {
    key: 'primary_color',
    kind: 'color',
    label: 'design.primary_color',
    hint: 'design.primary_color_hint',
    read: (s) => s.primaryColor,
  },
  {
    key: 'language',
    kind: 'select',
    label: 'design.language',
    options: [
      { value: 'en', label: 'design.language.en' },
      { value: 'de', label: 'design.language.de' },
      { value: 'fr', label: 'design.language.fr' },
      { value: 'auto', label: 'design.language.auto' },
    ],
    read: (s) => s.language,
  },
  {
    key: 'units',
    kind: 'select',
    label: 'design.units',
    options: [
      { value: 'km', label: 'design.units.km' },
      { value: 'mi', label: 'design.units.mi' },
    ],
    read: (s) => s.units,
  },
  {
    key: 'direction',
    kind: 'select',
    label: 'design.direction',
    options: [
      { value: 'auto', label: 'design.direction.auto' },
      { value: 'ltr', label: 'design.direction.ltr' },
      { value: 'rtl', label: 'design.direction.rtl' },
    ],
    read: (s) => s.direction,
  },
  {
    key: 'tag_filter_mode',
    kind: 'select',
    label: 'design.tag_filter_mode',
    options: [
      { value: 'any', label: 'design.tag_filter_mode.any' },
      { value: 'all', label: 'design.tag_filter_mode.all' },
    ],
    read: (s) => s.tagFilterMode,
  },
  { key: 'show_map', kind: 'switch', label: 'design.show_map', read: (s) => s.showMap },
  // One setting, {lat, lng}, typed as two numbers (`lat,lng` in the form's values).
  {
    key: 'default_center',
    kind: 'center',
    label: 'mapui.default_center',
    hint: 'mapui.default_center_hint',
    read: (s) => (s.defaultCenter ? `${s.defaultCenter.lat},${s.defaultCenter.lng}` : ''),
  },
  {
    key: 'default_zoom',
    kind: 'number',
    label: 'mapui.default_zoom',
    hint: 'mapui.default_zoom_hint',
    read: (s) => String(s.defaultZoom),
  },
  {
    key: 'height',
    kind: 'number',
    label: 'design.height',
    hint: 'design.height_hint',
    read: (s) => String(s.height),
  },
  {
    key: 'search_country',
    kind: 'text',
    label: 'design.search_country',
    hint: 'design.search_country_hint',
    read: (s) => s.searchCountry ?? '',
  },
  {
    key: 'tile_url',
    kind: 'text',
    label: 'design.tile_url',
    hint: 'design.tile_url_hint',
    read: (s) => s.tileUrl,
  },
  { key: 'tile_attribution', kind: 'text', label: 'design.tile_attribution', read: (s) => s.tileAttribution },
  {
    key: 'tile_attribution_url',
    kind: 'text',
    label: 'design.tile_attribution_url',
    read: (s) => s.tileAttributionUrl ?? '',
  },
  {
    key: 'directions_url',
    kind: 'text',
    label: 'design.directions_url',
    hint: 'design.directions_url_hint',
    read: (s) => s.directionsUrl,
  },
];

/** The keys the form owns; any other stored setting is kept as it is. */
export const FORM_KEYS = new Set(SETTING_FIELDS.map((field) => field.key));

export type FormValues = Record<string, string | boolean>;

export function formValues(entries: readonly { key: string; value: unknown }[]): FormValues {
  const settings = parseSettings(entries);
  return Object.fromEntries(SETTING_FIELDS.map((field) => [field.key, field.read(settings)]));
}

/** A centre's two typed parts (`lat,lng`); an empty centre is two empty parts. */
export function centerParts(value: string): { lat: string; lng: string } {
  const [lat = '', lng = ''] = value.split(',');
  return { lat, lng };
}

/** The typed parts the widget could not read as a centre, by their names in the form. */
export function refusedCenterParts(value: string): string[] {
  const { lat, lng } = centerParts(value);
  const bad = (text: string, bound: number) =>
    text.trim() === '' || !Number.isFinite(Number(text)) || Math.abs(Number(text)) > bound;
  return [...(bad(lat, 90) ? ['default_center.lat'] : []), ...(bad(lng, 180) ? ['default_center.lng'] : [])];
}

function typed(field: SettingField, value: string | boolean): unknown {
  if (field.kind === 'number') return Number(value);
  if (field.kind === 'center' && typeof value === 'string') {
    const { lat, lng } = centerParts(value);
    // A missing part stays text, which the widget refuses (Number('') would be 0, a real place).
    if (lat.trim() === '' || lng.trim() === '') return value;
    return { lat: Number(lat), lng: Number(lng) };
  }
  return typeof value === 'string' ? value.trim() : value;
}

/**
 * The settings to store: the form's values where they differ from the widget's defaults, the
 * stored settings the form does not own kept; and the keys whose value the widget would ignore
 * (it reads its default instead of what was entered).
 */
export function settingsFromForm(
  values: FormValues,
  stored: readonly { key: string; value: unknown }[],
): { settings: { key: string; value: unknown }[]; refused: string[] } {
  const defaults = formValues([]);
  const settings = stored.filter((entry) => !FORM_KEYS.has(entry.key));
  const refused: string[] = [];
  for (const field of SETTING_FIELDS) {
    const value = values[field.key];
    if (value === undefined || value === '') continue;
    const entry = { key: field.key, value: typed(field, value) };
    const read = field.read(parseSettings([entry]));
    const fallback = defaults[field.key];
    if (read !== fallback) settings.push(entry);
    else if (String(value).trim().toLowerCase() !== String(fallback).toLowerCase()) refused.push(field.key);
  }
  return { settings, refused };
}
