// Widget analytics: the events the widget posts (POST /analytics, public, by finder token and
// under the finder's origin rules) and the report a workspace member reads
// (GET /finders/{id}/analytics). Events keep what the widget said, cleaned: texts trimmed,
// times it could not have meant pulled back to the moment of receipt (see eventTime).
import { createOriginNotAllowedError, finderAllowsOrigin } from '../../lib/origins.ts';
import { createFinderNotFoundError } from '../finders/finders.errors.ts';
import type { FindersRepository } from '../finders/finders.repository.ts';
import type { Actor } from '../workspaces/workspaces.access.ts';
import type { AnalyticsRepository, NewAnalyticsEvent, ReportWindow } from './analytics.repository.ts';
import type { AnalyticsEventInput, AnalyticsReport } from './analytics.schemas.ts';

/** Events older than this when they arrive are dated at receipt: a visitor's clock was off. */
export const MAX_EVENT_AGE_MS = 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/** What ingestion needs of the finder a token names. */
export interface EventFinder {
  id: number;
  authorizedUrls: string[];
}

interface AnalyticsServiceDeps {
  events: AnalyticsRepository;
  finders: FindersRepository;
  /** The finder of a public token (the one lookup of the widget's public routes). */
  findFinderByToken: (token: string) => Promise<EventFinder | undefined>;
  now?: () => Date;
}

/**
 * A widget's time, unless it cannot be right: later than receipt (a clock ahead) or older than
 * a day (a clock far behind; the widget sends within seconds, or when the page is hidden).
 * Either way the receipt time is the better guess, and the event still counts.
 */
function eventTime(given: string | null | undefined, receivedAt: Date): Date {
  if (!given) return receivedAt;
  const at = new Date(given);
  const age = receivedAt.getTime() - at.getTime();
  return age < 0 || age > MAX_EVENT_AGE_MS ? receivedAt : at;
}

/** Trimmed, inner runs of white space as one space; empty is no text. */
function cleanText(value: string | null | undefined): string | null {
  const cleaned = value?.trim().replace(/\s+/g, ' ');
  return cleaned ? cleaned : null;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The last `days` UTC days, today included. */
export function reportWindow(days: number, now: Date): ReportWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (days - 1) * DAY_MS);
  return { from, to: new Date(today + DAY_MS), fromDay: isoDay(from), toDay: isoDay(new Date(today)) };
}

export function createAnalyticsService({
  events,
  finders,
  findFinderByToken,
  now = () => new Date(),
}: AnalyticsServiceDeps) {
  return {
    /** 404 for an unknown token, 403 for a site the finder does not list; one insert for the batch. */
    async record(
      caller: { finderToken: string; origin: string | undefined },
      input: AnalyticsEventInput[],
    ): Promise<{ received: number }> {
      const finder = await findFinderByToken(caller.finderToken);
      if (!finder) throw createFinderNotFoundError();
      if (!finderAllowsOrigin(finder.authorizedUrls, caller.origin)) throw createOriginNotAllowedError();
      const receivedAt = now();
      const rows: NewAnalyticsEvent[] = input.map((event) => ({
        finderId: finder.id,
        type: event.type,
        locationId: event.location_id ?? null,
        query: cleanText(event.query),
        sessionId: cleanText(event.session_id),
        occurredAt: eventTime(event.occurred_at, receivedAt),
      }));
      return { received: await events.insertEvents(rows) };
    },

    /** Members of the finder's workspace (admins: any); anyone else gets the 404 of a missing finder. */
    async report(actor: Actor, finderId: number, days: number): Promise<AnalyticsReport> {
      if (!(await finders.findAccessibleRef(actor, finderId))) throw createFinderNotFoundError();
      const window = reportWindow(days, now());
      const [daily, topSearches, topLocations] = await Promise.all([
        events.daily(finderId, window),
        events.topSearches(finderId, window),
        events.topLocations(finderId, window),
      ]);
      const total = (field: 'views' | 'clicks' | 'searches' | 'location_selects') =>
        daily.reduce((sum, day) => sum + day[field], 0);
      return {
        views: total('views'),
        clicks: total('clicks'),
        searches: total('searches'),
        location_selects: total('location_selects'),
        days,
        daily: daily.map(({ date, views, clicks, searches }) => ({ date, views, clicks, searches })),
        top_searches: topSearches.map(({ query, count }) => ({ query, count })),
        top_locations: topLocations.map(({ location_id, title, count }) => ({ location_id, title, count })),
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
