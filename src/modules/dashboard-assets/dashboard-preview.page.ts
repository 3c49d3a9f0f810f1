// The finder preview page (GET /app/preview): the real widget.js in a page of its own, shown
// by the dashboard's finder editor in a frame. The page holds no data and no token: its
// script (src/dashboard/preview/preview-frame.ts) receives the finder's current payload, with
// the form's unsaved settings, from the frame's parent by postMessage, and answers the
// widget's requests with it, so the widget draws exactly what the editor holds. Pure: HTML and
// the policy from a few strings.

import { escapeHtml } from '../../lib/html.ts';

/** The page's path, and the base of the requests the page answers in the browser. */
export const PREVIEW_PATH = '/app/preview';

/**
 * The page's policy. Scripts from this origin only (the preview script, widget.js and its map
 * file); inline styles for the widget's shadow root; images from anywhere over http(s), since
 * the widget draws tiles and photos from wherever the finder's (unsaved) settings point, as a
 * customer's page would (the demo page admits the same); no connection at all, since the
 * page's script answers every request of the widget itself; framed by this origin and by the
 * dashboard origin `parent` names.
 */
export function previewCsp(parent: string | undefined): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors 'self'${parent ? ` ${parent}` : ''}`,
  ].join('; ');
}

/** `script` is the preview script's URL; widget.js reads from the paths the script answers. */
export function previewPageHtml(options: { script: string }): string {
  const script = escapeHtml(options.script);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Finder preview</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1f2933; background: #ffffff; }
  main { padding: 8px; }
</style>
</head>
<body>
<main id="preview"></main>
<script src="${script}"></script>
<script src="/widget.js" data-api="${PREVIEW_PATH}/api" data-cdn="${PREVIEW_PATH}/cdn"></script>
</body>
</html>
`;
}
