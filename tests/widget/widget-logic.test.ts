// The widget's logic that needs no browser: refinement conditions and filters, distances,
// contrast, deep links, settings, endpoints and texts. The browser tests cover the same
// modules in use; these pin the edge cases.
import { describe, expect, it } from 'vitest';
import { clusterView, projectLocations } from '../../src/lib/clusters.ts';
import { contrastRatio, ensureContrast } from '../../src/lib/color-contrast.ts';
import { matchesCondition, matchesRefinement } from '../../src/lib/refinements.ts';
import { deepLinkKey, readViewState, writeViewState } from '../../src/widget/deep-link.ts';
import { createDistanceFormatter, distanceKm } from '../../src/widget/distance.ts';
import { resolveEndpoints } from '../../src/widget/endpoints.ts';
import { createLocationFilter, emptySelection, selectionSize } from '../../src/widget/filter.ts';
import { createTranslator, resolveLanguage } from '../../src/widget/i18n.ts';
import { DEFAULT_SETTINGS, OSM_TILE_URL, parseSettings } from '../../src/widget/settings.ts';
import type { Condition, FinderLocation } from '../../src/widget/types.ts';
import { createFinderPayload } from '../fakes/widget-payload.ts';

const store = (overrides: Partial<FinderLocation> = {}): FinderLocation => ({
  id: 1,
  title: 'Store',
  city: 'Berlin',
  state: null,
  country: 'DE',
  tags: ['drive-thru', 'free-wi-fi'],
  sets: [3],
  custom_fields: { services: ['repair', 'rental'], seats: 40, note: 'Open Late on Fridays', empty: '' },
  ...overrides,
});

describe('refinement conditions', () => {
  const cases: [string, Condition, boolean][] = [
    ['tag eq holds for a slug the location has', { field: 'tag', op: 'eq', value: 'free-wi-fi' }, true],
    ['tag eq fails for a slug it lacks', { field: 'tag', op: 'eq', value: 'parking' }, false],
    ['tag neq holds for a slug it lacks', { field: 'tag', op: 'neq', value: 'parking' }, true],
    ['tag neq fails for a slug it has', { field: 'tag', op: 'neq', value: 'free-wi-fi' }, false],
    [
      'tag in holds when one slug matches',
      { field: 'tag', op: 'in', value: ['parking', 'free-wi-fi'] },
      true,
    ],
    ['tag in fails when none matches', { field: 'tag', op: 'in', value: ['parking', 'atm'] }, false],
    ['set eq compares ids, "3" equals 3', { field: 'set', op: 'eq', value: '3' }, true],
    ['set in', { field: 'set', op: 'in', value: [1, 2] }, false],
    ['city eq ignores case', { field: 'city', op: 'eq', value: 'BERLIN' }, true],
    ['country neq', { field: 'country', op: 'neq', value: 'fr' }, true],
    ['state exists fails on null', { field: 'state', op: 'exists' }, false],
    [
      'contains is a case-insensitive substring',
      { field: 'custom_field.note', op: 'contains', value: 'late' },
      true,
    ],
    [
      'contains is membership on a multiselect',
      { field: 'custom_field.services', op: 'contains', value: 'repair' },
      true,
    ],
    [
      'contains is not a substring of an element',
      { field: 'custom_field.services', op: 'contains', value: 'rep' },
      false,
    ],
    ['number eq compares numerically', { field: 'custom_field.seats', op: 'eq', value: '40.0' }, true],
    ['exists fails on an empty string', { field: 'custom_field.empty', op: 'exists' }, false],
    ['exists fails on a missing field', { field: 'custom_field.nothing', op: 'exists' }, false],
    ['neq holds on a missing field', { field: 'custom_field.nothing', op: 'neq', value: 'x' }, true],
    ['an unknown op never holds', { field: 'city', op: 'gt' as Condition['op'], value: 'A' }, false],
  ];
  it.each(cases)('%s', (_name, condition, expected) => {
    expect(matchesCondition(store(), condition)).toBe(expected);
  });

  it('a refinement needs all its conditions (match all) or one (match any)', () => {
    const conditions: Condition[] = [
      { field: 'tag', op: 'eq', value: 'free-wi-fi' },
      { field: 'city', op: 'eq', value: 'Hamburg' },
    ];
    expect(matchesRefinement(store(), { name: 'all', match: 'all', conditions })).toBe(false);
    expect(matchesRefinement(store(), { name: 'any', match: 'any', conditions })).toBe(true);
    expect(matchesRefinement(store(), { name: 'none', match: 'any', conditions: [] })).toBe(true);
  });
});

