// Where one embed reads from. By default everything derives from the script's own origin:
// API `{origin}/api`, CDN `{origin}/cdn`; the service that served the script may have written
// its CDN_URL in (served.ts); `data-api` / `data-cdn` on the script tag override both.
import { SERVED_CDN_URL_PLACEHOLDER } from './served.ts';

export interface Endpoints {
  apiUrl: string;
  cdnUrl: string;
}

// A variable, not the constant inline, so the minifier cannot fold the check below away.
const servedCdnUrl: string = SERVED_CDN_URL_PLACEHOLDER;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function resolveEndpoints(script: {
  src: string;
  api?: string | null;
  cdn?: string | null;
  served?: string;
}): Endpoints {
  const origin = new URL(script.src).origin;
  const served = script.served ?? servedCdnUrl;
  const servedCdn = /^https?:\/\//.test(served) ? served : null;
  // Attribute values may be relative; they are read against the script's URL.
  const absolute = (value: string) => trimSlash(new URL(value, script.src).href);
  return {
    apiUrl: absolute(script.api || `${origin}/api`),
    cdnUrl: absolute(script.cdn || servedCdn || `${origin}/cdn`),
  };
}
