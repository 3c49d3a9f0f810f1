// Which errors mean "the database cannot serve us right now" rather than "this request is
// wrong": the error handler answers them 503 service_unavailable, so a client retries later
// instead of reporting a server bug.

/** Raised by postgres.js itself when a connection cannot be made or was lost. */
const DRIVER_CODES = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

/** The socket's own failures on the way to the server. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server that is going away, starting, full, or too slow to answer in time. */
const SERVER_CODES = new Set([
  '57P01', // admin_shutdown: the server is stopping, or an operator ended the session
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, recovering or shutting down
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout (or a cancel) stopped the statement
  '25P03', // idle_in_transaction_session_timeout ended the session
]);

/**
 * The code that marks the error, or one it wraps (Drizzle puts the driver's on `cause`), as an
 * outage; undefined for any other error.
 */
export function databaseOutageCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (DRIVER_CODES.has(code) || SOCKET_CODES.has(code) || SERVER_CODES.has(code)) return code;
      // Class 08: connection exceptions (the server refused or dropped the connection).
      if (/^08[0-9A-Z]{3}$/.test(code)) return code;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
