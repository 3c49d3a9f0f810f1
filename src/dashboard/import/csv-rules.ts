// What the service's CSV import takes (docs/api.md, "CSV import"): the largest file, and the
// columns it reads, in the template's order.
import { WEEKDAYS } from '../../lib/hours/hours.model.ts';

/** The service answers 413 above this: checked before the upload starts. */
export const MAX_CSV_BYTES = 50 * 1024 * 1024;

export const CSV_TEMPLATE_COLUMNS = [
  'external_id',
  'title',
  'address',
  'city',
  'state',
  'zip',
  'country',
  'lat',
  'lng',
  'phone',
  'email',
  'website',
  'description',
  'tags',
  'sets',
  'time_zone',
  ...WEEKDAYS.map((day) => `hours_${day}` as const),
  'special_hours',
  'temporarily_closed',
  'reopens_on',
];
