// Builds the embeddable widget (src/widget, browser TypeScript) with esbuild into one minified
// script, dist/widget/widget.js, plus manifest.json with its content hash and sizes, which
// GET /widget.js serves. `npm run build` runs it; `npm start` rebuilds when the build is
// missing or older than its sources. Run directly: `tsx scripts/build-widget.ts`.
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Plugin, transform } from 'esbuild';
import {
  contentHash,
  MANIFEST_FILE,
  projectRoot,
  type WidgetManifest,
  widgetDistDir,
} from '../src/modules/widget/widget.bundle.ts';
import { SERVED_CDN_URL_PLACEHOLDER } from '../src/widget/served.ts';

const WIDGET_SOURCES = path.join(projectRoot, 'src', 'widget');
/** Files outside src/widget that the widget bundles: the rules it applies as the service does. */
const SHARED_SOURCES = [path.join(projectRoot, 'src', 'lib', 'origin-rules.ts')];
const WIDGET_FILE = 'widget.js';
/** What counts as "the map library" when sizes are reported without it. */
const MAP_LIBRARIES = ['leaflet', 'leaflet/*'];

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

function buildOptions(extra: BuildOptions = {}): BuildOptions {
  return {
    entryPoints: [path.join(WIDGET_SOURCES, 'index.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    // Browsers of the last few years; a customer's visitors run anything current.
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    plugins: [leafletEsm, minifiedCssText],
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
    ...extra,
  };
}

async function compile(extra: BuildOptions = {}): Promise<string> {
  const result = await build(buildOptions(extra));
  const output = result.outputFiles?.[0];
  if (!output) throw new Error('esbuild produced no output');
  return output.text;
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
  const code = await compile();
  const placeholders = code.split(JSON.stringify(SERVED_CDN_URL_PLACEHOLDER)).length - 1;
  if (placeholders !== 1) {
    throw new Error(`the CDN placeholder appears ${placeholders} times in the build, expected once`);
  }
  const { raw, gzip } = sizes(code);
  const manifest: WidgetManifest = {
    file: WIDGET_FILE,
    hash: contentHash(code),
    bytes: raw,
    gzip_bytes: gzip,
    built_at: new Date().toISOString(),
  };
  await mkdir(outDir, { recursive: true });
  // Written beside, then renamed: a server reading the folder never sees half a file.
  const script = path.join(outDir, WIDGET_FILE);
  await writeFile(`${script}.tmp`, code);
  await rename(`${script}.tmp`, script);
  const manifestPath = path.join(outDir, MANIFEST_FILE);
  await writeFile(`${manifestPath}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(`${manifestPath}.tmp`, manifestPath);
  return manifest;
}

/** The whole widget, and the widget's own code with the map library (and its CSS) left out. */
export async function measureWidget(): Promise<{ total: WidgetSizes; own: WidgetSizes }> {
  const [total, own] = await Promise.all([
    compile(),
    compile({ external: MAP_LIBRARIES, plugins: [minifiedCssText] }),
  ]);
  return { total: sizes(total), own: sizes(own) };
}

/** The project's files the widget is built from (absolute paths): src/widget and SHARED_SOURCES. */
export async function widgetSourceFiles(): Promise<string[]> {
  const own = (await readdir(WIDGET_SOURCES, { recursive: true })).map((file) =>
    path.join(WIDGET_SOURCES, file),
  );
  return [...own, ...SHARED_SOURCES];
}

/** The project's files esbuild actually read for the bundle (absolute paths, no dependencies). */
export async function bundledSourceFiles(): Promise<string[]> {
  const result = await build(buildOptions({ metafile: true }));
  return Object.keys(result.metafile?.inputs ?? {})
    .map((input) => path.resolve(input))
    .filter((file) => !file.includes(`${path.sep}node_modules${path.sep}`));
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

/** Builds when the build is missing or older than any widget source; says which it was. */
export async function ensureWidgetBuilt(outDir = widgetDistDir): Promise<'built' | 'fresh'> {
  const built = await stat(path.join(outDir, MANIFEST_FILE)).catch(() => undefined);
  const script = await stat(path.join(outDir, WIDGET_FILE)).catch(() => undefined);
  if (built && script && built.mtimeMs >= (await newestSourceTime())) return 'fresh';
  await buildWidget(outDir);
  return 'built';
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const manifest = await buildWidget();
  const { own } = await measureWidget();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `dist/widget/${manifest.file} ${manifest.hash}: ${kb(manifest.bytes)} (${kb(manifest.gzip_bytes)} gzip); ` +
      `own code without the map library ${kb(own.raw)} (${kb(own.gzip)} gzip)`,
  );
}
