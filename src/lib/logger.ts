// pino settings: request ids in every line, secrets never (authorization headers, cookies,
// passwords, tokens and API keys are redacted wherever they appear one level deep).
import pino, { type Logger } from 'pino';
import type { Config } from '../config.ts';

/** Field names that carry secrets wherever they appear one level deep in a log object. */
const SECRET_FIELDS = [
  'password',
  'password_confirmation',
  'current_password',
  'api_key',
  'challenge_token',
  'secret',
];
/** Names too generic to censor everywhere (`code` is also an error code), censored in bodies only. */
const BODY_SECRET_FIELDS = [...SECRET_FIELDS, 'token', 'code'];

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["paddle-signature"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
  ...BODY_SECRET_FIELDS.flatMap((field) => [`body.${field}`, `req.body.${field}`]),
];

/** The process's one logger; Fastify uses it too, so API and worker lines look alike. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  return pino({ level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
}
