// The built widget as the API serves it: dist/widget/widget.js (from scripts/build-widget.ts)
// with the service's CDN_URL written in (src/widget/served.ts), and an ETag from a hash of
// exactly those bytes. Re-read when the manifest changes, so a rebuild needs no restart.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVED_CDN_URL_PLACEHOLDER } from '../../widget/served.ts';

export interface WidgetManifest {
  file: string;
  /** sha256 of the built file, hex, first 16 characters. */
  hash: string;
  bytes: number;
  gzip_bytes: number;
  built_at: string;
}

export const MANIFEST_FILE = 'manifest.json';

/** The folder holding package.json, found from this file (it runs from src/ or dist/src/). */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the widget module');
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot();
export const widgetDistDir = path.join(projectRoot, 'dist', 'widget');

export const contentHash = (content: string | Buffer) =>
  createHash('sha256').update(content).digest('hex').slice(0, 16);

export interface ServedWidget {
  body: Buffer;
  etag: string;
}

/** `read()` gives the current bundle, or undefined while none is built. */
export function createWidgetBundle(dir: string, cdnUrl: string) {
  let cached: { mtimeMs: number; widget: ServedWidget } | undefined;

  return {
    async read(): Promise<ServedWidget | undefined> {
      const manifestPath = path.join(dir, MANIFEST_FILE);
      const info = await stat(manifestPath).catch(() => undefined);
      if (!info) return undefined;
      if (cached?.mtimeMs === info.mtimeMs) return cached.widget;
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as WidgetManifest;
      const built = await readFile(path.join(dir, manifest.file), 'utf8');
      const body = Buffer.from(
        built.replaceAll(JSON.stringify(SERVED_CDN_URL_PLACEHOLDER), JSON.stringify(cdnUrl)),
        'utf8',
      );
      const widget = { body, etag: `"${contentHash(body)}"` };
      cached = { mtimeMs: info.mtimeMs, widget };
      return widget;
    },
  };
}
