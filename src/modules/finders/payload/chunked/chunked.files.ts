// The files of a chunked publish (docs/api.md, Publishing: chunked finders), from the location
// documents of each area as the payload build writes them:
// - an area file per area, `c/{sha1}.json`: a JSON array of the area's location documents,
//   exactly as the single payload file would hold them;
// - the index, `i/{sha1}.json`: a few bytes per location, enough to rank every location by
//   distance and filter them all without their details (columnar arrays, below);
// - the cluster summaries, `s/{sha1}.json`: the clusters of every location at the zoomed-out
//   levels, which the widget's map draws before the index has loaded (chunked.clusters.ts);
// - the manifest, the version file itself: the payload's top-level fields without `locations`,
//   and `chunked`, which names the index, the area files with each one's count and bounds, and the summaries.
// Every name is the SHA-1 of the file's bytes, so an area whose locations did not change keeps
// its name from one publish to the next and is not uploaded again. Keys are in alphabetical
// order throughout: the same content gives the same bytes.
import { sha1Hex } from '../../../../lib/crypto.ts';
import type { AreaBounds } from '../../../../lib/geo.ts';
import type { OpeningSchedule } from '../../../../lib/hours/hours.model.ts';
import { matchesRefinement, type Refinement } from '../../../../lib/refinements.ts';
import { clusterSummaries } from './chunked.clusters.ts';

/** The payload's top-level fields but `locations`, as documentFrame writes them. */
export interface PayloadFrame {
  advanced_refinements: Refinement[];
  authorized_urls: string[];
  custom_fields: unknown;
  id: number;
  name: string;
  sets: { id: number }[];
  settings: unknown;
  tags: { slug: string }[];
  token: string;
}

export interface AreaDocuments {
  /** The documents of the area's locations joined by commas (no brackets), in id order. */
  documents: Buffer;
  /** [south, west, north, east] and the radius (chunked.areas.ts); null for the locations without a position. */
  bounds: AreaBounds | null;
  radiusKm: number | null;
}

export interface ChunkedFile {
  /** Relative to the manifest: `c/{sha1}.json`, `i/{sha1}.json` or `s/{sha1}.json`. */
  path: string;
  body: Buffer;
}

/**
 * The manifest's `chunked`: the index and the area files, [path, count, south, west, north,
 * east, radius_km], or [path, count] for those without a position.
 */
export interface ChunkedManifest {
  areas: ([string, number, number, number, number, number, number] | [string, number])[];
  /** The cluster summaries and their deepest zoom; absent from manifests published before them. */
  clusters?: { max_zoom: number; path: string };
  count: number;
  /** Some location has opening hours (a schedule in the index): the widget offers "Open now". */
  hours: boolean;
  index: string;
}

export interface ChunkedPublish {
  manifest: Buffer;
  /** The area files, the index, the cluster summaries. */
  files: ChunkedFile[];
}

/** A location document as far as the index reads it. */
interface IndexedLocation extends OpeningSchedule {
  id: number;
  lat: number | null;
  lng: number | null;
  tags: string[];
  sets: number[];
  city?: string | null;
  state?: string | null;
  country?: string | null;
  custom_fields?: Record<string, unknown>;
}

/** Coordinates in the index: integers of this many per degree (about a metre). */
export const INDEX_COORDINATE_SCALE = 1e5;

/** Bit i of the result (byte i >> 3, bit i & 7) is set when test(i) holds; base64. */
function bitset(count: number, test: (index: number) => boolean): string {
  const bytes = Buffer.alloc(Math.ceil(count / 8));
  for (let i = 0; i < count; i++) if (test(i)) bytes[i >> 3]! |= 1 << (i & 7);
  return bytes.toString('base64');
}

/** Each value as its difference from the previous one (the first from 0): small numbers compress well. */
function deltas(values: number[]): number[] {
  return values.map((value, i) => value - (i === 0 ? 0 : values[i - 1]!));
}

/**
 * The index of the locations in area order. `id`, `lat` and `lng` are delta-coded (each the
 * difference from the one before); `lat` and `lng` are integers of INDEX_COORDINATE_SCALE per
 * degree and cover the first `placed` locations (the areas with bounds come first). `tags`,
 * `sets` and `refinements` hold one base64 bitset per entry of the manifest's lists (bit i:
 * location i carries the tag, belongs to the set, meets the refinement). `schedule` numbers
 * each location's opening schedule in `schedules` (each distinct one once), -1 for none.
 */
