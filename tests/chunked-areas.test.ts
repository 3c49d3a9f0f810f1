// The areas of a chunked publish (src/modules/finders/payload/chunked/chunked.areas.ts): every
// location in exactly one area, at most MAX_AREA_LOCATIONS to an area but where more share one
// point, bounds that hold their members and never cross the antimeridian; locations on grid
// lines, at the poles and on the antimeridian; an added location leaves other areas as they were;
// a publish's areas list those without a position last, by id.
import { describe, expect, it } from 'vitest';
import { areaCenter, distanceKm } from '../src/lib/geo.ts';
import {
  type Area,
  MAX_AREA_LOCATIONS,
  type PlacedLocation,
  publishAreas,
  splitIntoAreas,
} from '../src/modules/finders/payload/chunked/chunked.areas.ts';

function random(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
}

function expectPartition(locations: PlacedLocation[], areas: Area[]) {
  const seen = areas.flatMap((area) => area.ids);
  expect(seen.length).toBe(locations.length);
  expect(new Set(seen).size).toBe(locations.length);
  const byId = new Map(locations.map((location) => [location.id, location]));
  for (const area of areas) {
    expect(area.ids).toEqual([...area.ids].sort((a, b) => a - b));
    const [south, west, north, east] = area.bounds;
    expect(south).toBeLessThanOrEqual(north);
    expect(west).toBeLessThanOrEqual(east);
    const members = area.ids.map((id) => byId.get(id)!);
    for (const { lat, lng } of members) {
      expect(lat).toBeGreaterThanOrEqual(south);
      expect(lat).toBeLessThanOrEqual(north);
      expect(lng).toBeGreaterThanOrEqual(west);
      expect(lng).toBeLessThanOrEqual(east);
    }
    // Every member lies within the radius of the bounds' middle: the widget's lower bound holds.
    const center = areaCenter(area.bounds);
    for (const member of members) expect(distanceKm(center, member)).toBeLessThanOrEqual(area.radiusKm);
    const onePoint = members.every((m) => m.lat === members[0]!.lat && m.lng === members[0]!.lng);
    if (!onePoint) expect(area.ids.length).toBeLessThanOrEqual(MAX_AREA_LOCATIONS);
  }
}

