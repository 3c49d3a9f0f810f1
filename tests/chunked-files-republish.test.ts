// A republish's index from the published one (src/modules/finders/payload/chunked/chunked.files.ts,
// readPublishedIndex): the entries of areas whose files are unchanged are taken from the
// published index instead of parsing the areas again, and the files come out byte for byte as a
// build from the documents alone gives them, whether nothing changed, an area changed (a title,
// a tag, hours), an area's locations moved, or the manifest's lists changed (then nothing is
// taken). A published index of another shape is not used.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha1Hex } from '../src/lib/crypto.ts';
import type { Refinement } from '../src/lib/refinements.ts';
import { splitIntoAreas } from '../src/modules/finders/payload/chunked/chunked.areas.ts';
import {
  type ChunkedPublish,
  chunkedFiles,
  type PayloadFrame,
  type PublishedIndex,
  readPublishedIndex,
} from '../src/modules/finders/payload/chunked/chunked.files.ts';

function random(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
}

interface Doc {
  id: number;
  title: string;
  lat: number | null;
  lng: number | null;
  tags: string[];
  sets: number[];
  city: string;
  custom_fields: Record<string, unknown>;
  time_zone: string | null;
  hours: Record<string, string[]> | null;
  special_days: unknown[];
  temporarily_closed: boolean;
  reopens_on: string | null;
}

const TAGS = [{ slug: 'wifi' }, { slug: 'atm' }, { slug: 'rare' }];
const REFINEMENTS: Refinement[] = [
  { name: 'Paris', match: 'any', conditions: [{ field: 'city', op: 'eq', value: 'Paris' }] },
];

function makeDocs(): Doc[] {
  const next = random(5);
  return Array.from({ length: 3000 }, (_, i) => ({
    id: 7 + i * 2,
    title: `Store ${i}`,
    lat: i < 2960 ? 40 + next() * 15 : null,
    lng: i < 2960 ? -5 + next() * 25 : null,
    tags: TAGS.filter((_, t) => i % (t * 5 + 2) === 0).map((tag) => tag.slug),
    sets: i % 4 === 0 ? [1] : i % 4 === 1 ? [2] : [],
    city: i % 9 === 0 ? 'Paris' : 'Lyon',
    custom_fields: {},
    time_zone: i % 3 ? 'Europe/Paris' : null,
    hours: i % 3 ? { mon: [i % 2 ? '09:00-18:00' : '10:00-19:00'] } : null,
    special_days: [],
    temporarily_closed: i % 50 === 0,
    reopens_on: null,
  }));
}

const baseFrame: PayloadFrame = {
  advanced_refinements: REFINEMENTS,
  authorized_urls: [],
  custom_fields: [],
  id: 1,
  name: 'Chain',
  sets: [{ id: 1 }, { id: 2 }],
  settings: [],
  tags: TAGS,
  token: 't',
};

/** The files of a publish of `docs`, as the build splits them. */
function publishOf(docs: Doc[], frame = baseFrame, published?: PublishedIndex): ChunkedPublish {
  const byId = new Map(docs.map((doc) => [doc.id, doc]));
  const documentsOf = (ids: number[]) => Buffer.from(ids.map((id) => JSON.stringify(byId.get(id))).join(','));
  const placed = docs.filter((doc) => doc.lat !== null) as { id: number; lat: number; lng: number }[];
  const unplaced = docs.filter((doc) => doc.lat === null).map((doc) => doc.id);
  return chunkedFiles(
    frame,
    [
      ...splitIntoAreas(placed).map((area) => ({
        documents: documentsOf(area.ids),
        bounds: area.bounds,
        radiusKm: area.radiusKm,
      })),
      { documents: documentsOf(unplaced), bounds: null, radiusKm: null },
    ],
    published,
  );
}

