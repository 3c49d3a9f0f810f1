// Marker clustering for the map, computed for the current view only. A hierarchical index
// (supercluster) over 10,000 points cost tens of milliseconds per filter change, rebuilt for
// every selection; the map only ever shows one zoom level, so this groups the points in view
// at that level: one pass over the locations with a grid of cluster-radius cells, each point
// joining a cluster whose centre lies within the radius in its own or a neighbouring cell
// (Leaflet.markercluster's greedy rule), a few milliseconds at 10,000.
//
// One rule for the widget's map (src/widget/map.ts) and a chunked publish's cluster summaries
// (the clusters of every location at the zoomed-out levels, drawn before the index has loaded:
// src/modules/finders/payload/chunked/chunked.clusters.ts), so this file has no DOM in it.
//
// Positions are Web Mercator "world pixels" at the view's zoom, the space of Leaflet's
// map.project() and getPixelBounds(): x and y in [0, 256 * 2^zoom).
import { hasPosition } from './geo.ts';

/**
 * Pixels; Leaflet.markercluster's default too. Every marker is DOM work (about 90 at 10,000
 * locations across a continent), so fewer, larger clusters.
 */
export const CLUSTER_RADIUS = 80;
/**
 * Clusters up to zoom 12 (a city district in view), single markers from 13 on: the levels
 * above cost most of the index's build time and rarely hold more than a few dozen markers.
 */
export const CLUSTER_MAX_ZOOM = 12;

/** Mercator positions of every location in [0, 1), computed once (NaN without a position). */
export interface ProjectedLocations {
  x: Float64Array;
  y: Float64Array;
}

export interface ViewBox {
  zoom: number;
  /** World-pixel bounds of the view at `zoom` (x may run past the world's edges). */
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface Cluster {
  /** World pixels at the view's zoom: the members' centroid (x on the copy of the world in view). */
  x: number;
  y: number;
  /** Indexes into the locations, in index order; one member is a single marker. */
  members: number[];
}

const TILE_SIZE = 256;
const MAX_LATITUDE = 85.0511287798;

/** The positions of locations 0 to count - 1, `position(i)` each (null or absent: none). */
export function projectLocations(
  count: number,
  position: (i: number) => { lat?: number | null; lng?: number | null } | null | undefined,
): ProjectedLocations {
  const x = new Float64Array(count).fill(Number.NaN);
  const y = new Float64Array(count).fill(Number.NaN);
  for (let i = 0; i < count; i++) {
    const location = position(i);
    if (!location || !hasPosition(location)) continue;
    const lat = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, location.lat));
    const sin = Math.sin((lat * Math.PI) / 180);
    x[i] = (location.lng + 180) / 360;
    y[i] = 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
  }
  return { x, y };
}

/**
 * Groups the shown locations that are in view (with a margin of one radius, so markers at the
 * edge don't pop in on a small pan). Above `maxZoom` every point is its own marker. Points are
 * taken in index order whatever the order of `shown`, so a new sort (a search) keeps the same
 * clusters.
 */
export function clusterView(
  projected: ProjectedLocations,
  shown: readonly number[],
  view: ViewBox,
  radius: number,
  maxZoom: number,
): Cluster[] {
  const count = projected.x.length;
  const isShown = new Uint8Array(count);
  for (const i of shown) isShown[i] = 1;

  const world = TILE_SIZE * 2 ** view.zoom;
  const [left, right] = [view.minX - radius, view.maxX + radius];
  const [top, bottom] = [view.minY - radius, view.maxY + radius];
  const single = view.zoom > maxZoom;
  const radius2 = radius * radius;
  // Cells are numbered from the view's first (less one, for its neighbours), column by column.
  const firstX = Math.floor(left / radius) - 1;
  const firstY = Math.floor(top / radius) - 1;
  const rows = Math.floor(bottom / radius) - firstY + 2;
  const cols = Math.floor(right / radius) - firstX + 2;
  // Each cell's first cluster (-1: none), the others following it through `next`, in the order
  // they were made: an array over the grid where it is small (a view, a publish's levels up to
  // 8: a Map's lookups took half the time), a Map past that.
  const dense = cols * rows <= 1 << 22;
  const grid = new Int32Array(dense ? cols * rows : 0).fill(-1);
  const sparse = new Map<number, number>();
  const firstIn = (cell: number) => (dense ? (grid[cell] as number) : (sparse.get(cell) ?? -1));
  // The clusters: the first member's position, the centre others are measured from; the sums
  // of their members' positions; their members.
  const cx: number[] = [];
  const cy: number[] = [];
  const sumX: number[] = [];
  const sumY: number[] = [];
  const next: number[] = [];
  const members: number[][] = [];

  for (let i = 0; i < count; i++) {
    if (!isShown[i]) continue;
    const nx = projected.x[i] as number;
    if (Number.isNaN(nx)) continue;
    const y = (projected.y[i] as number) * world;
    if (y < top || y > bottom) continue;
    // The copy of the world the view shows (Leaflet's worldCopyJump lets x run past the edges).
    let x = nx * world;
    if (x < left) x += world * Math.ceil((left - x) / world);
    if (x > right) continue;

    const cell = (Math.floor(x / radius) - firstX) * rows + Math.floor(y / radius) - firstY;
    let joined = -1;
    for (let dx = -rows; dx <= rows && joined < 0 && !single; dx += rows) {
      for (let dy = -1; dy <= 1 && joined < 0; dy++) {
        for (let c = firstIn(cell + dx + dy); c >= 0; c = next[c] as number) {
          const ex = (cx[c] as number) - x;
          const ey = (cy[c] as number) - y;
          if (ex * ex + ey * ey <= radius2) {
            joined = c;
            break;
          }
        }
      }
    }
    if (joined >= 0) {
      sumX[joined] = (sumX[joined] as number) + x;
      sumY[joined] = (sumY[joined] as number) + y;
      members[joined]!.push(i);
      continue;
    }
    const created = cx.length;
    cx.push(x);
    cy.push(y);
    sumX.push(x);
    sumY.push(y);
    next.push(-1);
    members.push([i]);
    if (single) continue;
    let last = firstIn(cell);
    if (last < 0) {
      if (dense) grid[cell] = created;
      else sparse.set(cell, created);
    } else {
      while ((next[last] as number) >= 0) last = next[last] as number;
      next[last] = created;
    }
  }

  return members.map((group, c) => ({
    x: (sumX[c] as number) / group.length,
    y: (sumY[c] as number) / group.length,
    members: group,
  }));
}