describe('the location filter', () => {
  const payload = createFinderPayload();
  // The open-now test is not asked unless "Open now" is chosen.
  const never = () => {
    throw new Error('asked whether a location is open');
  };
  const ids = (indexes: number[]) => indexes.map((i) => payload.locations[i]?.id);
  const order = payload.locations.map((_, i) => i);
  const idsWith = (test: (location: FinderLocation) => boolean) =>
    payload.locations.filter(test).map((location) => location.id);

  it('tags combine with OR in "any" mode and with AND in "all" mode', () => {
    const selection = emptySelection();
    selection.tags.add('free-wi-fi').add('open-late');
    const any = createLocationFilter(payload.locations, payload.advanced_refinements, 'any', never);
    const all = createLocationFilter(payload.locations, payload.advanced_refinements, 'all', never);
    expect(ids(any.apply(selection, order))).toEqual(
      idsWith((l) => l.tags.includes('free-wi-fi') || l.tags.includes('open-late')),
    );
    expect(ids(all.apply(selection, order))).toEqual(
      idsWith((l) => l.tags.includes('free-wi-fi') && l.tags.includes('open-late')),
    );
    expect(all.apply(selection, order).length).toBeGreaterThan(0);
    expect(all.apply(selection, order).length).toBeLessThan(any.apply(selection, order).length);
  });

  it('sets, tags and every chosen refinement must all hold, and the given order is kept', () => {
    const filter = createLocationFilter(payload.locations, payload.advanced_refinements, 'any', never);
    const selection = emptySelection();
    selection.refinements.add(0).add(1); // repair service AND Berlin area
    expect(ids(filter.apply(selection, order))).toEqual(
      idsWith(
        (l) =>
          (l.custom_fields.services as string[] | undefined)?.includes('repair') === true &&
          (l.city === 'Berlin' || l.city === 'Potsdam'),
      ),
    );
    selection.sets.add(3);
    expect(ids(filter.apply(selection, order))).toEqual([103]);
    const reversed = [...order].reverse();
    selection.sets.clear();
    expect(ids(filter.apply(selection, reversed))).toEqual(ids(filter.apply(selection, order)).reverse());
  });

  it('"Open now" keeps the locations open at one instant, with the other filters', () => {
    const asked: number[] = [];
    const openIds = new Set([101, 102, 105, 107]);
    const filter = createLocationFilter(payload.locations, payload.advanced_refinements, 'any', (l, now) => {
      asked.push(now);
      return openIds.has(l.id);
    });
    const selection = emptySelection();
    selection.open.add(1);
    const before = Date.now();
    expect(ids(filter.apply(selection, order))).toEqual([...openIds]);
    expect(new Set(asked).size).toBe(1);
    expect(asked[0]).toBeGreaterThanOrEqual(before);
    selection.tags.add('free-wi-fi');
    expect(ids(filter.apply(selection, order))).toEqual(
      idsWith((l) => openIds.has(l.id) && l.tags.includes('free-wi-fi')),
    );
    expect(filter.apply(selection, order).length).toBeGreaterThan(0);
    expect(selectionSize(selection)).toBe(2);
  });
});

describe('distances', () => {
  it('Berlin to Munich is about 504 km', () => {
    expect(distanceKm({ lat: 52.52, lng: 13.405 }, { lat: 48.137, lng: 11.575 })).toBeCloseTo(504, -1);
  });

  it('formats kilometres and miles in the visitor language', () => {
    expect(createDistanceFormatter('km', 'en')(1.234)).toBe('1.2 km');
    expect(createDistanceFormatter('km', 'de')(1.234)).toBe('1,2 km');
    expect(createDistanceFormatter('km', 'en')(123.4)).toBe('123 km');
    expect(createDistanceFormatter('mi', 'en')(16.09344)).toBe('10 mi');
  });
});

