// One widget in one container: an open shadow root holding the search, the filters, the
// result list, the details panel and the map, kept in step with each other and with the URL
// hash. State lives here; the modules it uses only draw and report. Everything the view holds
// on the page is registered in its lifetime (lifetime.ts), which ends when the container leaves
// the document; the shadow root is then emptied, ready for a mount if the container returns.
// The map arrives later than the rest: its code is a second file (map-loader.ts), and the view
// brings it up to date with the results, search position and selection of the moment.
//
// The layout follows the container's width, not the window's (widget.css): wide, the list and
// the map side by side, the details over the list; narrow, the list or the map (the view
// toggle), the details or the filters over them. What is covered is hidden by visibility, so
// the list keeps its scroll position and the map its size; closing the details gives focus
// back to the row or the marker that opened them.

import { ensureContrast, tint } from '../lib/color-contrast.ts';
import { createTracker, type Tracker } from './analytics.ts';
import { chunkedData } from './chunked/chunked-data.ts';
import { asLocation, fetchJson, type LoadResult } from './data.ts';
import { deepLinkKey, readViewState, type ViewState, writeViewState } from './deep-link.ts';
import { renderDetails } from './details.ts';
import { createDistanceFormatter, distanceKm } from './distance.ts';
import { h, isolated } from './dom.ts';
import type { Endpoints } from './endpoints.ts';
import { emptySelection, replaceSelection, selectionSize } from './filter.ts';
import { createFiltersPanel } from './filters-panel.ts';
import { type FinderData, listedResults, type Results, singleFileData } from './finder-data.ts';
import { everyMinute, HOURS_CSS, type HoursContext, hoursLocale, statusLine } from './hours.view.ts';
import { createTranslator, resolveLanguage, type Translate } from './i18n.ts';
import type { Lifetime } from './lifetime.ts';
import type { ClusterSummaries, MapView } from './map.ts';
import type { MapModule } from './map-loader.ts';
import { COMPLETE_MARK, LIST_RENDERED_MARK, READY_EVENT } from './marks.ts';
import { createPlaceSearch } from './places.ts';
import { createSearchBox } from './search-box.ts';
import { parseSettings } from './settings.ts';
import type { FinderLocation, FinderPayload, Origin } from './types.ts';
import { createViewToggle, type ResultsView } from './view-toggle.ts';
import { VirtualList } from './virtual-list.ts';
import widgetCss from './widget.css';

const ROW_HEIGHT = 76;
/** Rows a tall phone or a desktop list shows at once. */
const FIRST_ROWS = 12;

export interface MountOptions {
  host: HTMLElement;
  token: string;
  endpoints: Endpoints;
  load: (token: string) => Promise<LoadResult>;
  /** The map's code, fetched by the first view that shows a map. */
  loadMap: () => Promise<MapModule>;
  lifetime: Lifetime;
}

function hostLanguage(host: HTMLElement): string | null {
  return host.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang || null;
}

function message(t: Translate, text: string, error: boolean): HTMLElement {
  return h(
    'section',
    { class: 'lf-root lf-root--message', role: 'region', 'aria-label': t('regionUnnamed') },
    [
      h('p', { class: `lf-message${error ? ' lf-message--error' : ''}`, role: error ? 'alert' : 'status' }, [
        text,
      ]),
    ],
  );
}

export async function mountFinder(options: MountOptions): Promise<void> {
  const { host, token, load, lifetime } = options;
  // A container mounted before and unmounted keeps its (emptied) shadow root: a host has one.
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const frame = h('div', { class: 'lf-frame' });
  const style = h('style', {}, [widgetCss + HOURS_CSS]);
  shadow.append(style, frame);
  lifetime.add(() => shadow.replaceChildren());
  const fallbackT = createTranslator(resolveLanguage('auto', hostLanguage(host)));

  if (!token) {
    frame.replaceChildren(message(fallbackT, fallbackT('missingToken'), true));
    return;
  }
  frame.replaceChildren(message(fallbackT, fallbackT('loading'), false));

  const result = await load(token);
  if (lifetime.ended) return;
  if (!result.ok) {
    const text =
      result.reason === 'forbidden'
        ? fallbackT('forbidden', { origin: window.location.origin })
        : fallbackT(result.reason === 'not_found' ? 'notFound' : 'loadFailed');
    frame.replaceChildren(message(fallbackT, text, true));
    return;
  }
  const tagMode = parseSettings(result.payload.settings).tagFilterMode;
  const data = result.chunked
    ? chunkedData(result.payload, result.chunked, tagMode, fetchJson, asLocation)
    : singleFileData(result.payload, tagMode);
  await createFinderView({
    ...options,
    frame,
    style,
    payload: result.payload,
    data,
    summaries: result.chunked?.clusters,
  });
}

