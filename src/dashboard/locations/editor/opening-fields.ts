// A location's opening hours as its editor holds them (the shared time zone, week and special
// days, hours/opening-draft.ts, and the location's own temporary closure) and as the API takes
// them: a reopening date only with the closure.
import type { components } from '../../api/schema.gen.ts';
import {
  type DerivedZone,
  type OpeningDraft,
  openingDraft,
  openingHoursBody,
} from '../../hours/opening-draft.ts';
import type { LatLng } from '../../map/tiles.ts';
import type { Location } from '../location-pages.ts';

export interface OpeningValues extends OpeningDraft {
  closed: boolean;
  reopensOn: string;
}

type OpeningBody = Required<
  Pick<
    components['schemas']['UpdateLocationInput'],
    'time_zone' | 'hours' | 'special_hours' | 'temporarily_closed' | 'reopens_on'
  >
>;

export const openingValues = (location: Location | undefined): OpeningValues => ({
  ...openingDraft(
    location && !location.time_zone_derived ? location.time_zone : null,
    location?.hours,
    location?.special_hours,
  ),
  closed: location?.temporarily_closed ?? false,
  reopensOn: location?.reopens_on ?? '',
});

export const openingBody = (values: OpeningValues): OpeningBody => ({
  ...openingHoursBody(values),
  temporarily_closed: values.closed,
  reopens_on: values.closed && values.reopensOn !== '' ? values.reopensOn : null,
});

/**
 * The zone the service derived for the location, when it was left to it and the form still
 * holds the position and country it was derived and checked from: once the pin, the coordinates
 * or the country change, the save derives and checks again, and the stored zone and its review
 * are no longer worth showing or keeping.
 */
export const derivedZone = (
  location: Location | undefined,
  position: LatLng | null,
  country: string,
): DerivedZone | null =>
  location?.time_zone_derived &&
  location.time_zone &&
  position?.lat === location.lat &&
  position?.lng === location.lng &&
  country.trim() === (location.country ?? '')
    ? { zone: location.time_zone, review: location.time_zone_review }
    : null;
