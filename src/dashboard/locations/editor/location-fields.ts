// A location's own text and number fields as the editor shows them, in the order of the form,
// and how the form's text becomes the API's value (empty text is null; positions are numbers).
import type { components } from '../../api/schema.gen.ts';
import type { MessageKey } from '../../i18n/en.ts';
import type { Location } from '../location-pages.ts';

type OwnKey =
  | 'title'
  | 'external_id'
  | 'description'
  | 'address'
  | 'city'
  | 'state'
  | 'zip'
  | 'country'
  | 'lat'
  | 'lng'
  | 'phone'
  | 'email'
  | 'website';

export interface OwnField {
  key: OwnKey;
  label: MessageKey;
  type?: 'number' | 'email' | 'tel' | 'url';
  multiline?: boolean;
  required?: boolean;
  hint?: MessageKey;
}

export const OWN_FIELDS: readonly OwnField[] = [
  { key: 'title', label: 'location.title', required: true },
  { key: 'address', label: 'location.address' },
  { key: 'zip', label: 'location.zip' },
  { key: 'city', label: 'location.city' },
  { key: 'state', label: 'location.state' },
  { key: 'country', label: 'location.country' },
  { key: 'lat', label: 'location.lat', type: 'number', hint: 'location.position_hint' },
  { key: 'lng', label: 'location.lng', type: 'number' },
  { key: 'phone', label: 'location.phone', type: 'tel' },
  { key: 'email', label: 'location.email', type: 'email' },
  { key: 'website', label: 'location.website', type: 'url' },
  { key: 'external_id', label: 'location.external_id' },
  { key: 'description', label: 'location.description', multiline: true },
];

export type OwnValues = Record<OwnKey, string>;

export function ownValues(location: Location | undefined): OwnValues {
  return Object.fromEntries(
    OWN_FIELDS.map((field) => {
      const value = location?.[field.key];
      return [field.key, value === null || value === undefined ? '' : String(value)];
    }),
  ) as OwnValues;
}

type OwnBody = Required<Pick<components['schemas']['UpdateLocationInput'], OwnKey>>;

/** The body's own fields: trimmed text, empty as null (the title stays text), positions as numbers. */
export function ownBody(values: OwnValues): OwnBody {
  return Object.fromEntries(
    OWN_FIELDS.map((field) => {
      const text = values[field.key].trim();
      if (text === '') return [field.key, field.key === 'title' ? '' : null];
      return [field.key, field.type === 'number' ? Number(text) : text];
    }),
  ) as OwnBody;
}
