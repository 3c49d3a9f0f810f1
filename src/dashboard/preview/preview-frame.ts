// The script of the finder preview page (GET /app/preview, which the editor frames): it takes
// the finder's payload from the frame's parent and has the real widget.js draw it. widget.js
// reads from the API and CDN paths its script tag names (data-api, data-cdn), both under
// /app/preview; this script, loaded first, answers those requests in the page: the payload the
// parent sent, no published copy (so the current data shows, never the last publish), and
// analytics dropped (a preview is no visit). Nothing leaves the page (its CSP has
// connect-src 'none'). Messages count only from the parent window at the origin the page's
// address names (the same origin the page's frame-ancestors admits).
//
// Every payload is drawn in a new container under a new key: the widget keeps each finder's
// payload for the page's life, so the same key would show the first settings again. The page
// reloads itself after some renders to let those copies go.

/** What the parent sends; `payload` is the widget payload with the form's settings in it. */
interface PayloadMessage {
  type: 'lf-preview:payload';
  payload: Record<string, unknown>;
}

const PREVIEW_BASE = '/app/preview';
const RENDERS_BEFORE_RELOAD = 25;

const parentOrigin = new URLSearchParams(window.location.search).get('parent') ?? window.location.origin;
let payload: Record<string, unknown> | undefined;
let renders = 0;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function answer(url: URL): Response {
  const path = url.pathname.slice(PREVIEW_BASE.length);
  if (path.startsWith('/api/ext/finders/details/') && payload)
    // Shown on this page whatever websites the finder lists: the real embed checks those.
    return json({ ...payload, authorized_urls: [] });
  if (path === '/api/analytics') return new Response(null, { status: 204 });
  return json({ message: 'Not available in the preview.', code: 'not_found' }, 404);
}

const isPreviewRequest = (url: URL) =>
  url.origin === window.location.origin && url.pathname.startsWith(`${PREVIEW_BASE}/`);

const pageFetch = window.fetch.bind(window);
window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
  return isPreviewRequest(url) ? answer(url) : pageFetch(input, init);
};
const pageBeacon = navigator.sendBeacon?.bind(navigator);
Object.defineProperty(navigator, 'sendBeacon', {
  configurable: true,
  value: (target: string | URL, data?: BodyInit | null) =>
    isPreviewRequest(new URL(String(target), window.location.href))
      ? true
      : (pageBeacon?.(target, data) ?? false),
});

function render(): void {
  const main = document.getElementById('preview');
  if (!main || !payload) return;
  renders += 1;
  if (renders > RENDERS_BEFORE_RELOAD) {
    window.location.reload();
    return;
  }
  const container = document.createElement('div');
  container.dataset.locationFinder = '';
  container.dataset.finder = `preview-${renders}`;
  // widget.js unmounts the container that leaves and mounts the new one.
  main.replaceChildren(container);
}

const isPayloadMessage = (data: unknown): data is PayloadMessage =>
  typeof data === 'object' &&
  data !== null &&
  (data as PayloadMessage).type === 'lf-preview:payload' &&
  typeof (data as PayloadMessage).payload === 'object' &&
  (data as PayloadMessage).payload !== null;

window.addEventListener('message', (event) => {
  if (event.source !== window.parent || event.origin !== parentOrigin) return;
  if (!isPayloadMessage(event.data)) return;
  payload = event.data.payload;
  render();
});

// The parent sends the payload once it hears the page is ready, and again on every change.
if (window.parent !== window) window.parent.postMessage({ type: 'lf-preview:ready' }, parentOrigin);