/** The published index of a publish, as the service reads it back from storage (with the summaries' bytes). */
function indexOf(publish: ChunkedPublish): PublishedIndex {
  const manifest = JSON.parse(publish.manifest.toString('utf8')) as {
    chunked: { index: string; clusters: { path: string } };
  };
  const fileOf = (path: string) => publish.files.find((file) => file.path === path)!;
  return readPublishedIndex(
    manifest,
    JSON.parse(fileOf(manifest.chunked.index).body.toString('utf8')),
    fileOf(manifest.chunked.clusters.path).body,
  )!;
}

const clustersOf = (publish: ChunkedPublish) =>
  (
    JSON.parse(publish.manifest.toString('utf8')) as {
      chunked: { clusters: { max_zoom: number; path: string } };
    }
  ).chunked.clusters;

/** The area documents parsed while `run` builds (JSON.parse of an array's text). */
function areasParsed(run: () => void): number {
  const parse = vi.spyOn(JSON, 'parse');
  try {
    run();
    return parse.mock.calls.filter(([text]) => typeof text === 'string' && text.startsWith('[')).length;
  } finally {
    parse.mockRestore();
  }
}

const same = (a: ChunkedPublish, b: ChunkedPublish) => {
  expect(a.manifest.toString()).toBe(b.manifest.toString());
  expect(a.files.map((file) => [file.path, file.body.toString()])).toEqual(
    b.files.map((file) => [file.path, file.body.toString()]),
  );
};

