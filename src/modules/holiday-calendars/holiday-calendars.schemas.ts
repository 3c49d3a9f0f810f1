// Request and response shapes of /holiday-calendars (docs/api.md, Holiday calendars). A
// calendar's days have the shape of a location's special hours; it reaches locations directly
// (location_ids) and through sets (set_ids). An absent list on update leaves the assignments
// alone; a present one replaces them.
import { z } from 'zod';
import { specialHoursOutputSchema, specialHoursSchema } from '../../lib/hours/hours.schemas.ts';
import { paginationQuerySchema } from '../../lib/pagination.ts';
import { bodyIdSchema, CONTROL_CHARACTER, queryIdSchema } from '../../lib/schemas.ts';
import type { HolidayCalendarRow } from './holiday-calendars.table.ts';

/** Locations one calendar names directly: a chain's stores of a country; more go through sets. */
export const MAX_CALENDAR_LOCATIONS = 10_000;
export const MAX_CALENDAR_SETS = 1000;
/**
 * Calendars of one workspace: one per country or region and year is a few dozen for a chain;
 * the bound keeps a workspace's list and a build's calendar combinations small.
 */
export const MAX_WORKSPACE_CALENDARS = 200;

const nameSchema = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, 'The name field is required.')
  .max(120, 'The name may not be greater than 120 characters.')
  .refine((name) => !CONTROL_CHARACTER.test(name), 'The name may not contain control characters.');

const idsSchema = (field: string, label: string, max: number) =>
  z
    .array(bodyIdSchema(label), { error: `The ${field} field must be a list of ids.` })
    .max(max, `The ${field} may not have more than ${max} items.`)
    .transform((ids) => [...new Set(ids)]);

const calendarFields = {
  name: nameSchema,
  days: specialHoursSchema,
  location_ids: idsSchema('location ids', 'location id', MAX_CALENDAR_LOCATIONS).optional(),
  set_ids: idsSchema('set ids', 'set id', MAX_CALENDAR_SETS).optional(),
};

export const createHolidayCalendarBodySchema = z.object({
  workspace_id: bodyIdSchema('workspace id'),
  ...calendarFields,
});
export type CreateHolidayCalendarBody = z.infer<typeof createHolidayCalendarBodySchema>;

export const updateHolidayCalendarBodySchema = z.object(calendarFields).partial();
export type UpdateHolidayCalendarBody = z.infer<typeof updateHolidayCalendarBodySchema>;

export const listHolidayCalendarsQuerySchema = paginationQuerySchema.extend({
  workspace_id: queryIdSchema('workspace id').optional(),
});

export const holidayCalendarSchema = z.object({
  id: z.number().int(),
  workspace_id: z.number().int(),
  name: z.string(),
  days: specialHoursOutputSchema,
  location_ids: z.array(z.number().int()),
  set_ids: z.array(z.number().int()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type HolidayCalendarPayload = z.infer<typeof holidayCalendarSchema>;

export interface CalendarAssignments {
  locationIds: number[];
  setIds: number[];
}

export const toHolidayCalendarPayload = (
  row: HolidayCalendarRow,
  { locationIds, setIds }: CalendarAssignments,
): HolidayCalendarPayload => ({
  id: row.id,
  workspace_id: row.workspaceId,
  name: row.name,
  days: row.days.map((day) => ({
    date: day.date,
    end_date: day.end_date ?? null,
    hours: day.hours,
    label: day.label ?? null,
  })),
  location_ids: locationIds,
  set_ids: setIds,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
