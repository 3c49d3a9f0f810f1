// Request and response shapes of POST /analytics (the widget's events) and
// GET /finders/{id}/analytics (the report; docs/api.md, Widget analytics).
import { z } from 'zod';
import { bodyIdSchema } from '../../lib/schemas.ts';
import { analyticsEventTypes } from './analytics.table.ts';

/** At most 100 events per request, the widget's largest batch (docs/api.md, Widget analytics). */
export const MAX_EVENTS_PER_REQUEST = 100;
export const MAX_QUERY_LENGTH = 200;
export const MAX_SESSION_ID_LENGTH = 64;

const analyticsEventSchema = z.object({
  type: z.enum(analyticsEventTypes, {
    error: `The type must be one of: ${analyticsEventTypes.join(', ')}.`,
  }),
  location_id: bodyIdSchema('location_id').nullish(),
  query: z
    .string({ error: 'The query must be a string.' })
    .max(MAX_QUERY_LENGTH, `The query may not be greater than ${MAX_QUERY_LENGTH} characters.`)
    .nullish(),
  session_id: z
    .string({ error: 'The session_id must be a string.' })
    .max(MAX_SESSION_ID_LENGTH, `The session_id may not be greater than ${MAX_SESSION_ID_LENGTH} characters.`)
    .nullish(),
  occurred_at: z.iso
    .datetime({
      offset: true,
      error: 'The occurred_at must be an ISO 8601 date-time (e.g. 2024-05-01T12:00:00Z).',
    })
    .nullish(),
});
export type AnalyticsEventInput = z.infer<typeof analyticsEventSchema>;

export const analyticsBodySchema = z.object({
  finder_token: z
    .string({ error: 'The finder_token field is required.' })
    .trim()
    .min(1, 'The finder_token field is required.')
    .max(200, 'The finder_token may not be greater than 200 characters.'),
  events: z
    .array(analyticsEventSchema, { error: 'The events field must be an array.' })
    .max(MAX_EVENTS_PER_REQUEST, `At most ${MAX_EVENTS_PER_REQUEST} events may be sent at once.`),
});

export const analyticsReceivedSchema = z.object({ received: z.number().int() });

/** Default 30 days, 1..90 (docs/api.md, Widget analytics). */
export const analyticsReportQuerySchema = z.object({
  days: z.coerce
    .number({ error: 'The days must be an integer.' })
    .int('The days must be an integer.')
    .min(1, 'The days must be between 1 and 90.')
    .max(90, 'The days must be between 1 and 90.')
    .default(30),
});

const count = z.number().int();

export const analyticsReportSchema = z.object({
  /** Views count once per session (docs/api.md, Widget analytics); the others every event. */
  views: count,
  clicks: count,
  searches: count,
  location_selects: count,
  /** Unique sessions of the window: a session active on several of its days counts once. */
  sessions: count,
  days: count,
  daily: z.array(
    z.object({
      /** A UTC day, `YYYY-MM-DD`. */
      date: z.string(),
      views: count,
      clicks: count,
      searches: count,
      /** Unique sessions of the day. */
      sessions: count,
    }),
  ),
  top_searches: z.array(z.object({ query: z.string(), count })),
  top_locations: z.array(
    z.object({
      location_id: z.number().int(),
      /** The location's current title; null once it is deleted (or not of this workspace). */
      title: z.string().nullable(),
      count,
    }),
  ),
});
export type AnalyticsReport = z.infer<typeof analyticsReportSchema>;
