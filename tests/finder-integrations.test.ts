// A finder's provider keys through HTTP: stored sealed by PUT, used by the widget's place search
// (the fake providers see the key), replaced, removed; never in a response nor in the log; a
// tampered column refused by the MAC without the key leaking; bad input and other users' finders.
import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.ts';
import {
  type AutocompleteProvider,
  autocompleteProviders,
  finderIntegrationsTable,
} from '../src/modules/finders/finders.table.ts';
import { createCast } from './factories/workspaces.ts';
import { FAKE_KEYS, type FakeProviders, startFakeProviders } from './fakes/providers.ts';
import { createCaller, createTestContext, type TestContext } from './helpers/app.ts';

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});
const logged = () => logLines.join('\n');

let fake: FakeProviders;
let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  fake = await startFakeProviders();
  ctx = await createTestContext({
    env: { PROVIDER_BASE_URLS: JSON.stringify(fake.providerBaseUrls), PHOTON_URL: fake.photonUrl },
    logger: createLogger({ logLevel: 'debug' }, sink),
  });
  cast = await createCast(ctx.deps);
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const call = createCaller(() => ctx);

async function createFinder(token = cast.ownerToken, workspaceId = cast.workspaceId) {
  const res = await call('POST', '/finders', token, { name: 'Keyed finder', workspace_id: workspaceId });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; token: string };
}

