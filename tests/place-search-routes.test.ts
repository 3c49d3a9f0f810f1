// GET /mapping/autocomplete and GET /mapping/places through HTTP, against one fake server that
// speaks every provider's real protocol: each provider end to end with the finder's own key,
// the choice of provider and its 60 s cache, the key decrypted on every request, 502 on every
// kind of provider failure, bad inputs, unknown finders and places, the origin rules, the
// shared limit of 30 a minute per IP (in one process, and across two apps on one Redis), and
// logs that hold neither what visitors type nor keys.
import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/lib/logger.ts';
import type { AutocompleteProvider } from '../src/modules/finders/finders.table.ts';
import {
  KEYED_PLACE_PROVIDER_SLUGS,
  PLACE_PROVIDER_SLUGS,
  type PlaceProviderSlug,
} from '../src/modules/place-search/providers/place-providers.ts';
import { createUser } from './factories/users.ts';
import {
  createWidgetFinder,
  removeIntegration,
  setFinderSettings,
  setIntegration,
  type WidgetFinder,
} from './factories/widget-finders.ts';
import { firstWorkspaceId } from './factories/workspaces.ts';
import { FAKE_KEYS, type FakeProviders, placeByKey, startFakeProviders } from './fakes/providers.ts';
import { createTestContext, type TestContext } from './helpers/app.ts';
import { connectTestRedis, TEST_REDIS_URL } from './helpers/redis.ts';

const redisUrl = TEST_REDIS_URL;
const probe = await connectTestRedis(redisUrl);
probe?.disconnect();
const hasRedis = probe !== undefined;

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});

let fake: FakeProviders;
let ctx: TestContext;
let workspaceId: number;
const env = () => ({
  PROVIDER_BASE_URLS: JSON.stringify(fake.providerBaseUrls),
  PHOTON_URL: fake.photonUrl,
});

beforeAll(async () => {
  fake = await startFakeProviders();
  ctx = await createTestContext({ env: env(), logger: createLogger({ logLevel: 'debug' }, sink) });
  workspaceId = await firstWorkspaceId(ctx.deps, await createUser(ctx.deps));
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());
afterEach(() => vi.useRealTimers());

/** A client address of its own per call site, so the limit of 30 a minute never interferes. */
const freshIp = () => `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}`;

function get(
  path: string,
  query: Record<string, string | number>,
  headers: Record<string, string> = {},
  ip = freshIp(),
) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return ctx.app.inject({ method: 'GET', url: `/api/mapping/${path}?${search}`, headers, remoteAddress: ip });
}

const autocomplete = (finder: WidgetFinder, q: string, extra: Record<string, string | number> = {}) =>
  get('autocomplete', { q, finder_key: finder.token, ...extra });

const place = (finder: WidgetFinder, placeId: string, provider: string, extra: Record<string, string> = {}) =>
  get('places', { place_id: placeId, provider, finder_key: finder.token, ...extra });

/** The key the fake received from a provider call, wherever that provider carries it. */
function keySeen(provider: AutocompleteProvider): string | undefined {
  const request = fake.lastRequest(provider);
  if (provider === 'google') return request.headers['x-goog-api-key'] as string | undefined;
  if (provider === 'mapbox') return request.query.access_token;
  if (provider === 'tomtom') return request.query.key;
  return request.query.apiKey;
}

const finderWith = async (
  integrations: Partial<Record<AutocompleteProvider, string>>,
  options: Parameters<typeof createWidgetFinder>[2] = {},
) => {
  const finder = await createWidgetFinder(ctx.deps, workspaceId, options);
  let at = Date.now() - 60_000;
  // In the order given: the last is the most recently updated.
  for (const [provider, key] of Object.entries(integrations)) {
    at += 1000;
    await setIntegration(ctx.deps, finder.id, provider as AutocompleteProvider, key, new Date(at));
  }
  return finder;
};

const alexanderplatz = placeByKey('alexanderplatz')!;

