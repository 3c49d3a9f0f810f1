// Everything the API and the worker share, built once from the config: the database, the job
// queue, Redis when configured, and the services. Tests build the same thing on their own
// database, so no code path differs between a test and production.
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config/config.ts';
import { API_SESSION_TIMEOUTS, createDatabase, type Database, type DatabaseHandle } from './db/client.ts';
import { holdingLocksWhile } from './db/locks.ts';
import { JobQueue } from './jobs/queue.ts';
import { SecretBox } from './lib/crypto.ts';
import { InFlight } from './lib/in-flight.ts';
import { createFailureLimiter, createQuotaLimiter } from './lib/limiter.ts';
import { createLogger } from './lib/logger.ts';
import { createMailer, type Mailer } from './lib/mail.ts';
import type { FinderChangeListener } from './lib/payload-changes.ts';
import { connectRedis, type GuardedRedis } from './lib/redis.ts';
import { createStorage, type Storage } from './lib/storage/storage.ts';
import { createAccountService } from './modules/account/account.service.ts';
import { createAdminAuditService } from './modules/admin/audit/audit.admin.service.ts';
import { createAdminUsersService } from './modules/admin/users/users.admin.service.ts';
import { createAiImportApplyService } from './modules/ai-imports/ai-imports.apply.service.ts';
import { createAiImportJobs } from './modules/ai-imports/ai-imports.jobs.ts';
import { createAiImportsRepository } from './modules/ai-imports/ai-imports.repository.ts';
import { createAiImportsService } from './modules/ai-imports/ai-imports.service.ts';
import { createDraftingModel, type DraftingModel } from './modules/ai-imports/models/ai-imports.model.ts';
import { createAnalyticsRepository } from './modules/analytics/analytics.repository.ts';
import {
  createAnalyticsService,
  EVENTS_PER_HOUR,
  EVENTS_WINDOW_SECONDS,
} from './modules/analytics/analytics.service.ts';
import { createAuditRepository } from './modules/audit/audit.repository.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { createMaintenanceJobs } from './modules/auth/auth.jobs.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createTokenIssuer } from './modules/auth/auth.tokens.ts';
import { createSessionsRepository } from './modules/auth/sessions/sessions.repository.ts';
import { createSessionsService } from './modules/auth/sessions/sessions.service.ts';
import { createLoginChallengeService } from './modules/auth/two-factor/login-challenge.service.ts';
import { createTwoFactorRepository } from './modules/auth/two-factor/two-factor.repository.ts';
import { createTwoFactorService } from './modules/auth/two-factor/two-factor.service.ts';
import { createBillingRepository } from './modules/billing/billing.repository.ts';
import { createBillingService } from './modules/billing/billing.service.ts';
import { createCustomFieldsRepository } from './modules/custom-fields/custom-fields.repository.ts';
import { createCustomFieldsService } from './modules/custom-fields/custom-fields.service.ts';
import { createFinderIntegrationsService } from './modules/finders/finders.integrations.service.ts';
import { createFindersRepository } from './modules/finders/finders.repository.ts';
import { createFindersService } from './modules/finders/finders.service.ts';
import { finderLocationsOf } from './modules/finders/finders.shown-locations.ts';
import { createPayloadCache } from './modules/finders/payload/finders.payload.cache.ts';
import { createFinderPayloadRepository } from './modules/finders/payload/finders.payload.repository.ts';
import {
  createFinderPayloadService,
  removePublishedFiles,
} from './modules/finders/payload/finders.payload.service.ts';
import { createCachedGeocoder } from './modules/geocoding/geocoding.cache.ts';
import { createGeocoder } from './modules/geocoding/geocoding.geocoder.ts';
import { createGeocodingJobs } from './modules/geocoding/geocoding.jobs.ts';
import { createPacer, DEFAULT_GEOCODER_RATES } from './modules/geocoding/geocoding.pacing.ts';
import { createGeocodingRepository } from './modules/geocoding/geocoding.repository.ts';
import { createGeocodingService } from './modules/geocoding/geocoding.service.ts';
import { createHolidayCalendarsRepository } from './modules/holiday-calendars/holiday-calendars.repository.ts';
import { createHolidayCalendarsService } from './modules/holiday-calendars/holiday-calendars.service.ts';
import { createInvitesRepository } from './modules/invites/invites.repository.ts';
import { createInvitesService } from './modules/invites/invites.service.ts';
import { createLocationBulkService } from './modules/locations/bulk/locations.bulk.service.ts';
import { createLocationImageService } from './modules/locations/image/locations.image.service.ts';
import { createLocationImportRepository } from './modules/locations/import/locations.import.repository.ts';
import { createLocationImportService } from './modules/locations/import/locations.import.service.ts';
import { createLocationsRepository } from './modules/locations/locations.repository.ts';
import { createLocationsService } from './modules/locations/locations.service.ts';
import { createMapsRepository } from './modules/maps/maps.repository.ts';
import { createMapsService } from './modules/maps/maps.service.ts';
import { createPlaceSearchRepository } from './modules/place-search/place-search.repository.ts';
import { createPlaceSearchService } from './modules/place-search/place-search.service.ts';
import { createPlaceProviders } from './modules/place-search/providers/place-providers.ts';
import { ProcessEventHub } from './modules/processes/processes.hub.ts';
import { createProcessesRepository } from './modules/processes/processes.repository.ts';
import { createProcessesService } from './modules/processes/processes.service.ts';
import { createSetsRepository } from './modules/sets/sets.repository.ts';
import { createSetsService } from './modules/sets/sets.service.ts';
import { createTagsRepository } from './modules/tags/tags.repository.ts';
import { createTagsService } from './modules/tags/tags.service.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { createWorkspacesRepository } from './modules/workspaces/workspaces.repository.ts';
import { createWorkspacesService } from './modules/workspaces/workspaces.service.ts';

