// The finder payload the widget reads: the same JSON from the CDN's versioned file and from
// GET /api/ext/finders/details/{token} (docs/api.md, "Widget: settings keys and behaviour").

import type { LatLng } from '../lib/geo.ts';
import type { SpecialDay, WeeklyHours } from '../lib/hours/hours.model.ts';
import type { Refinement } from '../lib/refinements.ts';
import type { ManifestArea } from './chunked/nearest-areas.ts';

export interface SettingEntry {
  key: string;
  value: unknown;
}

export type { Condition, ConditionField, ConditionOp, Refinement } from '../lib/refinements.ts';

export interface Tag {
  id: number;
  name: string;
  slug: string;
}

export interface FinderSet {
  id: number;
  name: string;
}

export type CustomFieldType =
  | 'text'
  | 'textarea'
  | 'number'
  | 'boolean'
  | 'select'
  | 'multiselect'
  | 'url'
  | 'email'
  | 'phone'
  | 'date';

export interface CustomFieldDefinition {
  name: string;
  label: string;
  type: CustomFieldType;
  options?: unknown[] | null;
}

export interface FinderLocation {
  id: number;
  title: string;
  description?: string | null;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  zip?: string | null;
  lat?: number | null;
  lng?: number | null;
  phone?: string | null;
  email?: string | null;
  website?: string | null;
  image_url?: string | null;
  /** Opening hours (src/lib/hours/hours.model.ts); absent in payloads published before them. */
  time_zone?: string | null;
  hours?: WeeklyHours | null;
  temporarily_closed?: boolean;
  reopens_on?: string | null;
  special_days?: SpecialDay[];
  tags: string[];
  sets: number[];
  custom_fields: Record<string, unknown>;
}

export interface FinderPayload {
  id: number;
  name: string;
  token: string;
  /**
   * The finder's authorized_urls as stored (origins, bare hosts, `*.` hosts; empty: every site).
   * The widget refuses to render on a page whose origin they do not admit
   * (src/lib/origin-rules.ts, the rule the API applies).
   */
  authorized_urls: string[];
  settings: SettingEntry[];
  advanced_refinements: Refinement[];
  tags: Tag[];
  sets: FinderSet[];
  custom_fields: CustomFieldDefinition[];
  locations: FinderLocation[];
}

export type { LatLng };

/** Where distances are measured from: a chosen place or the visitor's position. */
export interface Origin extends LatLng {
  label: string;
}

/** Where a chunked finder's locations are (its manifest's `chunked`, read by data.ts). */
export interface ChunkedSource {
  areas: ManifestArea[];
  /** The index file's URL. */
  index: string;
  count: number;
  /** Some location has opening hours. */
  hours: boolean;
  /** Area paths are relative to it: the manifest's URL. */
  base: string;
  /** The cluster summaries file's URL: the map draws them before the index (none in older manifests). */
  clusters?: string;
}
