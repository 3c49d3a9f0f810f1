// Visitor events for POST {API}/analytics, batched: sent every few seconds and when the page is
// hidden or left, at most 100 per request. navigator.sendBeacon carries them (a text/plain
// body is CORS-safelisted, so no preflight, and it survives the page closing); fetch with
// keepalive is the fallback. The session id is random, per page load, in memory only. A view
// that ends (its container removed) sends what it still holds.
import type { Lifetime } from './lifetime.ts';

export type AnalyticsEventType = 'view' | 'search' | 'click' | 'location_select';

export interface AnalyticsEvent {
  type: AnalyticsEventType;
  location_id?: number;
  query?: string;
  session_id: string;
  occurred_at: string;
}

export interface Tracker {
  track(type: AnalyticsEventType, details?: { location_id?: number; query?: string }): void;
  flush(): void;
}

const FLUSH_INTERVAL_MS = 4000;
const MAX_EVENTS_PER_REQUEST = 100;
const BODY_TYPE = 'text/plain;charset=UTF-8';

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

// One visit, one id, shared by every widget on the page.
const sessionId = randomId();
// The service counts a view once per session and finder: a finder mounted again on the page
// (a second container, a single-page app rendering it anew) sends none.
const viewedFinders = new Set<string>();

function send(url: string, body: string): void {
  try {
    if (navigator.sendBeacon?.(url, new Blob([body], { type: BODY_TYPE }))) return;
  } catch {
    // Some browsers throw instead of returning false (e.g. over a size quota): use fetch.
  }
  void fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': BODY_TYPE },
    keepalive: true,
    credentials: 'omit',
    mode: 'cors',
  }).catch(() => {
    // Analytics must never disturb the visitor; a lost batch is accepted.
  });
}

export function createTracker(apiUrl: string, token: string, lifetime: Lifetime): Tracker {
  const url = `${apiUrl}/analytics`;
  let queue: AnalyticsEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    while (queue.length > 0) {
      const events = queue.slice(0, MAX_EVENTS_PER_REQUEST);
      queue = queue.slice(MAX_EVENTS_PER_REQUEST);
      send(url, JSON.stringify({ finder_token: token, events }));
    }
  };

  lifetime.listen(document, 'visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
  lifetime.listen(window, 'pagehide', flush);
  lifetime.add(flush);

  return {
    track(type, details = {}) {
      if (lifetime.ended) return;
      if (type === 'view') {
        if (viewedFinders.has(token)) return;
        viewedFinders.add(token);
      }
      queue.push({ type, ...details, session_id: sessionId, occurred_at: new Date().toISOString() });
      if (queue.length >= MAX_EVENTS_PER_REQUEST) flush();
      else timer ??= setTimeout(flush, FLUSH_INTERVAL_MS);
    },
    flush,
  };
}