export interface Deps {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  db: Database;
  jobs: JobQueue;
  /** With REDIS_URL: the client whose every command is bounded (src/lib/redis.ts). */
  redis: Redis | undefined;
  secretBox: SecretBox;
  storage: Storage;
  mailer: Mailer;
  /** Request work the close waits for (bounded) before the pools go: see lib/in-flight.ts. */
  inFlight: InFlight;
  services: ReturnType<typeof createServices>;
  close(): Promise<void>;
}

/**
 * How long the close waits for request work still running after the server closed (an import
 * cut by the shutdown recording its process; milliseconds of work with the database up).
 */
const IN_FLIGHT_GRACE_MS = 3_000;

interface ServiceDeps {
  databaseUrl: string;
  jobs: JobQueue;
  mailer: Mailer;
  secretBox: SecretBox;
  config: Config;
  db: Database;
  redis: GuardedRedis | undefined;
  storage: Storage;
  logger: Logger;
  model: DraftingModel;
}

function createServices({
  databaseUrl,
  jobs,
  config,
  db,
  redis,
  storage,
  logger,
  mailer,
  secretBox,
  model,
}: ServiceDeps) {
  // Stored files of deleted rows go after the commit, best effort: a leftover object costs
  // storage, never a failed request.
  const forget = (what: string, remove: () => Promise<void>) =>
    remove().catch((error) => logger.warn({ err: error, what }, 'could not delete stored files'));
  const forgetImage = (key: string) => forget(key, () => storage.delete(key));
  const users = createUsersRepository(db);
  const sessions = createSessionsRepository(db);
  const workspaces = createWorkspacesRepository(db);
  const locations = createLocationsRepository(db);
  const billing = createBillingService({
    db,
    repository: createBillingRepository(db),
    settings: config.paddle,
    logger,
  });
  const usersService = createUsersService({
    db,
    users,
    revokeSessions: (userId, at, tx) => sessions.revokeAllForUser(userId, at, undefined, tx),
    // Deleting an account first ends its Paddle subscription (at the end of the period).
    cancelSubscription: billing.cancelForDeletion,
  });
  const twoFactorCodes = createTwoFactorRepository(db);
  const invites = createInvitesRepository(db);
  const auditLog = createAuditRepository(db);
  // Throttles (docs/api.md, Accounts and "Second factor and the login challenge"): a right password
  // clears its count; a right second-factor code only gives its own attempt back, so wrong codes
  // keep counting for the quarter hour whatever passwords are typed meanwhile.
  const loginLimiter = createFailureLimiter({
    name: 'login',
    points: 5,
    windowSeconds: 60,
    onSuccess: 'clear',
    redis,
  });
  // Password spraying: failed logins from one address across every account (docs/api.md,
  // Accounts). A right password gives its own attempt back and clears nothing, so logins that
  // succeed never use up an office's budget, and one valid account cannot reset a sprayer's.
  const loginAddressLimiter = createFailureLimiter({
    name: 'login-address',
    points: 50,
    windowSeconds: 10 * 60,
    onSuccess: 'release',
    redis,
  });
  const reauthLimiter = createFailureLimiter({
    name: 'reauth',
    points: 5,
    windowSeconds: 60,
    onSuccess: 'clear',
    redis,
  });
  const codeLimiter = createFailureLimiter({
    name: 'two-factor',
    points: 5,
    windowSeconds: 15 * 60,
    onSuccess: 'release',
    redis,
  });
  const twoFactor = createTwoFactorService({ db, users, codes: twoFactorCodes, secretBox });
  const challenges = createLoginChallengeService({
    db,
    users,
    codes: twoFactorCodes,
    secretBox,
    mailer,
    codeLimiter,
  });
  const finders = createFindersRepository(db);
  const mapsRepository = createMapsRepository(db);
  // The widget payload's 60 s cache; every write to what a payload shows tells it (`changes`),
  // and with Redis every web process hears of it (finders.payload.cache.ts).
  const finderPayloads = createFinderPayloadRepository(db);
  const payloadCache = createPayloadCache({
    load: (token) => finderPayloads.build(token),
    dependencies: (token) => finderPayloads.dependencies(token),
    redis,
  });
  const changes = payloadCache;
  // Told after every committed finder write (a deleted finder's files went before its row).
  const finderEvents: FinderChangeListener = {
    finderChanged: (id) => changes.finderChanged(id),
    finderDeleted: (id, token) => changes.finderDeleted(id, token),
  };
  // The place search finds its finder by token here.
  const placeSearch = createPlaceSearchRepository(db);
  const locationImports = createLocationImportRepository();
  const aiImports = createAiImportsRepository(db);
  const processesRepository = createProcessesRepository(db);
  const processes = createProcessesService({
    db,
    processes: processesRepository,
    jobs,
    // One LISTEN connection per OS process, opened by the first stream or watch that needs it.
    hub: new ProcessEventHub({ databaseUrl, repository: processesRepository, logger }),
    logger,
  });
  // One geocoder for the AI import and the geocoding job: the shared cache and rate limit.
  const provider = createGeocoder(config.geocoder, config.photonUrl, {
    userAgent: `location-finder-service (+${config.appUrl})`,
  });
  const geocoder = createCachedGeocoder(
    db,
    provider,
    createPacer(
      db,
      provider.kind,
      config.geocoder.ratePerSecond ??
        (provider.kind === 'none' ? Number.POSITIVE_INFINITY : DEFAULT_GEOCODER_RATES[provider.kind]),
    ),
  );
  const geocodingRepository = createGeocodingRepository(db);
  const geocoding = createGeocodingService({
    db,
    repository: geocodingRepository,
    processes,
    jobs,
    geocoderKind: provider.kind,
  });
  const queueGeocoding = geocoding.enqueue;
  const locationsService = createLocationsService({
    db,
    locations,
    finderLocations: finderLocationsOf(finders),
    changes,
    onImageOrphaned: forgetImage,
    queueGeocoding,
  });
  const services = {
    processes,
    users: usersService,
    billing,
    account: createAccountService({
      db,
      users,
      sessions,
      twoFactor: twoFactorCodes,
      usersService,
      reauthLimiter,
    }),
    sessions: createSessionsService({ sessions }),
    audit: createAuditService(auditLog),
    adminAudit: createAdminAuditService(auditLog),
    adminUsers: createAdminUsersService({ db, users, accounts: usersService }),
    auth: createAuthService({
      db,
      users,
      sessions,
      createFirstWorkspace: (name, ownerId, tx) =>
        workspaces.insertWithMember(name, { userId: ownerId, role: 'owner' }, tx),
      issueToken: createTokenIssuer(config.jwt),
      loginLimiter,
      loginAddressLimiter,
      challenges,
    }),
    twoFactor,
    maintenance: createMaintenanceJobs({ sessions, codes: twoFactorCodes, invites }),
    workspaces: createWorkspacesService({
      db,
      workspaces,
      // Its finders' published files, as a finder's own delete removes them: with the finders'
      // rows locked, so that a publish running meanwhile writes its files either before the
      // removal or never (it finds the finder gone).
      beforeDelete: async (id, tx) => {
        const tokens = await finders.lockTokensInWorkspace(id, tx);
        await holdingLocksWhile(tx, async () => {
          for (const token of tokens) await removePublishedFiles(storage, token);
        });
      },
      deleteAlongside: (id, tx) => finders.deleteBackingMaps(id, tx),
      onDeleted: async (id) => {
        await changes.workspaceChanged(id);
        await forget(`workspace ${id}`, () => storage.deletePrefix(`workspaces/${id}/`));
      },
    }),
    sets: createSetsService({ db, sets: createSetsRepository(db), changes }),
    tags: createTagsService({ db, tags: createTagsRepository(db), changes }),
    customFields: createCustomFieldsService({ db, customFields: createCustomFieldsRepository(db), changes }),
    maps: createMapsService({ db, maps: mapsRepository, changes }),
    holidayCalendars: createHolidayCalendarsService({
      db,
      calendars: createHolidayCalendarsRepository(db),
      changes,
    }),
    finders: createFindersService({
      db,
      finders,
      maps: mapsRepository,
      events: finderEvents,
      removePublishedFiles: (token) => removePublishedFiles(storage, token),
      logger,
    }),
    finderIntegrations: createFinderIntegrationsService({
      db,
      finders,
      secretBox,
      events: finderEvents,
      logger,
    }),
    finderPayload: createFinderPayloadService({
      db,
      repository: finderPayloads,
      cache: payloadCache,
      storage,
      chunkedFrom: config.publishChunkedFrom,
    }),
    /** The cache's listener, for scripts and tests that write around the services. */
    finderChanges: changes,
    locations: locationsService,
    placeSearch: createPlaceSearchService({
      repository: placeSearch,
      providers: createPlaceProviders({
        photonUrl: config.photonUrl,
        providerBaseUrls: config.providerBaseUrls,
      }),
      secretBox,
      logger,
    }),
    analytics: createAnalyticsService({
      events: createAnalyticsRepository(db),
      finders,
      // Per client address and finder, shared by every process through Redis when it is set.
      quota: createQuotaLimiter({
        name: 'analytics-events',
        points: EVENTS_PER_HOUR,
        windowSeconds: EVENTS_WINDOW_SECONDS,
        redis,
      }),
    }),
    locationImages: createLocationImageService({ db, repository: locations, storage, logger, changes }),
    locationBulk: createLocationBulkService({
      db,
      listFilter: locationsService.listFilter,
      changes,
      onImageOrphaned: forgetImage,
    }),
    locationImport: createLocationImportService({
      db,
      locations,
      imports: locationImports,
      processes,
      changes,
      timeBudgetMs: config.importTimeBudgetMs,
      queueGeocoding,
    }),
    aiImports: createAiImportsService({ db, repository: aiImports, processes, jobs, model }),
    aiImportApply: createAiImportApplyService({
      db,
      repository: aiImports,
      locations,
      imports: locationImports,
      processes,
      geocoder,
      logger,
      changes,
      queueGeocoding,
    }),
    geocoder,
    geocoding,
    geocodingJobs: createGeocodingJobs({
      db,
      repository: geocodingRepository,
      processes,
      geocoder,
      changes,
      stopping: jobs.stopping,
      logger,
    }),
    aiImportJobs: createAiImportJobs({
      db,
      repository: aiImports,
      processes,
      model,
      stopping: jobs.stopping,
      logger,
    }),
  };
  return {
    ...services,
    // Registration through an invite issues its token through the auth service built above.
    invites: createInvitesService({
      db,
      invites,
      users,
      auth: services.auth,
      mailer,
      logger,
      appUrl: config.appUrl,
    }),
  };
}

