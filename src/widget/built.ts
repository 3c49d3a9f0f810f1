// The one value the build writes into widget.js: the name of the map file it built beside it
// (`widget-map.{content hash}.js`), through esbuild's `define` of MAP_FILE_DEFINE
// (scripts/build-widget.ts). Outside a build the name is not defined.
declare const __LF_MAP_FILE__: string;

export const MAP_FILE_DEFINE = '__LF_MAP_FILE__';

export const builtMapFile = (): string => __LF_MAP_FILE__;