describe('each provider, end to end with the finder key', () => {
  it.each(KEYED_PLACE_PROVIDER_SLUGS)('%s: suggestions, then the chosen place', async (slug) => {
    const finder = await finderWith({ [slug]: FAKE_KEYS[slug] });
    const suggested = await autocomplete(finder, 'Alexanderplatz');
    expect(suggested.statusCode).toBe(200);
    const body = suggested.json();
    expect(body.provider).toBe(slug);
    expect(body.suggestions.length).toBeGreaterThan(0);
    expect(body.suggestions[0]).toEqual({
      place_id: expect.any(String),
      description: expect.stringContaining('Alexanderplatz'),
    });
    expect(keySeen(slug)).toBe(FAKE_KEYS[slug]);

    const found = await place(finder, body.suggestions[0].place_id, slug);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({
      lat: expect.closeTo(alexanderplatz.lat, 3),
      lng: expect.closeTo(alexanderplatz.lng, 3),
      address: expect.stringContaining('Alexanderplatz'),
      country_code: 'DE',
    });
    expect(keySeen(slug)).toBe(FAKE_KEYS[slug]);
  });

  it('photon without any key: suggestions from Photon, the place read from its id without a second call', async () => {
    const finder = await finderWith({});
    const suggested = await autocomplete(finder, 'Alexanderplatz');
    expect(suggested.statusCode).toBe(200);
    expect(suggested.json().provider).toBe('photon');
    const [first] = suggested.json().suggestions;
    expect(fake.requestsOf('photon')).toHaveLength(1);
    const found = await place(finder, first.place_id, 'photon');
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ lat: expect.closeTo(alexanderplatz.lat, 3), city: 'Berlin' });
    expect(fake.requestsOf('photon')).toHaveLength(1);
  });

  it('passes the bias, country, language and session token on to the provider', async () => {
    const finder = await finderWith({ google: FAKE_KEYS.google });
    const res = await autocomplete(finder, '  Alexanderplatz ', {
      lat: 52.52,
      lng: 13.41,
      country: 'de',
      language: 'de-DE',
      session_token: 'sess-42',
    });
    expect(res.statusCode).toBe(200);
    expect(fake.lastRequest('google').body).toEqual({
      input: 'Alexanderplatz',
      locationBias: { circle: { center: { latitude: 52.52, longitude: 13.41 }, radius: 50_000 } },
      includedRegionCodes: ['de'],
      languageCode: 'de-DE',
      sessionToken: 'sess-42',
    });
  });
});

describe('which provider a finder searches with', () => {
  it('its autocomplete_provider setting when it has a key for it, though another key is more recent', async () => {
    const finder = await finderWith(
      { mapbox: FAKE_KEYS.mapbox, google: FAKE_KEYS.google },
      { settings: [{ key: 'autocomplete_provider', value: 'mapbox' }] },
    );
    expect((await autocomplete(finder, 'Alexanderplatz')).json().provider).toBe('mapbox');
  });

  it('the most recently updated integration when the setting names a provider without a key', async () => {
    const finder = await finderWith(
      { tomtom: FAKE_KEYS.tomtom, here: FAKE_KEYS.here },
      { settings: [{ key: 'autocomplete_provider', value: 'google' }] },
    );
    expect((await autocomplete(finder, 'Alexanderplatz')).json().provider).toBe('here');
  });

  it('photon when the setting says so, and when the finder has no key at all', async () => {
    const chosen = await finderWith(
      { google: FAKE_KEYS.google },
      { settings: [{ key: 'autocomplete_provider', value: 'photon' }] },
    );
    expect((await autocomplete(chosen, 'Alexanderplatz')).json().provider).toBe('photon');
    const keyless = await finderWith({}, { settings: [{ key: 'autocomplete_provider', value: 'mapbox' }] });
    expect((await autocomplete(keyless, 'Alexanderplatz')).json().provider).toBe('photon');
    expect(fake.requestsOf('google')).toHaveLength(0);
    expect(fake.requestsOf('mapbox')).toHaveLength(0);
  });

  it('keeps the provider 60 s: a newer key or a new setting takes over only after that', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const finder = await finderWith({ google: FAKE_KEYS.google });
    expect((await autocomplete(finder, 'Alexanderplatz')).json().provider).toBe('google');

    await setIntegration(ctx.deps, finder.id, 'mapbox', FAKE_KEYS.mapbox, new Date(Date.now() + 1000));
    vi.setSystemTime(Date.now() + 30_000);
    expect((await autocomplete(finder, 'Alexanderplatz')).json().provider).toBe('google');
    expect(fake.requestsOf('mapbox')).toHaveLength(0);

    vi.setSystemTime(Date.now() + 31_000);
    expect((await autocomplete(finder, 'Alexanderplatz')).json().provider).toBe('mapbox');
    expect(keySeen('mapbox')).toBe(FAKE_KEYS.mapbox);

    await setFinderSettings(ctx.deps, finder.id, [{ key: 'autocomplete_provider', value: 'google' }]);
    expect((await autocomplete(finder, 'Alexanderplatz')).json().provider).toBe('mapbox');
    vi.setSystemTime(Date.now() + 61_000);
    expect((await autocomplete(finder, 'Alexanderplatz')).json().provider).toBe('google');
  });

  it('drops the cached provider at once when its key is removed (no key is left to call it with)', async () => {
    const finder = await finderWith({ here: FAKE_KEYS.here, google: FAKE_KEYS.google });
    expect((await autocomplete(finder, 'Alexanderplatz')).json().provider).toBe('google');
    await removeIntegration(ctx.deps, finder.id, 'google');
    expect((await autocomplete(finder, 'Alexanderplatz')).json().provider).toBe('here');
  });

  it('decrypts the key on every request: a rotated key is used by the next call, within the minute', async () => {
    const finder = await finderWith({ tomtom: 'an-old-key-tomtom-refuses' });
    const refused = await autocomplete(finder, 'Alexanderplatz');
    expect(refused.statusCode).toBe(502);
    expect(keySeen('tomtom')).toBe('an-old-key-tomtom-refuses');

    await setIntegration(ctx.deps, finder.id, 'tomtom', FAKE_KEYS.tomtom);
    const accepted = await autocomplete(finder, 'Alexanderplatz');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().provider).toBe('tomtom');
    expect(keySeen('tomtom')).toBe(FAKE_KEYS.tomtom);
    const [first] = accepted.json().suggestions;

    await setIntegration(ctx.deps, finder.id, 'tomtom', 'revoked-again');
    expect((await place(finder, first.place_id, 'tomtom')).statusCode).toBe(502);
    expect(keySeen('tomtom')).toBe('revoked-again');
  });
});