function addressLine(location: FinderLocation): string {
  return [location.address, [location.zip, location.city].filter(Boolean).join(' ')]
    .filter((part) => part && part.trim() !== '')
    .join(', ');
}

async function createFinderView(
  options: MountOptions & {
    frame: HTMLElement;
    /** The widget's stylesheet in the shadow root: the map's goes before it. */
    style: HTMLStyleElement;
    payload: FinderPayload;
    data: FinderData;
    /** A chunked finder's cluster summaries file: its map need not wait for the index. */
    summaries?: string;
  },
): Promise<void> {
  const { host, frame, style, payload, data, token, endpoints, loadMap, lifetime, summaries } = options;
  const hashKey = deepLinkKey(token);
  const linked = readViewState(window.location.hash, hashKey);
  // A chunked finder's nearest areas to a linked position download while the view is built.
  if (linked.lat !== undefined && linked.lng !== undefined)
    data.prepare({ lat: linked.lat, lng: linked.lng }).catch(() => {});
  const settings = parseSettings(payload.settings);
  // A single file's map is asked for first, so that it downloads while the list is built; a
  // chunked finder's after the first list (with the cluster summaries) or the index, as it
  // would only slow the first list's areas down.
  const mapModule = settings.showMap && data.complete ? loadMap() : null;
  const language = resolveLanguage(settings.language, hostLanguage(host));
  const t = createTranslator(language);
  const direction =
    settings.direction === 'auto'
      ? getComputedStyle(host).direction === 'rtl'
        ? 'rtl'
        : 'ltr'
      : settings.direction;
  const primary = ensureContrast(settings.primaryColor);
  const formatDistance = createDistanceFormatter(settings.units, language);
  const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const tracker: Tracker = createTracker(endpoints.apiUrl, token, lifetime);
  const { withHours } = data;
  const hours: HoursContext = { locale: hoursLocale(language), t };

  // The view's state.
  const selection = emptySelection();
  let origin: Origin | null = null;
  let originInLink = false;
  let results: Results = listedResults([]);
  let selected: number | null = null;
  let ready = false;
  /** A chunked finder's index failed to load: what waits for it will not come. */
  let incomplete = false;
  /** The view shown in narrow layouts. */
  let view: ResultsView = 'list';
  /** Where the open details came from, to give focus back to. */
  let returnTo: ResultsView = 'list';

  // The DOM.
  const status = h('p', { class: 'lf-status', role: 'status' });
  const empty = h('p', { class: 'lf-empty' }, [t('noResults')]);
  const details = h('div', { class: 'lf-details-slot' });
  const list = new VirtualList({
    label: t('locations'),
    rowHeight: ROW_HEIGHT,
    renderRow(position, button) {
      const i = results.at(position);
      const location = data.location(i);
      if (!location) {
        // A chunked finder's row before its area has loaded: a placeholder, drawn again after.
        button.replaceChildren(h('span', { class: 'lf-row-title' }, [t('loading')]));
        button.setAttribute('aria-busy', 'true');
        // Rows are reused: this one may have been the selected location's.
        button.removeAttribute('aria-current');
        needDetails(i);
        return;
      }
      button.removeAttribute('aria-busy');
      const parts: Node[] = [
        h('span', { class: 'lf-row-title' }, [isolated(location.title)]),
        h('span', { class: 'lf-row-address' }, [isolated(addressLine(location))]),
      ];
      const km = distanceTo(i);
      const distance = km !== null && h('span', { class: 'lf-row-distance' }, [isolated(formatDistance(km))]);
      // Computed for the rows drawn only: the list draws those in view.
      const line = statusLine(location, Date.now(), hours);
      // The distance and the opening status share a line: rows keep their height.
      if (distance || line) parts.push(h('span', { class: 'lf-row-meta' }, [distance, line]));
      button.replaceChildren(...parts);
      if (i === selected) button.setAttribute('aria-current', 'true');
      else button.removeAttribute('aria-current');
    },
    onActivate(position) {
      if (position < results.length)
        select(results.at(position), { focusDetails: true, track: true, from: 'list' });
    },
    lifetime,
  });

  const search = createSearchBox({
    t,
    places: createPlaceSearch({
      apiUrl: endpoints.apiUrl,
      token,
      country: settings.searchCountry,
      near: () => origin ?? settings.defaultCenter,
    }),
    onPlace(place, query) {
      setOrigin({ lat: place.lat, lng: place.lng, label: query }, true);
      tracker.track('search', { query });
    },
    onClear() {
      setOrigin(null, false);
    },
    lifetime,
  });

  const locate = h('button', { type: 'button', class: 'lf-button' }, [t('useMyLocation')]);
  // Browsers give positions to secure pages only; elsewhere the button could only fail.
  locate.hidden = !('geolocation' in navigator) || !window.isSecureContext;
  locate.addEventListener('click', () => {
    search.say(t('locating'));
    // A position request cannot be cancelled: an answer after the view ended is dropped.
    navigator.geolocation.getCurrentPosition(
      (position) => {
        if (lifetime.ended) return;
        search.setValue('');
        search.say('');
        // The visitor's own position stays out of the URL: links get shared.
        setOrigin(
          { lat: position.coords.latitude, lng: position.coords.longitude, label: t('myLocation') },
          false,
        );
        tracker.track('search');
      },
      () => search.say(t('locationUnavailable')),
      { enableHighAccuracy: false, timeout: 10_000, maximumAge: 60_000 },
    );
  });

  const filters = createFiltersPanel({
    payload,
    t,
    tagMode: settings.tagFilterMode,
    openNow: withHours,
    selection,
    onChange: () => update(),
    onToggle: (open) => root.classList.toggle('lf-root--filters', open),
    onDone() {
      showView('list');
      if (results.length > 0) list.focusIndex(0);
      else filters?.toggle.focus();
    },
  });

  const viewToggle = settings.showMap ? createViewToggle(t, showView) : null;

  const mapElement = settings.showMap
    ? // A group, not a landmark: two widgets on a page would otherwise have two identical ones.
      h('div', { class: 'lf-map', dir: 'ltr', role: 'group', 'aria-label': t('map') })
    : null;
  const root = h(
    'section',
    {
      class: `lf-root${mapElement ? '' : ' lf-root--no-map'}`,
      role: 'region',
      'aria-label': t('region', { name: payload.name }),
      dir: direction,
      lang: language,
    },
    [
      h('div', { class: 'lf-panel' }, [
        h('div', { class: 'lf-controls' }, [
          search.element,
          h('div', { class: 'lf-actions' }, [locate, filters?.toggle]),
          h('div', { class: 'lf-bar' }, [status, viewToggle?.element]),
        ]),
        // The filters in the body: narrow layouts lay them over the results.
        h('div', { class: 'lf-body' }, [filters?.panel, list.element, empty]),
        details,
      ]),
      mapElement,
    ],
  );
  root.style.setProperty('--lf-primary', primary);
  root.style.setProperty('--lf-primary-tint', tint(primary, 0.88));
  root.style.setProperty('--lf-height', `${settings.height}px`);
  frame.replaceChildren(root);

  let map: MapView | null = null;

  /** Kilometres from the search position to location i; null without either. */
  function distanceTo(i: number): number | null {
    const position = origin && data.position(i);
    return origin && position ? distanceKm(origin, position) : null;
  }

  // Rows and markers drawn before their details have loaded ask for them here; one load for
  // those of the same moment, then the rows and markers in view are drawn again.
  const wanted = new Set<number>();
  function needDetails(i: number): void {
    if (wanted.size === 0) {
      queueMicrotask(() => {
        const batch = [...wanted];
        wanted.clear();
        data.load(batch).then(() => {
          if (lifetime.ended) return;
          // None arrived (their files failed): drawing them again would ask again at once, forever.
          if (!batch.some((k) => data.location(k))) {
            status.textContent = t('loadFailed');
            return;
          }
          list.refresh();
          map?.redraw();
        });
      });
    }
    wanted.add(i);
  }

  function showMap(module: MapModule, container: HTMLElement, clusters?: ClusterSummaries): void {
    if (lifetime.ended) return;
    style.before(h('style', {}, [module.MAP_CSS]));
    map = module.createMapView({
      container,
      count: data.count,
      position: (i) => data.position(i),
      title(i) {
        const title = data.location(i)?.title;
        if (title === undefined) needDetails(i);
        return title;
      },
      settings,
      t,
      reducedMotion,
      onSelect: (i) => select(i, { focusDetails: true, track: true, from: 'map' }),
      lifetime,
      summaries: clusters,
    });
    map.setResults(results.members, selectionSize(selection) > 0);
    if (origin) map.setOrigin(origin, results.first(5));
    if (selected !== null) map.setSelected(selected);
  }

  /** The file did not load (or the map could not be made): the list does without it. */
  function mapUnavailable(error: unknown, container: HTMLElement): void {
    if (lifetime.ended) return;
    console.error('[location-finder]', error);
    container.replaceChildren(h('p', { class: 'lf-map-message', role: 'status' }, [t('mapUnavailable')]));
  }

  function currentState(): ViewState {
    const state: ViewState = {
      tags: [...selection.tags],
      sets: [...selection.sets],
      refinements: [...selection.refinements],
    };
    if (selected !== null) state.location = data.location(selected)?.id;
    if (origin && originInLink)
      Object.assign(state, { query: origin.label, lat: origin.lat, lng: origin.lng });
    return state;
  }

  function writeHash(): void {
    const next = writeViewState(window.location.hash, hashKey, currentState());
    if (next === window.location.hash) return;
    const { pathname, search: query } = window.location;
    history.replaceState(history.state, '', `${pathname}${query}${next}`);
  }

  function update(): void {
    results = data.results(selection, origin);
    list.setCount(results.length);
    // Until a chunked finder's index is at hand, the early list stands for all of them (nearest
    // first; the rest follow with the index), and chosen filters wait for it.
    const pending = !data.complete && (selectionSize(selection) > 0 || results.length === 0);
    const count = data.complete ? results.length : data.count;
    filters?.setCount(pending ? null : count);
    empty.hidden = results.length > 0 || pending;
    const said = pending
      ? t(incomplete ? 'loadFailed' : 'loading')
      : origin
        ? t('resultsNear', { count, place: origin.label })
        : t('results', { count });
    // The same words again would be read out again (the minute's refresh).
    if (status.textContent !== said) status.textContent = said;
    map?.setResults(results.members, selectionSize(selection) > 0);
    if (ready) writeHash();
  }

  /**
   * Results near `next` need the nearest areas of a chunked finder before its index: read
   * first. False when the view ended or another position replaced this one meanwhile.
   */
  async function setOrigin(next: Origin | null, inLink: boolean): Promise<boolean> {
    origin = next;
    originInLink = next !== null && inLink;
    if (next && !data.complete) {
      update();
      await data.prepare(next).catch((error: unknown) => console.error('[location-finder]', error));
      if (lifetime.ended || origin !== next) return false;
    }
    update();
    list.scrollToIndex(0);
    map?.setOrigin(next, results.first(5));
    return true;
  }

  function showView(next: ResultsView): void {
    view = next;
    viewToggle?.set(next);
    root.classList.toggle('lf-root--map-view', next === 'map');
  }

  function closeDetails(): void {
    // A selection still waiting for its details is given up too.
    selecting++;
    const previous = selected;
    selected = null;
    details.replaceChildren();
    root.classList.remove('lf-root--details');
    list.refresh();
    map?.setSelected(null);
    writeHash();
    if (previous === null) return;
    if (returnTo === 'map') {
      // The marker is drawn again by setSelected; clustered or out of view, the map itself.
      if (!map?.focusMarker(previous)) mapElement?.focus();
      return;
    }
    const position = results.positionOf(previous);
    if (position >= 0) list.focusIndex(position);
  }

  let selecting = 0;
  /** Opens location i's details, once they are at hand (a chunked finder reads its area first). */
  async function select(
    i: number,
    how: { focusDetails: boolean; track: boolean; from?: ResultsView },
  ): Promise<void> {
    const ticket = ++selecting;
    if (!data.location(i)) {
      const said = status.textContent;
      status.textContent = t('loading');
      await data.load([i]);
      // A later selection, a closing, a new link, or the view's end came first.
      if (lifetime.ended || ticket !== selecting) return;
      if (!data.location(i)) status.textContent = t('loadFailed');
      // Unless the list said something new meanwhile (the index arrived), its words come back.
      else if (status.textContent === t('loading')) status.textContent = said;
    }
    const location = data.location(i);
    if (!location) return;
    selected = i;
    const km = distanceTo(i);
    const card = renderDetails(location, {
      payload,
      t,
      language,
      hours,
      distance: km === null ? null : formatDistance(km),
      directionsUrl: settings.directionsUrl,
      onClose: closeDetails,
      onLinkClick: (clicked) => tracker.track('click', { location_id: clicked.id }),
    });
    details.replaceChildren(card);
    details.scrollTop = 0;
    root.classList.add('lf-root--details');
    returnTo = how.from ?? view;
    const position = results.positionOf(i);
    if (position >= 0) list.scrollToIndex(position);
    list.refresh();
    map?.setSelected(i);
    if (how.focusDetails) card.querySelector<HTMLElement>('.lf-details-title')?.focus();
    if (how.track) tracker.track('location_select', { location_id: location.id });
    writeHash();
  }

  /** Whether a link names what only a chunked finder's index knows: filters or a location's id. */
  const namesIndexed = (state: ViewState) =>
    (state.tags?.length ?? 0) + (state.sets?.length ?? 0) + (state.refinements?.length ?? 0) > 0 ||
    state.location !== undefined;

  /** Applies a link, once the index it names things of is at hand. */
  async function followLink(state: ViewState): Promise<void> {
    if (!data.complete && namesIndexed(state)) {
      empty.hidden = true;
      status.textContent = t('loading');
      await data.whenComplete().catch(() => {});
      if (lifetime.ended) return;
    }
    await applyLink(state);
  }

  async function applyLink(state: ViewState): Promise<void> {
    // A selection still waiting for its details belongs to the state being replaced.
    selecting++;
    const knownTags = new Set(payload.tags.map((tag) => tag.slug));
    const knownSets = new Set(payload.sets.map((set) => set.id));
    replaceSelection(selection, {
      tags: (state.tags ?? []).filter((slug) => knownTags.has(slug)),
      sets: (state.sets ?? []).filter((id) => knownSets.has(id)),
      refinements: (state.refinements ?? []).filter((index) => index < payload.advanced_refinements.length),
    });
    filters?.sync();
    if (state.lat !== undefined && state.lng !== undefined) {
      const label = state.query ?? t('youAreHere');
      search.setValue(state.query ?? '');
      if (!(await setOrigin({ lat: state.lat, lng: state.lng, label }, true))) return;
    } else {
      update();
    }
    if (lifetime.ended) return;
    const target = state.location === undefined ? undefined : data.indexOfId(state.location);
    if (target !== undefined) await select(target, { focusDetails: false, track: false });
  }

  // Filters and a location's id are read from a chunked finder's index: the first list waits for it.
  if (Object.keys(linked).length > 0) await followLink(linked);
  else update();
  // Without a search position a chunked finder lists its locations in the index's order: the
  // first rows' area is read before the list counts as shown.
  if (!data.complete && !origin) {
    await data.load(results.first(FIRST_ROWS));
    list.refresh();
  }
  if (lifetime.ended) return;
  ready = true;
  // What a chunked finder's first list did without: its index, and the map (over the index, or
  // over the cluster summaries until it arrives).
  const complete = data.whenComplete().then(() => {
    if (lifetime.ended) return;
    map?.complete();
    update();
    performance.mark(COMPLETE_MARK, { detail: { token } });
  });
  complete.catch((error: unknown) => {
    console.error('[location-finder]', error);
    incomplete = true;
    if (!lifetime.ended) status.textContent = t('loadFailed');
    // A map drawing the summaries gives way to the message a map without the index shows.
    map?.remove();
    map = null;
  });
  if (settings.showMap && mapElement) {
    // The cluster summaries let a chunked finder's map come before its index; an index that
    // arrives first (or summaries that fail) leave the map to it, as without summaries.
    const early = summaries && !data.complete ? loadMap() : undefined;
    if (summaries && early) {
      Promise.all([early, fetchJson(summaries)])
        .then(([module, body]) => {
          const read = module.readSummaries(body);
          if (read && !map && !data.complete && !incomplete) showMap(module, mapElement, read);
        })
        .catch(() => {});
    }
    Promise.all([mapModule ?? early ?? complete.then(loadMap), complete])
      .then(([module]) => {
        if (!map) showMap(module, mapElement);
      })
      .catch((error: unknown) => {
        if (!map) mapUnavailable(error, mapElement);
      });
  }

  /** Follows the link in the URL when it differs from what the view shows. */
  const followHash = () => {
    const linkedNow = readViewState(window.location.hash, hashKey);
    if (writeViewState('', hashKey, linkedNow) !== writeViewState('', hashKey, currentState())) {
      if (selected !== null && linkedNow.location === undefined) closeDetails();
      void followLink(linkedNow);
    }
  };
  lifetime.listen(window, 'hashchange', followHash);
  // A link changed while the first list was on its way.
  if (
    writeViewState('', hashKey, readViewState(window.location.hash, hashKey)) !==
    writeViewState('', hashKey, linked)
  )
    followHash();

  // The statuses move with the clock: each minute, the rows in view and the open-now filter's
  // results are computed again.
  if (withHours) {
    everyMinute(lifetime, () => {
      if (selection.open.size > 0) update();
      else list.refresh();
    });
  }

  performance.mark(LIST_RENDERED_MARK, { detail: { token } });
  host.dispatchEvent(
    new CustomEvent(READY_EVENT, {
      bubbles: true,
      composed: true,
      detail: { token, locations: data.count },
    }),
  );
  tracker.track('view');
}
