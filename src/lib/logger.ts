// pino settings: request ids in every line, secrets never (authorization headers, cookies,
// passwords, tokens and API keys are redacted wherever they appear one level deep).
import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

const SECRET_FIELDS = [
  'password',
  'password_confirmation',
  'current_password',
  'api_key',
  'token',
  'challenge_token',
  'code',
  'secret',
];

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["paddle-signature"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `body.${field}`, `req.body.${field}`]),
];

export function loggerOptions(config: Pick<Config, 'logLevel'>): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
}
