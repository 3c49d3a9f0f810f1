// The one place the widget reads the device's time zone: to say that the times shown are the
// location's ("09:00 (local time)") when the visitor's clock reads another offset than the
// location's at that moment. Statuses, times and the open-now filter never depend on it.
import { MINUTE, offsetAt } from '../lib/hours/hours.zone.ts';

/** Whether the device's UTC offset at `now` differs from that of `timeZone`. */
export function offsetDiffers(timeZone: string, now: number): boolean {
  return offsetAt(timeZone, now) !== -new Date(now).getTimezoneOffset() * MINUTE;
}
