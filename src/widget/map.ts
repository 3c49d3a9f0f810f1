// The map beside the list: Leaflet with tiles from the finder's URL template, and the current
// results clustered for the view (src/lib/clusters.ts), so only the clusters and markers in view exist
// as DOM (10,000 locations cost a few dozen markers). Markers are keyboard buttons with names;
// a marker's click selects its location, a cluster's zooms to its members. The clusters are
// drawn in the frame after the list, so a filter change shows its list first.
//
// A chunked finder's map may come before its index (docs/api.md, Chunked finders): it then
// draws the publish's cluster summaries (the clusters of every location, computed by the same
// rule at the zoomed-out levels) until complete(); deeper than the summaries go, the
// locations whose details are at hand, and a note that more are loading.
//
// This file is the entry of the second file of the build, the map file (an ES module holding
// Leaflet and its stylesheet): widget.js imports it only when a finder shows its map
// (map-loader.ts), so nothing here may be imported by widget.js's own code except as a type.

import {
  divIcon,
  type LatLngBounds,
  type LatLngBoundsExpression,
  type LatLngExpression,
  type LeafletKeyboardEvent,
  type Map as LeafletMap,
  latLngBounds,
  layerGroup,
  map as leafletMap,
  type Marker,
  marker,
  point,
  tileLayer,
} from 'leaflet';
import leafletCss from 'leaflet/dist/leaflet.css';
import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS, clusterView, projectLocations } from '../lib/clusters.ts';
import { sums } from '../lib/deltas.ts';
import { h } from './dom.ts';
import type { Translate } from './i18n.ts';
import type { Lifetime } from './lifetime.ts';
import { MAP_RENDERED_MARK } from './marks.ts';
import type { WidgetSettings } from './settings.ts';
import type { LatLng, Origin } from './types.ts';

/**
 * Leaflet's stylesheet, for the shadow root the map is drawn in (before the widget's own), and
 * the note over the map (here rather than in widget.css: only the map file needs it).
 */
export const MAP_CSS: string = `${leafletCss}.lf-map-note{position:absolute;z-index:1000;top:8px;left:50%;transform:translateX(-50%);margin:0;padding:4px 10px;border-radius:4px;background:#fff;color:#1f2937;font-size:13px;box-shadow:0 1px 3px rgb(0 0 0/40%);pointer-events:none;white-space:nowrap}`;

/** A chunked publish's cluster summaries, each level's clusters: world pixels at its zoom and counts. */
export type ClusterSummaries = { x: Float64Array; y: Float64Array; count: number[] }[];

/**
 * The summaries file (docs/api.md, Publishing: chunked finders) decoded, its deltas added up;
 * undefined when it is not of its shape (the map then waits for the index).
 */
export function readSummaries(body: unknown): ClusterSummaries | undefined {
  const { count, x, y } = (body ?? {}) as Record<string, unknown>;
  if (!Array.isArray(count) || !Array.isArray(x) || !Array.isArray(y) || count.length === 0) return undefined;
  const levels: ClusterSummaries = [];
  for (let zoom = 0; zoom < count.length; zoom++) {
    const columns: unknown[] = [count[zoom], x[zoom], y[zoom]];
    const length = (count[zoom] as unknown[] | undefined)?.length;
    if (!columns.every((c) => Array.isArray(c) && c.length === length && c.every(Number.isFinite)))
      return undefined;
    const [counts, dx, dy] = columns as number[][];
    levels.push({ count: counts!, x: sums(dx!), y: sums(dy!) });
  }
  return levels;
}

export interface MapView {
  /**
   * The locations to show (indexes into the payload's locations). `filtered`: filters are
   * chosen, so the summaries (of every location) are not what to show.
   */
  setResults(indexes: readonly number[], filtered?: boolean): void;
  /** The index has loaded: every position is known, and the map clusters the results from now on. */
  complete(): void;
  /** Takes the map out of its container, for good (the view's end does it too). */
  remove(): void;
  /** Highlights a location and brings it into view; null clears the highlight. */
  setSelected(index: number | null): void;
  /** Marks the search position and frames it with the nearest results. */
  setOrigin(origin: Origin | null, nearest: readonly number[]): void;
  /** Focuses the location's marker; false when it is not drawn on its own (clustered, out of view). */
  focusMarker(index: number): boolean;
  /** Draws the markers in view again: their names have loaded. */
  redraw(): void;
}

export interface MapViewOptions {
  container: HTMLElement;
  /** The finder's locations are 0 to count - 1. */
  count: number;
  position(index: number): LatLng | null;
  /** A location's name for its marker; undefined while its details load. */
  title(index: number): string | undefined;
  settings: WidgetSettings;
  t: Translate;
  reducedMotion: boolean;
  onSelect(index: number): void;
  /** The view's: the map, its observer and its pending frame end with it. */
  lifetime: Lifetime;
  /** Drawn until complete(): the index is still loading (readSummaries). */
  summaries?: ClusterSummaries;
}