describe('provider failures', () => {
  it.each([
    ['a 500', 'status_500'],
    ['a body of another shape', 'malformed_body'],
  ] as const)('answer 502 provider_unavailable on %s, for suggestions and places', async (_name, mode) => {
    const finder = await finderWith({ geoapify: FAKE_KEYS.geoapify });
    const placeId = (await autocomplete(finder, 'Alexanderplatz')).json().suggestions[0].place_id;
    fake.fail('geoapify', mode);
    for (const res of [
      await autocomplete(finder, 'Alexanderplatz'),
      await place(finder, placeId, 'geoapify'),
    ]) {
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        message: 'The place search provider is unavailable. Try again later.',
        code: 'provider_unavailable',
      });
    }
  });

  it('answers 502 when Photon cannot be reached', async () => {
    fake.fail('photon', 'status_500');
    const res = await autocomplete(await finderWith({}), 'Alexanderplatz');
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('provider_unavailable');
  });

  it('answers 502 after the 5 s timeout when the provider never answers', async () => {
    const finder = await finderWith({ mapbox: FAKE_KEYS.mapbox });
    fake.fail('mapbox', 'hang');
    const started = Date.now();
    const res = await autocomplete(finder, 'Alexanderplatz');
    const waited = Date.now() - started;
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('provider_unavailable');
    expect(waited).toBeGreaterThanOrEqual(4900);
    expect(waited).toBeLessThan(9000);
  }, 15_000);

  it('answers 502 when the provider host refuses the connection', async () => {
    const unreachable = await createTestContext({
      env: {
        ...env(),
        PROVIDER_BASE_URLS: JSON.stringify({ ...fake.providerBaseUrls, geoapify: 'http://127.0.0.1:9' }),
      },
    });
    try {
      const owner = await createUser(unreachable.deps);
      const finder = await createWidgetFinder(
        unreachable.deps,
        await firstWorkspaceId(unreachable.deps, owner),
      );
      await setIntegration(unreachable.deps, finder.id, 'geoapify', FAKE_KEYS.geoapify);
      const res = await unreachable.app.inject({
        method: 'GET',
        url: `/api/mapping/autocomplete?q=Berlin&finder_key=${finder.token}`,
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('provider_unavailable');
    } finally {
      await unreachable.close();
    }
  });

  it('answers 404 for a place the provider does not know', async () => {
    const finder = await finderWith({ google: FAKE_KEYS.google });
    const res = await place(finder, 'ChIJ-no-such-place-0000', 'google');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Place not found.', code: 'not_found' });
  });
});

