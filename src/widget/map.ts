// The map beside the list: Leaflet with tiles from the finder's URL template, and the current
// results clustered for the view (src/lib/clusters.ts), so only the clusters and markers in view exist
// as DOM (10,000 locations cost a few dozen markers). Markers are keyboard buttons with names;
// a marker's click selects its location, a cluster's zooms to its members. The clusters are
// drawn in the frame after the list, so a filter change shows its list first.
//
// This file is the entry of the second file of the build, the map file (an ES module holding
// Leaflet and its stylesheet): widget.js imports it only when a finder shows its map
// (map-loader.ts), so nothing here may be imported by widget.js's own code except as a type.

import {
  divIcon,
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
import { h } from './dom.ts';
import type { Translate } from './i18n.ts';
import type { Lifetime } from './lifetime.ts';
import { MAP_RENDERED_MARK } from './marks.ts';
import type { WidgetSettings } from './settings.ts';
import type { LatLng, Origin } from './types.ts';

/** Leaflet's stylesheet, for the shadow root the map is drawn in (before the widget's own). */
export const MAP_CSS: string = leafletCss;

export interface MapView {
  /** The locations to show (indexes into the payload's locations). */
  setResults(indexes: readonly number[]): void;
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
  // Leaflet's own teardown: its layers, handlers, listeners and animation frames.
  lifetime.add(() => map.remove());
  map.attributionControl.setPrefix(
    '<a href="https://leafletjs.com" target="_blank" rel="noopener noreferrer">Leaflet</a>',
  );
  tileLayer(settings.tileUrl, { attribution: attributionHtml(settings), maxZoom: 19 }).addTo(map);

  const markers = layerGroup().addTo(map);
  /** The single markers drawn now, by location index. */
  const singles = new Map<number, Marker>();
  const originLayer = layerGroup().addTo(map);
  const projected = projectLocations(count, position);
  let shown: readonly number[] | undefined;
  let selected: number | null = null;
  let hasView = false;
  let pending = 0;
  let drawn = false;
  lifetime.add(() => cancelAnimationFrame(pending));

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
  const expand = (members: readonly number[]) => {
    const bounds = latLngBounds(members.flatMap((i) => position(i) ?? []));
    const zoom = map.getBoundsZoom(bounds, false, point(32, 32));
    const target = Math.min(Math.max(zoom, Math.round(map.getZoom()) + 1), CLUSTER_MAX_ZOOM + 1);
    map.setView(bounds.getCenter(), target, { animate });
  };

  const render = () => {
    if (!hasView || !shown) return;
    const bounds = map.getBounds();
    const zoom = Math.round(map.getZoom());
    const topLeft = map.project(bounds.getNorthWest(), zoom);
    const bottomRight = map.project(bounds.getSouthEast(), zoom);
    const clusters = clusterView(
      projected,
      shown,
      { zoom, minX: topLeft.x, minY: topLeft.y, maxX: bottomRight.x, maxY: bottomRight.y },
      CLUSTER_RADIUS,
      CLUSTER_MAX_ZOOM,
    );
    markers.clearLayers();
    singles.clear();
    for (const { x, y, members } of clusters) {
      const position = map.unproject([x, y], zoom);
      if (members.length > 1) {
        onActivate(marker(position, { icon: clusterIcon(members.length), keyboard: true }), () =>
          expand(members),
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
    if (!drawn) {
      drawn = true;
      performance.mark(MAP_RENDERED_MARK);
    }
  };

  map.on('moveend', render);
  // The container changes size with the layout (narrow containers stack list and map).
  const resizes = new ResizeObserver(() => map.invalidateSize({ pan: false }));
  resizes.observe(container);
  lifetime.add(() => resizes.disconnect());

  const frame = (target: LatLngBoundsExpression | undefined) => {
    if (target) map.fitBounds(target, { ...FIT_OPTIONS, animate });
    else if (settings.defaultCenter) map.setView(settings.defaultCenter, settings.defaultZoom, { animate });
    else map.setView([20, 0], 2, { animate });
    hasView = true;
  };

  return {
    setResults(next) {
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

    redraw: render,

    focusMarker(i) {
      const element = singles.get(i)?.getElement();
      element?.focus();
      return element !== undefined;
    },
  };
}
