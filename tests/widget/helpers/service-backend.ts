// The real service as the widget's browser tests meet it: the app on a database of the test
// file's own, listening on 127.0.0.1 (its /cdn serving what a publish wrote with the local
// storage driver), a Photon-protocol fake as the keyless place search, and each test finder
// written through the service's own routes by scripts/seed-finder.ts, published or not.
//
// A finder is described by the widget payload it should produce (tests/fakes/widget-payload.ts);
// the seed gives it the service's token, which is written back into that payload object so the
// tests keep addressing finders by `payload.token`. Location ids are the service's; analytics
// read back from the database are translated to the payload's ids.
import { createServer } from 'node:http';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type ApiCall, injectApi, publishFinder, seedFinder } from '../../../scripts/seed-finder.ts';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config/config.ts';
import { freePort } from '../../../src/db/embedded.ts';
import { createDeps, type Deps } from '../../../src/deps.ts';
import { analyticsEventsTable } from '../../../src/modules/analytics/analytics.table.ts';
import { findersTable } from '../../../src/modules/finders/finders.table.ts';
import type { FinderPayload } from '../../../src/widget/types.ts';
import { createUser, tokenFor } from '../../factories/users.ts';
import { listen, stop } from './static-servers.ts';

export interface StageFinder {
  payload: FinderPayload;
  /** Published to the CDN (POST .../sync); otherwise only the details route answers. */
  published?: boolean;
  /**
   * authorized_urls put (PUT /finders/{id}) after the publish and not republished: the CDN
   * copy keeps the payload's list, the API applies this one.
   */
  authorizedUrlsAfterPublish?: string[];
}

export interface StoredAnalytics {
  finder_token: string;
  type: string;
  /** The payload's id of the location (the service's id translated back). */
  location_id?: number;
  query?: string;
  session_id?: string;
  occurred_at: string;
}

export interface AnalyticsRequest {
  finderToken: string;
  contentType: string;
  fetchMode: string;
  status: number;
}

export interface ServiceBackend {
  apiUrl: string;
  cdnUrl: string;
  scriptUrl: string;
  /** The first finder's token. */
  token: string;
  /** The API as the first finder's owner (a member of its workspace) calls it. */
  ownerApi: ApiCall;
  /** The first finder's workspace. */
  workspaceId: number;
  /** The events the service stored, oldest first. */
  analyticsEvents(): Promise<StoredAnalytics[]>;
  /** How POST /api/analytics requests came (Content-Type, Sec-Fetch-Mode) and were answered. */
  analyticsRequests(): AnalyticsRequest[];
  /** The service's id of a finder's location, by the payload's id. */
  serviceLocationId(finderToken: string, payloadId: number): number;
  /** Makes the place search provider fail (the service then answers 502) until set back. */
  failPlaceSearch(failing: boolean): void;
  close(): Promise<void>;
}

export interface Place {
  place_id: string;
  description: string;
  lat: number;
  lng: number;
}

/**
 * Photon's GET /api over the given places: "Name, City, Country" descriptions become the
 * GeoJSON properties Photon sends (a place with two parts is a city), matched by substring.
 */
async function startPhotonFake(places: Place[]) {
  let failing = false;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://photon');
    if (url.pathname !== '/api') return void response.writeHead(404).end();
    if (failing) return void response.writeHead(500, { 'content-type': 'text/plain' }).end('upstream down');
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const features = places
      .filter((place) => place.description.toLowerCase().includes(q))
      .map((place) => {
        const parts = place.description.split(', ');
        const country = parts.at(-1);
        const properties =
          parts.length === 2
            ? { type: 'city', name: parts[0], country }
            : { type: 'house', name: parts[0], city: parts[1], country };
        return {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [place.lng, place.lat] },
          properties: { osm_type: 'N', osm_id: place.place_id.length, ...properties },
        };
      });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ type: 'FeatureCollection', features }));
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    fail: (value: boolean) => {
      failing = value;
    },
    close: () => stop(server),
  };
}

// Its own secrets rather than tests/helpers/app.ts's: that module reaches vitest's provided
// context, which the benchmark (scripts/bench-widget-ui.ts, built by `npm run build`) lacks.
const JWT_SECRET = 'widget-stage-jwt-secret-long-enough-for-hs256';
const APP_KEY = Buffer.alloc(32, 9).toString('base64');

