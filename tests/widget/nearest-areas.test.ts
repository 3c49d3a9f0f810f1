// The nearest locations of a chunked finder read area by area (src/widget/chunked/nearest-areas.ts)
// against a brute-force reference: 10,000 random searches over areas the publish makes
// (src/modules/finders/payload/chunked/chunked.areas.ts) of locations in cities, spread over the
// world, at the poles, along the antimeridian and many at one point, each search giving the
// same distances as sorting every location; the manifest's entries read and refused.
import { describe, expect, it } from 'vitest';
import { distanceKm, type LatLng } from '../../src/lib/geo.ts';
import { splitIntoAreas } from '../../src/modules/finders/payload/chunked/chunked.areas.ts';
import {
  type ManifestArea,
  nearestInAreas,
  readManifestAreas,
} from '../../src/widget/chunked/nearest-areas.ts';

function random(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
}

interface Stored extends LatLng {
  id: number;
}

function world(next: () => number): Stored[] {
  const cities = [
    [52.52, 13.405],
    [40.713, -74.006],
    [-33.869, 151.209],
    [64.15, -21.94],
  ];
  const locations: Stored[] = [];
  for (let i = 0; i < 3000; i++) {
    const [lat, lng] = cities[i % cities.length]!;
    locations.push({
      id: locations.length + 1,
      lat: lat! + (next() - 0.5) * 2,
      lng: lng! + (next() - 0.5) * 3,
    });
  }
  for (let i = 0; i < 600; i++) {
    locations.push({ id: locations.length + 1, lat: next() * 180 - 90, lng: next() * 360 - 180 });
  }
  // Along the antimeridian, at the poles, and 300 at one point.
  for (let i = 0; i < 200; i++) {
    const lng = 179 + next() * 2;
    locations.push({ id: locations.length + 1, lat: -17 + next() * 4, lng: lng > 180 ? lng - 360 : lng });
  }
  locations.push(
    { id: locations.length + 1, lat: 90, lng: 0 },
    { id: locations.length + 2, lat: -90, lng: 45 },
  );
  for (let i = 0; i < 300; i++) locations.push({ id: locations.length + 1, lat: 48.8566, lng: 2.3522 });
  return locations;
}

describe('nearestInAreas', () => {
  const next = random(5);
  const locations = world(next);
  const byId = new Map(locations.map((location) => [location.id, location]));
  const areas: ManifestArea[] = splitIntoAreas(locations).map((area, i) => ({
    path: `c/${i}.json`,
    count: area.ids.length,
    bounds: area.bounds,
    radiusKm: area.radiusKm,
  }));
  const members = new Map(
    splitIntoAreas(locations).map((area, i) => [`c/${i}.json`, area.ids.map((id) => byId.get(id)!)]),
  );
  const load = async (area: ManifestArea) => members.get(area.path)!;

  it('finds the distances brute force finds, over 10,000 random searches', async () => {
    expect(areas.length).toBeGreaterThan(20);
    let areasRead = 0;
    for (let search = 0; search < 10_000; search++) {
      // Half anywhere on Earth (most far from every location), half near the cities.
      const point =
        search % 2 === 0
          ? { lat: next() * 180 - 90, lng: next() * 360 - 180 }
          : { lat: 52.52 + (next() - 0.5) * 4, lng: 13.405 + (next() - 0.5) * 6 };
      const count = 1 + Math.floor(next() * 40);
      const { nearest, read } = await nearestInAreas(areas, point, count, load);
      // A typed array sorts numbers natively: the reference stays cheap over 10,000 searches.
      const expected = [
        ...Float64Array.from(locations, (location) => distanceKm(point, location))
          .sort()
          .subarray(0, count),
      ];
      expect(nearest.map((ranked) => ranked.km)).toEqual(expected);
      areasRead += read.length;
    }
    // Widening stops early: far fewer areas read than there are.
    expect(areasRead / 10_000).toBeLessThan(areas.length / 4);
    // About 10 s alone; more beside the browser tests.
  }, 60_000);

  it('reads as far as it must when the position is far from every location', async () => {
    const { nearest } = await nearestInAreas(areas, { lat: -60, lng: -120 }, 25, load);
    expect(nearest).toHaveLength(25);
  });

  it('answers all there are when fewer than asked, and none for a count of 0', async () => {
    const few = splitIntoAreas(locations.slice(0, 5)).map((area, i) => ({
      path: `f/${i}`,
      count: area.ids.length,
      bounds: area.bounds,
      radiusKm: area.radiusKm,
    }));
    const fewMembers = new Map(
      splitIntoAreas(locations.slice(0, 5)).map((area, i) => [`f/${i}`, area.ids.map((id) => byId.get(id)!)]),
    );
    const fewLoad = async (area: ManifestArea) => fewMembers.get(area.path)!;
    expect((await nearestInAreas(few, { lat: 0, lng: 0 }, 20, fewLoad)).nearest).toHaveLength(5);
    expect((await nearestInAreas(few, { lat: 0, lng: 0 }, 0, fewLoad)).read).toEqual([]);
  });
});

describe('readManifestAreas', () => {
  it('reads located and unlocated entries', () => {
    expect(
      readManifestAreas([
        ['c/a.json', 3, 1, 2, 3, 4, 5.5],
        ['c/b.json', 2],
      ]),
    ).toEqual([
      { path: 'c/a.json', count: 3, bounds: [1, 2, 3, 4], radiusKm: 5.5 },
      { path: 'c/b.json', count: 2, bounds: null, radiusKm: null },
    ]);
  });

  it.each([
    ['not a list', { a: 1 }],
    ['a path that is not text', [[1, 2]]],
    ['a count that is not a number', [['c/a.json', '3']]],
    ['a count that is not a whole number', [['c/a.json', 2.5]]],
    ['a negative count', [['c/a.json', -1]]],
    [
      'an area with a position after one without',
      [
        ['c/b.json', 2],
        ['c/a.json', 3, 1, 2, 3, 4, 5.5],
      ],
    ],
    ['bounds without a radius', [['c/a.json', 3, 1, 2, 3, 4]]],
    ['a bound that is not a number', [['c/a.json', 3, 1, 2, null, 4, 5]]],
  ])('refuses %s', (_, entries) => {
    expect(readManifestAreas(entries)).toBeUndefined();
  });
});
