// Per-IP limits that several routes share. A route's own `config.rateLimit` gets a store of its
// own (keyed by method and URL), so two routes could never count together; this makes one
// onRequest hook per limit from the app's @fastify/rate-limit instead: one counter per client
// address under the limit's name, in Redis when REDIS_URL is set (every process counts
// together), else in this process. Over the limit: 429 `rate_limited` with Retry-After (the
// errorResponseBuilder of app.ts).
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { throttledAddress } from '../lib/http.ts';

export interface SharedRateLimit {
  /** The counter's name; every route given a hook of this name counts into one bucket per IP. */
  name: string;
  /** Requests allowed per client address and window. */
  max: number;
  timeWindowMs: number;
}

/** The client address a per-IP limit counts (IPv6 per /64: see throttledAddress). */
export const clientAddress = (request: FastifyRequest): string => throttledAddress(request.ip);

/** The hook to put in `onRequest` of each route of the limit (made once, shared by them). */
export function sharedRateLimit(app: FastifyInstance, limit: SharedRateLimit): onRequestAsyncHookHandler {
  return app.rateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) => `${limit.name}:${clientAddress(request)}`,
  }) as onRequestAsyncHookHandler;
}

/** 30 a minute per IP across GET /mapping/autocomplete and GET /mapping/places (docs/api.md, Limits). */
export const PLACE_SEARCH_LIMIT: SharedRateLimit = { name: 'places', max: 30, timeWindowMs: 60_000 };

/** 120 a minute per IP for POST /analytics (docs/api.md, Widget analytics). */
export const ANALYTICS_LIMIT: SharedRateLimit = { name: 'analytics', max: 120, timeWindowMs: 60_000 };