/** A migrated database of the caller's, dropped by close(). */
export interface StageDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function startServiceBackend(options: {
  widgetDir: string;
  /** The service's data directory (its stored files and published finders live under it). */
  dataDir: string;
  database: StageDatabase;
  finders: StageFinder[];
  places: Place[];
  /** Locations created at once by the seed (many for a benchmark's thousands). */
  seedConcurrency?: number;
  /** More of the service's environment (PUBLISH_CHUNKED_FROM, ...). */
  env?: Record<string, string>;
}): Promise<ServiceBackend> {
  const first = options.finders[0];
  if (!first) throw new Error('the stage needs at least one finder');
  const photon = await startPhotonFake(options.places);
  const { database } = options;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    JWT_SECRET,
    APP_KEY,
    APP_URL: base,
    PHOTON_URL: photon.url,
    WIDGET_DIR: options.widgetDir,
    DATA_DIR: options.dataDir,
    ...options.env,
  });
  const deps: Deps = await createDeps(config, { databaseUrl: database.url, role: 'api' });
  const app: FastifyInstance = await buildApp(deps);
  const requests: AnalyticsRequest[] = [];
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'POST' || request.url !== '/api/analytics') return;
    const body = request.body as { finder_token?: unknown } | undefined;
    requests.push({
      finderToken: typeof body?.finder_token === 'string' ? body.finder_token : '',
      contentType: request.headers['content-type'] ?? '',
      fetchMode: String(request.headers['sec-fetch-mode'] ?? ''),
      status: reply.statusCode,
    });
  });
  await app.listen({ port, host: '127.0.0.1' });

  // The service's location ids of each finder back to the payload's.
  const payloadIds = new Map<number, Map<number, number>>();
  const serviceIds = new Map<string, Map<number, number>>();
  const owners: { api: ApiCall; workspaceId: number }[] = [];
  for (const [index, finder] of options.finders.entries()) {
    // An account (and so a workspace) per finder: their custom fields and sets share names. The
    // factory's, which spares each an argon2 hash of its own.
    const owner = await createUser(deps, {
      name: `Widget Stage ${index + 1}`,
      email: `stage-${port}-${index + 1}@example.test`,
    });
    const token = await tokenFor(deps, owner);
    const api = injectApi(app, token);
    const [workspace] = await api<{ id: number }[]>('GET', '/workspaces');
    if (!workspace) throw new Error('the registered account has no workspace');
    owners.push({ api, workspaceId: workspace.id });
    const seeded = await seedFinder(api, workspace.id, finder.payload, {
      app,
      token,
      images: async (url) => Buffer.from(await (await fetch(url)).arrayBuffer()),
      concurrency: options.seedConcurrency ?? 1,
    });
    finder.payload.token = seeded.token;
    serviceIds.set(seeded.token, seeded.locationIds);
    payloadIds.set(seeded.id, new Map([...seeded.locationIds].map(([mine, theirs]) => [theirs, mine])));
    if (finder.published) await publishFinder(api, seeded.token);
    if (finder.authorizedUrlsAfterPublish) {
      await api('PUT', `/finders/${seeded.id}`, { authorized_urls: finder.authorizedUrlsAfterPublish });
    }
  }

  return {
    apiUrl: `${base}/api`,
    cdnUrl: config.storage.cdnUrl,
    scriptUrl: `${base}/widget.js`,
    token: first.payload.token,
    ownerApi: owners[0]!.api,
    workspaceId: owners[0]!.workspaceId,
    async analyticsEvents() {
      const rows = await deps.db
        .select({ event: analyticsEventsTable, token: findersTable.token })
        .from(analyticsEventsTable)
        .innerJoin(findersTable, eq(findersTable.id, analyticsEventsTable.finderId))
        .where(inArray(analyticsEventsTable.finderId, [...payloadIds.keys()]))
        .orderBy(analyticsEventsTable.id);
      return rows.map(({ event, token }) => ({
        finder_token: token,
        type: event.type,
        location_id:
          event.locationId === null
            ? undefined
            : (payloadIds.get(event.finderId)?.get(event.locationId) ?? event.locationId),
        query: event.query ?? undefined,
        session_id: event.sessionId ?? undefined,
        occurred_at: event.occurredAt.toISOString(),
      }));
    },
    analyticsRequests: () => [...requests],
    serviceLocationId(finderToken, payloadId) {
      const id = serviceIds.get(finderToken)?.get(payloadId);
      if (id === undefined) throw new Error(`no location ${payloadId} in finder ${finderToken}`);
      return id;
    },
    failPlaceSearch: photon.fail,
    async close() {
      await app.close();
      await deps.close();
      await photon.close();
      await database.drop();
    },
  };
}
