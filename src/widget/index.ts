// widget.js: finds every `[data-location-finder]` container on the page (now and later ones
// too), asks for each finder's files at once, and mounts a finder in each when the view's code
// (the view file, view-loader.ts) has arrived: on a slow network the two downloads overlap. The token is the container's own `data-finder`, else
// the script tag's. Payloads are fetched once per token however many containers show it.
// A container that leaves the document (a single-page app changing its route) is unmounted:
// its view's lifetime ends, so nothing of it stays reachable from the page; if it comes back,
// it is mounted again.
import { type LoadResult, loadFinder } from './data.ts';
import { resolveEndpoints } from './endpoints.ts';
import { Lifetime } from './lifetime.ts';
import { loadMapModule } from './map-loader.ts';
// Imported last, and by nothing else, so the placeholder the service replaces lands in the last
// bytes of the build, after everything the build compresses (scripts/build-widget.ts).
import { SERVED_CDN_URL_PLACEHOLDER } from './served.ts';
import { loadViewModule } from './view-loader.ts';

const script =
  (document.currentScript as HTMLScriptElement | null) ??
  document.querySelector<HTMLScriptElement>('script[src*="widget"][data-finder]');

// The map file is read from beside the script, wherever the script came from.
const scriptUrl = script?.src || window.location.href;
const endpoints = resolveEndpoints({
  src: scriptUrl,
  api: script?.dataset.api,
  cdn: script?.dataset.cdn,
  served: SERVED_CDN_URL_PLACEHOLDER,
});

const loads = new Map<string, Promise<LoadResult>>();
const load = (token: string) => {
  let pending = loads.get(token);
  if (!pending) {
    // The page's own origin, as the browser sends it to the API: the finder's list applies to it.
    pending = loadFinder(token, endpoints, window.location.origin);
    loads.set(token, pending);
  }
  return pending;
};

const loadMap = () => loadMapModule(scriptUrl);
// Asked for at once: every page that loads widget.js shows a finder.
const view = loadViewModule(scriptUrl);

/** In place of the finder when its code could not be loaded (the view's texts are in that code). */
function unavailable(host: HTMLElement, lifetime: Lifetime): void {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  // Emptied with the view's end, as a view's own shadow root is: a returning container is mounted again.
  lifetime.add(() => shadow.replaceChildren());
  const text = document.createElement('p');
  text.setAttribute('role', 'alert');
  text.textContent = 'The store locator could not be loaded. Please try again later.';
  shadow.replaceChildren(text);
}

/** The containers this copy of the script has mounted, each with its view's lifetime. */
const mounted = new Map<HTMLElement, Lifetime>();

function mountAll(): void {
  for (const host of document.querySelectorAll<HTMLElement>('[data-location-finder]')) {
    // A shadow root with content is a mounted view (of this script or a second copy of it);
    // an empty one was left by an unmount.
    if (mounted.has(host) || (host.shadowRoot && host.shadowRoot.childNodes.length > 0)) continue;
    const token = (host.dataset.finder || script?.dataset.finder || '').trim();
    // The finder's files are asked for before the view's code has arrived.
    if (token) void load(token);
    const lifetime = new Lifetime();
    mounted.set(host, lifetime);
    view
      .then(({ mountFinder }) => {
        if (!lifetime.ended) return mountFinder({ host, token, endpoints, load, loadMap, lifetime });
      })
      .catch((error: unknown) => {
        console.error('[location-finder]', error);
        if (!lifetime.ended) unavailable(host, lifetime);
      });
  }
}

/**
 * Ends the views whose containers are no longer in the document. Checked when the mutations
 * are delivered, not per removal record: a container moved within the same task stays mounted.
 */
function unmountRemoved(): void {
  for (const [host, lifetime] of mounted) {
    if (host.isConnected) continue;
    mounted.delete(host);
    lifetime.end();
  }
}

if (document.readyState === 'loading')
  document.addEventListener('DOMContentLoaded', mountAll, { once: true });
else mountAll();
// Pages that render their containers later (single-page apps) get them mounted as they appear,
// and unmounted as they go.
new MutationObserver(() => {
  unmountRemoved();
  mountAll();
}).observe(document.documentElement, { childList: true, subtree: true });
