// The finder origin rules on the server's side, for every public finder route (the payload,
// analytics, the place search): which origin a request comes from (Origin, else Referer) and
// the 403 for one the finder does not list. The rules themselves live in origin-rules.ts,
// which the widget bundles too, so the browser and the service apply one definition.
import { createForbiddenError } from './errors.ts';

export {
  finderAllowsOrigin,
  formatOriginRule,
  isOriginAllowed,
  type OriginRule,
  parseOriginRule,
} from './origin-rules.ts';

/** The origin a browser request comes from: Origin, else the origin of Referer. */
export function requestOrigin(headers: { origin?: string; referer?: string }): string | undefined {
  for (const candidate of [headers.origin, headers.referer]) {
    if (!candidate || candidate === 'null') continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    } catch {
      // An unparsable header names no origin; the next one may.
    }
  }
  return undefined;
}

/** 403 of every public finder route whose caller's origin is not listed (docs/api.md, Finders). */
export const createOriginNotAllowedError = () =>
  createForbiddenError('This website is not allowed to use this finder.');
