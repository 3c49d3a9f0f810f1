// The built widget as the API serves it: dist/widget/widget.js (from scripts/build-widget.ts)
// with the service's CDN_URL written in (src/widget/served.ts), its gzip and br forms made from
// the build's precompressed files with that same tail stored (widget-assets.precompressed.ts), and a
// tag from a hash of the served bytes; and the files widget.js imports, served as built: the
// view file (every page) and the map file (when a finder shows its map). Re-read when the
// manifest changes, so a rebuild needs no restart.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EncodedBody } from '../../lib/content-coding.ts';
import { projectRoot } from '../../lib/project-root.ts';
import { SERVED_CDN_URL_PLACEHOLDER } from '../../widget/served.ts';
import { type PrecompressedCoding, withStoredTail } from './widget-assets.precompressed.ts';

export interface WidgetManifest {
  file: string;
  /** sha256 of the built file, hex, first 16 characters. */
  hash: string;
  bytes: number;
  gzip_bytes: number;
  built_at: string;
  /** Where the CDN placeholder starts: the bytes from here on are stored, not compressed. */
  tail_offset: number;
  /** contentHash of the bytes before tail_offset, which the compressed heads hold. */
  head_hash: string;
  /** `{file}.gz` and `{file}.br`: the first `head_bytes` compress the head, the tail follows stored. */
  precompressed: Record<PrecompressedCoding, { file: string; bytes: number; head_bytes: number }>;
  /** The map file (mapFileName of its hash), `{file}.gz` and `{file}.br` compressed whole. */
  map: ModuleFileEntry;
  /** The view file (viewFileName of its hash), the same way. */
  view: ModuleFileEntry;
}

/** A file widget.js imports, as the manifest lists it. */
export interface ModuleFileEntry {
  file: string;
  hash: string;
  bytes: number;
  precompressed: Record<PrecompressedCoding, { file: string; bytes: number }>;
}

export const MANIFEST_FILE = 'manifest.json';

/** The map file's name: its contentHash in it, so it can be cached for good. */
export const mapFileName = (hash: string) => `widget-map.${hash}.js`;
export const MAP_FILE_PATTERN = /^widget-map\.[0-9a-f]{16}\.js$/;
/** The view file's name, the same way. */
export const viewFileName = (hash: string) => `widget-view.${hash}.js`;
export const VIEW_FILE_PATTERN = /^widget-view\.[0-9a-f]{16}\.js$/;

export const widgetDistDir = path.join(projectRoot, 'dist', 'widget');

export const contentHash = (content: string | Buffer) =>
  createHash('sha256').update(content).digest('hex').slice(0, 16);

export interface ServedWidget extends EncodedBody {
  /** contentHash of the served (identity) bytes: the ETags' base. */
  tag: string;
}

export interface ServedModuleFile extends EncodedBody {
  /** contentHash of its bytes, the one in its name: the ETags' base too. */
  tag: string;
}

/**
 * The compressed forms of `body` (the build with the service's tail), or none when the build
 * has no precompressed files or they do not belong to this script (edited by hand since).
 */
async function precompressedForms(
  dir: string,
  manifest: WidgetManifest,
  built: Buffer,
  body: Buffer,
): Promise<Partial<Record<PrecompressedCoding, Buffer>>> {
  const tailOffset = manifest.tail_offset;
  const head = built.subarray(0, tailOffset);
  if (!manifest.precompressed || contentHash(head) !== manifest.head_hash) return {};
  const forms: Partial<Record<PrecompressedCoding, Buffer>> = {};
  for (const [coding, { file, head_bytes }] of Object.entries(manifest.precompressed) as [
    PrecompressedCoding,
    WidgetManifest['precompressed'][PrecompressedCoding],
  ][]) {
    const compressed = await readFile(path.join(dir, file)).catch(() => undefined);
    if (!compressed || compressed.length < head_bytes) continue;
    forms[coding] = withStoredTail(compressed.subarray(0, head_bytes), coding, body, tailOffset);
  }
  return forms;
}

async function readWidget(dir: string, manifest: WidgetManifest, cdnUrl: string): Promise<ServedWidget> {
  const built = await readFile(path.join(dir, manifest.file));
  // The placeholder sits in the tail, so the head's bytes are served as built.
  const tailOffset = manifest.tail_offset ?? 0;
  const tail = built.subarray(tailOffset).toString('utf8');
  const body = Buffer.concat([
    built.subarray(0, tailOffset),
    Buffer.from(tail.replaceAll(JSON.stringify(SERVED_CDN_URL_PLACEHOLDER), JSON.stringify(cdnUrl))),
  ]);
  return {
    identity: body,
    ...(await precompressedForms(dir, manifest, built, body)),
    tag: contentHash(body),
  };
}

/**
 * A file the manifest names (its map or view file), or undefined when it has none (a build
 * from before the file was one of its own) or the file is missing. Its compressed forms go
 * with it only while it is the file they were made from (its hash).
 */
async function readModuleFile(
  dir: string,
  entry: ModuleFileEntry | undefined,
): Promise<ServedModuleFile | undefined> {
  if (!entry) return undefined;
  const identity = await readFile(path.join(dir, entry.file)).catch(() => undefined);
  if (!identity) return undefined;
  const tag = contentHash(identity);
  const forms: Partial<Record<PrecompressedCoding, Buffer>> = {};
  if (tag === entry.hash) {
    for (const [coding, { file }] of Object.entries(entry.precompressed) as [
      PrecompressedCoding,
      { file: string },
    ][]) {
      const compressed = await readFile(path.join(dir, file)).catch(() => undefined);
      if (compressed) forms[coding] = compressed;
    }
  }
  return { identity, ...forms, tag };
}

interface ServedBuild {
  widget: ServedWidget;
  /** The map and view files' hashes (in their names) and their bytes. */
  map?: { hash: string; file: ServedModuleFile };
  view?: { hash: string; file: ServedModuleFile };
}

/**
 * `read()` gives the current widget.js, `readMap(hash)` and `readView(hash)` the map and view
 * files when `hash` is the current build's; each undefined while none is built.
 */
export function createWidgetBundle(dir: string, cdnUrl: string) {
  let cached: { mtimeMs: number; build: ServedBuild } | undefined;

  async function load(): Promise<ServedBuild | undefined> {
    const manifestPath = path.join(dir, MANIFEST_FILE);
    const info = await stat(manifestPath).catch(() => undefined);
    if (!info) return undefined;
    if (cached?.mtimeMs === info.mtimeMs) return cached.build;
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as WidgetManifest;
    const widget = await readWidget(dir, manifest, cdnUrl);
    const map = await readModuleFile(dir, manifest.map);
    const view = await readModuleFile(dir, manifest.view);
    const build: ServedBuild = {
      widget,
      map: map && { hash: manifest.map.hash, file: map },
      view: view && { hash: manifest.view.hash, file: view },
    };
    cached = { mtimeMs: info.mtimeMs, build };
    return build;
  }

  return {
    async read(): Promise<ServedWidget | undefined> {
      return (await load())?.widget;
    },
    async readMap(hash: string): Promise<ServedModuleFile | undefined> {
      const map = (await load())?.map;
      return map?.hash === hash ? map.file : undefined;
    },
    async readView(hash: string): Promise<ServedModuleFile | undefined> {
      const view = (await load())?.view;
      return view?.hash === hash ? view.file : undefined;
    },
  };
}
