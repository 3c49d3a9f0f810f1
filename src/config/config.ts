// The one place that reads process.env (besides drizzle.config.ts): a single zod schema over every
// variable (README.md, Configuration). A bad or missing value stops the process with a message
// naming the variable. Outside production, missing secrets are generated once into .data/
// (dev-secrets.ts beside it).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadOrCreateDevSecrets } from './dev-secrets.ts';
import { OSM_TILE_URL, tileTemplateProblem } from './tile-template.ts';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const optionalUrl = optionalString.pipe(z.url({ message: 'must be a URL' }).optional());

const booleanString = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const base64Key = z.string().refine((value) => Buffer.from(value, 'base64').length === 32, {
  message: 'must be 32 bytes encoded as base64',
});

/** PUBLISH_CHUNKED_FROM's default: finders of this many locations or more are published chunked. */
export const PUBLISH_CHUNKED_FROM_DEFAULT = 5000;

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Behind a load balancer: take the client IP from X-Forwarded-For (rate limits, sessions). */
  TRUST_PROXY: booleanString,
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
  ),
  APP_URL: optionalUrl,
  APP_KEY: optionalString.pipe(base64Key.optional()),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  JWT_TTL_MINUTES: z.coerce.number().int().positive().default(20160),
  JWT_ISSUER: z.string().min(1).default('location-finder'),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  STORAGE_DIR: optionalString,
  CDN_URL: optionalUrl,
  /** Where the built widget is read from (dist/widget by default). */
  WIDGET_DIR: optionalString,
  DASHBOARD_DIR: optionalString,
  /**
   * The map tiles of the dashboard's maps (the location pin, a finder's default view): an http(s)
   * template with {z}, {x} and {y}. The dashboard page's CSP admits this origin's images only.
   */
  DASHBOARD_TILE_URL: z
    .string()
    .trim()
    .default(OSM_TILE_URL)
    .superRefine((template, context) => {
      const problem = tileTemplateProblem(template);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  S3_BUCKET: optionalString,
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanString,
  /**
   * Deadline of one call to the S3 store, its retries included (a put gets more for its body,
   * src/lib/storage/s3.storage.ts); past it the request answers 503.
   */
  S3_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * From this many locations a publish writes the chunked files (a manifest, an index and area
   * files) instead of the single payload file; 0: never (docs/api.md, Publishing).
   */
  PUBLISH_CHUNKED_FROM: z.coerce.number().int().min(0).default(PUBLISH_CHUNKED_FROM_DEFAULT),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  GEOCODER: z.enum(['none', 'google', 'photon', 'nominatim']).default('none'),
  GEOCODER_API_KEY: optionalString,
  GEOCODER_BASE_URL: optionalUrl,
  /**
   * Requests per second to the geocoder, shared by every process and workspace (docs/api.md,
   * Geocoding). Unset: the provider's published policy (geocoding.pacing.ts).
   */
  GEOCODER_RATE_LIMIT: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().positive().max(1_000).optional(),
  ),
  PHOTON_URL: z.url({ message: 'must be a URL' }).default('https://photon.komoot.io'),
  PROVIDER_BASE_URLS: optionalString
    .transform((value, ctx) => {
      if (value === undefined) return {};
      try {
        return JSON.parse(value) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
        return z.NEVER;
      }
    })
    .pipe(
      z.record(z.string(), z.url({ message: 'values must be URLs' }), { message: 'must be a JSON object' }),
    ),
  PADDLE_API_KEY: optionalString,
  PADDLE_API_URL: z.url({ message: 'must be a URL' }).default('https://api.paddle.com'),
  PADDLE_WEBHOOK_SECRET: optionalString,
  PADDLE_PRICE_BRONZE: optionalString,
  PADDLE_PRICE_PREMIUM: optionalString,
  /** Bound of each call to the Paddle API, connection to last byte. */
  PADDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * The most time one CSV import may take, upload parsed to commit; past it the running
   * statement is cancelled and the import rolled back (docs/api.md, CSV import).
   */
  IMPORT_TIME_BUDGET_MS: z.coerce.number().int().min(100).max(3_600_000).default(180_000),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().min(3).default('Location Finder <no-reply@localhost>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('.data'),
});

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads `.env` into process.env when present; variables already set win. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