const SELECTED_ZOOM = 15;
const FIT_OPTIONS = { padding: [32, 32] as [number, number], maxZoom: CLUSTER_MAX_ZOOM };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Leaflet renders attributions as HTML; the finder's text is escaped, its link checked. */
function attributionHtml(settings: WidgetSettings): string {
  const text = escapeHtml(settings.tileAttribution);
  if (!text || !settings.tileAttributionUrl) return text;
  return `<a href="${escapeHtml(settings.tileAttributionUrl)}" target="_blank" rel="noopener noreferrer">${text}</a>`;
}

/** Markers are role=button; Leaflet lets Enter open popups only, so both keys are wired here. */
function onActivate(target: Marker, action: () => void): Marker {
  return target.on('click', action).on('keydown', (event) => {
    const { originalEvent } = event as LeafletKeyboardEvent;
    if (originalEvent.key !== 'Enter' && originalEvent.key !== ' ') return;
    originalEvent.preventDefault();
    action();
  });
}

function srText(text: string): HTMLElement {
  return h('span', { class: 'lf-sr' }, [text]);
}

function boundsOf(points: LatLng[]): LatLngBoundsExpression | undefined {
  if (points.length === 0) return undefined;
  let [south, west, north, east] = [90, 180, -90, -180];
  for (const { lat, lng } of points) {
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    west = Math.min(west, lng);
    east = Math.max(east, lng);
  }
  return [
    [south, west],
    [north, east],
  ];
}

