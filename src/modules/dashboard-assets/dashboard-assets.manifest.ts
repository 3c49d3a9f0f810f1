// What scripts/build-dashboard.ts writes into dist/dashboard and the service reads: the page
// (index.html, naming the entry script and stylesheet by their hashed names) and the assets,
// each with its precompressed forms.
import path from 'node:path';
import { escapeHtml } from '../../lib/html.ts';
import { projectRoot } from '../../lib/project-root.ts';

export const dashboardDistDir = path.join(projectRoot, 'dist', 'dashboard');
export const DASHBOARD_MANIFEST_FILE = 'manifest.json';
/** Where assets live, in the build folder and under the app's path. */
export const ASSETS_FOLDER = 'assets';
/** The API's URL in the page, written over by the service (its own origin: empty). */
export const API_URL_META = 'lf-api-url';
/** The map tile template of the dashboard's maps (DASHBOARD_TILE_URL), which the page's CSP admits. */
export const TILE_URL_META = 'lf-tile-url';

export interface DashboardAsset {
  bytes: number;
  gzip_bytes: number;
  br_bytes: number;
}

export interface DashboardManifest {
  built_at: string;
  /** The page's script, stylesheet, the chunks the script imports at once, and its icon, by name under assets/. */
  entry: { script: string; stylesheet: string; preload: string[]; icon: string };
  /** The finder preview page's own script (GET /app/preview), by its name under assets/. */
  preview?: { script: string };
  /** Every asset by its name under assets/ (hashed names: served as immutable). */
  assets: Record<string, DashboardAsset>;
}

/** An asset's name: letters, digits, dots, dashes and underscores only, so it never leaves the folder. */
export const ASSET_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+$/;

/**
 * The page, naming the build's files under `base` (the app's path), the API's URL and the map
 * tile template. With a
 * nonce, a `csp-nonce` meta gives it to React Aria, which adds one small <style> of its own
 * (touch behaviour of pressable elements) under the page's nonce-only style policy.
 */
export function dashboardPage(
  manifest: DashboardManifest,
  base: string,
  apiUrl: string,
  tileUrl: string,
  nonce?: string,
): string {
  const asset = (name: string) => `${base}/${ASSETS_FOLDER}/${name}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="${API_URL_META}" content="${escapeHtml(apiUrl)}">
<meta name="${TILE_URL_META}" content="${escapeHtml(tileUrl)}">${nonce ? `\n<meta property="csp-nonce" nonce="${escapeHtml(nonce)}">` : ''}
<title>Store locator</title>
<link rel="icon" href="${asset(manifest.entry.icon)}" type="image/svg+xml">
<link rel="stylesheet" href="${asset(manifest.entry.stylesheet)}">
${manifest.entry.preload.map((name) => `<link rel="modulepreload" href="${asset(name)}">`).join('\n')}
<script type="module" src="${asset(manifest.entry.script)}"></script>
</head>
<body>
<div id="root"></div>
<noscript>The dashboard needs JavaScript.</noscript>
</body>
</html>
`;
}
