// Builds the embeddable widget (src/widget, browser TypeScript) with esbuild into two minified
// files: dist/widget/widget.js, the script a page embeds, and the map file
// widget-map.{content hash}.js (src/widget/map.ts with Leaflet and its stylesheet, an ES
// module widget.js imports only for finders that show the map; its name is written into
// widget.js). Each gets precompressed forms, .gz and .br (gzip 9, brotli 11: seconds, once
// per build), and manifest.json holds their hashes and sizes for GET /widget.js and GET
// /widget-map.{hash}.js. widget.js's compressed files hold everything before the CDN
// placeholder compressed and the rest stored, so the service can write its CDN_URL in without
// compressing again (src/modules/widget-assets/widget-assets.precompressed.ts). `npm run build` runs it;
// `npm start` rebuilds when the build is missing or older than its sources. Run directly:
// `tsx scripts/build-widget.ts`.
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Plugin, transform } from 'esbuild';
import { writeAtomic } from '../src/lib/atomic-write.ts';
import { compressBody } from '../src/lib/content-coding.ts';
import { projectRoot } from '../src/lib/project-root.ts';
import {
  contentHash,
  MANIFEST_FILE,
  MAP_FILE_PATTERN,
  type ModuleFileEntry,
  mapFileName,
  VIEW_FILE_PATTERN,
  viewFileName,
  type WidgetManifest,
  widgetDistDir,
} from '../src/modules/widget-assets/widget-assets.bundle.ts';
import {
  compressHead,
  type PrecompressedCoding,
  withStoredTail,
} from '../src/modules/widget-assets/widget-assets.precompressed.ts';
import { MAP_FILE_DEFINE, VIEW_FILE_DEFINE } from '../src/widget/built-files.ts';
import { SERVED_CDN_URL_PLACEHOLDER } from '../src/widget/served.ts';

const WIDGET_SOURCES = path.join(projectRoot, 'src', 'widget');
const MAP_ENTRY = path.join(WIDGET_SOURCES, 'map.ts');
const VIEW_ENTRY = path.join(WIDGET_SOURCES, 'finder-view.ts');
/** Files outside src/widget that the widget bundles: the rules it applies as the service does. */
const SHARED_SOURCES = [
  path.join(projectRoot, 'src', 'lib', 'origin-rules.ts'),
  path.join(projectRoot, 'src', 'lib', 'bits.ts'),
  path.join(projectRoot, 'src', 'lib', 'clusters.ts'),
  path.join(projectRoot, 'src', 'lib', 'color-contrast.ts'),
  path.join(projectRoot, 'src', 'lib', 'deltas.ts'),
  path.join(projectRoot, 'src', 'lib', 'geo.ts'),
  path.join(projectRoot, 'src', 'lib', 'json-lists.ts'),
  path.join(projectRoot, 'src', 'lib', 'refinements.ts'),
  path.join(projectRoot, 'src', 'lib', 'hours', 'hours.model.ts'),
  path.join(projectRoot, 'src', 'lib', 'hours', 'hours.status.ts'),
  path.join(projectRoot, 'src', 'lib', 'hours', 'hours.zone.ts'),
];
const WIDGET_FILE = 'widget.js';
/**
 * The most the stored tail (from the CDN placeholder to the end) may hold: it is sent
 * uncompressed. The placeholder lands there because src/widget/index.ts imports served.ts last.
 */
const MAX_TAIL_BYTES = 4 * 1024;
const CODINGS: readonly PrecompressedCoding[] = ['gzip', 'br'];
const SUFFIX: Record<PrecompressedCoding, string> = { gzip: '.gz', br: '.br' };
const LEAFLET_PACKAGE = `${path.sep}node_modules${path.sep}leaflet${path.sep}`;

// Leaflet's package points at its UMD build; its ES module build lets esbuild drop the wrapper.
const leafletEsm: Plugin = {
  name: 'leaflet-esm',
  setup(builder) {
    builder.onResolve({ filter: /^leaflet$/ }, () => ({
      path: path.join(projectRoot, 'node_modules', 'leaflet', 'dist', 'leaflet-src.esm.js'),
    }));
  },
};

