// The map's code (map.ts, Leaflet and Leaflet's stylesheet) is not in widget.js nor in the view
// file: it is the map file built beside them (built-files.ts), fetched the first time a view on
// the page shows a map, so finders with show_map false never download it.
import { builtMapFile, importWithin, MAP_LOAD_TIMEOUT_MS } from './built-files.ts';

export type MapModule = typeof import('./map.ts');

let loading: Promise<MapModule> | undefined;

/**
 * The map module, imported once per page however many views show a map. A failed or timed-out
 * import stays failed for the page: the promise is kept, so a file that arrives after the bound
 * is not used until the page loads again (and browsers keep a failed module in their module map).
 */
export function loadMapModule(scriptUrl: string): Promise<MapModule> {
  loading ??= importWithin<MapModule>(new URL(builtMapFile(), scriptUrl).href, MAP_LOAD_TIMEOUT_MS);
  return loading;
}