export interface CreateDepsOptions {
  /** The resolved database URL (DATABASE_URL or the embedded cluster's). */
  databaseUrl: string;
  role: 'api' | 'worker';
  /** Defaults to a pino logger at LOG_LEVEL on stdout. */
  logger?: Logger;
  /** PostgreSQL settings of the pool's connections, over the API's session bounds (API_SESSION_TIMEOUTS). */
  databaseSettings?: Record<string, string | number>;
}

export async function createDeps(config: Config, options: CreateDepsOptions): Promise<Deps> {
  const logger = options.logger ?? createLogger(config);
  const database = createDatabase(options.databaseUrl, {
    settings: { ...(options.role === 'api' ? API_SESSION_TIMEOUTS : {}), ...options.databaseSettings },
  });
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;
  const jobs = new JobQueue(options.databaseUrl, options.role, logger);
  await jobs.start();
  const storage = await createStorage(config.storage);
  // OPENAI_API_KEY set: the openai client; otherwise the built-in parser (docs/api.md, Models).
  const model = await createDraftingModel(config.openai);
  const secretBox = new SecretBox(config.appKey);
  const inFlight = new InFlight();
  const mailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    mailDir: path.join(config.dataDir, 'mail'),
    logger,
  });

  const services = createServices({
    databaseUrl: options.databaseUrl,
    jobs,
    config,
    db: database.db,
    redis,
    storage,
    logger,
    mailer,
    secretBox,
    model,
  });

  return {
    config,
    logger,
    database,
    db: database.db,
    jobs,
    redis: redis?.client,
    secretBox,
    storage,
    mailer,
    inFlight,
    services,
    async close() {
      if (!(await inFlight.settle(IN_FLIGHT_GRACE_MS))) {
        logger.warn(`request work still running ${IN_FLIGHT_GRACE_MS} ms after the server closed`);
      }
      // No supervisor pass may start on a stopping queue; running jobs still write through the pool.
      services.processes.stopSupervisor();
      await jobs.stop();
      await services.processes.close();
      redis?.close();
      await storage.close();
      mailer.close();
      await database.close();
    },
  };
}
