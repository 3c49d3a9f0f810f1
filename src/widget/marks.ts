// What the widget tells the host page about its progress: performance marks (for measuring,
// e.g. by scripts/bench-widget-ui.ts) and the event each container dispatches once its list is
// on screen (`detail: {token, locations}`; it bubbles out of the shadow root).
export const LIST_RENDERED_MARK = 'location-finder:list-rendered';
/** Every location is known: a chunked finder's index has loaded (a single file's: with the list). */
export const COMPLETE_MARK = 'location-finder:complete';
export const MAP_RENDERED_MARK = 'location-finder:map-rendered';
export const READY_EVENT = 'locationfinder:ready';
