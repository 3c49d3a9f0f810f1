// The opening-hours columns of a location import (docs/api.md, CSV import): time_zone,
// hours_mon ... hours_sun, special_hours, temporarily_closed and reopens_on. Each cell is read
// as text (src/lib/hours/hours.text.ts) and checked by the API's own rules (hours.rules.ts and
// the schemas of a time zone and a date), so a bad cell is a row error naming its column with
// the API's message. The rules between fields (a derived time zone, hours needing one, a
// reopening date needing a closure) depend on the location a row updates, unknown until the
// staged file is matched: they are settled after the match by the API's openingColumns in
// memory, once for each set of matched rows reading the same values, over what the staging and
// the matched locations hold (settleOpening). The costly part of deriving a zone, finding the
// zones at a point, runs as the row is read (zonesOfRow), so that the settle only judges them.
import type { FieldErrors } from '../../../lib/errors.ts';
import {
  type SpecialHours,
  WEEKDAYS,
  type Weekday,
  type WeeklyHours,
} from '../../../lib/hours/hours.model.ts';
import { checkSpecialHours, checkWeeklyHours, storedSpecialHours } from '../../../lib/hours/hours.rules.ts';
import { dateSchema, timeZoneSchema } from '../../../lib/hours/hours.schemas.ts';
import { parseDayText, parseSpecialHoursText } from '../../../lib/hours/hours.text.ts';
import { HOURS_COLUMNS, type OpeningColumn } from '../../../lib/location-csv-columns.ts';
import { booleanFromText } from '../../custom-fields/custom-fields.values.ts';
import { TEMPORARILY_CLOSED_MESSAGE } from '../locations.schemas.ts';
import { type OpeningBefore, type OpeningInput, openingColumns } from '../opening/locations.opening.ts';
import { judgeZones, zonesAt } from '../opening/locations.time-zone.ts';

/** What a row says of the opening; a key is absent when its column is not in the file. */
export interface ParsedOpening {
  /** null: derive it from the coordinates (an empty cell). */
  timeZone?: string | null;
  /** The week of the hours_* columns present; null when none of their cells is filled. */
  hours?: WeeklyHours | null;
  specialHours?: SpecialHours[] | null;
  temporarilyClosed?: boolean;
  reopensOn?: string | null;
  /** The zones at the row's own coordinates (zonesAt), when its time zone may be derived from them. */
  zones?: readonly string[];
}

/**
 * Whether the rows say a field: false, never (the column is not in the file); true, always (a
 * CSV column: an empty cell says there is none, so the zone is derived and the hours cleared);
 * 'unless null', when a row holds a value (an AI item: null says nothing, and the location it
 * updates keeps its own).
 */
export type Said = boolean | 'unless null';

/** Which of the fields that decide the opening a file holds (its header). */
export interface OpeningLayout {
  timeZone: Said;
  hours: Said;
  specialHours: Said;
  temporarilyClosed: boolean;
  reopensOn: boolean;
  /** The coordinates, both or neither ('unless null': a row without either keeps the location's). */
  lat: Said;
  lng: Said;
  country: boolean;
}

type ColumnIndex = Partial<Record<string, number>>;

export function openingLayoutOf(index: ColumnIndex): OpeningLayout {
  const has = (column: string) => index[column] !== undefined;
  return {
    timeZone: has('time_zone'),
    hours: HOURS_COLUMNS.some(has),
    specialHours: has('special_hours'),
    temporarilyClosed: has('temporarily_closed'),
    reopensOn: has('reopens_on'),
    lat: has('lat'),
    lng: has('lng'),
    country: has('country'),
  };
}

/** Whether writing the file can change a location's opening columns: it says anything they depend on. */
export const settlesOpening = (layout: OpeningLayout) => Object.values(layout).some(Boolean);

type Fail = (field: string, message: string) => void;

/** `"9-18": message` when a message concerns one interval or entry of a cell. */
const about = (part: string | undefined, message: string) =>
  part === undefined ? message : `"${part}": ${message}`;

/** What reading a cell (or a week's cells) gave: the value (undefined when refused) and the problems. */
interface CellReading<T> {
  value: T | undefined;
  problems: [field: string, message: string][];
}

const MAX_CACHED_READINGS = 1_000;

/**
 * Readings of cell texts already read, shared by every file. Files repeat their hours (the
 * stores of a chain share a week): reading and checking a week costs some 20 µs, looking it
 * up 1 or 2. A reading depends on the text alone; its value is frozen, as rows share it.
 * Bounded: emptied when full.
 */
class ReadingCache<T extends object> {
  private readonly readings = new Map<string, CellReading<T | null>>();

  read(key: string, fail: Fail, compute: (fail: Fail) => T | null | undefined): T | null | undefined {
    let reading = this.readings.get(key);
    if (!reading) {
      const problems: [string, string][] = [];
      const value = compute((field, message) => problems.push([field, message]));
      reading = { value: value ? deepFreeze(value) : value, problems };
      if (this.readings.size >= MAX_CACHED_READINGS) this.readings.clear();
      this.readings.set(key, reading);
    }
    for (const [field, message] of reading.problems) fail(field, message);
    return reading.value;
  }
}

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value))
    if (typeof inner === 'object' && inner !== null) deepFreeze(inner);
  return Object.freeze(value);
}

