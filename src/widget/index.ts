// widget.js: finds every `[data-location-finder]` container on the page (now and later ones
// too), and mounts a finder in each. The token is the container's own `data-finder`, else
// the script tag's. Payloads are fetched once per token however many containers show it.
import { type LoadResult, loadFinder } from './data.ts';
import { resolveEndpoints } from './endpoints.ts';
import { mountFinder } from './finder-view.ts';
// Imported last, and by nothing else, so the placeholder the service replaces lands in the last
// bytes of the build, after everything the build compresses (scripts/build-widget.ts).
import { SERVED_CDN_URL_PLACEHOLDER } from './served.ts';

const script =
  (document.currentScript as HTMLScriptElement | null) ??
  document.querySelector<HTMLScriptElement>('script[src*="widget"][data-finder]');

const endpoints = resolveEndpoints({
  src: script?.src || window.location.href,
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

function mountAll(): void {
  for (const host of document.querySelectorAll<HTMLElement>('[data-location-finder]')) {
    // A shadow root means mounted already (by this script or a second copy of it).
    if (host.shadowRoot) continue;
    const token = (host.dataset.finder || script?.dataset.finder || '').trim();
    mountFinder({ host, token, endpoints, load }).catch((error: unknown) => {
      console.error('[location-finder]', error);
    });
  }
}

if (document.readyState === 'loading')
  document.addEventListener('DOMContentLoaded', mountAll, { once: true });
else mountAll();
// Pages that render their containers later (single-page apps) get them mounted as they appear.
new MutationObserver(mountAll).observe(document.documentElement, { childList: true, subtree: true });
