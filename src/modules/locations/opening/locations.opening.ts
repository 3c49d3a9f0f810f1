// The opening-hours columns a write of a location sets, and the rules between its fields
// (docs/api.md, "Opening hours"): the time zone is given, or derived from the coordinates
// when it is not (again when they move, unless it was given); hours need a time zone; a
// reopening date belongs to a temporary closure. Shared by the API's writes and the CSV import.
import type { FieldErrors } from '../../../lib/errors.ts';
import type { SpecialHours, WeeklyHours } from '../../../lib/hours/hours.model.ts';
import { type DerivedTimeZone, deriveTimeZone } from './locations.time-zone.ts';

/** What a write says about a location's opening (undefined: not said, keep). */
export interface OpeningInput {
  time_zone?: string | null;
  hours?: WeeklyHours | null;
  special_hours?: SpecialHours[] | null;
  temporarily_closed?: boolean;
  reopens_on?: string | null;
  lat?: number | null;
  lng?: number | null;
  country?: string | null;
}

export interface OpeningColumns {
  timeZone?: string | null;
  timeZoneDerived?: boolean;
  timeZoneReview?: string | null;
  hours?: WeeklyHours | null;
  specialHours?: SpecialHours[] | null;
  temporarilyClosed?: boolean;
  reopensOn?: string | null;
}

/** What a write reads of the location it changes (a row of `locations`). */
export interface OpeningBefore {
  lat: number | null;
  lng: number | null;
  country: string | null;
  timeZone: string | null;
  timeZoneDerived: boolean;
  hours: WeeklyHours | null;
  specialHours: SpecialHours[] | null;
  temporarilyClosed: boolean;
  reopensOn: string | null;
}

const NOTHING: OpeningBefore = {
  lat: null,
  lng: null,
  country: null,
  timeZone: null,
  timeZoneDerived: false,
  hours: null,
  specialHours: null,
  temporarilyClosed: false,
  reopensOn: null,
};

/** The value a write leaves: the new one when said, else the old. */
const after = <T>(said: T | undefined, before: T): T => (said === undefined ? before : said);

/** How a write finds the zone of a place: deriveTimeZone, or a bulk writer's zones found earlier. */
export type DeriveTimeZone = (
  lat: number,
  lng: number,
  country: string | null,
) => DerivedTimeZone | undefined;

/**
 * The opening columns of a write of `input` over the location `before` (none when creating),
 * with the problems found put in `errors` by field.
 */
export function openingColumns(
  input: OpeningInput,
  before: OpeningBefore | undefined,
  errors: FieldErrors,
  derive: DeriveTimeZone = deriveTimeZone,
): OpeningColumns {
  const old = before ?? NOTHING;
  const columns: OpeningColumns = {};
  if (input.hours !== undefined) columns.hours = input.hours;
  if (input.special_hours !== undefined) columns.specialHours = input.special_hours;
  if (input.temporarily_closed !== undefined) columns.temporarilyClosed = input.temporarily_closed;
  if (input.reopens_on !== undefined) columns.reopensOn = input.reopens_on;
  // Ending a closure ends its reopening date too.
  if (input.temporarily_closed === false && input.reopens_on === undefined) columns.reopensOn = null;

  const lat = after(input.lat, old.lat);
  const lng = after(input.lng, old.lng);
  const country = after(input.country, old.country);
  const placeMoved = input.lat !== undefined || input.lng !== undefined || input.country !== undefined;
  if (typeof input.time_zone === 'string') {
    Object.assign(columns, { timeZone: input.time_zone, timeZoneDerived: false, timeZoneReview: null });
  } else if (input.time_zone === null || old.timeZone === null || (placeMoved && old.timeZoneDerived)) {
    const derived = lat !== null && lng !== null ? derive(lat, lng, country) : undefined;
    Object.assign(
      columns,
      derived
        ? { timeZone: derived.timeZone, timeZoneDerived: true, timeZoneReview: derived.review }
        : { timeZone: null, timeZoneDerived: false, timeZoneReview: null },
    );
  }

  const timeZone = after(columns.timeZone, old.timeZone);
  const hours = after(columns.hours, old.hours);
  const specialHours = after(columns.specialHours, old.specialHours);
  const closed = after(columns.temporarilyClosed, old.temporarilyClosed);
  const reopensOn = after(columns.reopensOn, old.reopensOn);
  if (timeZone === null && (hours !== null || specialHours !== null || reopensOn !== null)) {
    errors.time_zone = [
      'The time zone field is required when hours, special hours or a reopening date are given (or give lat and lng to derive it).',
    ];
  }
  if (reopensOn !== null && !closed) {
    errors.reopens_on = ['The reopens on date needs temporarily_closed to be true.'];
  }
  return columns;
}
