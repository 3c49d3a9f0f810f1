// Widget analytics: the events the widget posts (POST /analytics, public, by finder token and
// under the finder's origin rules) and the report a workspace member reads
// (GET /finders/{id}/analytics). What is stored is what a real widget sends and no more: a
// view once per session and finder, a bounded number of events per client address and finder
// an hour, locations the finder shows. Events keep what the widget said, cleaned: texts
// trimmed, times it could not have meant pulled back to the moment of receipt (see eventTime).

import type { Actor } from '../../lib/actor.ts';
import type { QuotaLimiter } from '../../lib/limiter.ts';
import { createOriginNotAllowedError, finderAllowsOrigin } from '../../lib/origins.ts';
import { createFinderNotFoundError } from '../finders/finders.errors.ts';
import type { FindersRepository } from '../finders/finders.repository.ts';
import type { AnalyticsRepository, NewAnalyticsEvent, ReportWindow } from './analytics.repository.ts';
import type { AnalyticsEventInput, AnalyticsReport } from './analytics.schemas.ts';

/**
 * Events one client address may have stored per finder and hour (docs/api.md, Widget
 * analytics). A visit sends a view and one event per search, opened location and followed link;
 * this admits dozens of busy visits an hour from one address (an office, a carrier's shared
 * address), and no more than this from a script.
 */
export const EVENTS_PER_HOUR = 600;
export const EVENTS_WINDOW_SECONDS = 3600;

/** Events older than this when they arrive are dated at receipt: a visitor's clock was off. */
export const MAX_EVENT_AGE_MS = 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

interface AnalyticsServiceDeps {
  events: AnalyticsRepository;
  finders: FindersRepository;
  /** EVENTS_PER_HOUR per client address and finder (createQuotaLimiter). */
  quota: QuotaLimiter;
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
  quota,
  now = () => new Date(),
}: AnalyticsServiceDeps) {
  return {
    /**
     * 404 for an unknown token, 403 for a site the finder does not list. Then what may be
     * stored: the events within the hour's budget of the client address (`client`) and finder,
     * the first of the batch first; of those, views with a session and events naming no
     * location or one the finder shows; of those, one insert that skips a session's second
     * view. Answers how many events were stored; the rest are acknowledged all the same.
     */
    async record(
      caller: { finderToken: string; origin: string | undefined; client: string },
      input: AnalyticsEventInput[],
    ): Promise<{ received: number }> {
      const finder = await events.findFinderByToken(caller.finderToken);
      if (!finder) throw createFinderNotFoundError();
      if (!finderAllowsOrigin(finder.authorizedUrls, caller.origin)) throw createOriginNotAllowedError();
      const admitted = await quota.take(`${finder.id}:${caller.client}`, input.length);
      const receivedAt = now();
      const rows: NewAnalyticsEvent[] = input
        .slice(0, admitted)
        .map((event) => ({
          type: event.type,
          locationId: event.location_id ?? null,
          query: cleanText(event.query),
          sessionId: cleanText(event.session_id),
          occurredAt: eventTime(event.occurred_at, receivedAt),
        }))
        // A view is counted per session: one without a session has nothing to be counted in.
        .filter((row) => row.type !== 'view' || row.sessionId !== null);
      const named = [...new Set(rows.flatMap((row) => (row.locationId === null ? [] : [row.locationId])))];
      const shown = await events.shownLocationIds(finder, named);
      const kept = rows.filter((row) => row.locationId === null || shown.has(row.locationId));
      return { received: await events.insertEvents(finder.id, kept) };
    },

    /** Members of the finder's workspace (admins: any); anyone else gets the 404 of a missing finder. */
    async report(actor: Actor, finderId: number, days: number): Promise<AnalyticsReport> {
      if (!(await finders.findAccessibleRef(actor, finderId))) throw createFinderNotFoundError();
      const window = reportWindow(days, now());
      const [daily, sessions, topSearches, topLocations] = await Promise.all([
        events.daily(finderId, window),
        events.sessions(finderId, window),
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
        sessions,
        days,
        daily: daily.map(({ date, views, clicks, searches, sessions }) => ({
          date,
          views,
          clicks,
          searches,
          sessions,
        })),
        top_searches: topSearches.map(({ query, count }) => ({ query, count })),
        top_locations: topLocations.map(({ location_id, title, count }) => ({ location_id, title, count })),
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