// Stylesheets go into shadow roots as text; minified first, as the script is.
const minifiedCssText: Plugin = {
  name: 'minified-css-text',
  setup(builder) {
    builder.onLoad({ filter: /\.css$/ }, async (args) => {
      const { code } = await transform(await readFile(args.path, 'utf8'), { loader: 'css', minify: true });
      return { contents: code.trim(), loader: 'text' };
    });
  },
};

/** What a compile makes: widget.js (naming the other two), the view file or the map file. */
type Target = { kind: 'widget'; mapFile: string; viewFile: string } | { kind: 'view' } | { kind: 'map' };

/**
 * widget.js: a classic script (one IIFE, for a plain script tag), naming the view and map
 * files. Those two: ES modules, so widget.js gets their exports from import() without a global.
 */
function buildOptions(target: Target, extra: BuildOptions = {}): BuildOptions {
  return {
    entryPoints: [
      target.kind === 'map'
        ? MAP_ENTRY
        : target.kind === 'view'
          ? VIEW_ENTRY
          : path.join(WIDGET_SOURCES, 'index.ts'),
    ],
    bundle: true,
    minify: true,
    format: target.kind === 'widget' ? 'iife' : 'esm',
    define:
      target.kind === 'widget'
        ? {
            [MAP_FILE_DEFINE]: JSON.stringify(target.mapFile),
            [VIEW_FILE_DEFINE]: JSON.stringify(target.viewFile),
          }
        : {},
    // Browsers of the last few years; a customer's visitors run anything current.
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    plugins: [leafletEsm, minifiedCssText],
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
    metafile: true,
    ...extra,
  };
}

/** The code, and the files it was built from (absolute paths). */
async function compile(
  target: Target,
  extra: BuildOptions = {},
): Promise<{ code: string; inputs: string[] }> {
  const result = await build(buildOptions(target, extra));
  const output = result.outputFiles?.[0];
  if (!output) throw new Error('esbuild produced no output');
  const inputs = Object.keys(result.metafile?.inputs ?? {}).map((input) => path.resolve(input));
  return { code: output.text, inputs };
}

/** Fails the build when `file` bundles any of `unwanted` (absolute paths or package folders). */
function refuseInputs(file: string, inputs: string[], unwanted: string[], hint: string): void {
  const found = inputs.filter((input) => unwanted.some((entry) => input === entry || input.includes(entry)));
  if (found.length > 0) {
    throw new Error(
      `${file} bundles ${found.map((input) => path.relative(projectRoot, input)).join(', ')}: ${hint}`,
    );
  }
}

/**
 * The map and view files first (widget.js names them), then widget.js. The view file holds none
 * of Leaflet; widget.js neither, nor the view.
 */
async function compileAll(): Promise<{
  map: string;
  mapFile: string;
  view: string;
  viewFile: string;
  widget: string;
}> {
  const [{ code: map }, { code: view, inputs: viewInputs }] = await Promise.all([
    compile({ kind: 'map' }),
    compile({ kind: 'view' }),
  ]);
  const mapFile = mapFileName(contentHash(map));
  const viewFile = viewFileName(contentHash(view));
  const { code: widget, inputs } = await compile({ kind: 'widget', mapFile, viewFile });
  const mapHint = 'import map.ts only as a type outside the map file (src/widget/map-loader.ts loads it)';
  refuseInputs('the view file', viewInputs, [LEAFLET_PACKAGE, MAP_ENTRY], mapHint);
  refuseInputs('widget.js', inputs, [LEAFLET_PACKAGE, MAP_ENTRY], mapHint);
  refuseInputs(
    'widget.js',
    inputs,
    [VIEW_ENTRY],
    'import finder-view.ts only as a type outside the view file (src/widget/view-loader.ts loads it)',
  );
  return { map, mapFile, view, viewFile, widget };
}

export interface WidgetSizes {
  raw: number;
  gzip: number;
}

const sizes = (code: string): WidgetSizes => ({
  raw: Buffer.byteLength(code),
  gzip: gzipSync(code, { level: 9 }).length,
});