describe('a republish from the published index', () => {
  afterEach(() => vi.restoreAllMocks());

  it('parses no area when nothing changed, and writes the same files', () => {
    const docs = makeDocs();
    const first = publishOf(docs);
    const areaCount = first.files.filter((file) => file.path.startsWith('c/')).length;
    expect(areaCount).toBeGreaterThan(10);
    expect(areasParsed(() => publishOf(docs))).toBe(areaCount);
    let again: ChunkedPublish | undefined;
    expect(areasParsed(() => (again = publishOf(docs, baseFrame, indexOf(first))))).toBe(0);
    same(again!, first);
  });

  it('parses only the changed areas, and writes what a build from the documents writes', () => {
    const docs = makeDocs();
    const published = indexOf(publishOf(docs));
    const edited = makeDocs();
    // A title (not in the index), a tag, hours and a temporary closure, a city (a refinement),
    // and a location moved to the other end of the map: its old area and its new one change.
    edited[10]!.title = 'Renamed';
    edited[500]!.tags = ['rare'];
    edited[900]!.hours = { tue: ['08:00-12:00'] };
    edited[901]!.temporarily_closed = true;
    edited[1500]!.city = 'Paris';
    edited[2000]!.lat = 54.9;
    edited[2000]!.lng = 19.9;
    const fresh = publishOf(edited);
    let reused: ChunkedPublish | undefined;
    const parsed = areasParsed(() => (reused = publishOf(edited, baseFrame, published)));
    same(reused!, fresh);
    expect(parsed).toBeGreaterThanOrEqual(5);
    expect(parsed).toBeLessThanOrEqual(8);
  });

  it('takes nothing when the lists the bitsets follow changed', () => {
    const docs = makeDocs();
    const published = indexOf(publishOf(docs));
    for (const frame of [
      { ...baseFrame, tags: [...TAGS, { slug: 'new' }] },
      { ...baseFrame, sets: [{ id: 2 }, { id: 1 }] },
      { ...baseFrame, advanced_refinements: [] },
    ]) {
      const fresh = publishOf(docs, frame);
      let reused: ChunkedPublish | undefined;
      expect(areasParsed(() => (reused = publishOf(docs, frame, published)))).toBe(
        fresh.files.filter((file) => file.path.startsWith('c/')).length,
      );
      same(reused!, fresh);
    }
  });

  it('keeps the published cluster summaries while no position changed', () => {
    const docs = makeDocs();
    const published = indexOf(publishOf(docs));
    // Summaries that clustering these positions would not give: kept, they show in the manifest.
    const body = Buffer.from('{"count":[[1]],"x":[[1]],"y":[[1]]}');
    const marked = { ...published, clusters: { path: `s/${sha1Hex(body)}.json`, body, maxZoom: 0 } };
    const edited = makeDocs();
    edited[10]!.title = 'Renamed';
    edited[500]!.tags = ['rare'];
    const kept = publishOf(edited, baseFrame, marked);
    expect(clustersOf(kept)).toEqual({ max_zoom: 0, path: marked.clusters.path });
    expect(kept.files.find((file) => file.path === marked.clusters.path)?.body).toEqual(body);
    // Other lists (the bitsets start afresh) leave the positions, and the summaries, as they were.
    expect(clustersOf(publishOf(edited, { ...baseFrame, tags: TAGS.slice(1) }, marked)).path).toBe(
      marked.clusters.path,
    );

    const moved = makeDocs();
    moved[2000]!.lat = 54.9;
    expect(clustersOf(publishOf(moved, baseFrame, marked))).toEqual(clustersOf(publishOf(moved)));
    const gone = makeDocs().filter((_, i) => i !== 2000);
    expect(clustersOf(publishOf(gone, baseFrame, marked))).toEqual(clustersOf(publishOf(gone)));
  });

  it('takes no published summaries whose bytes are not the file the manifest names', () => {
    const publish = publishOf(makeDocs());
    const manifest = JSON.parse(publish.manifest.toString('utf8')) as {
      chunked: { index: string; clusters: { path: string; max_zoom: number } };
    } & Record<string, unknown>;
    const index = JSON.parse(
      publish.files.find((file) => file.path === manifest.chunked.index)!.body.toString(),
    );
    const body = publish.files.find((file) => file.path === manifest.chunked.clusters.path)!.body;
    expect(readPublishedIndex(manifest, index, body)?.clusters?.path).toBe(manifest.chunked.clusters.path);
    expect(readPublishedIndex(manifest, index)?.clusters).toBeUndefined();
    expect(readPublishedIndex(manifest, index, Buffer.from(`${body} `))?.clusters).toBeUndefined();
    const { clusters, ...withoutClusters } = manifest.chunked;
    expect(clusters).toBeDefined();
    expect(
      readPublishedIndex({ ...manifest, chunked: withoutClusters }, index, body)?.clusters,
    ).toBeUndefined();
    const noZoom = { ...manifest, chunked: { ...manifest.chunked, clusters: { path: clusters.path } } };
    expect(readPublishedIndex(noZoom, index, body)?.clusters).toBeUndefined();
  });

  it('reads no published index of another shape', () => {
    const publish = publishOf(makeDocs());
    const manifest = JSON.parse(publish.manifest.toString('utf8')) as {
      chunked: { index: string; areas: unknown[]; count: number };
    } & Record<string, unknown>;
    const index = JSON.parse(
      publish.files.find((file) => file.path === manifest.chunked.index)!.body.toString(),
    );
    expect(readPublishedIndex(manifest, index)).toBeDefined();
    const broken: [unknown, unknown][] = [
      [manifest, { ...index, id: index.id.slice(1) }],
      [manifest, { ...index, lat: [...index.lat, 1] }],
      [manifest, { ...index, tags: index.tags.slice(1) }],
      [manifest, { ...index, schedule: index.schedule.map(() => 999) }],
      [manifest, { ...index, id: 'x' }],
      [manifest, { ...index, lng: [...index.lng.slice(1), 0.5] }],
      [{ ...manifest, chunked: { ...manifest.chunked, areas: [['c/x.json', -1]] } }, index],
      [{ ...manifest, tags: null }, index],
      [{ ...manifest, tags: [null, null, null] }, index],
      [null, index],
      [manifest, null],
    ];
    for (const [brokenManifest, brokenIndex] of broken) {
      expect(readPublishedIndex(brokenManifest, brokenIndex)).toBeUndefined();
    }
  });
});
