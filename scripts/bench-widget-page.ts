// The page scripts and the host page the widget benchmarks share (bench-widget-ui.ts and its
// mobile profile, bench-widget-mobile.ts). Page scripts are source text: the TypeScript
// runner's helpers do not exist in the page.
import { READY_EVENT } from '../src/widget/marks.ts';

export const FILTER_CHANGES = 10;

// Toggles tag checkboxes in turn; times the synchronous work (filter, list, count) and the
// time to the second frame after it (the map's clusters are rebuilt in the first).
export const FILTER_TIMES = `(async () => {
  const root = document.querySelector('[data-location-finder]').shadowRoot;
  root.querySelector('[aria-controls^="lf-filters"]').click();
  const tags = [...root.querySelectorAll('.lf-fieldset')].find((set) => set.querySelector('legend').textContent === 'Features');
  const boxes = [...tags.querySelectorAll('input[type=checkbox]')].slice(0, 4);
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const results = [];
  for (let i = 0; i < ${FILTER_CHANGES}; i++) {
    await frame();
    const box = boxes[i % boxes.length];
    const start = performance.now();
    box.click();
    const sync = performance.now() - start;
    await frame();
    await frame();
    results.push({ sync, frame: performance.now() - start, status: root.querySelector('.lf-status').textContent });
  }
  return results;
})()`;

// "Open now" on, off and on again: the synchronous work (every location's status at the
// instant, the filter, the list and the count), the first time and again. A chunked finder
// computes the status of each distinct schedule of its index once. The filters panel is open
// (FILTER_TIMES opens it).
export const OPEN_NOW_TIMES = `(async () => {
  const root = document.querySelector('[data-location-finder]').shadowRoot;
  const box = [...root.querySelectorAll('.lf-fieldset')]
    .find((set) => set.querySelector('legend').textContent === 'Opening hours').querySelector('input');
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const times = [];
  for (let i = 0; i < 3; i++) {
    await frame();
    const start = performance.now();
    box.click();
    times.push({ ms: performance.now() - start, status: root.querySelector('.lf-status').textContent });
  }
  return times;
})()`;

// A new search position through the deep link (what a reload or a shared link does): distances
// to every location, the sort, the list and the map's framing.
export const SEARCH_TIME = (hash: string) => `(() => {
  const root = document.querySelector('[data-location-finder]').shadowRoot;
  history.replaceState(null, '', location.pathname + '${hash}');
  const start = performance.now();
  window.dispatchEvent(new HashChangeEvent('hashchange'));
  return { time: performance.now() - start, status: root.querySelector('.lf-status').textContent };
})()`;

export function customerPage(scriptUrl: string, token: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Stores</title>
<script>window.__ready = new Promise((resolve) => document.addEventListener('${READY_EVENT}', resolve));</script>
</head><body><h1>Our stores</h1><div data-location-finder></div>
<script src="${scriptUrl}" data-finder="${token}" async></script></body></html>`;
}
