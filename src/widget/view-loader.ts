// The view's code (finder-view.ts: the search, filters, list, details and their styles) is the
// view file built beside widget.js (built-files.ts), not widget.js itself: widget.js is the
// little that must run first (which containers, which finder, the request for its files), so
// that on a slow network the finder's files are asked for while the view's code still downloads.
import { builtViewFile, importWithin } from './built-files.ts';

export type ViewModule = typeof import('./finder-view.ts');

/** As long as the map file may take: the view file is about the same size compressed. */
const VIEW_LOAD_TIMEOUT_MS = 20_000;

let loading: Promise<ViewModule> | undefined;

/** The view module, imported once per page; a failed import stays failed, as the map's does. */
export function loadViewModule(scriptUrl: string): Promise<ViewModule> {
  loading ??= importWithin<ViewModule>(new URL(builtViewFile(), scriptUrl).href, VIEW_LOAD_TIMEOUT_MS);
  return loading;
}
