// What the fuzzer runs against: the real app (createDeps + buildApp, as src/server.ts builds it)
// on a database it is given, with every external service live through the fakes of tests/fakes
// (Paddle, the autocomplete providers and the Google geocoder; the AI import drafts with the
// built-in model, which needs no network; mail goes to .eml files; storage is the local driver).
// Rate limits stay on (they are part of the service); the fuzzer varies the client address.
//
// It seeds two people through the front door, a user (premium, owner of a workspace) and an
// admin (owner of another), each with the resources of a working store locator, so requests
// can aim at ids that exist: custom fields, a tag, a set, locations with an image, a map, a
// finder with settings, an integration key and a publication, a finished CSV import, an AI
// import drafted and waiting for review, an invite, and a Paddle customer with an invoice.
// restore() puts things back when a request took them away (a deleted workspace, a revoked
// token, a changed role), so the whole budget keeps reaching authenticated code. The people's
// password is never one the generator sends, so DELETE /me and a password change stop at the
// password check; an admin may still delete or demote them (restore makes new ones then).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { runJob } from '../../src/job-handlers.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { aiImportBatchesTable, aiImportItemsTable } from '../../src/modules/ai-imports/ai-imports.table.ts';
import { customFieldDefinitionsTable } from '../../src/modules/custom-fields/custom-fields.table.ts';
import { finderIntegrationsTable, findersTable } from '../../src/modules/finders/finders.table.ts';
import { locationsTable } from '../../src/modules/locations/locations.table.ts';
import { mapsTable } from '../../src/modules/maps/maps.table.ts';
import { processesTable } from '../../src/modules/processes/processes.table.ts';
import { setsTable } from '../../src/modules/sets/sets.table.ts';
import { tagsTable } from '../../src/modules/tags/tags.table.ts';
import { type UserRow, usersTable } from '../../src/modules/users/users.table.ts';
import { workspacesTable } from '../../src/modules/workspaces/workspaces.table.ts';
import { createUser, tokenFor } from '../../tests/factories/users.ts';
import { createWorkspace, firstWorkspaceId } from '../../tests/factories/workspaces.ts';
import { type FakePaddle, startFakePaddle } from '../../tests/fakes/paddle.ts';
import { solidPng } from '../../tests/fakes/png.ts';
import { FAKE_KEYS, type FakeProviders, startFakeProviders } from '../../tests/fakes/providers.ts';
import type { OpenApiDocument } from './openapi.ts';
import { emptyPool, ID_KINDS, type IdKind, type Pool } from './values.ts';

export type PersonaName = 'user' | 'admin';

export interface Persona {
  name: PersonaName;
  user: UserRow;
  token: string;
  workspaceId: number;
  /** The resources seeded for this person, by kind (the latest seeding). */
  seeds: Partial<Record<IdKind, number[]>>;
  /** The names of the seeded custom fields, and the seeded tag. */
  fieldNames: string[];
  tag?: { name: string; slug: string };
}

/** The seeding steps, in the order their resources need each other. */
const SEED_STEPS = [
  'workspaces',
  'customFields',
  'tags',
  'sets',
  'locations',
  'maps',
  'finders',
  'processes',
  'aiImports',
  'sessions',
  'invites',
] as const;
type SeedStep = (typeof SEED_STEPS)[number];

/** What a restore checks: the people (row, role, plan, token), the seeded resources, the finders' keys. */
export interface RestoreScope {
  people: boolean;
  seeds: boolean;
  integrations: boolean;
}
const ALL: RestoreScope = { people: true, seeds: true, integrations: true };

export interface World {
  app: FastifyInstance;
  deps: Deps;
  document: OpenApiDocument;
  personas: Record<PersonaName, Persona>;
  pool: Pool;
  paddle: FakePaddle;
  /** The app listening on 127.0.0.1, for operations that stream. */
  baseUrl: string;
  /** Error lines the app logged (pino JSON) with when (performance.now()), newest last. */
  errorLog: { at: number; line: string }[];
  restore(scope?: RestoreScope): Promise<void>;
  close(): Promise<void>;
}

export interface WorldOptions {
  databaseUrl: string;
  /** DATA_DIR of the app: spooled uploads, mail, local storage. */
  dataDir: string;
}

const JWT_SECRET = 'fuzz-jwt-secret-that-is-long-enough-for-hs256';
const APP_KEY = Buffer.alloc(32, 3).toString('base64');
/** Seeded resources of earlier seedings stay in the pool (they answer 404 now) up to this many. */
const KEEP_IDS = 12;

