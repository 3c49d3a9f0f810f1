// The two other origins of the browser tests: a host page server (a customer's site, with
// hostile CSS) and a map tile server answering a small PNG for any /{z}/{x}/{y}.png, so no
// tile ever comes from the internet. Both on 127.0.0.1; the host page is also reachable as
// `localhost`, which the browser treats as another origin.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { solidPng } from '../../fakes/png.ts';

export async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

export async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
}

export interface TileServer {
  /** `http://127.0.0.1:<port>/{z}/{x}/{y}.png`, for the tile_url setting. */
  urlTemplate: string;
  /** Serves `/images/<name>.png` too, for location photos. */
  origin: string;
  tileRequests(): number;
  close(): Promise<void>;
}

export async function startTileServer(): Promise<TileServer> {
  const tile = solidPng(256, 256, [232, 238, 243]);
  const photo = solidPng(96, 64, [96, 140, 180]);
  let tiles = 0;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://tiles').pathname;
    const isTile = /^\/\d+\/\d+\/\d+\.png$/.test(path);
    if (!isTile && !/^\/images\/[\w-]+\.png$/.test(path)) {
      response.writeHead(404).end();
      return;
    }
    if (isTile) tiles++;
    response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'public, max-age=3600' });
    response.end(isTile ? tile : photo);
  });
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  return {
    urlTemplate: `${origin}/{z}/{x}/{y}.png`,
    origin,
    tileRequests: () => tiles,
    close: () => stop(server),
  };
}

export interface HostSite {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The same server as http://localhost:<port>: a different origin to the browser. */
  otherOrigin: string;
  /** Serves `html` at `path` from now on; returns the page's URL on `origin`. */
  page(path: string, html: string): string;
  close(): Promise<void>;
}

export async function startHostSite(): Promise<HostSite> {
  const pages = new Map<string, string>();
  const server = createServer((request, response) => {
    const html = pages.get(new URL(request.url ?? '/', 'http://host').pathname);
    if (html === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    otherOrigin: `http://localhost:${port}`,
    page(path, html) {
      pages.set(path, html);
      return `${origin}${path}`;
    },
    close: () => stop(server),
  };
}

// A customer's stylesheet at its worst: resets everything, hides every other div, huge type,
// white-on-white controls, odd spacing and boxes. None of it may reach inside the widget.
export const HOSTILE_CSS = `
  html { font-size: 40px !important; }
  body { font: italic 32px/3 "Comic Sans MS", cursive; color: #f0f; background: #222;
         letter-spacing: 4px; word-spacing: 12px; text-transform: uppercase; }
  body *:not(script):not(style) { all: unset; }
  div:not([data-location-finder]) { display: none !important; }
  button, input, a, select { color: white !important; background: white !important; border: 0 !important;
         font-size: 50px !important; padding: 40px !important; }
  ul, ol, li { list-style: square inside !important; margin: 40px !important; padding: 40px !important; }
  img, svg { width: 500px !important; height: 500px !important; }
  [role], [class*="lf-"], [class*="leaflet"] { display: none !important; }
  *, *::before, *::after { box-sizing: content-box !important; transition: all 5s !important; }
  p.host-text { display: block; color: rgb(255, 0, 255); font-size: 20px; margin: 8px; }
`;

export interface EmbedOptions {
  scriptUrl: string;
  token: string;
  /** Extra attributes per container, e.g. [`data-finder="..."`]; one container by default. */
  containers?: string[];
  /** Extra attributes on the script tag (data-api, data-cdn). */
  scriptAttributes?: string;
  lang?: string;
  dir?: 'ltr' | 'rtl';
}

/** A customer's page embedding the widget as the docs say, after recording the page's globals. */
export function hostilePage(options: EmbedOptions): string {
  const containers = (options.containers ?? ['']).map(
    (attributes) => `<div data-location-finder ${attributes}></div>`,
  );
  return `<!doctype html>
<html lang="${options.lang ?? 'en'}"${options.dir ? ` dir="${options.dir}"` : ''}>
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>A shop with hostile CSS</title>
  <style>${HOSTILE_CSS}</style>
  <script>window.__globalsBefore = Object.getOwnPropertyNames(window);</script>
</head>
<body>
  <main>
    <h1>Find a store</h1>
    <p class="host-text">The host page's own text.</p>
    ${containers.join('\n    ')}
  </main>
  <script src="${options.scriptUrl}" data-finder="${options.token}" ${options.scriptAttributes ?? ''} async></script>
</body>
</html>`;
}
