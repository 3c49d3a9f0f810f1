// The one value the API writes into widget.js when it serves it: its CDN_URL, so a service
// whose files sit on another host (S3, a CDN) needs nothing in the embed code. The built file
// holds this placeholder string; scripts/build-widget.ts checks it survives minification and
// src/modules/widget-assets/widget-assets.bundle.ts replaces it.
export const SERVED_CDN_URL_PLACEHOLDER = '__LF_SERVED_CDN_URL__';
