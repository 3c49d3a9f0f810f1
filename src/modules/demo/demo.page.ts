// The page behind GET /demo/{token}: a plain customer-like page that embeds the widget exactly
// as the README tells a business to (one script tag, one element), served by the service so a
// newcomer sees a working locator right after `npm run demo`. Pure: HTML from two strings.

import { escapeHtml } from '../../lib/html.ts';

/** Finder tokens are base64url (32 random bytes); anything else never reaches the page. */
export const FINDER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

export function demoPageHtml(options: { appUrl: string; token: string; finderName: string }): string {
  const name = escapeHtml(options.finderName);
  const src = escapeHtml(`${options.appUrl}/widget.js`);
  const token = escapeHtml(options.token);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} · store locator demo</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1f2933; background: #f5f7fa; }
  header, main, footer { max-width: 1100px; margin: 0 auto; padding: 16px 24px; }
  header h1 { margin: 8px 0 0; font-size: 1.6rem; }
  code { background: #e4e7eb; padding: 2px 4px; border-radius: 4px; }
  [data-location-finder] { min-height: 600px; }
</style>
</head>
<body>
<header>
  <h1>${name}</h1>
  <p>This page embeds the store locator the way a customer's site does:
  <code>&lt;script src="${src}" data-finder="…" async&gt;&lt;/script&gt;</code> and
  <code>&lt;div data-location-finder&gt;&lt;/div&gt;</code>.</p>
</header>
<main>
  <div data-location-finder></div>
</main>
<script src="${src}" data-finder="${token}" async></script>
</body>
</html>
`;
}
