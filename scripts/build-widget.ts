// Builds the embeddable widget (src/widget, browser TypeScript) with esbuild into one minified
// script, dist/widget/widget.js, its precompressed forms widget.js.gz and widget.js.br (gzip 9,
// brotli 11: seconds, once per build), and manifest.json with its content hash and sizes, which
// GET /widget.js serves. The compressed files hold everything before the CDN placeholder
// compressed and the rest stored, so the service can write its CDN_URL in without compressing
// again (src/modules/widget/widget.precompressed.ts). `npm run build` runs it; `npm start`
// rebuilds when the build is missing or older than its sources. Run directly:
// `tsx scripts/build-widget.ts`.
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
import {
  compressHead,
  type PrecompressedCoding,
  withStoredTail,
} from '../src/modules/widget/widget.precompressed.ts';
import { SERVED_CDN_URL_PLACEHOLDER } from '../src/widget/served.ts';

const WIDGET_SOURCES = path.join(projectRoot, 'src', 'widget');
/** Files outside src/widget that the widget bundles: the rules it applies as the service does. */
const SHARED_SOURCES = [path.join(projectRoot, 'src', 'lib', 'origin-rules.ts')];
const WIDGET_FILE = 'widget.js';
/**
 * The most the stored tail (from the CDN placeholder to the end) may hold: it is sent
 * uncompressed. The placeholder lands there because src/widget/index.ts imports served.ts last.
 */
const MAX_TAIL_BYTES = 4 * 1024;
const CODINGS: readonly PrecompressedCoding[] = ['gzip', 'br'];
const SUFFIX: Record<PrecompressedCoding, string> = { gzip: '.gz', br: '.br' };
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

/** Written beside, then renamed: a server reading the folder never sees half a file. */
async function writeAtomic(file: string, data: string | Buffer): Promise<void> {
  await writeFile(`${file}.tmp`, data);
  await rename(`${file}.tmp`, file);
}

export async function buildWidget(outDir = widgetDistDir): Promise<WidgetManifest> {
  const code = await compile();
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
  const manifest: WidgetManifest = {
    file: WIDGET_FILE,
    hash: contentHash(code),
    bytes: body.length,
    gzip_bytes: precompressed.gzip.bytes,
    built_at: new Date().toISOString(),
    tail_offset: tailOffset,
    head_hash: contentHash(head),
    precompressed,
  };
  await mkdir(outDir, { recursive: true });
  for (const [file, compressed] of compressedFiles) await writeAtomic(path.join(outDir, file), compressed);
  await writeAtomic(path.join(outDir, WIDGET_FILE), code);
  // The manifest last: the server re-reads the build when it changes.
  await writeAtomic(path.join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
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
    `dist/widget/${manifest.file} ${manifest.hash}: ${kb(manifest.bytes)} ` +
      `(${kb(manifest.precompressed.gzip.bytes)} gzip, ${kb(manifest.precompressed.br.bytes)} br); ` +
      `own code without the map library ${kb(own.raw)} (${kb(own.gzip)} gzip)`,
  );
}