describe('map clusters of the view', () => {
  // At zoom 0 the world is 256 px wide: lng -180 is x 0, lng 0 is x 128, the equator y 128.
  const world = (zoom: number) => ({ zoom, minX: 0, minY: 0, maxX: 256 * 2 ** zoom, maxY: 256 * 2 ** zoom });
  const points = [
    { lat: 0, lng: 0 },
    { lat: 0.01, lng: 0.01 },
    { lat: 0, lng: 90 },
    { lat: null, lng: null },
    { lat: 0, lng: -179.99 },
  ];
  const projected = projectLocations(points.length, (i) => points[i]);

  it('projects to Web Mercator in [0, 1), and leaves locations without a position out', () => {
    expect(projected.x[0]).toBeCloseTo(0.5, 10);
    expect(projected.y[0]).toBeCloseTo(0.5, 10);
    expect(projected.x[2]).toBeCloseTo(0.75, 10);
    expect(Number.isNaN(projected.x[3])).toBe(true);
    const north = projectLocations(1, () => ({ lat: 85.0511287798, lng: 0 }));
    expect(north.y[0]).toBeCloseTo(0, 6);
  });

  it('groups the shown points within the radius and keeps far ones apart, every point once', () => {
    const clusters = clusterView(projected, [0, 1, 2, 3, 4], world(2), 40, 12);
    const members = clusters.map((cluster) => cluster.members).sort((a, b) => a[0]! - b[0]!);
    expect(members).toEqual([[0, 1], [2], [4]]);
    const pair = clusters.find((cluster) => cluster.members.length === 2)!;
    // The centroid, in world pixels at zoom 2 (1024 px wide).
    expect(pair.x).toBeCloseTo(512 + (0.005 / 360) * 1024, 6);
  });

  it('takes only the shown points, in index order whatever the order given', () => {
    const a = clusterView(projected, [2, 1], world(2), 40, 12);
    const b = clusterView(projected, [1, 2], world(2), 40, 12);
    expect(a).toEqual(b);
    expect(a.flatMap((cluster) => cluster.members).sort()).toEqual([1, 2]);
  });

  it('splits at higher zooms and shows every point alone past the last clustering zoom', () => {
    // 0.01° apart is about 30 px at zoom 12 and 60 px at 13.
    expect(clusterView(projected, [0, 1], world(10), 40, 12)).toHaveLength(1);
    expect(clusterView(projected, [0, 1], world(13), 10, 12)).toHaveLength(2);
    expect(clusterView(projected, [0, 1], world(8), 40, 7)).toHaveLength(2);
  });

  it('leaves out what is far outside the view and finds points on the next copy of the world', () => {
    // A view of x 900..1100 at zoom 2 (the world is 1024 wide): from lng 136 to lng 206 (= -154).
    const view = { zoom: 2, minX: 900, minY: 400, maxX: 1100, maxY: 600 };
    const clusters = clusterView(projected, [0, 1, 2, 4], view, 10, 12);
    expect(clusters.map((cluster) => cluster.members)).toEqual([[4]]);
    // lng -179.99 is drawn on the copy right of the antimeridian: x just above 1024.
    expect(clusters[0]!.x).toBeGreaterThan(1024);
    expect(clusters[0]!.x).toBeLessThan(1025);
  });
});