export function createMapView(options: MapViewOptions): MapView {
  const { container, count, position, title, settings, t, reducedMotion, onSelect, lifetime } = options;
  let { summaries } = options;
  const animate = !reducedMotion;
  const map: LeafletMap = leafletMap(container, {
    zoomAnimation: animate,
    fadeAnimation: animate,
    markerZoomAnimation: animate,
    minZoom: 1,
    worldCopyJump: true,
    // Leaflet would listen on window (and mark it with a global); the ResizeObserver below
    // follows the container itself, which is what matters in a host page.
    trackResize: false,
  });
  map.attributionControl.setPrefix(
    '<a href="https://leafletjs.com" target="_blank" rel="noopener noreferrer">Leaflet</a>',
  );
  tileLayer(settings.tileUrl, { attribution: attributionHtml(settings), maxZoom: 19 }).addTo(map);

  const markers = layerGroup().addTo(map);
  /** The single markers drawn now, by location index. */
  const singles = new Map<number, Marker>();
  const originLayer = layerGroup().addTo(map);
  // Before the index, the positions of the locations whose details are at hand: projected again
  // at each drawing, as their areas arrive.
  let projected = summaries ? undefined : projectLocations(count, position);
  let every: number[] | undefined;
  let filtered = false;
  const note = h('p', { class: 'lf-map-note', role: 'status' });
  note.hidden = true;
  container.append(note);
  let shown: readonly number[] | undefined;
  let selected: number | null = null;
  let hasView = false;
  let pending = 0;
  let drawn = false;

  const pointIcon = (i: number) => {
    const pin = h('span', { class: 'lf-pin', 'aria-hidden': 'true' });
    return divIcon({
      className: `lf-marker${i === selected ? ' lf-marker--selected' : ''}`,
      html: h('span', {}, [pin, srText(title(i) ?? t('loading'))]),
      iconSize: [28, 28],
      iconAnchor: [14, 14],
    });
  };

  const clusterIcon = (count: number) => {
    const size = count < 100 ? 36 : count < 1000 ? 44 : 52;
    return divIcon({
      className: 'lf-cluster',
      html: h('span', {}, [
        h('span', { 'aria-hidden': 'true' }, [count.toLocaleString()]),
        srText(t('cluster', { count })),
      ]),
      iconSize: [size, size],
    });
  };

  /** Zooms to where a cluster's members split: their bounds, one level closer at least. */
  const expand = (bounds: LatLngBounds) => {
    const zoom = map.getBoundsZoom(bounds, false, point(32, 32));
    const target = Math.min(Math.max(zoom, Math.round(map.getZoom()) + 1), CLUSTER_MAX_ZOOM + 1);
    map.setView(bounds.getCenter(), target, { animate });
  };

  const render = () => {
    if (!hasView || !(shown || summaries)) return;
    const bounds = map.getBounds();
    const zoom = Math.round(map.getZoom());
    const topLeft = map.project(bounds.getNorthWest(), zoom);
    const bottomRight = map.project(bounds.getSouthEast(), zoom);
    const view = { zoom, minX: topLeft.x, minY: topLeft.y, maxX: bottomRight.x, maxY: bottomRight.y };
    markers.clearLayers();
    singles.clear();
    const level = summaries?.[zoom];
    let said = '';
    if (summaries && filtered) {
      // The summaries count every location: with filters, nothing until the index.
      said = t('loading');
    } else if (level) {
      // Each cluster on the copy of the world in view, as clusterView places points.
      const world = 256 * 2 ** zoom;
      const left = view.minX - CLUSTER_RADIUS;
      level.count.forEach((members, k) => {
        const y = level.y[k]!;
        let x = level.x[k]!;
        if (x < left) x += world * Math.ceil((left - x) / world);
        if (
          x > view.maxX + CLUSTER_RADIUS ||
          y < view.minY - CLUSTER_RADIUS ||
          y > view.maxY + CLUSTER_RADIUS
        )
          return;
        // Its members lie within two radii of the centroid (each within one of the first).
        const reach = 2 * CLUSTER_RADIUS;
        const around = latLngBounds(
          map.unproject([x - reach, y - reach], zoom),
          map.unproject([x + reach, y + reach], zoom),
        );
        onActivate(marker(map.unproject([x, y], zoom), { icon: clusterIcon(members), keyboard: true }), () =>
          expand(around),
        ).addTo(markers);
      });
    } else {
      if (summaries) {
        // Deeper than the summaries: the locations at hand (their areas read), and more to come.
        said = t('loading');
        projected = projectLocations(count, position);
        every ??= Array.from({ length: count }, (_, i) => i);
      }
      const clusters = clusterView(
        projected!,
        summaries ? every! : shown!,
        view,
        CLUSTER_RADIUS,
        CLUSTER_MAX_ZOOM,
      );
      for (const { x, y, members } of clusters) {
        const position = map.unproject([x, y], zoom);
        if (members.length > 1) {
          onActivate(marker(position, { icon: clusterIcon(members.length), keyboard: true }), () =>
            expand(latLngBounds(members.flatMap((i) => options.position(i) ?? []))),
          ).addTo(markers);
        } else {
          const i = members[0] as number;
          const single = marker(position, {
            icon: pointIcon(i),
            keyboard: true,
            zIndexOffset: i === selected ? 1000 : 0,
            riseOnHover: true,
          });
          onActivate(single, () => onSelect(i)).addTo(markers);
          singles.set(i, single);
        }
      }
    }
    note.textContent = said;
    note.hidden = !said;
    if (!drawn) {
      drawn = true;
      performance.mark(MAP_RENDERED_MARK);
    }
  };

  map.on('moveend', render);
  // The container changes size with the layout (narrow containers stack list and map).
  const resizes = new ResizeObserver(() => map.invalidateSize({ pan: false }));
  resizes.observe(container);
  let removed = false;
  /** Leaflet's own teardown (its layers, handlers, listeners and animation frames), and ours. */
  function teardown(): void {
    if (removed) return;
    removed = true;
    cancelAnimationFrame(pending);
    resizes.disconnect();
    map.remove();
    note.remove();
  }
  lifetime.add(teardown);

  const frame = (target: LatLngBoundsExpression | undefined) => {
    if (target) map.fitBounds(target, { ...FIT_OPTIONS, animate });
    else if (settings.defaultCenter) map.setView(settings.defaultCenter, settings.defaultZoom, { animate });
    else map.setView([20, 0], 2, { animate });
    hasView = true;
  };

  return {
    setResults(next, isFiltered = false) {
      filtered = isFiltered;
      // The view is set at once (cheap), so a selection can pan right away; clusters follow.
      if (!hasView) {
        if (settings.defaultCenter) {
          map.setView(settings.defaultCenter, settings.defaultZoom, { animate: false });
          hasView = true;
        } else {
          const points: LatLng[] = [];
          for (const i of next) {
            const point = position(i);
            if (point) points.push(point);
          }
          // Before the index: every location, as its deepest summaries place them.
          const deepest = summaries?.[summaries.length - 1];
          if (points.length === 0 && deepest) {
            deepest.x.forEach((x, k) => {
              points.push(map.unproject([x, deepest.y[k]!], summaries!.length - 1));
            });
          }
          frame(boundsOf(points));
        }
      }
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(() => {
        shown = next;
        render();
      });
    },

    setSelected(i) {
      selected = i;
      const location = i === null ? null : position(i);
      if (location) {
        const target: LatLngExpression = [location.lat, location.lng];
        const zoom = Math.max(map.getZoom(), SELECTED_ZOOM);
        if (!map.getBounds().contains(target) || map.getZoom() < SELECTED_ZOOM) {
          map.setView(target, zoom, { animate });
          return; // moveend draws the markers, the selected one highlighted
        }
      }
      render();
    },

    setOrigin(origin, nearest) {
      originLayer.clearLayers();
      if (!origin) return;
      marker([origin.lat, origin.lng], {
        icon: divIcon({
          className: 'lf-origin',
          html: h('span', {}, [srText(t('youAreHere'))]),
          iconSize: [18, 18],
        }),
        interactive: false,
        keyboard: false,
      }).addTo(originLayer);
      const points: LatLng[] = [origin];
      for (const i of nearest.slice(0, 5)) {
        const point = position(i);
        if (point) points.push(point);
      }
      frame(boundsOf(points));
    },

    complete() {
      summaries = undefined;
      projected = projectLocations(count, position);
      render();
    },

    remove: teardown,

    redraw: render,

    focusMarker(i) {
      const element = singles.get(i)?.getElement();
      element?.focus();
      return element !== undefined;
    },
  };
}