function indexOf(locations: IndexedLocation[], frame: PayloadFrame): { body: Buffer; hours: boolean } {
  const placed = locations.filter((location) => location.lat !== null && location.lng !== null);
  const scaled = (value: number) => Math.round(value * INDEX_COORDINATE_SCALE);
  const tagSlugs = new Map(frame.tags.map((tag, i) => [tag.slug, i]));
  const setIds = new Map(frame.sets.map((set, i) => [set.id, i]));
  const tagMembers = frame.tags.map(() => new Set<number>());
  const setMembers = frame.sets.map(() => new Set<number>());
  const schedules: OpeningSchedule[] = [];
  const scheduleNumbers = new Map<string, number>();
  const schedule = locations.map((location, i) => {
    for (const slug of location.tags) tagMembers[tagSlugs.get(slug) ?? -1]?.add(i);
    for (const id of location.sets) setMembers[setIds.get(id) ?? -1]?.add(i);
    const opening: OpeningSchedule = {
      hours: location.hours ?? null,
      reopens_on: location.reopens_on ?? null,
      special_days: location.special_days ?? [],
      temporarily_closed: location.temporarily_closed ?? false,
      time_zone: location.time_zone ?? null,
    };
    if (!opening.hours && !opening.temporarily_closed && opening.special_days!.length === 0) return -1;
    const key = JSON.stringify(opening);
    let number = scheduleNumbers.get(key);
    if (number === undefined) {
      number = schedules.push(opening) - 1;
      scheduleNumbers.set(key, number);
    }
    return number;
  });
  const body = Buffer.from(
    JSON.stringify({
      id: deltas(locations.map((location) => location.id)),
      lat: deltas(placed.map((location) => scaled(location.lat!))),
      lng: deltas(placed.map((location) => scaled(location.lng!))),
      refinements: frame.advanced_refinements.map((refinement) =>
        bitset(locations.length, (i) => matchesRefinement(locations[i]!, refinement)),
      ),
      schedule,
      schedules,
      sets: setMembers.map((members) => bitset(locations.length, (i) => members.has(i))),
      tags: tagMembers.map((members) => bitset(locations.length, (i) => members.has(i))),
    }),
  );
  return { body, hours: schedules.length > 0 };
}

/**
 * The manifest and the files of a chunked publish. `areas` come with bounds first (in the
 * order the index lists them), then those without.
 */
export function chunkedFiles(frame: PayloadFrame, areas: AreaDocuments[]): ChunkedPublish {
  const files: ChunkedFile[] = [];
  const locations: IndexedLocation[] = [];
  const listed: ChunkedManifest['areas'] = [];
  for (const area of areas) {
    const body = Buffer.concat([Buffer.from('['), area.documents, Buffer.from(']')]);
    const documents = JSON.parse(body.toString('utf8')) as IndexedLocation[];
    const path = `c/${sha1Hex(body)}.json`;
    files.push({ path, body });
    locations.push(...documents);
    listed.push(
      area.bounds && area.radiusKm !== null
        ? [path, documents.length, ...area.bounds, area.radiusKm]
        : [path, documents.length],
    );
  }
  const index = indexOf(locations, frame);
  const indexPath = `i/${sha1Hex(index.body)}.json`;
  files.push({ path: indexPath, body: index.body });
  const summaries = clusterSummaries(locations, INDEX_COORDINATE_SCALE);
  const summariesPath = `s/${sha1Hex(summaries.body)}.json`;
  files.push({ path: summariesPath, body: summaries.body });
  const { advanced_refinements, authorized_urls, custom_fields, id, name, sets, settings, tags, token } =
    frame;
  const manifest = Buffer.from(
    JSON.stringify({
      advanced_refinements,
      authorized_urls,
      chunked: {
        areas: listed,
        clusters: { max_zoom: summaries.maxZoom, path: summariesPath },
        count: locations.length,
        hours: index.hours,
        index: indexPath,
      } satisfies ChunkedManifest,
      custom_fields,
      id,
      name,
      sets,
      settings,
      tags,
      token,
    }),
  );
  return { manifest, files };
}