const weeks = new ReadingCache<WeeklyHours>();
const specialHours = new ReadingCache<SpecialHours[]>();

function readWeek(record: string[], index: ColumnIndex, fail: Fail): WeeklyHours | null | undefined {
  const cells = HOURS_COLUMNS.map((column) => {
    const at = index[column];
    return at === undefined ? null : record[at]!;
  });
  if (cells.every((cell) => cell === null)) return undefined;
  return weeks.read(JSON.stringify(cells), fail, (failWeek) => weekOf(cells, failWeek));
}

/** The week of the hours_* cells (null: the column is not in the file). */
function weekOf(cells: (string | null)[], fail: Fail): WeeklyHours | null | undefined {
  const week: WeeklyHours = {};
  let readable = true;
  WEEKDAYS.forEach((day, d) => {
    const column = HOURS_COLUMNS[d]!;
    const text = cells[d];
    if (text === null || text === undefined) return;
    const reading = parseDayText(text);
    if ('error' in reading) {
      fail(column, reading.error);
      readable = false;
    } else if (reading.value !== undefined) {
      week[day] = reading.value;
    }
  });
  if (!readable) return undefined;
  // The rules themselves rather than the API's schema around them: a third of the time per
  // row, and the week is already in the schema's shape and order.
  const problems = checkWeeklyHours(week);
  for (const { path, message } of problems) {
    const [day, interval] = path as [Weekday, number | undefined];
    fail(`hours_${day}`, about(interval === undefined ? undefined : week[day]?.[interval], message));
  }
  if (problems.length > 0) return undefined;
  return Object.keys(week).length === 0 ? null : week;
}

const readSpecialHours = (text: string, fail: Fail) =>
  specialHours.read(text, fail, (failEntries) => specialHoursOf(text, failEntries));

function specialHoursOf(text: string, fail: Fail): SpecialHours[] | null | undefined {
  const reading = parseSpecialHoursText(text);
  if ('error' in reading) {
    fail('special_hours', reading.error);
    return undefined;
  }
  const { entries, texts } = reading.value;
  if (entries.length === 0) return null;
  const problems = checkSpecialHours(entries);
  for (const { path, message } of problems) {
    const entry = path[0];
    fail('special_hours', about(typeof entry === 'number' ? texts[entry] : undefined, message));
  }
  return problems.length > 0 ? undefined : storedSpecialHours(entries);
}

/**
 * The opening columns of a row as it writes them, each cell checked as the API checks the
 * field; problems go to `fail` under the column's name. `index` says where each column sits.
 */
export function readOpening(record: string[], index: ColumnIndex, fail: Fail): ParsedOpening {
  const opening: ParsedOpening = {};
  const cell = (column: OpeningColumn) => {
    const at = index[column];
    return at === undefined ? undefined : record[at]!.trim();
  };

  const timeZone = cell('time_zone');
  if (timeZone === '') opening.timeZone = null;
  else if (timeZone !== undefined) {
    const checked = timeZoneSchema.safeParse(timeZone);
    if (checked.success) opening.timeZone = checked.data;
    else fail('time_zone', checked.error.issues[0]!.message);
  }

  const hours = readWeek(record, index, fail);
  if (hours !== undefined) opening.hours = hours;

  const special = cell('special_hours');
  if (special !== undefined) {
    const entries = readSpecialHours(special, fail);
    if (entries !== undefined) opening.specialHours = entries;
  }

  const closed = cell('temporarily_closed');
  if (closed === '') opening.temporarilyClosed = false;
  else if (closed !== undefined) {
    const value = booleanFromText(closed);
    if (value === undefined) fail('temporarily_closed', TEMPORARILY_CLOSED_MESSAGE);
    else opening.temporarilyClosed = value;
  }

  const reopensOn = cell('reopens_on');
  if (reopensOn === '') opening.reopensOn = null;
  else if (reopensOn !== undefined) {
    const checked = dateSchema('reopens on date').safeParse(reopensOn);
    if (checked.success) opening.reopensOn = checked.data;
    else fail('reopens_on', checked.error.issues[0]!.message);
  }
  return opening;
}

const MAX_CACHED_POINTS = 10_000;
const zonesByPoint = new Map<string, readonly string[]>();

/**
 * zonesAt, remembered for points already looked up (files repeat a point: a mall's stores, a
 * re-import of the same file). Only the very same coordinates share an answer. Bounded: emptied
 * when full.
 */
function zonesAtPoint(lat: number, lng: number): readonly string[] {
  const key = `${lat},${lng}`;
  let zones = zonesByPoint.get(key);
  if (!zones) {
    zones = Object.freeze(zonesAt(lat, lng));
    if (zonesByPoint.size >= MAX_CACHED_POINTS) zonesByPoint.clear();
    zonesByPoint.set(key, zones);
  }
  return zones;
}

