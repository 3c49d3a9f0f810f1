// A chunked finder's index as the widget reads it (src/widget/chunked/index-file.ts), written by
// the publish's own code (src/modules/finders/payload/chunked/): ids, positions, areas, tags,
// sets and schedules decode to the documents' values; the nearest locations passing a filter
// from the spatial index equal a brute-force ranking over 2,000 random searches; an index of
// another shape, or one that does not match the manifest, is refused.
import { describe, expect, it } from 'vitest';
import { hasBit } from '../../src/lib/bits.ts';
import { distanceKm } from '../../src/lib/geo.ts';
import { splitIntoAreas } from '../../src/modules/finders/payload/chunked/chunked.areas.ts';
import { chunkedFiles, type PayloadFrame } from '../../src/modules/finders/payload/chunked/chunked.files.ts';
import { nearestInIndex, readIndex } from '../../src/widget/chunked/index-file.ts';
import { readManifestAreas } from '../../src/widget/chunked/nearest-areas.ts';

function random(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
}

const next = random(9);
const TAGS = [{ slug: 'wifi' }, { slug: 'atm' }, { slug: 'rare' }];
const docs = Array.from({ length: 5000 }, (_, i) => ({
  id: 10 + i * 3,
  title: `Store ${i}`,
  lat: i < 4950 ? 35 + next() * 30 : null,
  lng: i < 4950 ? -10 + next() * 40 : null,
  tags: TAGS.filter((_, t) => i % (t * 7 + 2) === 0).map((tag) => tag.slug),
  sets: i % 3 === 0 ? [1] : [],
  city: 'X',
  time_zone: i % 2 ? 'Europe/Berlin' : null,
  hours: i % 2 ? { mon: ['09:00-18:00'] } : null,
  temporarily_closed: false,
  reopens_on: null,
}));
const byId = new Map(docs.map((doc) => [doc.id, doc]));
const placedDocs = docs.filter((doc) => doc.lat !== null) as { id: number; lat: number; lng: number }[];
const areas = splitIntoAreas(placedDocs);
const unplaced = docs.filter((doc) => doc.lat === null).map((doc) => doc.id);
const frame: PayloadFrame = {
  advanced_refinements: [],
  authorized_urls: [],
  custom_fields: [],
  id: 1,
  name: 'Chain',
  sets: [{ id: 1 }],
  settings: [],
  tags: TAGS,
  token: 't',
};
const documentsOf = (ids: number[]) => Buffer.from(ids.map((id) => JSON.stringify(byId.get(id))).join(','));
const published = chunkedFiles(frame, [
  ...areas.map((area) => ({
    documents: documentsOf(area.ids),
    bounds: area.bounds,
    radiusKm: area.radiusKm,
  })),
  { documents: documentsOf(unplaced), bounds: null, radiusKm: null },
]);
const manifest = JSON.parse(published.manifest.toString()) as { chunked: { areas: unknown; index: string } };
const indexBody = JSON.parse(
  published.files.find((file) => file.path === manifest.chunked.index)!.body.toString(),
);
const manifestAreas = readManifestAreas(manifest.chunked.areas)!;

describe('readIndex', () => {
  const index = readIndex(indexBody, manifestAreas)!;

  it('decodes every location in area order', () => {
    const order = [...areas.flatMap((area) => area.ids), ...unplaced];
    expect([...index.ids]).toEqual(order);
    expect(index.placed).toBe(4950);
    order.forEach((id, i) => {
      const doc = byId.get(id)!;
      if (i < index.placed) {
        expect(Math.abs(index.lat[i]! - doc.lat!)).toBeLessThanOrEqual(0.5e-5 + 1e-9);
        expect(Math.abs(index.lng[i]! - doc.lng!)).toBeLessThanOrEqual(0.5e-5 + 1e-9);
      }
      for (const [t, tag] of TAGS.entries()) {
        expect(hasBit(index.tags[t]!, i)).toBe(doc.tags.includes(tag.slug) ? 1 : 0);
      }
      expect(hasBit(index.sets[0]!, i)).toBe(doc.sets.includes(1) ? 1 : 0);
      expect(index.schedule[i] === -1).toBe(doc.hours === null);
      const area = manifestAreas[index.areas[i]!]!;
      expect(area.bounds === null).toBe(doc.lat === null);
    });
    expect(index.schedules).toHaveLength(1);
  });

  it('ranks the nearest passing a filter as brute force does, over 2,000 random searches', () => {
    for (let search = 0; search < 2000; search++) {
      const point = { lat: 30 + next() * 40, lng: -20 + next() * 60 };
      const count = 1 + Math.floor(next() * 30);
      const tag = Math.floor(next() * TAGS.length);
      const passes = (i: number) => hasBit(index.tags[tag]!, i) === 1;
      const found = nearestInIndex(index, point, count, passes);
      const distance = (i: number) => distanceKm(point, { lat: index.lat[i]!, lng: index.lng[i]! });
      const expected = Array.from({ length: index.placed }, (_, i) => i)
        .filter(passes)
        .map(distance)
        .sort((a, b) => a - b)
        .slice(0, count);
      expect(found.every(passes)).toBe(true);
      expect(found.map(distance)).toEqual(expected);
    }
  });

  it.each([
    ['not an object', 'index'],
    ['a column missing', { ...indexBody, lat: undefined }],
    ['a count that does not match the manifest', { ...indexBody, id: indexBody.id.slice(1) }],
    ['a bitset of another length', { ...indexBody, tags: ['AA=='] }],
    ['a bitset that is not base64', { ...indexBody, tags: indexBody.tags.map(() => '%%%') }],
    ['a position that is not a number', { ...indexBody, lat: [...indexBody.lat.slice(1), 'x'] }],
    // The index writes scaled integers; the publish that reads it back refuses the same.
    ['a position that is not an integer', { ...indexBody, lat: [...indexBody.lat.slice(1), 0.5] }],
    ['a schedule that is not an object', { ...indexBody, schedules: [...indexBody.schedules, null] }],
  ])('refuses %s', (_, body) => {
    expect(readIndex(body, manifestAreas)).toBeUndefined();
  });
});
