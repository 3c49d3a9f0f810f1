// The map's code (map.ts, Leaflet and Leaflet's stylesheet) is not in widget.js: it is the map
// file built beside it, fetched the first time a view on the page shows a map, so finders
// with show_map false never download it. It is an ES module imported by URL from wherever
// widget.js itself came from (the script's own src: the service, or a CDN in front of it), so
// a page's CSP that admits the script by its origin admits this file too; module scripts are
// fetched with CORS, which the service answers for any origin. Its name carries its content
// hash: it is cached for good, and widget.js asks for the one of its own build.
import { builtMapFile, MAP_LOAD_TIMEOUT_MS } from './map-file.ts';

export type MapModule = typeof import('./map.ts');

let loading: Promise<MapModule> | undefined;

function imported(url: string): Promise<MapModule> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('The map file did not arrive in time.')), MAP_LOAD_TIMEOUT_MS);
  });
  return Promise.race([import(url) as Promise<MapModule>, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * The map module, imported once per page however many views show a map. A failed or timed-out
 * import stays failed for the page: the promise is kept, so a file that arrives after the bound
 * is not used until the page loads again (and browsers keep a failed module in their module map).
 */
export function loadMapModule(scriptUrl: string): Promise<MapModule> {
  loading ??= imported(new URL(builtMapFile(), scriptUrl).href);
  return loading;
}
