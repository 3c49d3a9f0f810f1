// Opening hours as a form holds them beside its other fields (the time zone they are read in,
// the regular week, the special days) and as the API takes them: the same three keys in a
// location's body and in an AI import item's payload. Nothing known is sent as null, so hours
// that are not known need no time zone. Pure: no React, no texts.

import type { SpecialHours, WeeklyHours } from '../../lib/hours/hours.model.ts';
import type { FieldErrors } from '../api/errors.ts';
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
} from './hours-draft.ts';

export interface OpeningDraft {
  /** Chosen by hand; null leaves it to the service (derived from the coordinates). */
  zone: string | null;
  week: WeekDraft;
  special: SpecialDayDraft[];
}

/** A zone the service derived from the coordinates, and why a person should check it, if it says. */
export interface DerivedZone {
  zone: string;
  review: string | null;
}

export interface OpeningHoursBody {
  time_zone: string | null;
  hours: WeeklyHours | null;
  special_hours: SpecialHours[] | null;
}

export const openingDraft = (
  zone: string | null,
  hours: WeeklyHours | null | undefined,
  special: readonly SpecialHours[] | null | undefined,
): OpeningDraft => ({ zone, week: weekDraft(hours), special: specialDrafts(special) });

export const openingHoursBody = (draft: OpeningDraft): OpeningHoursBody => ({
  time_zone: draft.zone,
  hours: weekBody(draft.week),
  special_hours: draft.special.length > 0 ? specialBody(draft.special) : null,
});

/** What the service would refuse in the hours, at the paths of its 422 (`hours.mon.1`, `special_hours.0.date`). */
export const openingProblems = (draft: OpeningDraft, blank: BlankMessages): FieldErrors => ({
  ...weekProblems(draft.week, blank),
  ...specialProblems(draft.special, 'special_hours', blank),
});