type Json = Record<string, unknown>;
type Multipart = ReturnType<typeof multipartBody>;

export async function startWorld({ databaseUrl, dataDir }: WorldOptions): Promise<World> {
  const paddle = await startFakePaddle();
  let providers: FakeProviders | undefined;
  let deps: Deps | undefined;
  let app: FastifyInstance | undefined;
  try {
    providers = await startFakeProviders();
    const errorLog: World['errorLog'] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        errorLog.push({ at: performance.now(), line: String(chunk) });
        if (errorLog.length > 200) errorLog.splice(0, errorLog.length - 200);
        done();
      },
    });
    const config = loadConfig({
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      APP_KEY,
      APP_URL: 'http://fuzz.test',
      DATA_DIR: dataDir,
      STORAGE_DRIVER: 'local',
      STORAGE_DIR: path.join(dataDir, 'storage'),
      GEOCODER: 'google',
      GEOCODER_API_KEY: FAKE_KEYS['google-geocoding'],
      GEOCODER_BASE_URL: providers.geocoderBaseUrl('google'),
      PROVIDER_BASE_URLS: JSON.stringify(providers.providerBaseUrls),
      PHOTON_URL: providers.photonUrl,
      ...paddle.env,
    });
    deps = await createDeps(config, {
      databaseUrl,
      role: 'api',
      logger: createLogger({ logLevel: 'error' }, sink),
    });
    app = await buildApp(deps);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;

    const world = {
      app,
      deps,
      document,
      pool: emptyPool(),
      paddle,
      baseUrl,
      errorLog,
    } as World;
    const seeder = new Seeder(world, dataDir);
    world.personas = {
      user: await seeder.createPersona('user'),
      admin: await seeder.createPersona('admin'),
    };
    seeder.refreshPool();
    world.restore = (scope) => seeder.restore(scope);
    const openedProviders = providers;
    world.close = async () => {
      await world.app.close();
      await world.deps.close();
      await openedProviders.close();
      await paddle.close();
    };
    return world;
  } catch (error) {
    await app?.close().catch(() => {});
    await deps?.close().catch(() => {});
    await providers?.close().catch(() => {});
    await paddle.close().catch(() => {});
    throw error;
  }
}

/** Seeds people and resources through the API (not counted in the budget), and puts them back. */
class Seeder {
  private generations: Record<PersonaName, Partial<Record<IdKind, number[]>>[]> = { user: [], admin: [] };
  private sequence = 0;
  /** Seedings so far: names that must be unique in a workspace carry it. */
  private seeding = 0;

  constructor(
    private readonly world: World,
    private readonly dataDir: string,
  ) {}