export async function buildWidget(outDir = widgetDistDir): Promise<WidgetManifest> {
  const { map, mapFile, view, viewFile, widget: code } = await compileAll();
  const placeholder = JSON.stringify(SERVED_CDN_URL_PLACEHOLDER);
  const placeholders = code.split(placeholder).length - 1;
  if (placeholders !== 1) {
    throw new Error(`the CDN placeholder appears ${placeholders} times in the build, expected once`);
  }
  const body = Buffer.from(code);
  const tailOffset = body.indexOf(placeholder);
  if (body.length - tailOffset > MAX_TAIL_BYTES) {
    throw new Error(
      `the CDN placeholder is ${body.length - tailOffset} bytes from the end of the build (at most ` +
        `${MAX_TAIL_BYTES}): import served.ts only from src/widget/index.ts, as its last import`,
    );
  }
  const head = body.subarray(0, tailOffset);
  const precompressed = {} as WidgetManifest['precompressed'];
  const compressedFiles: [string, Buffer][] = [];
  for (const coding of CODINGS) {
    const compressedHead = compressHead(head, coding);
    const compressed = withStoredTail(compressedHead, coding, body, tailOffset);
    const file = `${WIDGET_FILE}${SUFFIX[coding]}`;
    precompressed[coding] = { file, bytes: compressed.length, head_bytes: compressedHead.length };
    compressedFiles.push([file, compressed]);
  }
  // The map and view files have nothing written in when served: compressed whole.
  const moduleEntry = async (file: string, source: string): Promise<ModuleFileEntry> => {
    const body = Buffer.from(source);
    const forms = await compressBody(body, 'max');
    const precompressed = {} as ModuleFileEntry['precompressed'];
    for (const coding of CODINGS) {
      const compressedFile = `${file}${SUFFIX[coding]}`;
      precompressed[coding] = { file: compressedFile, bytes: forms[coding].length };
      compressedFiles.push([compressedFile, forms[coding]]);
    }
    return { file, hash: contentHash(source), bytes: body.length, precompressed };
  };
  const mapEntry = await moduleEntry(mapFile, map);
  const viewEntry = await moduleEntry(viewFile, view);
  const manifest: WidgetManifest = {
    file: WIDGET_FILE,
    hash: contentHash(code),
    bytes: body.length,
    gzip_bytes: precompressed.gzip.bytes,
    built_at: new Date().toISOString(),
    tail_offset: tailOffset,
    head_hash: contentHash(head),
    precompressed,
    map: mapEntry,
    view: viewEntry,
  };
  await mkdir(outDir, { recursive: true });
  for (const [file, compressed] of compressedFiles) await writeAtomic(path.join(outDir, file), compressed);
  await writeAtomic(path.join(outDir, mapFile), map);
  await writeAtomic(path.join(outDir, viewFile), view);
  await writeAtomic(path.join(outDir, WIDGET_FILE), code);
  // The manifest last: the server re-reads the build when it changes.
  await writeAtomic(path.join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  await removeOlderModuleFiles(outDir, [mapFile, viewFile]);
  return manifest;
}

/** Map and view files of earlier builds in the folder: the service serves the manifest's only. */
async function removeOlderModuleFiles(outDir: string, current: string[]): Promise<void> {
  for (const file of await readdir(outDir)) {
    const built = file.replace(/\.(gz|br)$/, '');
    const moduleFile = MAP_FILE_PATTERN.test(built) || VIEW_FILE_PATTERN.test(built);
    if (moduleFile && !current.includes(built)) await rm(path.join(outDir, file), { force: true });
  }
}

/** widget.js, the view file and the map file, each raw and gzip (level 9). */
export async function measureWidget(): Promise<{ widget: WidgetSizes; view: WidgetSizes; map: WidgetSizes }> {
  const { map, view, widget } = await compileAll();
  return { widget: sizes(widget), view: sizes(view), map: sizes(map) };
}

/**
 * The modules through which the view file holds opening hours: the view (which reaches the
 * status, its text, the zone clock and their stylesheet), the texts, and the filters' open-now test.
 */
const HOURS_ENTRIES = /[\\/]src[\\/]widget[\\/]hours\.(view|i18n|open)\.ts$/;

// Each export of the hours modules as an empty object: what is left is the rest of the view file
// and the calls into them (finder-view.ts, details.ts, filters-panel.ts), a few dozen bytes.
const withoutHours: Plugin = {
  name: 'without-hours',
  setup(builder) {
    builder.onLoad({ filter: HOURS_ENTRIES }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const names = [...source.matchAll(/^export (?:const|function) (\w+)/gm)].map((match) => match[1]);
      return { contents: names.map((name) => `export const ${name} = {};`).join('\n'), loader: 'ts' };
    });
  },
};

