// The columns the CSV import of locations reads by name (docs/api.md, CSV import): names only,
// shared by the import and the custom field rules. The import reads a header as one of these
// before it looks among the workspace's custom fields, so a custom field may not be named so.
import { WEEKDAYS } from './hours/hours.model.ts';

/** Plain text columns and their length limits (the same as the location API). */
export const textColumns = {
  title: 255,
  address: 255,
  external_id: 255,
  description: 10_000,
  city: 120,
  state: 120,
  country: 120,
  zip: 40,
  phone: 120,
  email: 255,
  website: 2048,
} as const;
export type TextColumn = keyof typeof textColumns;
export type Column = TextColumn | 'lat' | 'lng';
export const columns: Column[] = [...(Object.keys(textColumns) as TextColumn[]), 'lat', 'lng'];
/** Columns naming things of the workspace, `|`-separated, created when missing. */
export type NamedColumn = 'tags' | 'sets';

export const HOURS_COLUMNS = WEEKDAYS.map((day) => `hours_${day}` as const);
export type HoursColumn = (typeof HOURS_COLUMNS)[number];
export const OPENING_COLUMNS = [
  'time_zone',
  ...HOURS_COLUMNS,
  'special_hours',
  'temporarily_closed',
  'reopens_on',
] as const;
export type OpeningColumn = (typeof OPENING_COLUMNS)[number];

/** Every header the import reads by name (lower case), before custom fields. */
export const knownColumns = new Set<string>([...columns, 'tags', 'sets', ...OPENING_COLUMNS]);