  /** One request of the seeding; anything but a success stops it. */
  private async api(method: string, url: string, token: string, payload?: Json | Multipart) {
    const multipart = payload && Buffer.isBuffer(payload.payload) ? (payload as Multipart) : undefined;
    const res = await this.world.app.inject({
      method: method as 'GET',
      url: `/api${url}`,
      headers: { ...multipart?.headers, authorization: `Bearer ${token}` },
      ...(multipart ? { payload: multipart.payload } : payload === undefined ? {} : { payload }),
    });
    if (res.statusCode >= 300) {
      throw new Error(`seeding: ${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
    }
    return res.statusCode === 204 ? {} : (res.json() as Json);
  }

  async createPersona(name: PersonaName): Promise<Persona> {
    this.sequence += 1;
    const user = await createUser(this.world.deps, {
      name: `Fuzz ${name} ${this.sequence}`,
      email: `fuzz-${name}-${this.sequence}@example.test`,
      role: name,
      subscriptionStatus: 'active',
      subscriptionTier: 'premium',
      trialEndsAt: null,
    });
    const persona: Persona = {
      name,
      user,
      token: await tokenFor(this.world.deps, user),
      workspaceId: await firstWorkspaceId(this.world.deps, user),
      seeds: {},
      fieldNames: [],
    };
    if (name === 'user') await this.seedBilling(persona);
    await this.seedResources(persona);
    return persona;
  }

  /** A Paddle customer with a paid invoice and a live subscription, known to the fake. */
  private async seedBilling(persona: Persona) {
    const { paddle, deps } = this.world;
    const customer = paddle.addCustomer({ email: persona.user.email });
    await deps.db
      .update(usersTable)
      .set({ paddleCustomerId: customer.id })
      .where(eq(usersTable.id, persona.user.id));
    const transaction = paddle.addTransaction({ customerId: customer.id, status: 'completed' });
    paddle.addSubscription({
      customerId: customer.id,
      priceId: paddle.prices.premium,
      status: 'active',
      customData: { user_id: String(persona.user.id) },
    });
    this.world.pool.transactionIds.push(transaction.id);
  }

  /** Seeds every kind of resource for the person (a fresh workspace when theirs is gone). */
  private async seedResources(persona: Persona) {
    persona.seeds = { users: [persona.user.id] };
    for (const step of SEED_STEPS) await this.seedStep(persona, step);
  }

  /**
   * One kind of seeded resource, made again from the person's current seeds of the kinds it
   * needs (a location needs the tag and set; a finder, the locations; an AI import, the finder).
   */
  private async seedStep(persona: Persona, step: SeedStep) {
    const { token, seeds } = persona;
    this.seeding += 1;
    const n = this.seeding;
    const first = (kind: IdKind) => seeds[kind]?.[0];
    const replace = (kind: IdKind, ids: unknown[]) => {
      seeds[kind] = ids.filter((id): id is number => typeof id === 'number');
    };
    const workspace_id = persona.workspaceId;
    switch (step) {
      case 'workspaces': {
        const exists = await this.world.deps.db
          .select({ id: workspacesTable.id })
          .from(workspacesTable)
          .where(eq(workspacesTable.id, persona.workspaceId));
        // Made through the repository, as the test factories do: the fuzzer's own workspaces may
        // have reached the plan's limit.
        if (exists.length === 0)
          persona.workspaceId = await createWorkspace(this.world.deps, persona.user, 'Fuzz');
        replace('workspaces', [persona.workspaceId]);
        break;
      }
      case 'customFields': {
        const note = await this.api('POST', '/custom-field-definitions', token, {
          workspace_id,
          name: `note${n}`,
          label: 'Note',
          type: 'text',
        });
        const size = await this.api('POST', '/custom-field-definitions', token, {
          workspace_id,
          name: `size${n}`,
          label: 'Size',
          type: 'select',
          options: ['S', 'M', 'L'],
        });
        replace('customFields', [note.id, size.id]);
        persona.fieldNames = [`note${n}`, `size${n}`];
        break;
      }
      case 'tags': {
        const tag = await this.api('POST', '/tags', token, { workspace_id, name: `wifi ${n}` });
        replace('tags', [tag.id]);
        persona.tag = { name: tag.name as string, slug: tag.slug as string };
        break;
      }
      case 'sets':
        replace('sets', [
          (await this.api('POST', '/sets', token, { workspace_id, name: `Downtown ${n}` })).id,
        ]);
        break;
      case 'locations': {
        const ids: unknown[] = [];
        for (const [index, city] of ['Springfield', 'Berlin'].entries()) {
          const location = await this.api('POST', '/locations', token, {
            workspace_id,
            title: `Daily Grind ${city}`,
            address: `${index + 1} Main St`,
            city,
            zip: '62704',
            country: 'United States',
            lat: 39.78 + index,
            lng: -89.65 + index,
            tags: persona.tag ? [persona.tag.name] : [],
            set_ids: seeds.sets ?? [],
            custom_fields: Object.fromEntries(
              persona.fieldNames.map((name) => [name, name.startsWith('size') ? 'M' : 'Open late']),
            ),
          });
          ids.push(location.id);
        }
        replace('locations', ids);
        const png = solidPng(4, 4, [200, 50, 50]);
        await this.api(
          'POST',
          `/locations/${ids[0]}/image`,
          token,
          multipartBody({
            files: [{ field: 'image', filename: 'shop.png', contentType: 'image/png', content: png }],
          }),
        );
        break;
      }
      case 'maps': {
        const map = await this.api('POST', '/maps', token, {
          title: 'Fuzz map',
          workspaces: [workspace_id],
          sets: seeds.sets ?? [],
          locations: seeds.locations ?? [],
        });
        replace('maps', [map.id]);
        break;
      }
      case 'finders': {
        const finder = await this.api('POST', '/finders', token, { workspace_id, name: 'Fuzz finder' });
        replace('finders', [finder.id]);
        await this.api('PUT', `/finders/${finder.id}`, token, {
          settings: [
            { key: 'units', value: 'km' },
            { key: 'default_center', value: { lat: 39.78, lng: -89.65 } },
          ],
          advanced_refinements: persona.tag
            ? [
                {
                  name: 'Wifi',
                  match: 'any',
                  conditions: [{ field: 'tag', op: 'eq', value: persona.tag.slug }],
                },
              ]
            : [],
          locations: (seeds.locations ?? []).map((location_id, sort_order) => ({ location_id, sort_order })),
        });
        await this.api('PUT', `/finders/${finder.id}/integrations/google`, token, {
          api_key: FAKE_KEYS.google,
        });
        await this.api('POST', `/ext/finders/details/${finder.token}/sync`, token);
        this.world.pool.finderTokens.push(finder.token as string);
        this.world.pool.cdnPaths.push(`finders/${finder.token}/config.json`);
        break;
      }
      case 'processes': {
        const columns = persona.fieldNames.map((name) => `,${name}`).join('');
        const values = persona.fieldNames.map((name) => (name.startsWith('size') ? ',S' : ',hello')).join('');
        const csv = `title,address,city,zip,tags${columns}\nImported,9 Side St,Springfield,62704,wifi${values}\n`;
        const imported = await this.api(
          'POST',
          '/locations/import',
          token,
          multipartBody({
            fields: { workspace_id: String(workspace_id) },
            files: [
              { field: 'file', filename: 'shops.csv', contentType: 'text/csv', content: Buffer.from(csv) },
            ],
          }),
        );
        replace('processes', [imported.process_id]);
        break;
      }
      case 'aiImports': {
        const started = await this.api('POST', '/ai-location-imports', token, {
          workspace_id,
          finder_id: first('finders') ?? null,
          answers: {
            brand_name: 'Daily Grind',
            business_type: 'Coffee shops',
            approximate_location_count: '2',
            geographic_scope: 'Illinois',
            customer_description: 'Commuters',
            source_notes:
              '1. Daily Grind Downtown - 123 Main St, Springfield, IL 62704\n2. Daily Grind North - 400 N 5th St, Springfield, IL 62702',
          },
        });
        const processId = (started.process as Json).id as number;
        const batchId = (started.batch as Json).id as number;
        replace('aiImports', [batchId]);
        seeds.processes = [...(seeds.processes ?? []), processId];
        // As the worker runs it: the process answers only to its latest dispatch.
        const [process] = await this.world.deps.db
          .select({ jobId: processesTable.jobId })
          .from(processesTable)
          .where(eq(processesTable.id, processId));
        await runJob('ai-imports.generate', { process_id: processId }, this.world.deps, {
          id: process?.jobId ?? '',
          retryCount: 0,
          retryLimit: 2,
        });
        const items = await this.world.deps.db
          .select({ id: aiImportItemsTable.id })
          .from(aiImportItemsTable)
          .where(eq(aiImportItemsTable.batchId, batchId));
        replace(
          'aiItems',
          items.map((item) => item.id),
        );
        break;
      }
      case 'sessions': {
        const sessions = (
          await this.world.app.inject({
            method: 'GET',
            url: '/api/me/sessions',
            headers: { authorization: `Bearer ${token}` },
          })
        ).json() as { id: number }[];
        replace(
          'sessions',
          sessions.map((session) => session.id),
        );
        break;
      }
      case 'invites':
        if (persona.name === 'admin') {
          await this.api('POST', '/invite/send', token, { email: `invitee-${n}@example.test`, workspace_id });
          const invite = this.latestInviteToken();
          if (invite) this.world.pool.inviteTokens.push(invite);
        }
        break;
    }
    this.generations[persona.name].push({ ...seeds });
    this.generations[persona.name] = this.generations[persona.name].slice(-20);
  }

  /** The token of the newest invite mail (the mail files are the only place it is in clear). */
  private latestInviteToken(): string | undefined {
    const dir = path.join(this.dataDir, 'mail');
    const files = readdirSync(dir)
      .filter((file) => file.endsWith('.eml'))
      .sort();
    for (const file of files.reverse()) {
      const text = readFileSync(path.join(dir, file), 'utf8').replace(/=\r?\n/g, '');
      const match = /\/register\/([A-Za-z0-9_-]{16,})/.exec(text);
      if (match) return match[1];
    }
    return undefined;
  }

  /** The pool from the seeds of both people (their latest seedings first). */
  refreshPool() {
    const { pool, paddle } = this.world;
    for (const kind of ID_KINDS) {
      const ids = new Set<number>();
      for (const name of ['user', 'admin'] as const) {
        for (const seeds of [...this.generations[name]].reverse())
          for (const id of seeds[kind] ?? []) ids.add(id);
      }
      pool.ids[kind] = [...ids].slice(0, KEEP_IDS);
    }
    pool.finderTokens = pool.finderTokens.slice(-KEEP_IDS);
    pool.inviteTokens = pool.inviteTokens.slice(-KEEP_IDS);
    pool.cdnPaths = pool.cdnPaths.slice(-KEEP_IDS);
    pool.prices = [paddle.prices.bronze, paddle.prices.premium, paddle.prices.other];
    pool.providerKeys = Object.values(FAKE_KEYS);
    pool.customFieldNames = [...this.world.personas.user.fieldNames, ...this.world.personas.admin.fieldNames];
  }

  /**
   * Puts both people back as they were seeded: not deleted (else a new person), their role,
   * plan and second-factor state, a working token, and their seeded resources (seeded again
   * when any is gone).
   */
  async restore(scope: RestoreScope = ALL) {
    const { deps, personas } = this.world;
    for (const name of ['user', 'admin'] as const) {
      let persona = personas[name];
      if (scope.people) {
        const [row] = await deps.db.select().from(usersTable).where(eq(usersTable.id, persona.user.id));
        if (!row || row.deletedAt) {
          persona = await this.createPersona(name);
          personas[name] = persona;
          continue;
        }
        const seeded = {
          role: name,
          subscriptionStatus: 'active',
          subscriptionTier: 'premium',
          trialEndsAt: null,
          emailTwoFactorEnabled: false,
          totpSecretEncrypted: null,
          totpPendingSecretEncrypted: null,
          totpEnabledAt: null,
        } as const;
        if (Object.entries(seeded).some(([key, value]) => row[key as keyof UserRow] !== value)) {
          await deps.db.update(usersTable).set(seeded).where(eq(usersTable.id, row.id));
        }
        const me = await this.world.app.inject({
          method: 'GET',
          url: '/api/me',
          headers: { authorization: `Bearer ${persona.token}` },
        });
        if (me.statusCode !== 200) persona.token = await tokenFor(deps, row);
      }
      const missing = scope.seeds ? await this.missingSeeds(persona) : new Set<string>();
      try {
        if (missing.has('workspaces')) await this.seedResources(persona);
        else {
          for (const step of SEED_STEPS) if (missing.has(step)) await this.seedStep(persona, step);
        }
      } catch {
        // The fuzzer changed the workspace so that seeding fails in it (a required custom field
        // it made, say): everything again in a fresh one.
        persona.workspaceId = await createWorkspace(deps, persona.user, 'Fuzz');
        await this.seedResources(persona);
      }
    }
    if (scope.integrations) await this.resetIntegrations();
    this.refreshPool();
  }

  /**
   * The provider keys as seeded: a key the fuzzer set (another provider's) makes autocomplete
   * answer the documented 502 of a provider that refuses it. Every finder's keys go (the pool
   * keeps tokens of finders seeded earlier), then the seeded finders get theirs back.
   */
  private async resetIntegrations() {
    await this.world.deps.db.delete(finderIntegrationsTable);
    for (const persona of Object.values(this.world.personas)) {
      for (const finder of persona.seeds.finders ?? []) {
        await this.api('PUT', `/finders/${finder}/integrations/google`, persona.token, {
          api_key: FAKE_KEYS.google,
        });
      }
    }
  }

  /** The seeded kinds of which a resource is gone (an AI import whose items are gone counts). */
  private async missingSeeds(persona: Persona): Promise<Set<string>> {
    const { db } = this.world.deps;
    const tables = {
      workspaces: workspacesTable,
      customFields: customFieldDefinitionsTable,
      tags: tagsTable,
      sets: setsTable,
      locations: locationsTable,
      maps: mapsTable,
      finders: findersTable,
      processes: processesTable,
      aiImports: aiImportBatchesTable,
      aiItems: aiImportItemsTable,
    } as const;
    const missing = new Set<string>();
    for (const [kind, table] of Object.entries(tables) as [
      keyof typeof tables,
      (typeof tables)[keyof typeof tables],
    ][]) {
      const ids = persona.seeds[kind] ?? [];
      if (ids.length === 0) continue;
      const found = await db.select({ id: table.id }).from(table).where(inArray(table.id, ids));
      if (found.length < ids.length) missing.add(kind === 'aiItems' ? 'aiImports' : kind);
    }
    return missing;
  }
}

export interface MultipartPart {
  field: string;
  filename?: string;
  contentType?: string;
  content: Buffer | string;
}

/** A multipart/form-data body built byte by byte (a fixed boundary unless one is given). */
export function multipartBody(
  parts: { fields?: Record<string, string | Buffer>; files?: MultipartPart[] },
  boundary = '----fuzzboundary7MA4YWxkTrZu0gW',
) {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(parts.fields ?? {})) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
      Buffer.isBuffer(value) ? value : Buffer.from(value),
      Buffer.from('\r\n'),
    );
  }
  for (const file of parts.files ?? []) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename ?? 'file'}"\r\n` +
          `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