/**
 * What opening hours add to the widget's code before a list (the view file; widget.js holds
 * none of them): its bytes (raw and gzip) as built, and as built with the hours modules left
 * out (HOURS_ENTRIES, by the without-hours plugin).
 */
export async function measureHoursBytes(): Promise<{ with: WidgetSizes; without: WidgetSizes }> {
  const [full, bare] = await Promise.all([
    compile({ kind: 'view' }),
    compile({ kind: 'view' }, { plugins: [leafletEsm, minifiedCssText, withoutHours] }),
  ]);
  return { with: sizes(full.code), without: sizes(bare.code) };
}

/** The project's files the widget is built from (absolute paths): src/widget and SHARED_SOURCES. */
export async function widgetSourceFiles(): Promise<string[]> {
  const own = (await readdir(WIDGET_SOURCES, { recursive: true })).map((file) =>
    path.join(WIDGET_SOURCES, file),
  );
  return [...own, ...SHARED_SOURCES];
}

/** The project's files esbuild actually read for the three files (absolute paths, no dependencies). */
export async function bundledSourceFiles(): Promise<string[]> {
  const placeholder = '0'.repeat(16);
  const built = await Promise.all([
    compile({ kind: 'map' }),
    compile({ kind: 'view' }),
    compile({ kind: 'widget', mapFile: mapFileName(placeholder), viewFile: viewFileName(placeholder) }),
  ]);
  return [...new Set(built.flatMap((file) => file.inputs))].filter(
    (file) => !file.includes(`${path.sep}node_modules${path.sep}`),
  );
}

async function newestSourceTime(): Promise<number> {
  const files = await widgetSourceFiles();
  files.push(
    path.join(projectRoot, 'scripts', 'build-widget.ts'),
    path.join(projectRoot, 'package-lock.json'),
  );
  const times = await Promise.all(
    files.map(async (file) => (await stat(file).catch(() => undefined))?.mtimeMs ?? 0),
  );
  return Math.max(...times);
}

/** Whether the map and view files the manifest in `outDir` names are there. */
async function hasModuleFiles(outDir: string): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(path.join(outDir, MANIFEST_FILE), 'utf8')) as WidgetManifest;
    const files = [manifest.map?.file, manifest.view?.file];
    const present = await Promise.all(
      files.map(
        (file) =>
          file !== undefined &&
          stat(path.join(outDir, file)).then(
            () => true,
            () => false,
          ),
      ),
    );
    return present.every(Boolean);
  } catch {
    return false;
  }
}

/**
 * Builds when the build is missing, incomplete (a manifest without its map or view file, as
 * builds made before they were files of their own) or older than any widget source; says which.
 */
export async function ensureWidgetBuilt(outDir = widgetDistDir): Promise<'built' | 'fresh'> {
  const built = await stat(path.join(outDir, MANIFEST_FILE)).catch(() => undefined);
  const script = await stat(path.join(outDir, WIDGET_FILE)).catch(() => undefined);
  const fresh = built && script && built.mtimeMs >= (await newestSourceTime());
  if (fresh && (await hasModuleFiles(outDir))) return 'fresh';
  await buildWidget(outDir);
  return 'built';
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const manifest = await buildWidget();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const files = [manifest.view, manifest.map].map(
    (entry) =>
      `dist/widget/${entry.file}: ${kb(entry.bytes)} ` +
      `(${kb(entry.precompressed.gzip.bytes)} gzip, ${kb(entry.precompressed.br.bytes)} br)`,
  );
  console.log(
    `dist/widget/${manifest.file} ${manifest.hash}: ${kb(manifest.bytes)} ` +
      `(${kb(manifest.precompressed.gzip.bytes)} gzip, ${kb(manifest.precompressed.br.bytes)} br); ${files.join('; ')}`,
  );
}
