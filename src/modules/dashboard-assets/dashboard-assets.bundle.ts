// The built dashboard as the service serves it: the page (with the service's own origin as the
// API's, so an empty URL, and the response's style nonce) and each asset of the manifest with its gzip and br forms, read into
// memory once per build. Re-read when the manifest changes, so a rebuild needs no restart.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EncodedBody } from '../../lib/content-coding.ts';
import {
  ASSET_NAME,
  ASSETS_FOLDER,
  DASHBOARD_MANIFEST_FILE,
  type DashboardManifest,
  dashboardPage,
} from './dashboard-assets.manifest.ts';

export interface ServedFile extends EncodedBody {
  /** An ETag base: the asset's name, which holds its content hash. */
  tag: string;
}

interface ServedBuild {
  manifest: DashboardManifest;
  assets: Map<string, ServedFile>;
}

async function readAsset(dir: string, name: string): Promise<ServedFile> {
  const file = path.join(dir, ASSETS_FOLDER, name);
  const [identity, gzip, br] = await Promise.all([
    readFile(file),
    readFile(`${file}.gz`).catch(() => undefined),
    readFile(`${file}.br`).catch(() => undefined),
  ]);
  return { identity, ...(gzip ? { gzip } : {}), ...(br ? { br } : {}), tag: name };
}

export function createDashboardBundle(dir: string, basePath: string, tileUrl: string) {
  let cached: { mtimeMs: number; build: ServedBuild } | undefined;

  async function load(): Promise<ServedBuild | undefined> {
    const manifestPath = path.join(dir, DASHBOARD_MANIFEST_FILE);
    const info = await stat(manifestPath).catch(() => undefined);
    if (!info) return undefined;
    if (cached?.mtimeMs === info.mtimeMs) return cached.build;
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as DashboardManifest;
    const names = Object.keys(manifest.assets).filter((name) => ASSET_NAME.test(name));
    const assets = new Map(
      await Promise.all(names.map(async (name) => [name, await readAsset(dir, name)] as const)),
    );
    const build = { manifest, assets };
    cached = { mtimeMs: info.mtimeMs, build };
    return build;
  }

  return {
    /** The page with its style nonce; undefined while nothing is built. */
    async page(nonce: string): Promise<string | undefined> {
      const build = await load();
      return build && dashboardPage(build.manifest, basePath, '', tileUrl, nonce);
    },
    /** The preview page's script name; undefined while nothing is built. */
    async previewScript(): Promise<string | undefined> {
      return (await load())?.manifest.preview?.script;
    },
    async isBuilt(): Promise<boolean> {
      return (await load()) !== undefined;
    },
    async asset(name: string): Promise<ServedFile | undefined> {
      return (await load())?.assets.get(name);
    },
  };
}
