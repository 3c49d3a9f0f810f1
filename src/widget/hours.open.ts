// What the list's filters read of opening hours, apart from hours.view.ts's drawing: whether a
// finder has hours at all (the open-now filter and the minute's tick are there for them) and
// whether a location is open at an instant.
import type { OpeningSchedule } from '../lib/hours/hours.model.ts';
import { isOpenAt } from '../lib/hours/hours.status.ts';
import type { FinderLocation } from './types.ts';

/** Whether any location has opening hours. */
export const hasHours = (locations: FinderLocation[]) =>
  locations.some(
    (location) => location.hours || location.temporarily_closed || location.special_days?.length,
  );

/** Whether a schedule (a chunked finder's index holds each distinct one once) is open at `now`. */
export const isScheduleOpen = (schedule: OpeningSchedule, now: number) => isOpenAt(schedule, now);

// A payload published before opening hours lacks their fields: isOpenAt answers false for them.
export const isOpenNow = (location: FinderLocation, now: number) =>
  isScheduleOpen(location as OpeningSchedule, now);
