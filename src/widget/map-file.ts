// The map file (map-loader.ts): its name, the one value the build writes into widget.js
// (`widget-map.{content hash}.js`, through esbuild's `define` of MAP_FILE_DEFINE in
// scripts/build-widget.ts; outside a build it is not defined), and how long a view waits for it.
declare const __LF_MAP_FILE__: string;

export const MAP_FILE_DEFINE = '__LF_MAP_FILE__';

export const builtMapFile = (): string => __LF_MAP_FILE__;

/**
 * How long a view waits for the map file before it says the map could not be loaded: the file
 * is about 40 KB compressed, a few seconds on a slow mobile network, and a request the network
 * never answers would otherwise leave the map's place empty for good.
 */
export const MAP_LOAD_TIMEOUT_MS = 20_000;
