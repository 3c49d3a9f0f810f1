// The cluster summaries of a chunked publish (docs/api.md, Publishing: chunked finders): the
// clusters of every placed location at each zoom from 0 to SUMMARY_MAX_ZOOM, grouped by the
// widget map's own rule (src/lib/clusters.ts) over the whole world. The widget draws them
// while the index (about 940 KB gzip at 100,000 locations) is on its way, so a visitor on a
// phone sees where the locations are seconds earlier; from the index on it clusters itself.
import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS, clusterView, projectLocations } from '../../../../lib/clusters.ts';
import { deltas } from '../../../../lib/deltas.ts';

/**
 * The deepest zoom summarised, and the most clusters of all levels together: levels are
 * written from 0 while their clusters stay within the budget, so the file stays small however
 * the locations are spread. Each level holds about four times the clusters of the one before.
 * Measured at 100,000 locations (area order, gzip -9): spread evenly over western Europe,
 * levels 0 to 8, 2,500 clusters, 11 KB; around 300 European cities or over the United States,
 * 0 to 7, 1,400 to 2,200 clusters, 7 to 10 KB; over the whole world, 0 to 4, 1,300 clusters,
 * 6 KB. Level 8 shows a region of a few hundred kilometres on a phone; level 9 alone would hold
 * some 6,000 clusters across Europe, about 25 KB more.
 */
export const SUMMARY_MAX_ZOOM = 8;
export const SUMMARY_MAX_CLUSTERS = 4000;
/** Tile pixels of one world at zoom 0: Leaflet's and the clustering's space. */
const TILE_SIZE = 256;

/**
 * The file's columns, one array per zoom from 0: each cluster's centroid in world pixels at
 * that zoom (rounded to the pixel: x in [0, 256 * 2^zoom), y in [0, 256 * 2^zoom]), `x` and
 * `y` each the difference from the previous cluster's (the first from 0: neighbours follow
 * each other, small numbers compress well), and `count`, its locations. Keys in alphabetical
 * order: the same positions give the same bytes.
 */
export interface ClusterSummaries {
  count: number[][];
  x: number[][];
  y: number[][];
}

/**
 * The summaries of the locations with a position, and the deepest level written. `locations`
 * are in the index's order and their positions are rounded as the index writes them (integers
 * of `scale` per degree): the clustering takes points in that order, and the widget's takes
 * the index's positions.
 */
export function clusterSummaries(
  locations: readonly { lat: number | null; lng: number | null }[],
  scale: number,
  { maxZoom = SUMMARY_MAX_ZOOM, maxClusters = SUMMARY_MAX_CLUSTERS } = {},
): { body: Buffer; maxZoom: number } {
  const placed = locations.filter((location) => location.lat !== null && location.lng !== null);
  const rounded = (degrees: number) => Math.round(degrees * scale) / scale;
  const projected = projectLocations(placed.length, (i) => ({
    lat: rounded(placed[i]!.lat!),
    lng: rounded(placed[i]!.lng!),
  }));
  const all = placed.map((_, i) => i);
  const summaries: ClusterSummaries = { count: [], x: [], y: [] };
  let total = 0;
  for (let zoom = 0; zoom <= maxZoom; zoom++) {
    const world = TILE_SIZE * 2 ** zoom;
    const clusters = clusterView(
      projected,
      all,
      { zoom, minX: 0, minY: 0, maxX: world, maxY: world },
      CLUSTER_RADIUS,
      CLUSTER_MAX_ZOOM,
    );
    total += clusters.length;
    // Level 0 always: a world of 256 pixels holds a few dozen clusters at most.
    if (zoom > 0 && total > maxClusters) break;
    summaries.count.push(clusters.map((cluster) => cluster.members.length));
    // A location on the antimeridian at 180° projects to x = world, the meridian of x = 0.
    summaries.x.push(deltas(clusters.map((cluster) => Math.round(cluster.x) % world)));
    summaries.y.push(deltas(clusters.map((cluster) => Math.round(cluster.y))));
  }
  return { body: Buffer.from(JSON.stringify(summaries)), maxZoom: summaries.count.length - 1 };
}
