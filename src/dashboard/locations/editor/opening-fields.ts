// A location's opening hours as its editor holds them (time zone, week, special days,
// temporary closure) and as the API takes them: nothing known is sent as null, so a location
// without hours needs no time zone; a reopening date only with the closure.
import type { components } from '../../api/schema.gen.ts';
import {
  type BlankMessages,
  type SpecialDayDraft,
  specialBody,
  specialDrafts,
  specialProblems,
  type WeekDraft,
  weekBody,
  weekDraft,
  weekProblems,
} from '../../hours/hours-draft.ts';
import type { Location } from '../location-pages.ts';

export interface OpeningValues {
  /** Chosen by hand; null leaves it to the service (derived from the coordinates). */
  zone: string | null;
  week: WeekDraft;
  special: SpecialDayDraft[];
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
  zone: location && !location.time_zone_derived ? location.time_zone : null,
  week: weekDraft(location?.hours),
  special: specialDrafts(location?.special_hours),
  closed: location?.temporarily_closed ?? false,
  reopensOn: location?.reopens_on ?? '',
});

export const openingBody = (values: OpeningValues): OpeningBody => ({
  time_zone: values.zone,
  hours: weekBody(values.week),
  special_hours: values.special.length > 0 ? specialBody(values.special) : null,
  temporarily_closed: values.closed,
  reopens_on: values.closed && values.reopensOn !== '' ? values.reopensOn : null,
});

/** What the service would refuse in the hours, at the paths of its 422. */
export const openingProblems = (values: OpeningValues, blank: BlankMessages) => ({
  ...weekProblems(values.week, blank),
  ...specialProblems(values.special, 'special_hours', blank),
});
