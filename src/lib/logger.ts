// pino settings: request ids in every line, secrets never. Authorization headers, cookies,
// passwords, tokens and API keys are redacted wherever they appear one level deep; errors are
// logged without the values of the query that failed; the request log writes the path only
// (never the query string) with secret path segments (invite, finder and demo tokens) redacted.
import pino, { type Logger } from 'pino';
import type { Config } from '../config/config.ts';

const CENSOR = '[redacted]';

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

/**
 * Path segments that are secrets: the token of an invite link, a finder's token in the widget
 * routes, in its published files and in its demo page. Matched on the path, so they are
 * redacted on unknown routes too (a 404 is logged like any request). Case and repeated slashes
 * are tolerated, as a client's typo still carries the secret.
 */
const SECRET_PATH_SEGMENTS = [
  /^(\/+api\/+register\/+)[^/]+/i,
  /^(\/+api\/+ext\/+finders\/+details\/+)[^/]+/i,
  /^(\/+api\/+(?:admin\/+)?finders\/+token\/+)[^/]+/i,
  /^(\/+cdn\/+finders\/+)[^/]+/i,
  /^(\/+demo\/+)[^/]+/i,
];

/** The URL as logged: the path without query string or fragment, secret segments redacted. */
export function loggableUrl(url: string): string {
  let path = url.replace(/[?#].*$/s, '');
  for (const pattern of SECRET_PATH_SEGMENTS) path = path.replace(pattern, `$1${CENSOR}`);
  return path;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** Fastify's request serializer, with the URL made loggable. */
function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: loggableUrl(request.url ?? ''),
    host: request.host,
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Fields of errors that hold the values of a query: Drizzle's `params`, postgres.js's
 * `parameters`, `args` and `types` (enumerable in its debug mode), and the fields of a
 * PostgreSQL error that quote data: `detail` ("Key (lower(email))=(ada@example.test) already
 * exists.", "Failing row contains (...)"), `where`, the context ("JSON data, line 1: <the
 * value>", "COPY staging, line 3, column title: "<the value>"", "SQL statement "<a query with
 * its values>""), and `internal_query`, the text of a query a function built (its values
 * spliced in). `hint` stays: PostgreSQL's hints name what to do, never a row's values.
 */
const QUERY_VALUE_FIELDS = new Set([
  'params',
  'parameters',
  'args',
  'types',
  'detail',
  'where',
  'internal_query',
]);

/**
 * Fields that hold what another service answered (UpstreamError's `body`): a provider's or a
 * proxy's error page may echo the request, an address or a URL with its key.
 */
const ANSWER_FIELDS = new Set(['body']);

/** Drizzle writes the values into its message (`Failed query: ...\nparams: a,b,c`), and so into the stack. */
const scrubMessage = (message: string) => message.replace(/\nparams: [\s\S]*$/, `\nparams: ${CENSOR}`);

/** The stack starts with the message as it was when the error was made. */
function scrubStack(stack: string, message: string, scrubbed: string): string {
  if (message === scrubbed) return stack;
  if (stack.includes(message)) return stack.replace(message, scrubbed);
  // The message changed after the stack was taken: drop the values line, keep the frames.
  return stack.replace(/\nparams: [^\n]*/, `\nparams: ${CENSOR}`);
}

function isErrorLike(value: unknown): value is Error {
  return (
    value instanceof Error ||
    (typeof value === 'object' && value !== null && 'message' in value && 'stack' in value)
  );
}

/**
 * pino's `err` serializer, minus the values of queries, through `cause` and every nested error.
 * The SQL text (`query`, placeholders only) stays: it says what failed without saying with what.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!isErrorLike(error)) return error;
  const message = String(error.message ?? '');
  const scrubbed = scrubMessage(message);
  const stack = typeof error.stack === 'string' ? error.stack : undefined;
  const out: Record<string, unknown> = {
    type: error.constructor?.name ?? error.name,
    message: scrubbed,
    stack: stack === undefined ? undefined : scrubStack(stack, message, scrubbed),
  };
  for (const [key, value] of Object.entries(error)) {
    if (QUERY_VALUE_FIELDS.has(key) || ANSWER_FIELDS.has(key) || key === 'cause' || key in out) continue;
    out[key] = isErrorLike(value) ? (depth < 8 ? serializeError(value, depth + 1) : '[error]') : value;
  }
  // `cause` is often not enumerable (`new Error(m, {cause})`); Drizzle's is.
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && depth < 8) out.cause = serializeError(cause, depth + 1);
  const nested = (error as { errors?: unknown }).errors;
  if (Array.isArray(nested) && depth < 8) out.errors = nested.map((item) => serializeError(item, depth + 1));
  return out;
}

/** The process's one logger; Fastify uses it too, so API and worker lines look alike. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      serializers: { err: serializeError, req: serializeRequest },
    },
    destination,
  );
}
