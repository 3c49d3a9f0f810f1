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
import { hasBit } from '../../../../lib/bits.ts';
import { sha1Hex } from '../../../../lib/crypto.ts';
import { deltas, sums } from '../../../../lib/deltas.ts';
import type { AreaBounds } from '../../../../lib/geo.ts';
import type { OpeningSchedule } from '../../../../lib/hours/hours.model.ts';
import { isIntegerList, isStringList } from '../../../../lib/json-lists.ts';
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
  readonly body: Buffer;
}

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

/**
 * An area's file: named by the hash of its bytes, which are put together only when read (a
 * republish uploads a few of 500 areas, and copying 50 MB into their files took 40 ms).
 */
function areaFile(documents: Buffer): ChunkedFile {
  let body: Buffer | undefined;
  return {
    path: `c/${sha1Hex(OPEN, documents, CLOSE)}.json`,
    get body() {
      body ??= Buffer.concat([OPEN, documents, CLOSE]);
      return body;
    },
  };
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

/** Bit i of the result (byte i >> 3, bit i & 7) is set for each i of `members`; base64. */
function bitset(count: number, members: readonly number[]): string {
  const bytes = Buffer.alloc(Math.ceil(count / 8));
  for (const i of members) bytes[i >> 3]! |= 1 << (i & 7);
  return bytes.toString('base64');
}

/** The schedule's fields of a location, or null when it has no opening information. */
function openingOf(location: IndexedLocation): OpeningSchedule | null {
  const specialDays = location.special_days ?? [];
  const closed = location.temporarily_closed ?? false;
  if (!location.hours && !closed && specialDays.length === 0) return null;
  return {
    hours: location.hours ?? null,
    reopens_on: location.reopens_on ?? null,
    special_days: specialDays,
    temporarily_closed: closed,
    time_zone: location.time_zone ?? null,
  };
}

/** What an index's bitsets follow: the manifest's tags (by slug), sets (by id) and refinements. */
const frameKey = (frame: Pick<PayloadFrame, 'tags' | 'sets' | 'advanced_refinements'>) =>
  JSON.stringify([
    frame.tags.map((tag) => tag.slug),
    frame.sets.map((set) => set.id),
    frame.advanced_refinements,
  ]);

/**
 * The published version's index, decoded: a republish takes the entries of each area whose
 * file is unchanged from it rather than parsing the area's documents again (at 100,000
 * locations the parse was a fifth of a publish). An area's entries depend only on its bytes and
 * on the manifest's lists, so they are taken only when the lists are the same.
 */
export interface PublishedIndex {
  /** frameKey of the manifest the index belongs to. */
  frame: string;
  /** Each area file's first position in the index and its number of locations. */
  areas: Map<string, { start: number; count: number }>;
  id: Float64Array;
  /** Scaled as written (INDEX_COORDINATE_SCALE), for the first lat.length locations. */
  lat: Float64Array;
  lng: Float64Array;
  tags: Buffer[];
  sets: Buffer[];
  refinements: Buffer[];
  schedule: number[];
  schedules: OpeningSchedule[];
  /** Each schedule's JSON, as add keys it. */
  scheduleKeys: string[];
  /**
   * The published cluster summaries, when the manifest names them and their bytes were read:
   * they depend on the positions alone, so a build whose positions are the same keeps them.
   */
  clusters?: ChunkedFile & { maxZoom: number };
}

/** The manifest's cluster summaries with their bytes, when these are what the manifest names. */
function publishedClusters(chunked: unknown, body: Buffer | undefined): PublishedIndex['clusters'] {
  const { path, max_zoom: maxZoom } = ((chunked as ChunkedManifest | undefined)?.clusters ?? {}) as Partial<
    NonNullable<ChunkedManifest['clusters']>
  >;
  if (!body || typeof path !== 'string' || !Number.isInteger(maxZoom)) return undefined;
  return path === `s/${sha1Hex(body)}.json` ? { path, body, maxZoom: maxZoom! } : undefined;
}

/**
 * A published manifest and its index (both parsed JSON) and the bytes of the cluster
 * summaries it names, as PublishedIndex; undefined when the manifest or the index is not of
 * the shape this module writes, which a republish then does without.
 */
export function readPublishedIndex(
  manifest: unknown,
  index: unknown,
  clusters?: Buffer,
): PublishedIndex | undefined {
  const {
    tags,
    sets,
    advanced_refinements: refinements,
    chunked,
  } = (manifest ?? {}) as Record<string, unknown>;
  const areaList = (chunked as { areas?: unknown } | undefined)?.areas;
  if (
    !Array.isArray(tags) ||
    !Array.isArray(sets) ||
    !Array.isArray(refinements) ||
    !Array.isArray(areaList)
  ) {
    return undefined;
  }
  const columns = (index ?? {}) as Record<string, unknown>;
  const { id, lat, lng, schedule, schedules } = columns;
  if (
    !isIntegerList(id) ||
    !isIntegerList(lat) ||
    !isIntegerList(lng) ||
    lat.length !== lng.length ||
    lat.length > id.length ||
    !isIntegerList(schedule) ||
    schedule.length !== id.length ||
    !Array.isArray(schedules) ||
    schedule.some((number) => number >= schedules.length)
  ) {
    return undefined;
  }
  const bitsets = (value: unknown, length: number) =>
    isStringList(value) && value.length === length
      ? value.map((text) => Buffer.from(text, 'base64'))
      : undefined;
  const tagBits = bitsets(columns.tags, tags.length);
  const setBits = bitsets(columns.sets, sets.length);
  const refinementBits = bitsets(columns.refinements, refinements.length);
  if (!tagBits || !setBits || !refinementBits) return undefined;
  const areas = new Map<string, { start: number; count: number }>();
  let start = 0;
  for (const area of areaList) {
    const [path, count] = Array.isArray(area) ? area : [];
    if (typeof path !== 'string' || typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
      return undefined;
    }
    areas.set(path, { start, count });
    start += count;
  }
  if (start !== id.length) return undefined;
  try {
    return {
      frame: frameKey({
        tags: tags as { slug: string }[],
        sets: sets as { id: number }[],
        advanced_refinements: refinements as Refinement[],
      }),
      areas,
      id: sums(id),
      lat: sums(lat),
      lng: sums(lng),
      tags: tagBits,
      sets: setBits,
      refinements: refinementBits,
      schedule,
      schedules: schedules as OpeningSchedule[],
      scheduleKeys: schedules.map((opening) => JSON.stringify(opening)),
      clusters: publishedClusters(chunked, clusters),
    };
  } catch {
    // A tag or set without its slug or id.
    return undefined;
  }
}

/**
 * The index of the locations in area order, added an area at a time: an area's documents are
 * parsed, read and dropped, so the documents of 100,000 locations are never held at once.
 * `id`, `lat` and `lng` are delta-coded (each the difference from the one before); `lat` and
 * `lng` are integers of INDEX_COORDINATE_SCALE per degree and cover the first `placed`
 * locations (the areas with bounds come first). `tags`, `sets` and `refinements` hold one
 * base64 bitset per entry of the manifest's lists (bit i: location i carries the tag, belongs
 * to the set, meets the refinement). `schedule` numbers each location's opening schedule in
 * `schedules` (each distinct one once), -1 for none.
 */
function createIndex(frame: PayloadFrame) {
  const scaled = (value: number) => Math.round(value * INDEX_COORDINATE_SCALE);
  const tagNumbers = new Map(frame.tags.map((tag, i) => [tag.slug, i]));
  const setNumbers = new Map(frame.sets.map((set, i) => [set.id, i]));
  // Each tag's, set's and refinement's members, by position in the index.
  const tagMembers = frame.tags.map((): number[] => []);
  const setMembers = frame.sets.map((): number[] => []);
  const refinementMembers = frame.advanced_refinements.map((): number[] => []);
  const ids: number[] = [];
  const lat: number[] = [];
  const lng: number[] = [];
  const schedule: number[] = [];
  const schedules: OpeningSchedule[] = [];
  const scheduleNumbers = new Map<string, number>();
  /** The schedule's number: each distinct one (by its JSON) numbered in order of first use. */
  const scheduleNumber = (key: string, opening: OpeningSchedule) => {
    let number = scheduleNumbers.get(key);
    if (number === undefined) {
      number = schedules.push(opening) - 1;
      scheduleNumbers.set(key, number);
    }
    return number;
  };
  return {
    add(location: IndexedLocation): void {
      const i = ids.push(location.id) - 1;
      if (location.lat !== null && location.lng !== null) {
        lat.push(scaled(location.lat));
        lng.push(scaled(location.lng));
      }
      for (const slug of location.tags) tagMembers[tagNumbers.get(slug) ?? -1]?.push(i);
      for (const id of location.sets) setMembers[setNumbers.get(id) ?? -1]?.push(i);
      frame.advanced_refinements.forEach((refinement, k) => {
        if (matchesRefinement(location, refinement)) refinementMembers[k]!.push(i);
      });
      const opening = openingOf(location);
      schedule.push(opening ? scheduleNumber(JSON.stringify(opening), opening) : -1);
    },

    /**
     * `count` locations of a published index from `start` (an area whose file is unchanged,
     * so its entries are too): what add gives for its documents, without parsing them.
     */
    addPublished(published: PublishedIndex, start: number, count: number): void {
      for (let p = start; p < start + count; p++) {
        const i = ids.push(published.id[p]!) - 1;
        // The published index's positions cover its first locations, as this one's do.
        if (p < published.lat.length) {
          lat.push(published.lat[p]!);
          lng.push(published.lng[p]!);
        }
        for (const [bitsets, members] of [
          [published.tags, tagMembers],
          [published.sets, setMembers],
          [published.refinements, refinementMembers],
        ] as const) {
          bitsets.forEach((bits, k) => {
            if (hasBit(bits, p)) members[k]!.push(i);
          });
        }
        const number = published.schedule[p]!;
        schedule.push(
          number < 0 ? -1 : scheduleNumber(published.scheduleKeys[number]!, published.schedules[number]!),
        );
      }
    },

    get count(): number {
      return ids.length;
    },

    /** Whether the located locations are those of `published`, at the same positions and in the same order. */
    samePositions(published: PublishedIndex): boolean {
      const same = (mine: number[], theirs: Float64Array) =>
        mine.length === theirs.length && mine.every((value, i) => value === theirs[i]);
      return same(lat, published.lat) && same(lng, published.lng);
    },

    /** The positions of the located locations, in index order, rounded as the index writes them. */
    positions(): { lat: number; lng: number }[] {
      return lat.map((scaledLat, i) => ({
        lat: scaledLat / INDEX_COORDINATE_SCALE,
        lng: lng[i]! / INDEX_COORDINATE_SCALE,
      }));
    },

    body(): { body: Buffer; hours: boolean } {
      const count = ids.length;
      const body = Buffer.from(
        JSON.stringify({
          id: deltas(ids),
          lat: deltas(lat),
          lng: deltas(lng),
          refinements: refinementMembers.map((members) => bitset(count, members)),
          schedule,
          schedules,
          sets: setMembers.map((members) => bitset(count, members)),
          tags: tagMembers.map((members) => bitset(count, members)),
        }),
      );
      return { body, hours: schedules.length > 0 };
    },
  };
}

/**
 * The manifest and the files of a chunked publish. `areas` come with bounds first (in the
 * order the index lists them), then those without.
 */
export function chunkedFiles(
  frame: PayloadFrame,
  areas: AreaDocuments[],
  published?: PublishedIndex,
): ChunkedPublish {
  const files: ChunkedFile[] = [];
  const listed: ChunkedManifest['areas'] = [];
  const indexed = createIndex(frame);
  // The published index's entries hold for this publish's lists only when they are the same.
  const reusable = published?.frame === frameKey(frame) ? published : undefined;
  for (const area of areas) {
    const file = areaFile(area.documents);
    const { path } = file;
    const known = reusable?.areas.get(path);
    let count: number;
    if (known) {
      indexed.addPublished(reusable!, known.start, known.count);
      count = known.count;
    } else {
      const documents = JSON.parse(`[${area.documents.toString('utf8')}]`) as IndexedLocation[];
      for (const location of documents) indexed.add(location);
      count = documents.length;
    }
    files.push(file);
    listed.push(
      area.bounds && area.radiusKm !== null ? [path, count, ...area.bounds, area.radiusKm] : [path, count],
    );
  }
  const index = indexed.body();
  const indexPath = `i/${sha1Hex(index.body)}.json`;
  files.push({ path: indexPath, body: index.body });
  // Clustering 100,000 positions is a twentieth of a republish; most republishes move none.
  const kept = published?.clusters && indexed.samePositions(published) ? published.clusters : undefined;
  const summaries = kept ?? clusterSummaries(indexed.positions(), INDEX_COORDINATE_SCALE);
  const summariesPath = kept?.path ?? `s/${sha1Hex(summaries.body)}.json`;
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
        count: indexed.count,
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
