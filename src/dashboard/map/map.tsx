// The dashboard's map, as screens use it: Leaflet's code is a chunk of its own (leaflet-map.tsx)
// loaded when a map is first shown, so a screen without one never downloads it. While it loads
// the map's place says so; if it cannot load, it says the numbers can still be typed (the
// fields beside every map are the way in, the map a quicker one).
import { Component, lazy, type ReactNode, Suspense } from 'react';
import { t } from '../i18n/i18n.ts';
import type { PinMapProps, ViewMapProps } from './leaflet-map.tsx';

const LazyPinMap = lazy(() => import('./leaflet-map.tsx').then((module) => ({ default: module.PinMapView })));
const LazyViewMap = lazy(() =>
  import('./leaflet-map.tsx').then((module) => ({ default: module.ViewMapView })),
);

class MapBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (this.state.failed)
      return (
        <p className="map-canvas map-message" role="status">
          {t('mapui.failed')}
        </p>
      );
    return this.props.children;
  }
}

function Loading() {
  return (
    <p className="map-canvas map-message" role="status">
      {t('mapui.loading')}
    </p>
  );
}

function Framed({ hint, children }: { hint: string; children: ReactNode }) {
  return (
    <div className="map-field">
      <MapBoundary>
        <Suspense fallback={<Loading />}>{children}</Suspense>
      </MapBoundary>
      <p className="muted map-hint">{hint}</p>
    </div>
  );
}

/** A map with a pin placed by a click and moved by dragging. */
export function PinMap(props: PinMapProps & { hint: string }) {
  return (
    <Framed hint={props.hint}>
      <LazyPinMap {...props} />
    </Framed>
  );
}

/** A map whose view is picked by panning and zooming. */
export function ViewMap(props: ViewMapProps & { hint: string }) {
  return (
    <Framed hint={props.hint}>
      <LazyViewMap {...props} />
    </Framed>
  );
}

export type { View } from './leaflet-map.tsx';
export type { LatLng } from './tiles.ts';
export { typedPosition } from './tiles.ts';
