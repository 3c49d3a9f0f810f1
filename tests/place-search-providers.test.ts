// The widget's place providers against one fake server speaking each provider's protocol:
// what each sends (endpoint, parameters, where the key goes), how each answer maps to the
// common shape, and how every failure (no key, bad key, 500, a body of another shape, no
// answer in time, a cancelled call, an unknown place) surfaces to the caller.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/config.ts';
import { UpstreamError } from '../src/lib/upstream.ts';
import { upstreamUrl, urlPath } from '../src/lib/upstream-helpers.ts';
import {
  createPlaceProviders,
  KEYED_PLACE_PROVIDER_SLUGS,
  PLACE_PROVIDER_SLUGS,
  PlaceNotFoundError,
  PlaceProviderKeyMissingError,
  type PlaceProviderSlug,
  type PlaceProviders,
  resolveProviderBaseUrls,
} from '../src/modules/place-search/providers/place-providers.ts';
import { FAKE_KEYS, type FakeProviders, placeByKey, startFakeProviders } from './fakes/providers.ts';

let fake: FakeProviders;
let providers: PlaceProviders;
/** The same providers with a short timeout, for the "no answer" cases. */
let impatient: PlaceProviders;

const keyOf = (slug: PlaceProviderSlug) => (slug === 'photon' ? undefined : FAKE_KEYS[slug]);
const alexanderplatz = placeByKey('alexanderplatz')!;