describe('primary color contrast', () => {
  it('keeps a color that reaches 4.5:1 on white', () => {
    expect(ensureContrast('#1d4ed8')).toBe('#1d4ed8');
  });

  it.each(['#ffcc00', '#7dd3fc', '#ffffff', '#22c55e'])(
    'darkens %s until white text on it reaches 4.5:1',
    (color) => {
      const fixed = ensureContrast(color);
      expect(fixed).not.toBe(color);
      expect(contrastRatio(fixed, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      // Only as dark as needed: one step lighter would fail.
      expect(contrastRatio(fixed, '#ffffff')).toBeLessThan(5.2);
    },
  );
});

describe('deep links', () => {
  const key = deepLinkKey('AbCdEfGh12345678');

  it('round-trips the view and keeps the host page’s own hash entries', () => {
    const state = {
      location: 5,
      query: 'Berlin Hauptbahnhof, Berlin; Germany',
      lat: 52.52512,
      lng: 13.36941,
      tags: ['drive-thru', 'free-wi-fi'],
      sets: [3],
      refinements: [0, 2],
    };
    const hash = writeViewState('#section-2&other=1', key, state);
    expect(hash.startsWith('#section-2&other=1&lf-AbCdEfGh=loc:5;q:')).toBe(true);
    expect(readViewState(hash, key)).toEqual(state);
    expect(writeViewState(hash, key, {})).toBe('#section-2&other=1');
    expect(writeViewState(`#${key}=loc:1`, key, {})).toBe('');
  });

  it('ignores what it cannot read', () => {
    expect(readViewState(`#${key}=loc:x;lat:95;lng:10;s:a,2;zz:1;q:%E0%A4%A`, key)).toEqual({ sets: [2] });
    expect(readViewState('#lf-other=loc:3', key)).toEqual({});
  });
});

describe('settings', () => {
  it('defaults when nothing is set', () => {
    expect(parseSettings([])).toEqual(DEFAULT_SETTINGS);
  });

  it('reads values leniently and drops the wrong shapes', () => {
    const settings = parseSettings([
      { key: 'language', value: 'DE' },
      { key: 'units', value: 'mi' },
      { key: 'direction', value: 'rtl' },
      { key: 'primary_color', value: '#F0A' },
      { key: 'tile_url', value: 'https://tiles.example/{z}/{x}/{y}.png' },
      { key: 'default_center', value: '48.1, 11.5' },
      { key: 'default_zoom', value: '9' },
      { key: 'tag_filter_mode', value: 'all' },
      { key: 'show_map', value: 'false' },
      { key: 'height', value: 99 },
      { key: 'search_country', value: 'de' },
      { key: 'directions_url', value: 'javascript:alert(1)//{lat}{lng}' },
    ]);
    expect(settings).toMatchObject({
      language: 'de',
      units: 'mi',
      direction: 'rtl',
      primaryColor: '#ff00aa',
      tileUrl: 'https://tiles.example/{z}/{x}/{y}.png',
      // Other tiles, no OpenStreetMap credit unless the finder gives one.
      tileAttribution: '',
      defaultCenter: { lat: 48.1, lng: 11.5 },
      defaultZoom: 9,
      tagFilterMode: 'all',
      showMap: false,
      height: DEFAULT_SETTINGS.height,
      searchCountry: 'DE',
      directionsUrl: DEFAULT_SETTINGS.directionsUrl,
    });
    expect(
      parseSettings([{ key: 'tile_url', value: 'https://tiles.example/no-placeholders.png' }]).tileUrl,
    ).toBe(OSM_TILE_URL);
    expect(parseSettings([{ key: 'default_center', value: { lat: 52.5, lng: 13.4 } }]).defaultCenter).toEqual(
      {
        lat: 52.5,
        lng: 13.4,
      },
    );
  });
});

describe('endpoints', () => {
  it('derive from the script’s origin, then the served CDN URL, then data attributes', () => {
    const src = 'https://app.example/widget.js?v=1';
    expect(resolveEndpoints({ src, served: '__LF_SERVED_CDN_URL__' })).toEqual({
      apiUrl: 'https://app.example/api',
      cdnUrl: 'https://app.example/cdn',
    });
    expect(resolveEndpoints({ src, served: 'https://cdn.example/files/' }).cdnUrl).toBe(
      'https://cdn.example/files',
    );
    expect(
      resolveEndpoints({
        src,
        served: 'https://cdn.example',
        api: '/v2/api/',
        cdn: 'https://other.example/c',
      }),
    ).toEqual({
      apiUrl: 'https://app.example/v2/api',
      cdnUrl: 'https://other.example/c',
    });
  });
});

describe('texts', () => {
  it('pluralises, fills placeholders and falls back to English', () => {
    expect(createTranslator('en')('results', { count: 1 })).toBe('1 location');
    expect(createTranslator('de')('results', { count: 1200 })).toBe('1.200 Standorte');
    expect(createTranslator('fr')('results', { count: 2 })).toBe('2 adresses');
    expect(createTranslator('de')('distance', { distance: '3 km' })).toBe('3 km entfernt');
  });

  it('follows the page language in auto mode', () => {
    expect(resolveLanguage('auto', 'fr-CA')).toBe('fr');
    expect(resolveLanguage('auto', 'pt-BR')).toBe('en');
    expect(resolveLanguage('de', 'fr')).toBe('de');
  });
});
