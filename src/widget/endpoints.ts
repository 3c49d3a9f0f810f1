// Where one embed reads from. By default everything derives from the script's own origin:
// API `{origin}/api`, CDN `{origin}/cdn`; the service that served the script may have written
// its CDN_URL in (`served`, see served.ts); `data-api` / `data-cdn` on the script tag override both.

export interface Endpoints {
  apiUrl: string;
  cdnUrl: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function resolveEndpoints(script: {
  src: string;
  api?: string | null;
  cdn?: string | null;
  /** What the service wrote in for its CDN_URL, or the placeholder where none was. */
  served: string;
}): Endpoints {
  const origin = new URL(script.src).origin;
  const servedCdn = /^https?:\/\//.test(script.served) ? script.served : null;
  // Attribute values may be relative; they are read against the script's URL.
  const absolute = (value: string) => trimSlash(new URL(value, script.src).href);
  return {
    apiUrl: absolute(script.api || `${origin}/api`),
    cdnUrl: absolute(script.cdn || servedCdn || `${origin}/cdn`),
  };
}
