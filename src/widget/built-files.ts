// The files a build writes beside widget.js, and how widget.js imports them: the view file
// (finder-view.ts and all it draws with) and the map file (map.ts with Leaflet). Their names,
// `widget-view.{content hash}.js` and `widget-map.{content hash}.js`, are the values the build
// writes into widget.js (esbuild's `define` of VIEW_FILE_DEFINE and MAP_FILE_DEFINE in
// scripts/build-widget.ts; outside a build they are not defined). Both are ES modules imported
// by URL from wherever widget.js itself came from (the script's own src: the service, or a CDN
// in front of it), so a page's CSP that admits the script by its origin admits them too;
// module scripts are fetched with CORS, which the service answers for any origin. Their names
// carry their content hash: they are cached for good, and widget.js asks for those of its own build.
declare const __LF_MAP_FILE__: string;
declare const __LF_VIEW_FILE__: string;

export const MAP_FILE_DEFINE = '__LF_MAP_FILE__';
export const VIEW_FILE_DEFINE = '__LF_VIEW_FILE__';

export const builtMapFile = (): string => __LF_MAP_FILE__;
export const builtViewFile = (): string => __LF_VIEW_FILE__;

/**
 * How long a view waits for a file before it says it could not be loaded: the map file is
 * about 40 KB compressed, a few seconds on a slow mobile network, and a request the network
 * never answers would otherwise leave its place empty for good.
 */
export const MAP_LOAD_TIMEOUT_MS = 20_000;

/** The module at `url`, or a rejection once `timeoutMs` have passed without it. */
export function importWithin<T>(url: string, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${url} did not arrive in time.`)), timeoutMs);
  });
  return Promise.race([import(url) as Promise<T>, timedOut]).finally(() => clearTimeout(timer));
}