/** The settings every part of the service reads, derived from the parsed environment. */
export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(source: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const [variable = '(env)', ...inner] = issue.path.map(String);
        return `${variable}: ${issue.message}${inner.length ? ` (at ${inner.join('.')})` : ''}`;
      }),
    );
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);

  let jwtSecret = env.JWT_SECRET;
  let appKey = env.APP_KEY;
  if (!jwtSecret || !appKey) {
    if (env.NODE_ENV === 'production') {
      const missing = [!jwtSecret && 'JWT_SECRET', !appKey && 'APP_KEY'].filter(Boolean) as string[];
      throw new ConfigError(missing.map((name) => `${name}: is required in production`));
    }
    const generated = loadOrCreateDevSecrets(dataDir);
    jwtSecret ??= generated.JWT_SECRET;
    appKey ??= generated.APP_KEY;
  }

  if (env.STORAGE_DRIVER === 's3' && !env.S3_BUCKET) {
    throw new ConfigError(['S3_BUCKET: is required when STORAGE_DRIVER is s3']);
  }

  const appUrl = (env.APP_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/+$/, '');
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    trustProxy: env.TRUST_PROXY,
    /** Absent: the embedded PostgreSQL under dataDir is started (src/db/embedded.ts). */
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    appUrl,
    appKey: Buffer.from(appKey, 'base64'),
    jwt: { secret: jwtSecret, ttlMinutes: env.JWT_TTL_MINUTES, issuer: env.JWT_ISSUER },
    storage: {
      driver: env.STORAGE_DRIVER,
      dir: path.resolve(env.STORAGE_DIR ?? path.join(dataDir, 'storage')),
      cdnUrl: (env.CDN_URL ?? `${appUrl}/cdn`).replace(/\/+$/, ''),
      s3: {
        bucket: env.S3_BUCKET,
        region: env.S3_REGION,
        endpoint: env.S3_ENDPOINT,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
        timeoutMs: env.S3_TIMEOUT_MS,
      },
    },
    publishChunkedFrom: env.PUBLISH_CHUNKED_FROM === 0 ? null : env.PUBLISH_CHUNKED_FROM,
    widgetDir: env.WIDGET_DIR ? path.resolve(env.WIDGET_DIR) : undefined,
    dashboardDir: env.DASHBOARD_DIR ? path.resolve(env.DASHBOARD_DIR) : undefined,
    dashboardTileUrl: env.DASHBOARD_TILE_URL,
    openai: { apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL, model: env.OPENAI_MODEL },
    geocoder: {
      kind: env.GEOCODER,
      apiKey: env.GEOCODER_API_KEY,
      baseUrl: env.GEOCODER_BASE_URL,
      ratePerSecond: env.GEOCODER_RATE_LIMIT,
    },
    photonUrl: env.PHOTON_URL.replace(/\/+$/, ''),
    providerBaseUrls: env.PROVIDER_BASE_URLS,
    paddle: {
      apiKey: env.PADDLE_API_KEY,
      apiUrl: env.PADDLE_API_URL.replace(/\/+$/, ''),
      webhookSecret: env.PADDLE_WEBHOOK_SECRET,
      priceBronze: env.PADDLE_PRICE_BRONZE,
      pricePremium: env.PADDLE_PRICE_PREMIUM,
      timeoutMs: env.PADDLE_TIMEOUT_MS,
    },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    logLevel: env.LOG_LEVEL,
    importTimeBudgetMs: env.IMPORT_TIME_BUDGET_MS,
    dataDir,
  };
}

/** For entry points: load .env and the config, or print the problems and exit 1. */
export function loadConfigOrExit(): Config {
  try {
    loadDotEnv();
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
