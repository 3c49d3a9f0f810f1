// The geocoders of GEOCODER against the fake server: Google's Geocoding API (each
// location_type passed on as it is, ZERO_RESULTS as nothing found, failures reported in the
// body or by status as UpstreamError), Photon with its own precision mapping, and `none`.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/config.ts';
import type { PhotonFeature } from '../src/lib/photon-client.ts';
import { UpstreamError } from '../src/lib/upstream.ts';
import { classifyGeocoderFailure } from '../src/modules/geocoding/geocoding.failures.ts';
import { createGeocoder, type Geocoder } from '../src/modules/geocoding/geocoding.geocoder.ts';
import { nominatimPrecision } from '../src/modules/geocoding/nominatim.geocoder.ts';
import { mentionsHouseNumber, photonPrecision } from '../src/modules/geocoding/photon.geocoder.ts';
import { FAKE_KEYS, type FakeProviders, startFakeProviders } from './fakes/providers.ts';

let fake: FakeProviders;
let google: Geocoder;
let photon: Geocoder;

beforeAll(async () => {
  fake = await startFakeProviders();
  google = createGeocoder(
    { kind: 'google', apiKey: FAKE_KEYS['google-geocoding'], baseUrl: fake.geocoderBaseUrl('google') },
    'http://127.0.0.1:1/not-photon',
  );
  // No GEOCODER_BASE_URL: Photon is reached at PHOTON_URL.
  photon = createGeocoder({ kind: 'photon', apiKey: undefined, baseUrl: undefined }, fake.photonUrl);
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function rejection(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe('GEOCODER=none', () => {
  it('never geocodes and calls nobody', async () => {
    const none = createGeocoder({ kind: 'none', apiKey: undefined, baseUrl: undefined }, fake.photonUrl);
    expect(none.kind).toBe('none');
    expect(await none.geocode('10 Downing Street, London')).toBeUndefined();
    expect(fake.requests).toHaveLength(0);
  });
});

describe('GEOCODER=google', () => {
  it('sends the address and the key to /maps/api/geocode/json and reads the first result', async () => {
    const result = await google.geocode('1600 Amphitheatre Parkway, Mountain View, CA 94043');
    expect(result).toEqual({
      lat: 37.4220936,
      lng: -122.083922,
      precision: 'ROOFTOP',
      formatted_address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA',
    });
    expect(fake.lastRequest('google-geocoding')).toMatchObject({
      method: 'GET',
      path: '/maps/api/geocode/json',
      query: {
        address: '1600 Amphitheatre Parkway, Mountain View, CA 94043',
        key: FAKE_KEYS['google-geocoding'],
      },
    });
  });

  it.each([
    ['10 Downing Street, London', 'ROOFTOP'],
    ['Karl-Marx-Allee 100, 10243 Berlin', 'RANGE_INTERPOLATED'],
    ['Alexanderplatz, 10178 Berlin', 'GEOMETRIC_CENTER'],
    ['Berlin', 'APPROXIMATE'],
  ])('passes on the location_type of %s as %s, dropping nothing itself', async (address, precision) => {
    const result = await google.geocode(address);
    expect(result?.precision).toBe(precision);
    expect(result?.lat).toEqual(expect.any(Number));
  });

  it('answers undefined for ZERO_RESULTS', async () => {
    expect(await google.geocode('Atlantis, Lost City')).toBeUndefined();
    expect(fake.requestsOf('google-geocoding')).toHaveLength(1);
  });

  it('answers undefined for an empty address without asking Google (it would say INVALID_REQUEST)', async () => {
    expect(await google.geocode('   ')).toBeUndefined();
    expect(fake.requests).toHaveLength(0);
  });

  it('turns REQUEST_DENIED (a key Google refuses) into an UpstreamError without the key', async () => {
    const denied = createGeocoder(
      { kind: 'google', apiKey: 'wrong-secret-key', baseUrl: fake.geocoderBaseUrl('google') },
      fake.photonUrl,
    );
    const error = await rejection(denied.geocode('Berlin'));
    expect(error).toMatchObject({ service: 'google-geocoding', failure: 'status', status: 200 });
    expect(error.message).toContain('REQUEST_DENIED');
    expect(error.message).not.toContain('wrong-secret-key');
    expect(error.body).toMatchObject({ status: 'REQUEST_DENIED', error_message: expect.any(String) });
  });

  it('turns OVER_QUERY_LIMIT in a 200 body into an UpstreamError', async () => {
    fake.fail('google-geocoding', 'error_in_body');
    const error = await rejection(google.geocode('Berlin'));
    expect(error.message).toContain('OVER_QUERY_LIMIT');
    expect(error.message).not.toContain(FAKE_KEYS['google-geocoding']);
  });

  it('turns a 500 into an UpstreamError with the status', async () => {
    fake.fail('google-geocoding', 'status_500');
    expect(await rejection(google.geocode('Berlin'))).toMatchObject({ failure: 'status', status: 500 });
  });

  it('turns a body of another shape into an UpstreamError invalid_body', async () => {
    fake.fail('google-geocoding', 'malformed_body');
    expect(await rejection(google.geocode('Berlin'))).toMatchObject({ failure: 'invalid_body' });
  });

  it('gives up after its timeout, without the key in the message', async () => {
    const quick = createGeocoder(
      { kind: 'google', apiKey: FAKE_KEYS['google-geocoding'], baseUrl: fake.geocoderBaseUrl('google') },
      fake.photonUrl,
      { timeoutMs: 200 },
    );
    fake.fail('google-geocoding', 'hang');
    const started = Date.now();
    const error = await rejection(quick.geocode('Berlin'));
    expect(error.failure).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error.message).not.toContain(FAKE_KEYS['google-geocoding']);
  });

  it('stops when the caller cancels', async () => {
    fake.fail('google-geocoding', 'hang');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(google.geocode('Berlin', { signal: controller.signal }));
    expect(error.failure).toBe('aborted');
  });

  it('refuses to start without GEOCODER_API_KEY', () => {
    expect(() =>
      createGeocoder({ kind: 'google', apiKey: undefined, baseUrl: undefined }, fake.photonUrl),
    ).toThrow(ConfigError);
  });
});

describe('GEOCODER=photon', () => {
  it('asks /api for the one best match, without a key, at PHOTON_URL', async () => {
    await photon.geocode('Karl-Marx-Allee 100, 10243 Berlin');
    const request = fake.lastRequest('photon');
    expect(request).toMatchObject({
      method: 'GET',
      path: '/api',
      query: { q: 'Karl-Marx-Allee 100, 10243 Berlin', limit: '1' },
    });
    expect(Object.keys(request.query).sort()).toEqual(['limit', 'q']);
  });

  it('prefers GEOCODER_BASE_URL over PHOTON_URL', async () => {
    const own = createGeocoder(
      { kind: 'photon', apiKey: undefined, baseUrl: fake.geocoderBaseUrl('photon') },
      'http://127.0.0.1:1/unused',
    );
    expect(await own.geocode('Berlin')).toMatchObject({ precision: 'APPROXIMATE' });
  });

  it.each([
    ['Karl-Marx-Allee 100, 10243 Berlin', 'ROOFTOP', 'Karl-Marx-Allee 100, 10243 Berlin, Germany'],
    [
      'Googleplex, 1600 Amphitheatre Parkway, Mountain View',
      'ROOFTOP',
      'Googleplex, 1600 Amphitheatre Parkway, Mountain View, California 94043, United States',
    ],
    // The house found has a number, but not one that was asked for.
    ['Downing Street, London', 'APPROXIMATE', '10 Downing Street, London SW1A 2AA, United Kingdom'],
    ['Alexanderplatz, Berlin', 'GEOMETRIC_CENTER', 'Alexanderplatz, 10178 Berlin, Germany'],
    // A named place without a house number: the object, not a checked address.
    [
      'Brandenburger Tor, Berlin',
      'GEOMETRIC_CENTER',
      'Brandenburger Tor, Pariser Platz, 10117 Berlin, Germany',
    ],
    ['Berlin', 'APPROXIMATE', 'Berlin, Germany'],
  ])('%s -> %s', async (address, precision, formatted) => {
    const result = await photon.geocode(address);
    expect(result).toEqual({
      lat: expect.any(Number),
      lng: expect.any(Number),
      precision,
      formatted_address: formatted,
    });
  });

  it('reads GeoJSON [lon, lat] into lat and lng', async () => {
    expect(await photon.geocode('10 Downing Street')).toMatchObject({ lat: 51.5033635, lng: -0.1276248 });
  });

  it('answers undefined when Photon finds nothing', async () => {
    expect(await photon.geocode('Atlantis')).toBeUndefined();
  });

  it('turns a 500 and a body of another shape into UpstreamErrors', async () => {
    fake.fail('photon', 'status_500');
    expect(await rejection(photon.geocode('Berlin'))).toMatchObject({ service: 'photon', status: 500 });
    fake.fail('photon', 'malformed_body');
    expect(await rejection(photon.geocode('Berlin'))).toMatchObject({ failure: 'invalid_body' });
  });

  it('stops when the caller cancels', async () => {
    fake.fail('photon', 'hang');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await rejection(photon.geocode('Berlin', { signal: controller.signal }))).toMatchObject({
      failure: 'aborted',
    });
  });
});

describe('GEOCODER=nominatim', () => {
  const nominatim = () =>
    createGeocoder(
      { kind: 'nominatim', apiKey: undefined, baseUrl: fake.geocoderBaseUrl('nominatim') },
      fake.photonUrl,
      { userAgent: 'location-finder-service (+http://app.test)' },
    );

  it('asks /search for the one best match in jsonv2 with address details, naming itself', async () => {
    await nominatim().geocode('Karl-Marx-Allee 100, 10243 Berlin');
    const request = fake.lastRequest('nominatim');
    expect(request).toMatchObject({
      method: 'GET',
      path: '/search',
      query: { q: 'Karl-Marx-Allee 100, 10243 Berlin', format: 'jsonv2', limit: '1', addressdetails: '1' },
    });
    expect(request.headers['user-agent']).toBe('location-finder-service (+http://app.test)');
  });

  it.each([
    ['Karl-Marx-Allee 100, 10243 Berlin', 'ROOFTOP'],
    ['1600 Amphitheatre Parkway, Mountain View', 'ROOFTOP'],
    // The house found has a number, but not one that was asked for.
    ['Downing Street, London', 'APPROXIMATE'],
    // A road, and a named object without a number: not a checked address.
    ['Alexanderplatz, Berlin', 'GEOMETRIC_CENTER'],
    ['Brandenburger Tor, Berlin', 'GEOMETRIC_CENTER'],
    ['Berlin', 'APPROXIMATE'],
  ])('%s -> %s', async (address, precision) => {
    expect(await nominatim().geocode(address)).toMatchObject({ precision, lat: expect.any(Number) });
  });

  it('reads the coordinates Nominatim sends as strings', async () => {
    expect(await nominatim().geocode('10 Downing Street')).toMatchObject({
      lat: 51.5033635,
      lng: -0.1276248,
    });
    expect(await nominatim().geocode('Atlantis')).toBeUndefined();
  });

  it('is refused (403) without a User-Agent of its own, which stops the geocoding job', async () => {
    const anonymous = createGeocoder(
      { kind: 'nominatim', apiKey: undefined, baseUrl: fake.geocoderBaseUrl('nominatim') },
      fake.photonUrl,
      { userAgent: 'node' },
    );
    const error = await rejection(anonymous.geocode('Berlin'));
    expect(error).toMatchObject({ service: 'nominatim', status: 403 });
    expect(classifyGeocoderFailure(error)).toBe('refused');
  });
});

describe('mentionsHouseNumber', () => {
  it.each([
    ['Alexanderplatz 9, 10178 Berlin', '9', true],
    ['Hauptstr. 12 a, Berlin', '12a', true],
    ['Hauptstr. 12A', '12a', true],
    ['Main St 1-3, Springfield', '1-3', true],
    ['10 Downing Street', '10', true],
    ['Alexanderplatz, 10178 Berlin', '1', false],
    ['Main St 13', '1', false],
    ['Main St 12b', '12a', false],
    ['Downing Street, London', '10', false],
  ])('%s mentions %s: %s', (address, houseNumber, expected) => {
    expect(mentionsHouseNumber(address, houseNumber)).toBe(expected);
  });

  it.each([
    // A neighbour whose number is part of the street's name.
    ['Straße des 17. Juni 200', '17', 'Straße des 17. Juni', false],
    ['Straße des 17. Juni 200', '200', 'Straße des 17. Juni', true],
    ['Straße  des 17. juni 17', '17', 'Straße des 17. Juni', true],
    ['5th Avenue 5', '5', '5th Avenue', true],
    ['12 Rue du 8 Mai 1945', '8', 'Rue du 8 Mai 1945', false],
    // Spelled otherwise in the address: the name stays, as without a street.
    ['Str. des 17. Juni 200', '17', 'Straße des 17. Juni', true],
  ])('%s: the number %s on the street %s is asked for: %s', (streetLine, houseNumber, street, expected) => {
    expect(mentionsHouseNumber(streetLine, houseNumber, street)).toBe(expected);
  });
});

describe('precision from the street line', () => {
  const house = (housenumber: string, street: string): PhotonFeature => ({
    lat: 52.51,
    lng: 13.35,
    properties: { type: 'house', housenumber, street, city: 'Berlin', country: 'Germany' },
  });

  it.each([
    // A number in the zip or the city is not the house number asked for.
    ['Main Street', 'Main Street 2, Dublin 2', '2', 'Main Street', 'APPROXIMATE'],
    ['Alexanderplatz', 'Alexanderplatz, 10178 Berlin', '10178', 'Alexanderplatz', 'APPROXIMATE'],
    [
      'Straße des 17. Juni 200',
      'Straße des 17. Juni 200, 10623 Berlin',
      '17',
      'Straße des 17. Juni',
      'APPROXIMATE',
    ],
    [
      'Straße des 17. Juni 200',
      'Straße des 17. Juni 200, 10623 Berlin',
      '200',
      'Straße des 17. Juni',
      'ROOFTOP',
    ],
  ])(
    '%s (asked %s), a result numbered %s on %s: %s',
    (streetLine, _query, housenumber, street, precision) => {
      expect(photonPrecision(house(housenumber, street), streetLine)).toBe(precision);
      expect(
        nominatimPrecision(
          { lat: 52.51, lon: 13.35, display_name: '', address: { house_number: housenumber, road: street } },
          streetLine,
        ),
      ).toBe(precision);
    },
  );

  it('is judged by Photon and Nominatim on the street line they are given', async () => {
    // The fake finds 10 Downing Street for both queries; only the street line differs.
    const geocoders = [
      photon,
      createGeocoder(
        { kind: 'nominatim', apiKey: undefined, baseUrl: fake.geocoderBaseUrl('nominatim') },
        fake.photonUrl,
        { userAgent: 'location-finder-service (+http://app.test)' },
      ),
    ];
    for (const geocoder of geocoders) {
      expect(
        await geocoder.geocode('10 Downing Street, London', { streetLine: '10 Downing Street' }),
      ).toMatchObject({ precision: 'ROOFTOP' });
      expect(
        await geocoder.geocode('Downing Street, 10 London', { streetLine: 'Downing Street' }),
      ).toMatchObject({ precision: 'APPROXIMATE' });
    }
  });
});
