// The cluster summaries of a chunked publish (src/modules/finders/payload/chunked/
// chunked.clusters.ts): at every level the clusters count each placed location once and are
// the widget's own clusters of them (src/lib/clusters.ts over the whole world); the same
// positions give the same bytes, a moved location other bytes; locations at the poles and on
// the antimeridian land inside the world; levels stop where the cluster budget says.
import { describe, expect, it } from 'vitest';
import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS, clusterView, projectLocations } from '../src/lib/clusters.ts';
import {
  type ClusterSummaries,
  clusterSummaries,
  SUMMARY_MAX_CLUSTERS,
  SUMMARY_MAX_ZOOM,
} from '../src/modules/finders/payload/chunked/chunked.clusters.ts';

const SCALE = 1e5;

function random(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
}

type Position = { lat: number | null; lng: number | null };

/** The file's levels decoded: each cluster's pixel position at its zoom and count. */
function decode(body: Buffer): { x: number; y: number; count: number }[][] {
  const file = JSON.parse(body.toString('utf8')) as ClusterSummaries;
  expect(Object.keys(file)).toEqual(['count', 'x', 'y']);
  return file.count.map((counts, zoom) => {
    let [x, y] = [0, 0];
    expect(file.x[zoom]).toHaveLength(counts.length);
    expect(file.y[zoom]).toHaveLength(counts.length);
    return counts.map((count, k) => {
      x += file.x[zoom]![k]!;
      y += file.y[zoom]![k]!;
      return { x, y, count };
    });
  });
}

/** Locations spread over Europe, one in twenty without a position. */
function europe(count: number, seed: number): Position[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, i) =>
    i % 20 === 7 ? { lat: null, lng: null } : { lat: 40 + next() * 14, lng: -4 + next() * 24 },
  );
}

describe('clusterSummaries', () => {
  it('counts every placed location once per level, as the widget clusters them over the whole world', () => {
    const locations = europe(20_000, 1);
    const placed = locations.filter((location) => location.lat !== null);
    const { body, maxZoom } = clusterSummaries(locations, SCALE);
    const levels = decode(body);
    expect(levels).toHaveLength(maxZoom + 1);
    expect(maxZoom).toBe(SUMMARY_MAX_ZOOM);
    const projected = projectLocations(placed.length, (i) => ({
      lat: Math.round(placed[i]!.lat! * SCALE) / SCALE,
      lng: Math.round(placed[i]!.lng! * SCALE) / SCALE,
    }));
    const all = placed.map((_, i) => i);
    levels.forEach((clusters, zoom) => {
      expect(clusters.reduce((sum, cluster) => sum + cluster.count, 0)).toBe(placed.length);
      const world = 256 * 2 ** zoom;
      const expected = clusterView(
        projected,
        all,
        { zoom, minX: 0, minY: 0, maxX: world, maxY: world },
        CLUSTER_RADIUS,
        CLUSTER_MAX_ZOOM,
      );
      expect(clusters).toEqual(
        expected.map((cluster) => ({
          x: Math.round(cluster.x),
          y: Math.round(cluster.y),
          count: cluster.members.length,
        })),
      );
    });
    // Zoomed out, few clusters; the deepest level many, each holding several locations.
    expect(levels[0]!.length).toBeLessThanOrEqual(4);
    expect(levels[maxZoom]!.length).toBeGreaterThan(500);
    expect(levels[maxZoom]!.length).toBeLessThan(placed.length / 4);
  });

  it('gives the same bytes for the same positions, and others when a location moves', () => {
    const locations = europe(5_000, 2);
    const first = clusterSummaries(locations, SCALE).body;
    expect(clusterSummaries(structuredClone(locations), SCALE).body.equals(first)).toBe(true);
    // Closer than the index's precision: the same bytes.
    const nudged = locations.map((location, i) =>
      i === 100 ? { lat: location.lat! + 1e-7, lng: location.lng } : location,
    );
    expect(clusterSummaries(nudged, SCALE).body.equals(first)).toBe(true);
    const moved = locations.map((location, i) => (i === 100 ? { lat: 70, lng: 25 } : location));
    expect(clusterSummaries(moved, SCALE).body.equals(first)).toBe(false);
  });

  it('places locations at the poles and on both sides of the antimeridian inside the world', () => {
    const next = random(3);
    const locations: Position[] = [
      { lat: 90, lng: 0 },
      { lat: -90, lng: 0 },
      { lat: 0, lng: 180 },
      { lat: 0, lng: -180 },
      { lat: 89.99, lng: 179.99999 },
      { lat: -89.99, lng: -179.99999 },
      ...Array.from({ length: 2000 }, () => {
        const lng = 179.5 + next();
        return { lat: 60 + next() * 25, lng: lng > 180 ? lng - 360 : lng };
      }),
    ];
    const levels = decode(clusterSummaries(locations, SCALE).body);
    levels.forEach((clusters, zoom) => {
      const world = 256 * 2 ** zoom;
      expect(clusters.reduce((sum, cluster) => sum + cluster.count, 0)).toBe(locations.length);
      for (const { x, y } of clusters) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThan(world);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(world);
      }
    });
    // The poles are drawn at the map's edges (Web Mercator ends at 85.05°).
    const zoom0 = levels[0]!;
    expect(zoom0.some((cluster) => cluster.y === 0)).toBe(true);
    expect(zoom0.some((cluster) => cluster.y === 256)).toBe(true);
  });

  it('stops before the level that would pass the cluster budget', () => {
    const next = random(4);
    const world = Array.from({ length: 30_000 }, () => ({
      lat: -60 + next() * 130,
      lng: -180 + next() * 360,
    }));
    const { body, maxZoom } = clusterSummaries(world, SCALE);
    const levels = decode(body);
    expect(maxZoom).toBeLessThan(SUMMARY_MAX_ZOOM);
    expect(levels).toHaveLength(maxZoom + 1);
    expect(levels.flat().length).toBeLessThanOrEqual(SUMMARY_MAX_CLUSTERS);
    // The next level would have passed it.
    const deeper = decode(clusterSummaries(world, SCALE, { maxZoom: maxZoom + 1, maxClusters: 1e9 }).body);
    expect(deeper.flat().length).toBeGreaterThan(SUMMARY_MAX_CLUSTERS);
    // No location with a position: every level, empty.
    const none = clusterSummaries([{ lat: null, lng: null }], SCALE);
    expect(decode(none.body)).toEqual(Array.from({ length: SUMMARY_MAX_ZOOM + 1 }, () => []));
  });
});
