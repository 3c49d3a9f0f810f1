// Builds the dashboard (src/dashboard, React) with esbuild into dist/dashboard: the API's types
// generated first (scripts/dashboard/api-types.ts), then the entry script, its code-split chunks
// and one stylesheet under assets/ with content hashes in their names, each with gzip and br
// forms made once here, and manifest.json naming them for the service (and index.html, a page
// for hosting the build elsewhere, with DASHBOARD_API_URL as the API's URL). `npm run build`
// runs it; `npm start` rebuilds when the build is missing or older than its sources.
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { OSM_TILE_URL, tileTemplateProblem } from '../src/config/tile-template.ts';
import { writeAtomic } from '../src/lib/atomic-write.ts';
import { compressBody } from '../src/lib/content-coding.ts';
import { projectRoot } from '../src/lib/project-root.ts';
import {
  ASSETS_FOLDER,
  DASHBOARD_MANIFEST_FILE,
  type DashboardManifest,
  dashboardDistDir,
  dashboardPage,
} from '../src/modules/dashboard-assets/dashboard-assets.manifest.ts';
import { contentHash } from '../src/modules/widget-assets/widget-assets.bundle.ts';
import { generateApiTypes } from './dashboard/api-types.ts';

const SOURCES = path.join(projectRoot, 'src', 'dashboard');
/** The languages the dashboard ships (src/dashboard/i18n): React Aria's strings of these only. */
const DASHBOARD_LOCALES = ['en-US'];
const LOCALE_FILE = /[/\\]([a-z]{2}-[A-Z]{2})\.m?js$/;
const REACT_ARIA_FILE =
  /[/\\]node_modules[/\\](react-aria|react-aria-components|react-stately|@react-aria|@react-stately)[/\\]/;

/**
 * React Aria ships the strings of its components (drag and drop, search fields, ...) in 34
 * languages, each a file imported by name; those of other languages than the dashboard's become
 * empty modules, and React Aria falls back to what is there. (Adobe's
 * @react-aria/optimize-locales-plugin does the same, but its esbuild adapter cannot load the
 * empty module it points to.)
 */
const onlyDashboardLocales: Plugin = {
  name: 'only-dashboard-locales',
  setup(builder) {
    builder.onResolve({ filter: LOCALE_FILE }, (args) => {
      const locale = LOCALE_FILE.exec(args.path)?.[1];
      if (!locale || DASHBOARD_LOCALES.includes(locale) || !REACT_ARIA_FILE.test(args.importer))
        return undefined;
      return { path: locale, namespace: 'unused-locale' };
    });
    builder.onLoad({ filter: /.*/, namespace: 'unused-locale' }, () => ({
      contents: 'export default undefined;',
      loader: 'js',
    }));
  },
};
const ENTRY = path.join(SOURCES, 'main.tsx');
/** The finder preview page's script (GET /app/preview): an entry of its own, no React. */
const PREVIEW_ENTRY = path.join(SOURCES, 'preview', 'preview-frame.ts');
const ICON = path.join(SOURCES, 'favicon.svg');

/** DASHBOARD_TILE_URL as a build hosted elsewhere writes it into its page, checked as the service checks it. */
function buildTileUrl(): string {
  const template = process.env.DASHBOARD_TILE_URL?.trim() || OSM_TILE_URL;
  const problem = tileTemplateProblem(template);
  if (problem) throw new Error(`DASHBOARD_TILE_URL ${problem}`);
  return template;
}