beforeAll(async () => {
  fake = await startFakeProviders();
  const options = { photonUrl: fake.photonUrl, providerBaseUrls: fake.providerBaseUrls };
  providers = createPlaceProviders(options);
  impatient = createPlaceProviders({ ...options, timeoutMs: 200 });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** A place id of the provider, the way the widget gets one: from a suggestion. */
async function placeIdOf(slug: PlaceProviderSlug, q = 'Alexanderplatz') {
  const [first] = await providers[slug].autocomplete({ q }, { apiKey: keyOf(slug) });
  expect(first).toBeDefined();
  return first!.place_id;
}

describe('google (Places API New)', () => {
  it('autocompletes with the key in a header and the bias, country, language and session in the body', async () => {
    const suggestions = await providers.google.autocomplete(
      { q: 'Alexanderplatz', lat: 52.52, lng: 13.41, country: 'DE', language: 'de', sessionToken: 'sess-1' },
      { apiKey: FAKE_KEYS.google },
    );
    expect(suggestions).toEqual([
      { place_id: expect.stringMatching(/^ChIJ/), description: 'Alexanderplatz, 10178 Berlin, Germany' },
    ]);
    const request = fake.lastRequest('google');
    expect(request).toMatchObject({ method: 'POST', path: '/v1/places:autocomplete', query: {} });
    expect(request.headers['x-goog-api-key']).toBe(FAKE_KEYS.google);
    expect(request.body).toEqual({
      input: 'Alexanderplatz',
      locationBias: { circle: { center: { latitude: 52.52, longitude: 13.41 }, radius: 50_000 } },
      includedRegionCodes: ['de'],
      languageCode: 'de',
      sessionToken: 'sess-1',
    });
  });

  it('sends only the input when nothing else is given, and reads an empty answer ({}) as no suggestions', async () => {
    expect(await providers.google.autocomplete({ q: 'Atlantis' }, { apiKey: FAKE_KEYS.google })).toEqual([]);
    expect(fake.lastRequest('google').body).toEqual({ input: 'Atlantis' });
  });

  it('looks a place up with a field mask, the session token and the language', async () => {
    const placeId = await placeIdOf('google', 'Googleplex');
    const place = await providers.google.place(
      { placeId, sessionToken: 'sess-1', language: 'en' },
      { apiKey: FAKE_KEYS.google },
    );
    expect(place).toEqual({
      lat: 37.4220936,
      lng: -122.083922,
      address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA',
      name: 'Googleplex',
      city: 'Mountain View',
      state: 'California',
      zip: '94043',
      country: 'United States',
      country_code: 'US',
    });
    const request = fake.lastRequest('google');
    expect(request).toMatchObject({
      method: 'GET',
      path: `/v1/places/${placeId}`,
      query: { sessionToken: 'sess-1', languageCode: 'en' },
    });
    expect(request.headers['x-goog-api-key']).toBe(FAKE_KEYS.google);
    expect(request.headers['x-goog-fieldmask']).toBe(
      'id,displayName,formattedAddress,location,addressComponents',
    );
  });

  it('reads the city of a British address from postal_town', async () => {
    const placeId = await placeIdOf('google', 'Downing Street');
    const place = await providers.google.place({ placeId }, { apiKey: FAKE_KEYS.google });
    expect(place).toMatchObject({ city: 'London', zip: 'SW1A 2AA', country_code: 'GB' });
  });
});

describe('mapbox (Search Box API)', () => {
  it('suggests with the token, session, proximity as lng,lat, country, ISO 639-1 language and limit in the query', async () => {
    const suggestions = await providers.mapbox.autocomplete(
      {
        q: 'Googleplex',
        lat: 37.4,
        lng: -122.1,
        country: 'US',
        language: 'en',
        sessionToken: 'sess-2',
        limit: 3,
      },
      { apiKey: FAKE_KEYS.mapbox },
    );
    expect(suggestions).toEqual([
      {
        place_id: expect.any(String),
        description: 'Googleplex, 1600 Amphitheatre Parkway, Mountain View, California 94043, United States',
      },
    ]);
    expect(fake.lastRequest('mapbox')).toMatchObject({
      method: 'GET',
      path: '/search/searchbox/v1/suggest',
      query: {
        q: 'Googleplex',
        access_token: FAKE_KEYS.mapbox,
        session_token: 'sess-2',
        proximity: '-122.1,37.4',
        country: 'us',
        language: 'en',
        limit: '3',
      },
    });
  });

  it('makes up a session token (a UUID) when the widget sends none, as the API requires one', async () => {
    await providers.mapbox.autocomplete({ q: 'Berlin' }, { apiKey: FAKE_KEYS.mapbox });
    expect(fake.lastRequest('mapbox').query.session_token).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('retrieves the chosen suggestion by its mapbox_id', async () => {
    const placeId = await placeIdOf('mapbox');
    const place = await providers.mapbox.place(
      { placeId, sessionToken: 'sess-2' },
      { apiKey: FAKE_KEYS.mapbox },
    );
    expect(place).toEqual({
      lat: alexanderplatz.lat,
      lng: alexanderplatz.lng,
      address: 'Alexanderplatz, 10178 Berlin, Germany',
      name: 'Alexanderplatz',
      city: 'Berlin',
      state: 'Berlin',
      zip: '10178',
      country: 'Germany',
      country_code: 'DE',
    });
    expect(fake.lastRequest('mapbox')).toMatchObject({
      path: `/search/searchbox/v1/retrieve/${placeId}`,
      query: { access_token: FAKE_KEYS.mapbox, session_token: 'sess-2' },
    });
  });
});

describe('here (Geocoding & Search v7)', () => {
  it('autocompletes with apiKey, at=lat,lng, in=countryCode:<alpha-3>, lang and limit', async () => {
    const suggestions = await providers.here.autocomplete(
      { q: 'Alexanderplatz', lat: 52.52, lng: 13.41, country: 'de', language: 'de', limit: 4 },
      { apiKey: FAKE_KEYS.here },
    );
    expect(suggestions).toEqual([
      {
        place_id: expect.stringMatching(/^here:af:street:/),
        description: 'Alexanderplatz, 10178 Berlin, Germany',
      },
    ]);
    expect(fake.lastRequest('here')).toMatchObject({
      path: '/v1/autocomplete',
      query: {
        q: 'Alexanderplatz',
        apiKey: FAKE_KEYS.here,
        at: '52.52,13.41',
        in: 'countryCode:DEU',
        lang: 'de',
        limit: '4',
      },
    });
  });

  it('keeps results to the country asked for', async () => {
    const suggestions = await providers.here.autocomplete(
      { q: '10', country: 'GB' },
      { apiKey: FAKE_KEYS.here },
    );
    expect(suggestions.map((s) => s.description)).toEqual([
      '10 Downing Street, London SW1A 2AA, United Kingdom',
    ]);
  });

  it('looks the id up on /v1/lookup and turns the alpha-3 country back into alpha-2', async () => {
    const placeId = await placeIdOf('here', 'Karl-Marx-Allee 100');
    const place = await providers.here.place({ placeId, language: 'en' }, { apiKey: FAKE_KEYS.here });
    expect(place).toEqual({
      lat: 52.5175,
      lng: 13.4371,
      address: 'Karl-Marx-Allee 100, 10243 Berlin, Germany',
      name: undefined,
      city: 'Berlin',
      state: 'Berlin',
      zip: '10243',
      country: 'Germany',
      country_code: 'DE',
    });
    expect(fake.lastRequest('here')).toMatchObject({
      path: '/v1/lookup',
      query: { id: placeId, apiKey: FAKE_KEYS.here, lang: 'en' },
    });
  });

  it('refuses a country that is not an ISO 3166-1 code instead of searching everywhere', async () => {
    const error = await rejection(
      providers.here.autocomplete({ q: 'Berlin', country: 'XX' }, { apiKey: FAKE_KEYS.here }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(fake.requestsOf('here')).toHaveLength(0);
  });
});

describe('tomtom (Search API v2)', () => {
  it('searches in typeahead mode with the query in the path and key, lat, lon, countrySet, language, limit', async () => {
    const q = 'Karl-Marx-Allee 100/1';
    await providers.tomtom.autocomplete(
      { q, lat: 52.5, lng: 13.4, country: 'de', language: 'de-DE', limit: 7 },
      { apiKey: FAKE_KEYS.tomtom },
    );
    expect(fake.lastRequest('tomtom')).toMatchObject({
      path: `/search/2/search/${encodeURIComponent(q)}.json`,
      query: {
        key: FAKE_KEYS.tomtom,
        typeahead: 'true',
        lat: '52.5',
        lon: '13.4',
        countrySet: 'DE',
        language: 'de-DE',
        limit: '7',
      },
    });
  });

  it('describes a POI by its name and address, an address by its freeform address', async () => {
    const poi = await providers.tomtom.autocomplete({ q: 'Googleplex' }, { apiKey: FAKE_KEYS.tomtom });
    const address = await providers.tomtom.autocomplete(
      { q: 'Alexanderplatz' },
      { apiKey: FAKE_KEYS.tomtom },
    );
    expect(poi.map((s) => s.description)).toEqual([
      'Googleplex, 1600 Amphitheatre Parkway, Mountain View, California 94043',
    ]);
    expect(address.map((s) => s.description)).toEqual(['Alexanderplatz, 10178 Berlin']);
  });

  it('looks a place up by entityId', async () => {
    const placeId = await placeIdOf('tomtom', 'Googleplex');
    const place = await providers.tomtom.place({ placeId, language: 'en-US' }, { apiKey: FAKE_KEYS.tomtom });
    expect(place).toEqual({
      lat: 37.4220936,
      lng: -122.083922,
      address: '1600 Amphitheatre Parkway, Mountain View, California 94043',
      name: 'Googleplex',
      city: 'Mountain View',
      state: 'CA',
      zip: '94043',
      country: 'United States',
      country_code: 'US',
    });
    expect(fake.lastRequest('tomtom')).toMatchObject({
      path: '/search/2/place.json',
      query: { entityId: placeId, key: FAKE_KEYS.tomtom, language: 'en-US' },
    });
  });
});

describe('geoapify', () => {
  it('autocompletes with apiKey, format=json, bias=proximity:lon,lat, filter=countrycode:xx, lang and limit', async () => {
    const suggestions = await providers.geoapify.autocomplete(
      { q: 'Downing', lat: 51.5, lng: -0.12, country: 'GB', language: 'en-GB', limit: 2 },
      { apiKey: FAKE_KEYS.geoapify },
    );
    expect(suggestions).toEqual([
      { place_id: expect.any(String), description: '10 Downing Street, London SW1A 2AA, United Kingdom' },
    ]);
    expect(fake.lastRequest('geoapify')).toMatchObject({
      path: '/v1/geocode/autocomplete',
      query: {
        text: 'Downing',
        apiKey: FAKE_KEYS.geoapify,
        format: 'json',
        bias: 'proximity:-0.12,51.5',
        filter: 'countrycode:gb',
        lang: 'en',
        limit: '2',
      },
    });
  });

  it('reads place details from the properties, whatever the geometry (a building outline here)', async () => {
    const placeId = await placeIdOf('geoapify', 'Downing Street');
    const place = await providers.geoapify.place({ placeId }, { apiKey: FAKE_KEYS.geoapify });
    expect(place).toMatchObject({ lat: 51.5033635, lng: -0.1276248, city: 'London', country_code: 'GB' });
    expect(fake.lastRequest('geoapify')).toMatchObject({
      path: '/v2/place-details',
      query: { id: placeId, apiKey: FAKE_KEYS.geoapify, features: 'details' },
    });
  });
});

describe('photon (the keyless default)', () => {
  it('searches /api with q, lat, lon, limit, lang and countrycode, without any key', async () => {
    const suggestions = await providers.photon.autocomplete(
      { q: 'Alexanderplatz', lat: 52.5, lng: 13.4, country: 'de', language: 'de', limit: 3 },
      {},
    );
    expect(suggestions).toEqual([
      { place_id: expect.stringMatching(/^p1\./), description: 'Alexanderplatz, 10178 Berlin, Germany' },
    ]);
    const request = fake.lastRequest('photon');
    expect(request).toMatchObject({
      method: 'GET',
      path: '/api',
      query: { q: 'Alexanderplatz', lat: '52.5', lon: '13.4', limit: '3', lang: 'de', countrycode: 'DE' },
    });
    expect(Object.keys(request.query)).not.toContain('apiKey');
  });

  it.each([
    ['de-DE', 'de'],
    ['FR', 'fr'],
    ['es', undefined],
  ])('sends language %s as lang=%s (Photon refuses a language it does not hold)', async (language, lang) => {
    const suggestions = await providers.photon.autocomplete({ q: 'Berlin', language }, {});
    expect(suggestions.length).toBeGreaterThan(0);
    expect(fake.lastRequest('photon').query.lang).toBe(lang);
  });

  it('answers a place from its stateless id, without calling Photon', async () => {
    const placeId = await placeIdOf('photon', '10 Downing Street');
    fake.reset();
    const place = await providers.photon.place({ placeId }, {});
    expect(place).toEqual({
      lat: 51.5033635,
      lng: -0.1276248,
      address: '10 Downing Street, London SW1A 2AA, United Kingdom',
      name: '10 Downing Street',
      city: 'London',
      state: 'England',
      zip: 'SW1A 2AA',
      country: 'United Kingdom',
      country_code: 'GB',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ['another prefix', 'ChIJabc'],
    ['not base64url JSON', 'p1.!!!'],
    ['JSON of another shape', `p1.${Buffer.from(JSON.stringify({ la: 'x' })).toString('base64url')}`],
    [
      'a latitude out of range',
      `p1.${Buffer.from(JSON.stringify({ la: 91, ln: 0, a: 'x' })).toString('base64url')}`,
    ],
    ['an id over the length bound', `p1.${'A'.repeat(3000)}`],
  ])('treats %s as an unknown place', async (_case, placeId) => {
    const error = await rejection(providers.photon.place({ placeId }, {}));
    expect(error).toBeInstanceOf(PlaceNotFoundError);
    expect(error).toMatchObject({ provider: 'photon' });
  });
});

describe('every keyed provider', () => {
  it.each(KEYED_PLACE_PROVIDER_SLUGS)(
    '%s: without a key, both calls fail with PlaceProviderKeyMissingError and send nothing',
    async (slug) => {
      for (const apiKey of [undefined, '', '  ']) {
        const suggest = await rejection(providers[slug].autocomplete({ q: 'Berlin' }, { apiKey }));
        const place = await rejection(providers[slug].place({ placeId: 'x' }, { apiKey }));
        expect(suggest).toBeInstanceOf(PlaceProviderKeyMissingError);
        expect(place).toMatchObject({ name: 'PlaceProviderKeyMissingError', provider: slug });
      }
      expect(fake.requests).toHaveLength(0);
    },
  );

  it.each(KEYED_PLACE_PROVIDER_SLUGS)(
    '%s: a key the provider refuses is an UpstreamError that does not carry the key',
    async (slug) => {
      const wrongKey = `wrong-${slug}-key-secret`;
      const error = await rejection(providers[slug].autocomplete({ q: 'Berlin' }, { apiKey: wrongKey }));
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).failure).toBe('status');
      expect([400, 401, 403]).toContain((error as UpstreamError).status);
      expect(error.message).not.toContain(wrongKey);
      expect(error.message).not.toContain('?');
    },
  );

  it.each(KEYED_PLACE_PROVIDER_SLUGS)(
    '%s: an id the provider does not know is PlaceNotFoundError',
    async (slug) => {
      const placeId = slug === 'here' ? 'here:af:street:unknown' : 'unknown-place-id';
      const error = await rejection(providers[slug].place({ placeId }, { apiKey: keyOf(slug) }));
      expect(error).toBeInstanceOf(PlaceNotFoundError);
      expect(error).toMatchObject({ provider: slug });
    },
  );

  it.each(KEYED_PLACE_PROVIDER_SLUGS)('%s: maps the place to the common shape', async (slug) => {
    const place = await providers[slug].place({ placeId: await placeIdOf(slug) }, { apiKey: keyOf(slug) });
    expect(place).toMatchObject({
      lat: alexanderplatz.lat,
      lng: alexanderplatz.lng,
      address: expect.stringMatching(/^Alexanderplatz, 10178 Berlin/),
      city: 'Berlin',
      state: 'Berlin',
      zip: '10178',
      country: 'Germany',
      country_code: 'DE',
    });
  });
});

describe('provider failures', () => {
  const cases = PLACE_PROVIDER_SLUGS.flatMap((slug) => [
    { slug, call: 'autocomplete' as const },
    // Photon's place lookup never calls Photon.
    ...(slug === 'photon' ? [] : [{ slug, call: 'place' as const }]),
  ]);

  /** The call, with a valid place id fetched while the provider still answers. */
  async function prepare(slug: PlaceProviderSlug, call: 'autocomplete' | 'place', set = providers) {
    const placeId = call === 'place' ? await placeIdOf(slug) : '';
    fake.reset();
    return (signal?: AbortSignal) =>
      call === 'autocomplete'
        ? set[slug].autocomplete({ q: 'Alexanderplatz' }, { apiKey: keyOf(slug), signal })
        : set[slug].place({ placeId }, { apiKey: keyOf(slug), signal });
  }

  const expectClean = (error: Error, slug: PlaceProviderSlug) => {
    const key = keyOf(slug);
    if (key) expect(error.message).not.toContain(key);
    expect(error.message).not.toContain('?');
  };

  it.each(cases)('$slug $call: a 500 is an UpstreamError with the status', async ({ slug, call }) => {
    const run = await prepare(slug, call);
    fake.fail(slug, 'status_500');
    const error = await rejection(run());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ service: slug, failure: 'status', status: 500 });
    expectClean(error, slug);
  });

  it.each(cases)(
    '$slug $call: a 200 of another shape is an UpstreamError invalid_body',
    async ({ slug, call }) => {
      const run = await prepare(slug, call);
      fake.fail(slug, 'malformed_body');
      const error = await rejection(run());
      expect(error).toMatchObject({ name: 'UpstreamError', service: slug, failure: 'invalid_body' });
    },
  );

  it.each(cases)(
    '$slug $call: no answer within the timeout is an UpstreamError timeout',
    async ({ slug, call }) => {
      const run = await prepare(slug, call, impatient);
      fake.fail(slug, 'hang');
      const started = Date.now();
      const error = await rejection(run());
      expect(error).toMatchObject({ name: 'UpstreamError', failure: 'timeout' });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(fake.requestsOf(slug)).toHaveLength(1);
      expectClean(error, slug);
    },
  );

  it.each(cases)('$slug $call: the caller cancelling is an UpstreamError aborted', async ({ slug, call }) => {
    const run = await prepare(slug, call);
    fake.fail(slug, 'hang');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await rejection(run(controller.signal));
    expect(error).toMatchObject({ name: 'UpstreamError', failure: 'aborted' });
    // Well before the 5 s default timeout of these providers.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers error statuses only for Google Geocoding inside a 200 body', () => {
    expect(() => fake.fail('mapbox', 'error_in_body')).toThrow(/HTTP statuses/);
  });
});

describe('base URLs', () => {
  it('uses the public hosts without overrides, HERE on its two hosts', () => {
    expect(resolveProviderBaseUrls({})).toEqual({
      google: 'https://places.googleapis.com',
      mapbox: 'https://api.mapbox.com',
      here: {
        autocomplete: 'https://autocomplete.search.hereapi.com',
        lookup: 'https://lookup.search.hereapi.com',
      },
      tomtom: 'https://api.tomtom.com',
      geoapify: 'https://api.geoapify.com',
    });
  });

  it('sends both HERE paths to one override, and leaves the other providers on their hosts', () => {
    const bases = resolveProviderBaseUrls({ here: 'https://proxy.example/here/' });
    expect(bases.here).toEqual({
      autocomplete: 'https://proxy.example/here',
      lookup: 'https://proxy.example/here',
    });
    expect(bases.google).toBe('https://places.googleapis.com');
  });

  it('refuses a slug it does not know, Photon included (its base is PHOTON_URL)', () => {
    expect(() =>
      createPlaceProviders({ photonUrl: fake.photonUrl, providerBaseUrls: { gogle: 'http://x' } }),
    ).toThrow(ConfigError);
    expect(() => resolveProviderBaseUrls({ photon: 'http://x' })).toThrow(/PHOTON_URL/);
  });
});

describe('paths no value can leave', () => {
  it.each([
    ['google', '..'],
    ['google', '.'],
    ['mapbox', '..'],
    ['mapbox', ''],
  ] as const)(
    '%s refuses the place id %j before any request: it would climb or name another resource',
    async (slug, placeId) => {
      const error = await rejection(providers[slug].place({ placeId }, { apiKey: keyOf(slug) }));
      expect(error).toBeInstanceOf(TypeError);
      expect(fake.requests).toEqual([]);
    },
  );

  it('tomtom keeps what a visitor types inside its one path segment', async () => {
    for (const [q, segment] of [
      ['..', '...json'],
      ['a/../b', 'a%2F..%2Fb.json'],
      ['x?key=stolen#y', 'x%3Fkey%3Dstolen%23y.json'],
    ] as const) {
      fake.reset();
      await providers.tomtom.autocomplete({ q }, { apiKey: FAKE_KEYS.tomtom });
      expect(fake.lastRequest('tomtom').rawPath).toBe(`/tomtom/search/2/search/${segment}`);
      expect(fake.lastRequest('tomtom').query.key).toBe(FAKE_KEYS.tomtom);
    }
  });

  it('upstreamUrl throws for a path the URL parser would rewrite, and keeps a base path prefix', () => {
    expect(upstreamUrl('http://proxy.example/google/', '/v1/places/a%20b', { k: 'v w' })).toBe(
      'http://proxy.example/google/v1/places/a%20b?k=v+w',
    );
    expect(urlPath`/v1/places/${'a b/c?d#e'}`).toBe('/v1/places/a%20b%2Fc%3Fd%23e');
    for (const path of [
      '/v1/places/..',
      '/v1/./places',
      '/v1/places/a\\b',
      '/v1/places/a b',
      '/v1/places/é',
    ]) {
      expect(() => upstreamUrl('http://proxy.example/google', path), path).toThrow(TypeError);
    }
    expect(() => urlPath`/v1/places/${'..'}`).toThrow(TypeError);
    expect(() => urlPath`/v1/places/${''}`).toThrow(TypeError);
  });
});