describe('bad input', () => {
  let finder: WidgetFinder;
  beforeAll(async () => {
    finder = await finderWith({});
  });

  it.each([
    ['no q', { q: undefined }, 'q'],
    ['an empty q', { q: '   ' }, 'q'],
    ['a q over 200 characters', { q: 'a'.repeat(201) }, 'q'],
    ['no finder_key', { finder_key: undefined }, 'finder_key'],
    ['a lat out of range', { lat: 91, lng: 0 }, 'lat'],
    ['a lng out of range', { lat: 0, lng: -181 }, 'lng'],
    ['a lat that is not a number', { lat: 'north', lng: 1 }, 'lat'],
    ['an empty lat', { lat: '', lng: 1 }, 'lat'],
    ['lat without lng', { lat: 52.5 }, 'lng'],
    ['lng without lat', { lng: 13.4 }, 'lat'],
    ['a country that is not ISO alpha-2', { country: 'DEU' }, 'country'],
    ['an unassigned country code', { country: 'XX' }, 'country'],
    ['a language that is no BCP 47 tag', { language: 'english please' }, 'language'],
    ['a session token with spaces', { session_token: 'a b' }, 'session_token'],
  ] as const)(
    'autocomplete with %s: 422 naming the field, no provider called',
    async (_name, change, field) => {
      const query: Record<string, string | number> = { q: 'Alexanderplatz', finder_key: finder.token };
      for (const [key, value] of Object.entries(change)) {
        if (value === undefined) delete query[key];
        else query[key] = value;
      }
      const res = await get('autocomplete', query);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message: 'The given data was invalid.' });
      expect(Object.keys(res.json().errors)).toEqual([field]);
      expect(fake.requests).toHaveLength(0);
    },
  );

  it.each([
    ['no place_id', { place_id: undefined }, 'place_id'],
    ['a place_id over 2048 characters', { place_id: 'x'.repeat(2049) }, 'place_id'],
    ['no provider', { provider: undefined }, 'provider'],
    ['an unknown provider', { provider: 'bing' }, 'provider'],
    ['no finder_key', { finder_key: undefined }, 'finder_key'],
  ] as const)('places with %s: 422 naming the field', async (_name, change, field) => {
    const query: Record<string, string> = {
      place_id: 'p1.e30',
      provider: 'photon',
      finder_key: finder.token,
    };
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) delete query[key];
      else query[key] = value;
    }
    const res = await get('places', query);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual([field]);
  });

  it('places with a provider the finder does not search with: 422, and the key is not spent', async () => {
    const googleFinder = await finderWith({ google: FAKE_KEYS.google, here: FAKE_KEYS.here });
    const res = await place(googleFinder, 'some-here-id', 'mapbox');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ provider: ['The provider must be one of: here, photon.'] });
    // `google` is the older key: the finder searches with `here`, so google is refused too.
    expect((await place(googleFinder, 'ChIJ-anything', 'google')).statusCode).toBe(422);
    expect(fake.requests).toHaveLength(0);
  });

  it('an unknown finder_key answers 404 on both routes', async () => {
    for (const res of [
      await get('autocomplete', { q: 'Berlin', finder_key: 'no-such-finder' }),
      await get('places', { place_id: 'p1.e30', provider: 'photon', finder_key: 'no-such-finder' }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Finder not found.', code: 'not_found' });
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe('place ids stay inside the provider path', () => {
  const finders = {} as Record<PlaceProviderSlug, WidgetFinder>;
  beforeAll(async () => {
    for (const slug of KEYED_PLACE_PROVIDER_SLUGS)
      finders[slug] = await finderWith({ [slug]: FAKE_KEYS[slug] });
    finders.photon = await finderWith({});
  });

  /** GET /mapping/places with `place_id` written into the query string as given (no encoding added). */
  const rawPlace = (provider: PlaceProviderSlug, rawPlaceId: string) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/mapping/places?place_id=${rawPlaceId}&provider=${provider}&finder_key=${finders[provider].token}`,
      remoteAddress: freshIp(),
    });

  // [the id, as the query string carries it, as it must reach the provider's path]
  const oddIds = [
    ['a b', 'a%20b', 'a%20b'],
    ['é', '%C3%A9', '%C3%A9'],
    ['?x', '%3Fx', '%3Fx'],
    ['#x', '%23x', '%23x'],
    ['...', '...', '...'],
    ['%41', '%2541', '%2541'],
  ] as const;

  it.each([
    ['google', '/google/v1/places/'],
    ['mapbox', '/mapbox/search/searchbox/v1/retrieve/'],
  ] as const)('%s: odd ids reach exactly one path segment, encoded', async (provider, prefix) => {
    for (const [, query, segment] of oddIds) {
      fake.reset();
      const res = await rawPlace(provider, query);
      // The fake knows no such place: the call was made, with the id as one segment.
      expect(res.statusCode, query).toBe(404);
      expect(res.json()).toEqual({ message: 'Place not found.', code: 'not_found' });
      expect(fake.requestsOf(provider).map((request) => request.rawPath)).toEqual([`${prefix}${segment}`]);
    }
  });

  it.each([
    ['here', 'here:a b?x#y&apiKey=stolen', '/v1/lookup', 'id'],
    ['geoapify', 'a b?x#y&apiKey=stolen', '/v2/place-details', 'id'],
    // TomTom's ids hold slashes (`US/PAD/p0/43076024`); as a query value they cannot climb.
    ['tomtom', 'US/PAD/p0/43076024', '/search/2/place.json', 'entityId'],
    ['tomtom', '../../x?key=stolen', '/search/2/place.json', 'entityId'],
  ] as const)('%s: %s is sent as one query value', async (provider, id, path, param) => {
    const res = await place(finders[provider], id, provider);
    expect(res.statusCode).toBe(404);
    const [request, ...more] = fake.requestsOf(provider);
    expect(more).toEqual([]);
    expect(request!.rawPath).toBe(`/${provider}${path}`);
    expect(request!.query[param]).toBe(id);
    expect(request!.query[provider === 'tomtom' ? 'key' : 'apiKey']).toBe(FAKE_KEYS[provider]);
  });

  const dots = 'The place_id may not be "." or "..".';
  const slash = (provider: string) => `The place_id may not contain "/" (${provider} place ids have none).`;
  const refusals = [
    ['.', () => dots],
    ['..', () => dots],
    ['%2e%2e', () => dots],
    ['.%2E', () => dots],
    ['%252e%252e', () => dots],
    ['a%5Cb', () => 'The place_id may not contain "\\".'],
    ['..%5C..', () => 'The place_id may not contain "\\".'],
    ['a%01b', () => 'The place_id may not contain control characters.'],
    ['a%7Fb', () => 'The place_id may not contain control characters.'],
    ['a/b', slash],
    ['a%2Fb', slash],
    ['a%252Fb', slash],
    ['..%2F..%2Fsecret', slash],
  ] as const;

  it.each(PLACE_PROVIDER_SLUGS)(
    '%s: ".", "..", slashes, backslashes and control characters answer 422, nothing is called',
    async (provider) => {
      for (const [query, message] of refusals) {
        // TomTom's own ids hold slashes (the test above).
        if (provider === 'tomtom' && message === slash) continue;
        const res = await rawPlace(provider, query);
        expect(res.statusCode, query).toBe(422);
        expect(res.json()).toEqual({
          message: 'The given data was invalid.',
          code: 'validation_failed',
          errors: { place_id: [message(provider)] },
        });
      }
      expect(fake.requests).toEqual([]);
    },
  );
});

describe('origin rules (the finder authorized_urls)', () => {
  let restricted: WidgetFinder;
  let open: WidgetFinder;
  beforeAll(async () => {
    restricted = await finderWith(
      {},
      { authorizedUrls: ['https://shop.example', '*.brand.example', 'partner.example'] },
    );
    open = await finderWith({});
  });

  it.each([
    ['the listed origin', { origin: 'https://shop.example' }, 200],
    ['the listed origin, other scheme', { origin: 'http://shop.example' }, 403],
    ['a subdomain of a *. entry', { origin: 'https://www.brand.example' }, 200],
    ['a deeper subdomain of a *. entry', { origin: 'https://eu.www.brand.example' }, 200],
    ['the bare domain of a *. entry', { origin: 'https://brand.example' }, 403],
    ['a bare host entry, any scheme', { origin: 'http://partner.example' }, 200],
    ['another site', { origin: 'https://evil.example' }, 403],
    ['a look-alike suffix', { origin: 'https://shop.example.evil.example' }, 403],
    ['no Origin but a listed Referer', { referer: 'https://www.brand.example/stores?x=1' }, 200],
    ['no Origin and a foreign Referer', { referer: 'https://evil.example/' }, 403],
    ['neither header', {}, 403],
    ['Origin null', { origin: 'null' }, 403],
  ])('%s -> %i', async (_name, headers, status) => {
    const res = await get('autocomplete', { q: 'Alexanderplatz', finder_key: restricted.token }, headers);
    expect(res.statusCode).toBe(status);
    if (status === 403) {
      expect(res.json()).toEqual({
        message: 'This website is not allowed to use this finder.',
        code: 'forbidden',
      });
    }
  });

  it('applies to places too, and an empty list admits every caller', async () => {
    const refused = await get(
      'places',
      { place_id: 'p1.e30', provider: 'photon', finder_key: restricted.token },
      { origin: 'https://evil.example' },
    );
    expect(refused.statusCode).toBe(403);
    expect((await autocomplete(open, 'Alexanderplatz')).statusCode).toBe(200);
    expect(
      (await get('autocomplete', { q: 'Berlin', finder_key: open.token }, { origin: 'https://any.example' }))
        .statusCode,
    ).toBe(200);
  });
});

describe('30 requests a minute per IP, across both routes', () => {
  const burst = async (send: (i: number) => Promise<{ statusCode: number }>, count: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await send(i)).statusCode);
    return statuses;
  };

  it('in one process: the 31st request of an IP is 429 with Retry-After, other IPs go on', async () => {
    const ip = freshIp();
    const unknown = { finder_key: 'no-such-finder' };
    const statuses = await burst(
      (i) =>
        i % 2
          ? get('autocomplete', { q: 'Berlin', ...unknown }, {}, ip)
          : get('places', { place_id: 'x', provider: 'photon', ...unknown }, {}, ip),
      30,
    );
    expect(statuses).toEqual(Array(30).fill(404));
    const limited = await get('autocomplete', { q: 'Berlin', ...unknown }, {}, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: 'Too many requests.', code: 'rate_limited' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await get('places', { place_id: 'x', provider: 'photon', ...unknown }, {}, ip)).statusCode).toBe(
      429,
    );
    expect((await get('autocomplete', { q: 'Berlin', ...unknown })).statusCode).toBe(404);
  });

  it.skipIf(!hasRedis)('two app instances on one Redis count together', async () => {
    const one = await createTestContext({ env: { ...env(), REDIS_URL: redisUrl } });
    const two = await createTestContext({ env: { ...env(), REDIS_URL: redisUrl } });
    try {
      const ip = freshIp();
      const call = (app: TestContext, path: string) =>
        app.app.inject({
          method: 'GET',
          url: `/api/mapping/${path}?q=Berlin&place_id=x&provider=photon&finder_key=no-such-finder`,
          remoteAddress: ip,
        });
      const statuses = await burst((i) => call(i % 2 ? one : two, i % 3 ? 'autocomplete' : 'places'), 30);
      expect(statuses).toEqual(Array(30).fill(404));
      for (const app of [one, two]) {
        const res = await call(app, 'places');
        expect(res.statusCode).toBe(429);
        expect(res.json().code).toBe('rate_limited');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('logs', () => {
  it('hold neither what the visitor typed, nor the finder token, nor a provider key', async () => {
    const finder = await finderWith({ here: FAKE_KEYS.here });
    logLines.length = 0;
    expect((await autocomplete(finder, 'Alexanderplatz Geheimweg')).statusCode).toBe(200);
    fake.fail('here', 'status_500');
    expect((await autocomplete(finder, 'Alexanderplatz Geheimweg')).statusCode).toBe(502);
    const text = logLines.join('\n');
    expect(text).toContain('/api/mapping/autocomplete');
    expect(text).toContain('place provider failed');
    for (const secret of ['Geheimweg', finder.token, FAKE_KEYS.here]) expect(text).not.toContain(secret);
  });
});
