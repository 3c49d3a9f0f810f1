// Zod schemas of opening hours for the API's bodies and answers (locations, holiday
// calendars): the shapes of hours.model.ts, checked by hours.rules.ts with the path of each
// problem. Named in the OpenAPI document (src/openapi.components.ts).
import { z } from 'zod';
import {
  dayNumber,
  type StoredSpecialHours,
  WEEKDAYS,
  type Weekday,
  type WeeklyHours,
} from './hours.model.ts';
import { checkSpecialHours, checkWeeklyHours, type HoursProblem, storedSpecialHours } from './hours.rules.ts';
import { readTimeZone } from './hours.zone-name.ts';

const report = (problems: HoursProblem[], ctx: z.RefinementCtx) => {
  for (const problem of problems)
    ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
};

const intervalsSchema = z
  .array(z.string({ error: 'Each interval must be a string such as 09:00-18:00.' }), {
    error: 'A day must be a list of intervals such as ["09:00-18:00"] ([] for closed).',
  })
  .describe('Intervals HH:MM-HH:MM in local time; [] closed');

/**
 * The regular week, `mon` ... `sun`: a missing day is unknown, [] is closed. Other keys are
 * refused (a misspelt day would otherwise read as unknown).
 */
export const weeklyHoursSchema = z
  .strictObject(
    Object.fromEntries(WEEKDAYS.map((day) => [day, intervalsSchema.optional()])) as Record<
      Weekday,
      z.ZodOptional<typeof intervalsSchema>
    >,
    { error: 'The hours must be an object of days mon ... sun, each a list of intervals.' },
  )
  .superRefine((hours, ctx) => report(checkWeeklyHours(hours as WeeklyHours), ctx))
  .transform((hours): WeeklyHours => {
    // Days in week order, whatever the order sent: one text for one week (payload hashes).
    const ordered: WeeklyHours = {};
    for (const day of WEEKDAYS) if (hours[day] !== undefined) ordered[day] = hours[day];
    return ordered;
  });

const specialEntrySchema = z.strictObject(
  {
    date: z.string({ error: 'The date must be a date written YYYY-MM-DD.' }).describe('YYYY-MM-DD'),
    end_date: z
      .string({ error: 'The end date must be a date written YYYY-MM-DD.' })
      .nullable()
      .optional()
      .describe('YYYY-MM-DD, inclusive; absent or null: the one day'),
    hours: intervalsSchema,
    label: z
      .string({ error: 'The label must be a string.' })
      .trim()
      .nullable()
      .optional()
      .transform((label) => (label === '' || label === undefined ? null : label)),
  },
  { error: 'Each special hours entry must be an object with date, hours and optionally end_date and label.' },
);

/** Dated exceptions that replace whole days, sorted by date when stored. */
export const specialHoursSchema = z
  .array(specialEntrySchema, { error: 'The special hours must be a list of entries.' })
  .superRefine((entries, ctx) => report(checkSpecialHours(entries), ctx))
  .transform((entries): StoredSpecialHours[] => storedSpecialHours(entries));

export const TIME_ZONE_MESSAGE = 'The time zone must be an IANA time zone name such as Europe/Berlin.';

/** An IANA time zone name the runtime knows, kept in its proper case. */
export const timeZoneSchema = z
  .string({ error: TIME_ZONE_MESSAGE })
  .trim()
  .transform((name, ctx) => {
    const known = readTimeZone(name);
    if (known) return known;
    ctx.addIssue({ code: 'custom', message: TIME_ZONE_MESSAGE });
    return z.NEVER;
  })
  .pipe(z.string().describe('IANA time zone name'));

/** A calendar date `YYYY-MM-DD`. */
export const dateSchema = (field: string) =>
  z
    .string({ error: `The ${field} must be a date written YYYY-MM-DD.` })
    .refine((date) => dayNumber(date) !== undefined, `The ${field} must be a date written YYYY-MM-DD.`);

/** What the API answers for the hours (already checked when stored). */
export const weeklyHoursOutputSchema = z.object(
  Object.fromEntries(WEEKDAYS.map((day) => [day, z.array(z.string()).optional()])) as Record<
    Weekday,
    z.ZodOptional<z.ZodArray<z.ZodString>>
  >,
);
export const specialHoursOutputSchema = z.array(
  z.object({
    date: z.string(),
    end_date: z.string().nullable(),
    hours: z.array(z.string()),
    label: z.string().nullable(),
  }),
);