describe('splitIntoAreas', () => {
  it('puts 20,000 random locations in areas of at most 256, each once, inside their bounds', () => {
    const next = random(7);
    // Mostly in a few dense cities, some scattered over the world.
    const cities = [
      [52.52, 13.405],
      [48.857, 2.352],
      [40.713, -74.006],
      [-33.869, 151.209],
    ];
    const locations = Array.from({ length: 20_000 }, (_, i): PlacedLocation => {
      if (i % 5 === 0) return { id: i + 1, lat: next() * 170 - 85, lng: next() * 360 - 180 };
      const [lat, lng] = cities[i % cities.length]!;
      return { id: i + 1, lat: lat! + (next() - 0.5) * 0.4, lng: lng! + (next() - 0.5) * 0.6 };
    });
    const areas = splitIntoAreas(locations);
    expectPartition(locations, areas);
    // Neighbouring small cells share areas: far fewer areas than a file per cell would make.
    expect(areas.length).toBeLessThan((20_000 / MAX_AREA_LOCATIONS) * 4);
    // A dense city is cut small: its areas span a fraction of a degree.
    const berlin = areas.filter((area) => area.bounds[0] > 52 && area.bounds[2] < 53);
    expect(berlin.length).toBeGreaterThan(10);
  });

  it('cuts thousands at one point into files of 256 by id, and keeps a neighbour apart from them', () => {
    const locations: PlacedLocation[] = Array.from({ length: 3000 }, (_, i) => ({
      id: i + 1,
      lat: 51.5,
      lng: -0.12,
    }));
    locations.push({ id: 5000, lat: 51.6, lng: -0.12 });
    const areas = splitIntoAreas(locations);
    expectPartition(locations, areas);
    const atPoint = areas.filter((area) => area.ids.some((id) => id <= 3000));
    expect(atPoint.map((area) => area.ids.length)).toEqual([...Array(11).fill(256), 3000 - 11 * 256]);
    expect(atPoint.flatMap((area) => area.ids)).toEqual(locations.slice(0, 3000).map((l) => l.id));
  });

  it('places locations at the poles, on the antimeridian and on grid lines, areas never crossing it', () => {
    const edge: PlacedLocation[] = [
      { id: 1, lat: 90, lng: 0 },
      { id: 2, lat: -90, lng: 0 },
      { id: 3, lat: 0, lng: 180 },
      { id: 4, lat: 0, lng: -180 },
      { id: 5, lat: 0, lng: 0 },
      { id: 6, lat: 45, lng: 90 },
      { id: 7, lat: -0.000001, lng: -0.000001 },
      { id: 8, lat: 10, lng: 179.99999 },
      { id: 9, lat: 10, lng: -179.99999 },
    ];
    // Enough around the antimeridian that the cells there are split.
    const next = random(3);
    const around = Array.from({ length: 2000 }, (_, i): PlacedLocation => {
      const lng = 179.5 + next();
      return { id: 100 + i, lat: -17 + next(), lng: lng > 180 ? lng - 360 : lng };
    });
    const locations = [...edge, ...around];
    const areas = splitIntoAreas(locations);
    expectPartition(locations, areas);
    // An area across the antimeridian would span most of the world; these span at most half
    // of it (a cell's own width, reached when the bounds are rounded outwards to 0.0001°).
    for (const area of areas) {
      expect(area.bounds[1]).toBeLessThanOrEqual(area.bounds[3]);
      expect(area.bounds[3] - area.bounds[1]).toBeLessThanOrEqual(180);
    }
  });

  it("leaves every area but the changed cell's as it was when a location is added", () => {
    const next = random(11);
    const locations = Array.from(
      { length: 10_000 },
      (_, i): PlacedLocation => ({
        id: i + 1,
        lat: 45 + next() * 10,
        lng: 0 + next() * 15,
      }),
    );
    const before = splitIntoAreas(locations).map((area) => area.ids.join(','));
    const after = splitIntoAreas([...locations, { id: 20_000, lat: 50.1234, lng: 7.5678 }]).map((area) =>
      area.ids.join(','),
    );
    const kept = before.filter((area) => after.includes(area));
    expect(before.length - kept.length).toBeLessThanOrEqual(3);
    expect(kept.length).toBeGreaterThan(before.length - 4);
  });

  it('answers no areas for no locations', () => {
    expect(splitIntoAreas([])).toEqual([]);
  });
});

describe('publishAreas', () => {
  it('lists the placed areas first, then the locations without a position by id, 256 to an area', () => {
    const next = random(7);
    const placed = Array.from({ length: 1000 }, (_, i) => ({
      id: i + 1,
      lat: 40 + next() * 10,
      lng: next() * 10,
    }));
    // Ids of the unplaced in no order, as the positions statement gives them.
    const unplaced = Array.from({ length: 600 }, (_, i) => 2000 + ((i * 7919) % 600));
    const given = [...unplaced];
    const areas = publishAreas(placed, unplaced);
    const placedAreas = splitIntoAreas(placed);
    expect(areas.slice(0, placedAreas.length)).toEqual(placedAreas);
    const rest = areas.slice(placedAreas.length);
    expect(rest.map((area) => area.ids.length)).toEqual([256, 256, 88]);
    expect(rest.flatMap((area) => area.ids)).toEqual(Array.from({ length: 600 }, (_, i) => 2000 + i));
    expect(rest.every((area) => area.bounds === null && area.radiusKm === null)).toBe(true);
    // The caller's list is left as it was.
    expect(unplaced).toEqual(given);
  });

  it('answers no areas for no locations', () => {
    expect(publishAreas([], [])).toEqual([]);
  });
});
