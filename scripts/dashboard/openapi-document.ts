// The OpenAPI document the service serves at /openapi.json, made without a database, Redis or
// storage: the app is built with its real routes and schemas, and services that are never
// called (nothing is requested; the document comes from the route definitions). The dashboard's
// API types are generated from it at build and typecheck time.
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/config.ts';
import type { Deps } from '../../src/deps.ts';

/** Any property is a function doing nothing: what a route plugin reads at registration, or calls on close. */
const inert: object = new Proxy(() => undefined, { get: () => inert });

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({
    NODE_ENV: 'development',
    // Fixed secrets: nothing is signed or sealed, and the dev-secrets file is never written.
    APP_KEY: Buffer.alloc(32).toString('base64'),
    JWT_SECRET: 'openapi-document-only-'.padEnd(64, '-'),
    LOG_LEVEL: 'silent',
  });
  const deps = {
    config,
    logger: pino({ level: 'silent' }),
    services: inert,
    storage: inert,
  } as unknown as Deps;
  const app = await buildApp(deps);
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