/**
 * The zones at a row's own coordinates when its time zone may be derived from them (none is
 * given): found as the row is read, so that the settle after the match only judges them.
 */
export function zonesOfRow(
  lat: number | string | null | undefined,
  lng: number | string | null | undefined,
  opening: ParsedOpening,
): readonly string[] | undefined {
  if (typeof lat !== 'number' || typeof lng !== 'number' || typeof opening.timeZone === 'string')
    return undefined;
  return zonesAtPoint(lat, lng);
}

/**
 * What the settle reads of one matched row: the staged values and the location it updates
 * (old_*); `zones_id` numbers the zones at the row's point (StagedValues).
 */
export interface SettleRow {
  i: number;
  existed: boolean;
  lat: number | null;
  lng: number | null;
  country: string | null;
  time_zone: string | null;
  has_hours: boolean;
  has_special_hours: boolean;
  temporarily_closed: boolean | null;
  reopens_on: string | null;
  zones_id: number | null;
  old_lat: number | null;
  old_lng: number | null;
  old_country: string | null;
  old_time_zone: string | null;
  old_time_zone_derived: boolean | null;
  old_time_zone_review: string | null;
  old_has_hours: boolean | null;
  old_has_special_hours: boolean | null;
  old_temporarily_closed: boolean | null;
  old_reopens_on: string | null;
}

/** The opening columns a row leaves on its location, or why the row cannot be written. */
export type SettledOpening =
  | {
      i: number;
      timeZone: string | null;
      timeZoneDerived: boolean;
      timeZoneReview: string | null;
      reopensOn: string | null;
    }
  | { i: number; errors: { field: string; message: string }[] };

// The rules between fields ask only whether hours and special hours are given, not what they
// are: the settle reads that much of them (the values were checked as the row was read).
const GIVEN_WEEK: WeeklyHours = Object.freeze({}) as WeeklyHours;
const GIVEN_SPECIAL_HOURS: SpecialHours[] = Object.freeze([]) as unknown as SpecialHours[];

/**
 * The opening a matched row leaves, by the API's rules (openingColumns): what the row's file
 * says, over the location it updates (none when it creates one).
 */
export function settleOpening(
  row: SettleRow,
  layout: OpeningLayout,
  zonesOf: (id: number) => readonly string[],
): SettledOpening {
  const input: OpeningInput = {};
  const says = (said: Said, given: boolean) => said === true || (said === 'unless null' && given);
  if (says(layout.timeZone, row.time_zone !== null)) input.time_zone = row.time_zone;
  if (says(layout.hours, row.has_hours)) input.hours = row.has_hours ? GIVEN_WEEK : null;
  if (says(layout.specialHours, row.has_special_hours)) {
    input.special_hours = row.has_special_hours ? GIVEN_SPECIAL_HOURS : null;
  }
  if (layout.temporarilyClosed) input.temporarily_closed = row.temporarily_closed ?? false;
  if (layout.reopensOn) input.reopens_on = row.reopens_on;
  const placed = row.lat !== null || row.lng !== null;
  if (says(layout.lat, placed)) input.lat = row.lat;
  if (says(layout.lng, placed)) input.lng = row.lng;
  if (layout.country) input.country = row.country;
  const before: OpeningBefore | undefined = row.existed
    ? {
        lat: row.old_lat,
        lng: row.old_lng,
        country: row.old_country,
        timeZone: row.old_time_zone,
        timeZoneDerived: row.old_time_zone_derived ?? false,
        hours: row.old_has_hours ? GIVEN_WEEK : null,
        specialHours: row.old_has_special_hours ? GIVEN_SPECIAL_HOURS : null,
        temporarilyClosed: row.old_temporarily_closed ?? false,
        reopensOn: row.old_reopens_on,
      }
    : undefined;
  const errors: FieldErrors = {};
  // The zones at the row's own point were found as it was read; another point (the location's
  // own, when the file has no coordinates) is looked up now.
  const columns = openingColumns(input, before, errors, (lat, lng, country) =>
    judgeZones(
      row.zones_id !== null && lat === row.lat && lng === row.lng
        ? zonesOf(row.zones_id)
        : zonesAtPoint(lat, lng),
      country,
    ),
  );
  const problems = Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((message) => ({ field, message })),
  );
  if (problems.length > 0) return { i: row.i, errors: problems };
  // The time zone's three columns are written together or kept together.
  const zone =
    columns.timeZone !== undefined
      ? {
          timeZone: columns.timeZone,
          timeZoneDerived: columns.timeZoneDerived ?? false,
          timeZoneReview: columns.timeZoneReview ?? null,
        }
      : {
          timeZone: row.old_time_zone,
          timeZoneDerived: row.old_time_zone_derived ?? false,
          timeZoneReview: row.old_time_zone_review,
        };
  const reopensOn = columns.reopensOn !== undefined ? columns.reopensOn : row.old_reopens_on;
  return { i: row.i, ...zone, reopensOn };
}
