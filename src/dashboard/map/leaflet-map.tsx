// The dashboard's maps on Leaflet: a pin placed by a click and moved by dragging (a location's
// position), and a view chosen by panning and zooming (a finder's first view). This module is
// loaded on demand (map.tsx), so Leaflet stays out of the screens without a map. The map is
// an enhancement of typed numbers: it is one focusable group with a name, whose arrow keys pan
// it and whose Tab leaves it; the pin itself is not a stop of its own (the fields are).
import {
  divIcon,
  type Map as LeafletMap,
  type LeafletMouseEvent,
  map as leafletMap,
  type Marker,
  marker,
  tileLayer,
} from 'leaflet';
import { useEffect, useRef } from 'react';
import { t } from '../i18n/i18n.ts';
import { type LatLng, roundDegrees, tileAttribution, tileUrl } from './tiles.ts';

const WORLD: [number, number] = [20, 0];
const WORLD_ZOOM = 2;
const PIN_ZOOM = 15;

const pinIcon = divIcon({
  className: 'map-pin',
  html: '<span class="map-pin-head" aria-hidden="true"></span>',
  iconSize: [28, 36],
  iconAnchor: [14, 36],
});

/** A Leaflet map in `element`, named for assistive technology, removed with the component. */
function createMap(element: HTMLElement, label: string, center: [number, number], zoom: number): LeafletMap {
  // No inertia: the map rests where the pointer let go, so "Use this view" takes what is seen.
  const map = leafletMap(element, { center, zoom, worldCopyJump: true, inertia: false });
  map.attributionControl.setPrefix(false);
  tileLayer(tileUrl, { attribution: tileAttribution, maxZoom: 19 }).addTo(map);
  const container = map.getContainer();
  container.setAttribute('role', 'group');
  container.setAttribute('aria-label', label);
  return map;
}

const position = (latlng: { lat: number; lng: number }): LatLng => {
  const wrapped = { lat: latlng.lat, lng: ((((latlng.lng + 180) % 360) + 360) % 360) - 180 };
  return { lat: roundDegrees(wrapped.lat), lng: roundDegrees(wrapped.lng) };
};

export interface PinMapProps {
  label: string;
  /** The pin's position; null places no pin (the map shows the world). */
  pin: LatLng | null;
  onPin(position: LatLng): void;
}

export function PinMapView({ label, pin, onPin }: PinMapProps) {
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<LeafletMap | null>(null);
  const pinMarker = useRef<Marker | null>(null);
  const onPinRef = useRef(onPin);
  onPinRef.current = onPin;

  useEffect(() => {
    if (!element.current) return;
    const created = createMap(element.current, label, WORLD, WORLD_ZOOM);
    created.on('click', (event: LeafletMouseEvent) => onPinRef.current(position(event.latlng)));
    map.current = created;
    return () => {
      created.remove();
      map.current = null;
      pinMarker.current = null;
    };
  }, [label]);

  // The pin follows the position, placed by the map or typed; the view follows a pin out of it.
  const lat = pin?.lat;
  const lng = pin?.lng;
  useEffect(() => {
    const current = map.current;
    if (!current) return;
    const pin = lat === undefined || lng === undefined ? null : { lat, lng };
    if (!pin) {
      pinMarker.current?.remove();
      pinMarker.current = null;
      return;
    }
    if (!pinMarker.current) {
      const created = marker(pin, { icon: pinIcon, draggable: true, keyboard: false, title: t('mapui.pin') });
      created.on('dragend', () => onPinRef.current(position(created.getLatLng())));
      pinMarker.current = created.addTo(current);
      current.setView(pin, Math.max(current.getZoom(), PIN_ZOOM), { animate: false });
      return;
    }
    pinMarker.current.setLatLng(pin);
    if (!current.getBounds().contains(pin)) current.panTo(pin, { animate: false });
  }, [lat, lng]);

  return <div ref={element} className="map-canvas" />;
}

export interface View {
  center: LatLng;
  zoom: number;
}

export interface ViewMapProps {
  label: string;
  /** The view to show; null shows the world. A new value moves the map there. */
  view: View | null;
  /** Every view the map comes to rest at. */
  onMove(view: View): void;
}

export function ViewMapView({ label, view, onMove }: ViewMapProps) {
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<LeafletMap | null>(null);
  const onMoveRef = useRef(onMove);
  onMoveRef.current = onMove;

  useEffect(() => {
    if (!element.current) return;
    const created = createMap(element.current, label, WORLD, WORLD_ZOOM);
    const report = () =>
      onMoveRef.current({ center: position(created.getCenter()), zoom: created.getZoom() });
    created.on('moveend', report);
    map.current = created;
    report();
    return () => {
      created.remove();
      map.current = null;
    };
  }, [label]);

  const lat = view?.center.lat;
  const lng = view?.center.lng;
  const zoom = view?.zoom;
  useEffect(() => {
    if (lat === undefined || lng === undefined || zoom === undefined) return;
    map.current?.setView([lat, lng], zoom, { animate: false });
  }, [lat, lng, zoom]);

  return <div ref={element} className="map-canvas" />;
}