const autocomplete = (finderToken: string) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/mapping/autocomplete?q=Alexanderplatz&finder_key=${finderToken}`,
    remoteAddress: `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}`,
  });

/** The key the fake received from a provider call, wherever that provider carries it. */
function keySeen(provider: AutocompleteProvider): string | undefined {
  const request = fake.lastRequest(provider);
  if (provider === 'google') return request.headers['x-goog-api-key'] as string | undefined;
  if (provider === 'mapbox') return request.query.access_token;
  if (provider === 'tomtom') return request.query.key;
  return request.query.apiKey;
}

const integrationRows = (finderId: number) =>
  ctx.deps.db.select().from(finderIntegrationsTable).where(eq(finderIntegrationsTable.finderId, finderId));
const integrationCount = async () =>
  (await ctx.deps.db.select({ n: count() }).from(finderIntegrationsTable))[0]!.n;

const noneHeld = autocompleteProviders.map((provider) => ({ provider, has_api_key: false }));

describe('GET/PUT/DELETE /api/finders/:id/integrations', () => {
  it.each(autocompleteProviders)(
    '%s: the key is stored sealed, listed as present, and used by the place search',
    async (provider) => {
      const finder = await createFinder();
      expect((await call('GET', `/finders/${finder.id}/integrations`, cast.memberToken)).json()).toEqual(
        noneHeld,
      );

      const key = FAKE_KEYS[provider];
      const put = await call('PUT', `/finders/${finder.id}/integrations/${provider}`, cast.memberToken, {
        api_key: `  ${key} `,
      });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toEqual({ provider, has_api_key: true });
      expect(put.body).not.toContain(key);

      const listed = await call('GET', `/finders/${finder.id}/integrations`, cast.ownerToken);
      expect(listed.json()).toEqual(
        autocompleteProviders.map((slug) => ({ provider: slug, has_api_key: slug === provider })),
      );
      const [row] = await integrationRows(finder.id);
      expect(row!.apiKeyEncrypted).not.toContain(key);
      expect(ctx.deps.secretBox.decrypt(row!.apiKeyEncrypted)).toBe(key);

      const searched = await autocomplete(finder.token);
      expect(searched.statusCode).toBe(200);
      expect(searched.json().provider).toBe(provider);
      expect(keySeen(provider)).toBe(key);

      for (const url of [`/finders/${finder.id}`, `/finders/${finder.id}/integrations`]) {
        expect((await call('GET', url, cast.ownerToken)).body).not.toContain(key);
      }
    },
  );

  it('replaces a key, and removing it falls back to the open provider', async () => {
    const finder = await createFinder();
    await call('PUT', `/finders/${finder.id}/integrations/mapbox`, cast.ownerToken, { api_key: 'old-token' });
    const replaced = await call('PUT', `/finders/${finder.id}/integrations/mapbox`, cast.ownerToken, {
      api_key: FAKE_KEYS.mapbox,
    });
    expect(replaced.statusCode).toBe(200);
    expect(await integrationRows(finder.id)).toHaveLength(1);
    expect((await autocomplete(finder.token)).json().provider).toBe('mapbox');
    expect(keySeen('mapbox')).toBe(FAKE_KEYS.mapbox);

    const removed = await call('DELETE', `/finders/${finder.id}/integrations/mapbox`, cast.memberToken);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect(await integrationRows(finder.id)).toEqual([]);
    expect((await call('GET', `/finders/${finder.id}/integrations`, cast.ownerToken)).json()).toEqual(
      noneHeld,
    );
    expect((await autocomplete(finder.token)).json().provider).toBe('photon');

    const again = await call('DELETE', `/finders/${finder.id}/integrations/mapbox`, cast.ownerToken);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'The finder has no key for this provider.', code: 'not_found' });
  });

  it.each([
    ['no api_key', {}],
    ['an empty api_key', { api_key: '   ' }],
    ['an api_key that is not a string', { api_key: 12345 }],
    ['an api_key with a space inside', { api_key: 'two words' }],
    ['an api_key over 1000 characters', { api_key: 'k'.repeat(1001) }],
  ])('refuses %s with 422 errors.api_key and writes nothing', async (_label, body) => {
    const finder = await createFinder();
    await call('PUT', `/finders/${finder.id}/integrations/here`, cast.ownerToken, { api_key: 'kept-key' });
    const before = await integrationRows(finder.id);
    const res = await call('PUT', `/finders/${finder.id}/integrations/here`, cast.ownerToken, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
    expect(Object.keys(res.json().errors)).toEqual(['api_key']);
    expect(await integrationRows(finder.id)).toEqual(before);
  });

  it.each(['bing', 'photon', 'GOOGLE', 'google-geocoding'])(
    'answers 404 for the provider %s on every route and writes nothing',
    async (provider) => {
      const finder = await createFinder();
      const before = await integrationCount();
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await call(
          method,
          `/finders/${finder.id}/integrations/${provider}`,
          cast.ownerToken,
          method === 'PUT' ? { api_key: 'k' } : undefined,
        );
        expect(res.statusCode, method).toBe(404);
        expect(res.json().code).toBe('not_found');
      }
      expect(await integrationCount()).toBe(before);
    },
  );

  it("answers 404 for another workspace's finder, and a missing one, and writes nothing", async () => {
    const theirs = await createFinder(cast.strangerToken, cast.strangerWorkspaceId);
    await call('PUT', `/finders/${theirs.id}/integrations/tomtom`, cast.strangerToken, {
      api_key: 'their-key',
    });
    const before = await integrationRows(theirs.id);
    for (const id of [theirs.id, 2_000_000]) {
      for (const [method, url, body] of [
        ['GET', `/finders/${id}/integrations`, undefined],
        ['PUT', `/finders/${id}/integrations/tomtom`, { api_key: 'hijack' }],
        ['PUT', `/finders/${id}/integrations/google`, { api_key: 'hijack' }],
        ['DELETE', `/finders/${id}/integrations/tomtom`, undefined],
      ] as const) {
        const res = await call(method, url, cast.ownerToken, body);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ message: 'Finder not found.', code: 'not_found' });
      }
    }
    expect(await integrationRows(theirs.id)).toEqual(before);
  });

  it('answers 401 without a token', async () => {
    const finder = await createFinder();
    expect((await call('GET', `/finders/${finder.id}/integrations`)).statusCode).toBe(401);
    expect(
      (await call('PUT', `/finders/${finder.id}/integrations/google`, undefined, { api_key: 'k' }))
        .statusCode,
    ).toBe(401);
  });
});

describe('a tampered key', () => {
  it('is refused by the MAC: the search answers a bare 500, and neither answer nor log holds the key', async () => {
    const finder = await createFinder();
    const key = FAKE_KEYS.geoapify;
    await call('PUT', `/finders/${finder.id}/integrations/geoapify`, cast.ownerToken, { api_key: key });
    const [row] = await integrationRows(finder.id);
    // Flip one character of the ciphertext part (iv.ciphertext.mac).
    const [iv, ciphertext, mac] = row!.apiKeyEncrypted.split('.');
    const flipped = `${ciphertext![0] === 'A' ? 'B' : 'A'}${ciphertext!.slice(1)}`;
    await ctx.deps.db
      .update(finderIntegrationsTable)
      .set({ apiKeyEncrypted: [iv, flipped, mac].join('.') })
      .where(
        and(
          eq(finderIntegrationsTable.finderId, finder.id),
          eq(finderIntegrationsTable.provider, 'geoapify'),
        ),
      );
    logLines.length = 0;

    const res = await autocomplete(finder.token);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Server error.', code: 'internal_error' });
    expect(fake.requestsOf('geoapify')).toHaveLength(0);
    expect(logged()).toContain('could not be decrypted');
    expect(logged()).not.toContain(key);

    // The owner still sees a key is held, and storing it again repairs the finder.
    const listed = await call('GET', `/finders/${finder.id}/integrations`, cast.ownerToken);
    expect(listed.json()).toContainEqual({ provider: 'geoapify', has_api_key: true });
    await call('PUT', `/finders/${finder.id}/integrations/geoapify`, cast.ownerToken, { api_key: key });
    expect((await autocomplete(finder.token)).statusCode).toBe(200);
    expect(keySeen('geoapify')).toBe(key);
  });
});

describe('the log', () => {
  it('never holds a key sent to PUT, at any log level', async () => {
    const finder = await createFinder();
    const secret = `sk-${randomInt(1e9, 2e9)}-secret`;
    logLines.length = 0;
    const res = await call('PUT', `/finders/${finder.id}/integrations/tomtom`, cast.ownerToken, {
      api_key: secret,
    });
    expect(res.statusCode).toBe(200);
    // A refused one neither.
    await call('PUT', `/finders/${finder.id}/integrations/tomtom`, cast.ownerToken, {
      api_key: `${secret} x`,
    });
    await autocomplete(finder.token);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logged()).not.toContain(secret);
  });
});