export async function buildDashboard(outDir = dashboardDistDir): Promise<DashboardManifest> {
  await generateApiTypes();
  const result = await build({
    entryPoints: [ENTRY, PREVIEW_ENTRY],
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    // Browsers of the last few years: what a business's staff run.
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    outdir: path.join(outDir, ASSETS_FOLDER),
    entryNames: '[name].[hash]',
    chunkNames: 'chunk.[hash]',
    assetNames: '[name].[hash]',
    // Leaflet's stylesheet names its control and marker images: inlined, so the build needs no
    // image files and the page policy's img-src data: admits them.
    loader: { '.png': 'dataurl' },
    legalComments: 'linked',
    plugins: [onlyDashboardLocales],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const assetsDir = path.join(outDir, ASSETS_FOLDER);
  await mkdir(assetsDir, { recursive: true });
  const icon = await readFile(ICON);
  const manifest: DashboardManifest = {
    built_at: new Date().toISOString(),
    entry: { script: '', stylesheet: '', preload: [], icon: `favicon.${contentHash(icon)}.svg` },
    assets: {},
  };
  const files = [
    ...result.outputFiles.map((file) => ({ file: file.path, contents: Buffer.from(file.contents) })),
    { file: path.join(assetsDir, manifest.entry.icon), contents: icon },
  ];
  for (const { file, contents } of files) {
    const forms = await compressBody(contents, 'max');
    await writeAtomic(file, forms.identity);
    await writeAtomic(`${file}.gz`, forms.gzip);
    await writeAtomic(`${file}.br`, forms.br);
    manifest.assets[path.basename(file)] = {
      bytes: forms.identity.length,
      gzip_bytes: forms.gzip.length,
      br_bytes: forms.br.length,
    };
  }
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint !== undefined && path.resolve(meta.entryPoint) === PREVIEW_ENTRY) {
      // The preview page loads it as a classic script (it must patch fetch before widget.js
      // runs), where an import statement is a syntax error: it may share no chunk.
      if (meta.imports.length > 0 || meta.exports.length > 0)
        throw new Error('the preview script imports or exports a chunk; it must stand alone');
      manifest.preview = { script: path.basename(output) };
    }
    // The entry's script; screens loaded on demand are entry points of their own chunks.
    if (meta.entryPoint === undefined || path.resolve(meta.entryPoint) !== ENTRY) continue;
    manifest.entry.script = path.basename(output);
    manifest.entry.stylesheet = meta.cssBundle ? path.basename(meta.cssBundle) : '';
    manifest.entry.preload = meta.imports
      .filter((i) => i.kind === 'import-statement')
      .map((i) => path.basename(i.path));
  }
  if (!manifest.entry.script || !manifest.entry.stylesheet || !manifest.preview)
    throw new Error('esbuild wrote no entry script, stylesheet or preview script');
  await writeAtomic(
    path.join(outDir, 'index.html'),
    dashboardPage(
      manifest,
      process.env.DASHBOARD_BASE_PATH ?? '/app',
      process.env.DASHBOARD_API_URL ?? '',
      buildTileUrl(),
    ),
  );
  // The manifest last: the service re-reads the build when it changes.
  await writeAtomic(path.join(outDir, DASHBOARD_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  await removeOtherAssets(assetsDir, manifest);
  return manifest;
}

/** Assets of earlier builds: the service serves the manifest's only. */
async function removeOtherAssets(assetsDir: string, manifest: DashboardManifest): Promise<void> {
  for (const file of await readdir(assetsDir)) {
    // A dot-file is a file another build is writing (writeAtomic's temporary): not ours to remove.
    if (file.startsWith('.')) continue;
    if (!(file.replace(/\.(gz|br)$/, '') in manifest.assets)) {
      await rm(path.join(assetsDir, file), { force: true });
    }
  }
}

/** The newest change among what the bundle is made of: the dashboard's sources, this script, the lock file. */
async function newestSourceTime(): Promise<number> {
  const files = (await readdir(SOURCES, { recursive: true }))
    .map((file) => path.join(SOURCES, file))
    .filter((file) => !file.endsWith('schema.gen.ts'));
  files.push(
    path.join(projectRoot, 'scripts', 'build-dashboard.ts'),
    path.join(projectRoot, 'package-lock.json'),
  );
  const times = await Promise.all(
    files.map(async (file) => (await stat(file).catch(() => undefined))?.mtimeMs ?? 0),
  );
  return Math.max(...times);
}

/** Builds when the build is missing or older than any source; says which. */
export async function ensureDashboardBuilt(outDir = dashboardDistDir): Promise<'built' | 'fresh'> {
  const built = await stat(path.join(outDir, DASHBOARD_MANIFEST_FILE)).catch(() => undefined);
  if (built && built.mtimeMs >= (await newestSourceTime())) return 'fresh';
  await buildDashboard(outDir);
  return 'built';
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const manifest = await buildDashboard();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const first = [manifest.entry.script, ...manifest.entry.preload, manifest.entry.stylesheet];
  const sum = (key: 'bytes' | 'gzip_bytes') =>
    first.reduce((total, name) => total + (manifest.assets[name]?.[key] ?? 0), 0);
  console.log(
    `dist/dashboard: ${Object.keys(manifest.assets).length} assets; first screen ${kb(sum('bytes'))} ` +
      `(${kb(sum('gzip_bytes'))} gzip)`,
  );
}
